"""The `bananas play` and `bananas tournament` commands (registered into `solver.cli.main`).

    bananas play [--players 4] [--bots hard,medium] [--seed 0] [--variant classic] [--json]
    bananas tournament --bots hard,medium --games 100 [--players 2] [--workers 2] [--csv out.csv]

Same conventions as `solver.cli.grids`: bad usage or input prints one `error: ...` line on
stderr and exits 2, never a traceback. The numba-backed modules (`solver.play.bots`,
`solver.play.tournament`'s game runner) are imported inside the command bodies.

`play --json` writes JSON lines: a header with every setting needed to replay the game,
then one object per engine event (with the hand number), a `grids` line after each hand
and a final `match` line. A game is a pure function of its settings, so running the same
command again writes the same bytes.
"""

from __future__ import annotations

import contextlib
import json

import click

from solver.cli.common import reports_input_errors
from solver.play.game import MATCH_FORMATS, Rules

VARIANT_CHOICES = ("classic", "smoothie", "three-letter", "solo")
LANGUAGES = ("en", "fr")
SIDE_BY_SIDE_WIDTH = 100  # grids are drawn side by side when they fit this many columns
GAP = "   "
MAX_GAMES = 1_000_000  # a tournament's games (its schedule is held in memory)
MAX_WORKERS = 256


def make_rules(variant: str, lang: str) -> Rules:
    """--variant and --lang: three-letter is the classic game with a 3-letter minimum."""
    if variant == "three-letter":
        return Rules.for_language(lang, variant="classic", min_length=3)
    return Rules.for_language(lang, variant=variant)


def default_players(players: int | None, variant: str, otherwise: int) -> int:
    return (1 if variant == "solo" else otherwise) if players is None else players


def check_seed(seed: int) -> None:
    if seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {seed}")


def split_specs(bots: str) -> list[str]:
    specs = [spec.strip() for spec in bots.split(",")]
    if not bots.strip() or not all(specs):
        raise ValueError(f"--bots: expected comma-separated bot presets, got {bots!r}")
    return specs


def check_specs(specs: list[str]) -> None:
    from solver.play.bots import make_bot

    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as error:
            raise ValueError(f"--bots: {spec!r}: {error}") from None


variant_option = click.option(
    "--variant",
    type=click.Choice(VARIANT_CHOICES),
    default="classic",
    show_default=True,
    help="Rule variant (three-letter: classic with 3+ letter words).",
)
lang_option = click.option(
    "--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="Lexicon and tile distribution."
)
seed_option = click.option(
    "--seed", type=int, default=0, show_default=True, help="The deal and every draw (same seed, same game)."
)


# -- play -----------------------------------------------------------------------------


@click.command()
@click.option("--players", type=int, metavar="N", help="Number of players [default: 4; 1 for solo].")
@click.option(
    "--bots",
    metavar="SPEC,...",
    help="Bot presets by seat (easy, medium, hard, long, compact, reckless, greedy, or "
    "'hard:speed=3,risk=0.1'); a shorter list cycles. [default: hard, then medium]",
)
@seed_option
@variant_option
@lang_option
@click.option(
    "--match",
    "match_format",
    type=click.Choice(MATCH_FORMATS),
    default="single",
    show_default=True,
    help="One hand, or a match of several.",
)
@click.option("--json", "as_json", is_flag=True, help="Write the event log as JSON lines (header first).")
@click.option("--realtime", is_flag=True, help="Pace the events on the wall clock.")
@reports_input_errors
def play(
    players: int | None,
    bots: str | None,
    seed: int,
    variant: str,
    lang: str,
    match_format: str,
    as_json: bool,
    realtime: bool,
) -> None:
    """Watch bots play a hand (or a match) of Bananagrams.

    Events are printed as they happen on the simulated clock; then the grids and who
    won. With --json the event log is written instead, one JSON object per line.

    \b
    Examples:
      bananas play
      bananas play --players 2 --bots hard,easy --seed 7 --match best-of-3
      bananas play --variant solo --bots hard --json > game.jsonl
    """
    check_seed(seed)
    players = default_players(players, variant, 4)
    rules = make_rules(variant, lang)
    rules.check_players(players)  # RuleError (a ValueError): error line, exit 2
    if bots is None:
        specs = ["hard"] + ["medium"] * (players - 1)
    else:
        given = split_specs(bots)
        if len(given) > players:
            raise ValueError(f"--bots names {len(given)} bots for {players} player{'s' if players != 1 else ''}")
        specs = [given[i % len(given)] for i in range(players)]
    check_specs(specs)

    from solver.play.bots import make_bot
    from solver.play.game import play_match

    if as_json:
        emit = JsonLog(players, specs, seed, variant, lang, match_format)
    else:
        emit = TextLog(specs, match_format != "single", f"{variant} ({lang}), seed {seed}, {match_format}")
    emit.header()
    match = play_match(
        rules, [make_bot(spec) for spec in specs], seed, match_format, realtime=realtime, observer=emit.event
    )
    emit.finish(match)


