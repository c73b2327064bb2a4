"""What `bananas play` writes as a game goes: the replayable event log (`JsonLog`, JSON lines
for `--json`) or live progress for a person (`TextLog`, one line per event, then the grids
side by side and who won).

The JSON log is a header with every setting needed to replay the game, then one object per
engine event (with the hand number; `snapshot` events carry each bot's grid as the table sees
it when its work lands), a `grids` line after each hand and a final `match` line
(`solver.coach` reads it: `bananas review`, `bananas replay`).
"""

from __future__ import annotations

import json
from typing import Any

import click

from solver.coach.logs import log_line
from solver.play import events

SIDE_BY_SIDE_WIDTH = 100  # grids are drawn side by side when they fit this many columns
GAP = "   "


def label(specs: list[str], player: int) -> str:
    return f"P{player + 1} {specs[player]}"


class JsonLog:
    """The replayable event log: JSON lines on stdout."""

    def __init__(self, players: int, specs: list[str], seed: int, variant: str, lang: str, match_format: str):
        self.settings: dict[str, Any] = {
            "seed": seed,
            "players": players,
            "bots": specs,
            "variant": variant,
            "lang": lang,
            "match": match_format,
        }
        self.hand = 0

    @staticmethod
    def write(data: dict) -> None:
        click.echo(json.dumps(data, separators=(",", ":")))

    def header(self) -> None:
        s = self.settings
        replay = (
            f"bananas play --players {s['players']} --bots {','.join(s['bots'])} --seed {s['seed']} "
            f"--variant {s['variant']} --lang {s['lang']} --match {s['match']} --json"
        )
        self.write({"event": "header", "format": "bananas-play-log/1", **s, "replay": replay})

    def event(self, entry: dict) -> None:
        if events.kind_of(entry) == events.SPLIT:
            self.hand += 1
        self.write(log_line(self.hand, entry))

    def finish(self, match) -> None:
        for number, hand in enumerate(match.hands, start=1):
            self.write({"hand": number, "event": events.GRIDS, "grids": hand.grids})
        self.write(
            {
                "event": "match",
                "format": match.format,
                "hands": len(match.hands),
                "wins": match.wins,
                "winner": match.winner,
            }
        )


class TextLog:
    """Live progress, one line per event, then grids and the result."""

    def __init__(self, specs: list[str], match_hands: bool, title: str):
        self.specs = specs
        self.title = title
        self.width = max(len(label(specs, i)) for i in range(len(specs)))
        self.hand = 0
        self.match_hands = match_hands

    def who(self, player: int) -> str:
        return label(self.specs, player).ljust(self.width)

    def header(self) -> None:
        seats = ", ".join(label(self.specs, i) for i in range(len(self.specs)))
        click.echo(f"{self.title}: {seats}")

    def line(self, t: float, text: str) -> None:
        click.echo(f"{t:7.1f}s  {text}")

    def event(self, e: events.HandEvent) -> None:
        t = e["t"]
        if e["event"] == events.SPLIT:
            self.hand += 1
            if self.hand > 1 or self.match_hands:
                click.echo(f"-- hand {self.hand} --")
            size = len(e["hands"][0]) if e["hands"] else 0
            unused = f", {len(e['unused'])} unused" if e.get("unused") else ""
            self.line(t, f"SPLIT  {len(e['hands'])} x {size} tiles  (bunch {e['bunch']}{unused})")
        elif e["event"] == events.PEEL:
            self.line(t, f"{self.who(e['player'])}  PEEL  (bunch {e['bunch']})")
        elif e["event"] == events.DUMP:
            self.line(t, f"{self.who(e['player'])}  DUMP {e['returned']} -> {e['drawn']}  (bunch {e['bunch']})")
        elif e["event"] == events.STUCK:
            self.line(t, f"{self.who(e['player'])}  stuck with {e['hand'] or 'no tiles'}")
        elif e["event"] == events.BANANAS:
            self.line(t, f"{self.who(e['player'])}  BANANAS!")
        elif e["event"] == events.INSPECTION:
            self.line(t, f"{self.who(e['player'])}  grid inspected: valid")
        elif e["event"] == events.ROTTEN:
            problems = e["problems"]
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            self.line(
                t,
                f"{self.who(e['player'])}  ROTTEN BANANA: {problems[0] if problems else '?'}{more}  "
                f"(bunch {e['bunch']})",
            )
        elif e["event"] == events.END:
            self.line(t, f"END  {self.outcome(e.get('outcome', ''), e.get('winners', []), e.get('reason', ''))}")
        elif e["event"] != events.SNAPSHOT:  # (a grid as it builds: the log's, not a line of progress)
            self.line(t, events.kind_of(e).upper())  # an event this front-end does not know yet

    def outcome(self, outcome: str, winners: list[int], reason: str) -> str:
        names = " and ".join(label(self.specs, w) for w in winners)
        if outcome == "win":
            return f"{names} wins: {reason}"
        if outcome == "shared":
            return f"{names} share the win: {reason}"
        if outcome == "replay":
            return f"no winner ({names} tied): {reason}"
        return f"unawarded: {reason}"

    def finish(self, match) -> None:
        for number, hand in enumerate(match.hands, start=1):
            if number == len(match.hands):  # the last hand's grids (earlier ones scrolled by)
                click.echo()
                click.echo(draw_grids([label(self.specs, i) for i in range(len(self.specs))], hand.grids))
        click.echo()
        last = match.hands[-1]
        if match.format == "single":
            if last.outcome == "win":
                extra = ""
                if last.scores:
                    extra = f" ({last.scores['time']:.1f} s, {last.scores['words']} words)"
                click.echo(f"Winner: {label(self.specs, last.winners[0])}: {last.reason}{extra}")
            elif last.outcome == "shared":
                names = " and ".join(label(self.specs, w) for w in last.winners)
                click.echo(f"Shared win: {names}: {last.reason}")
            else:
                click.echo(f"No winner: {last.reason}")
            return
        tally = ", ".join(f"{label(self.specs, i)} {w}" for i, w in enumerate(match.wins))
        if match.winner is not None:
            click.echo(
                f"Winner: {label(self.specs, match.winner)} takes the {match.format} match "
                f"after {len(match.hands)} hands (hand wins: {tally})"
            )
        else:
            click.echo(
                f"No winner: the {match.format} match is drawn after {len(match.hands)} hands (hand wins: {tally})"
            )


def draw_grids(names: list[str], grids: list[list[str] | None]) -> str:
    """Each player's grid under their name: side by side when they fit, else one after another."""
    blocks = []
    for name, rows in zip(names, grids, strict=True):
        body = rows if rows else ["(no grid)"]
        width = max(len(name), *(len(row) for row in body))
        blocks.append([name.ljust(width), "-" * width] + [row.ljust(width) for row in body])
    total = sum(len(block[0]) for block in blocks) + len(GAP) * (len(blocks) - 1)
    if total > SIDE_BY_SIDE_WIDTH:
        return "\n\n".join("\n".join(line.rstrip() for line in block) for block in blocks)
    height = max(len(block) for block in blocks)
    lines = []
    for index in range(height):
        cells = [block[index] if index < len(block) else " " * len(block[0]) for block in blocks]
        lines.append(GAP.join(cells).rstrip())
    return "\n".join(lines)