def label(specs: list[str], player: int) -> str:
    return f"P{player + 1} {specs[player]}"


class JsonLog:
    """The replayable event log: JSON lines on stdout."""

    def __init__(self, players: int, specs: list[str], seed: int, variant: str, lang: str, match_format: str):
        self.settings = {
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
        if entry["event"] == "split":
            self.hand += 1
        self.write({"hand": self.hand, **entry})

    def finish(self, match) -> None:
        for number, hand in enumerate(match.hands, start=1):
            self.write({"hand": number, "event": "grids", "grids": hand.grids})
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

    def event(self, e: dict) -> None:
        kind, t = e["event"], e["t"]
        if kind == "split":
            self.hand += 1
            if self.hand > 1 or self.match_hands:
                click.echo(f"-- hand {self.hand} --")
            size = len(e["hands"][0]) if e["hands"] else 0
            unused = f", {len(e['unused'])} unused" if e.get("unused") else ""
            self.line(t, f"SPLIT  {len(e['hands'])} x {size} tiles  (bunch {e['bunch']}{unused})")
        elif kind == "peel":
            self.line(t, f"{self.who(e['player'])}  PEEL  (bunch {e['bunch']})")
        elif kind == "dump":
            self.line(t, f"{self.who(e['player'])}  DUMP {e['returned']} -> {e['drawn']}  (bunch {e['bunch']})")
        elif kind == "stuck":
            self.line(t, f"{self.who(e['player'])}  stuck with {e['hand'] or 'no tiles'}")
        elif kind == "bananas":
            self.line(t, f"{self.who(e['player'])}  BANANAS!")
        elif kind == "inspection":
            self.line(t, f"{self.who(e['player'])}  grid inspected: valid")
        elif kind == "rotten":
            problems = e["problems"]
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            self.line(
                t,
                f"{self.who(e['player'])}  ROTTEN BANANA: {problems[0] if problems else '?'}{more}  "
                f"(bunch {e['bunch']})",
            )
        elif kind == "end":
            self.line(t, f"END  {self.outcome(e['outcome'], e['winners'], e['reason'])}")
        else:  # an event this front-end does not know yet
            self.line(t, kind.upper())

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


# -- tournament -----------------------------------------------------------------------


@click.command()
@click.option(
    "--bots",
    required=True,
    metavar="SPEC,...",
    help="The bots entered (presets or 'preset:key=value,...'); repeats are separate entries.",
)
@click.option(
    "--games",
    type=int,
    required=True,
    metavar="N",
    help="Games to play (rounded up to whole rotation groups of --players games).",
)
@click.option("--players", type=int, metavar="K", help="Players per game [default: 2; 1 for solo].")
@seed_option
@click.option("--workers", type=int, default=1, show_default=True, metavar="W", help="Worker processes.")
@variant_option
@lang_option
@click.option(
    "--json", "json_file", metavar="FILE", help="Write the full results (settings, per-bot totals, every game) as JSON."
)
@click.option("--csv", "csv_file", metavar="FILE", help="Write one row per bot as CSV.")
@reports_input_errors
def tournament(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    variant: str,
    lang: str,
    json_file: str | None,
    csv_file: str | None,
) -> None:
    """Play many seeded games between bots and compare their win rates.

    Each deal is played K times (K players) with the seats rotated, so seat and deal
    luck cancel. The table gives win rates with 95% Wilson intervals, the mean simulated
    game time, dumps, rotten bananas and unawarded hands.

    \b
    Examples:
      bananas tournament --bots hard,medium --games 100 --workers 2
      bananas tournament --bots hard,medium,easy,greedy --players 4 --games 40 --csv out.csv
    """
    from solver.play.tournament import run_tournament, schedule

    check_seed(seed)
    players = default_players(players, variant, 2)
    rules = make_rules(variant, lang)
    rules.check_players(players)
    specs = split_specs(bots)
    check_specs(specs)
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be from 1 to {MAX_GAMES}, got {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be from 1 to {MAX_WORKERS}, got {workers}")
    total = len(schedule(len(specs), players, games, seed))
    if total != games:
        click.echo(f"note: {games} games rounded up to {total} (whole rotation groups of {players})", err=True)
    with contextlib.ExitStack() as stack:
        outputs = open_outputs(stack, json_file, csv_file)  # before the run: a bad path fails at once
        stderr = click.get_text_stream("stderr")  # off a terminal, click prints the label once: no bar
        with click.progressbar(
            length=total, label=f"playing {total} games", file=stderr, show_pos=True, show_eta=True
        ) as bar:

            def progress(done: int, _total: int) -> None:
                bar.update(done - bar.pos)

            result = run_tournament(specs, games, players, seed, workers, rules, progress=progress)
        click.echo(result.table())
        if "json" in outputs:
            json.dump(result.to_json(), outputs["json"], indent=1)
            outputs["json"].write("\n")
        if "csv" in outputs:
            outputs["csv"].write(result.to_csv())
    for path in (json_file, csv_file):
        if path is not None:
            click.echo(f"wrote {path}", err=True)


def open_outputs(stack: contextlib.ExitStack, json_file: str | None, csv_file: str | None) -> dict:
    outputs = {}
    for key, path in (("json", json_file), ("csv", csv_file)):
        if path is not None:
            try:
                outputs[key] = stack.enter_context(open(path, "w", encoding="utf-8", newline=""))
            except OSError as error:
                raise ValueError(f"cannot write {path}: {error.strerror or error}") from None
    return outputs


@click.command()
@click.option("--players", type=int, default=4, show_default=True, metavar="N", help="Players (3 or more).")
@click.option("--rounds", type=click.IntRange(1, 100), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--double-set", is_flag=True, help="Deal two sets (288 tiles), for large groups.")
@click.option("--json", "as_json", is_flag=True, help="Write every round's events as JSON lines.")
@reports_input_errors
def spellevate(players: int, rounds: int, seed: int, double_set: bool, as_json: bool) -> None:
    """Watch simple bots play Spellevate, the turn-based climbing game (RULES.md)."""
    from solver.core.tiles import ENGLISH
    from solver.play.spellevate import play_spellevate

    check_seed(seed)
    tiles = ENGLISH + ENGLISH if double_set else ENGLISH
    results = play_spellevate(players, rounds, seed, "en", tiles)
    for number, result in enumerate(results, start=1):
        if as_json:
            for event in result.events:
                click.echo(json.dumps({"round": number, **event}))
            continue
        plays = sum(1 for event in result.events if event["event"] == "play")
        click.echo(
            f"round {number}: P{result.leader + 1} leads; {plays} plays; P{result.winner + 1} wins; "
            f"scores {' '.join(f'P{i + 1} {s:+d}' for i, s in enumerate(result.scores))}"
        )
