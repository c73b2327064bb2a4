"""The terminal side of `bananas spellevate`: the round log and a person at the table.

`TableLog` prints each event of a game as it happens; `HumanSeat` is a seat whose moves
are typed: it shows the hand, the table, the other hands' sizes and the plays that
beat the table, reads a word, a letter or `pass`, and answers an illegal move with the
referee's reason and another prompt.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from solver.core.limits import MAX_SHOWN_PLAYS
from solver.lexicon.loader import Lexicon
from solver.play import spellevate_events as sp
from solver.play.spellevate import Play, SeatView, SpellevateError, parse_play
from solver.play.spellevate_bots import beating_plays, word_index


class LeftTable(Exception):
    """The person typed quit, or their input ended."""

    def __init__(self, reason: str, by_choice: bool):
        super().__init__(reason)
        self.by_choice = by_choice


def seat_label(names: list[str], seat: int) -> str:
    return f"P{seat + 1} {names[seat]}"


class TableLog:
    """One line per event: the lead draw, each round's deal, plays, passes, clears, wins."""

    def __init__(self, names: list[str], echo: Callable[[str], None] = click.echo):
        self.names = names
        self.echo = echo
        self.width = max(len(seat_label(names, seat)) for seat in range(len(names)))

    def who(self, seat: int) -> str:
        return seat_label(self.names, seat).ljust(self.width)

    def event(self, event: sp.SpellevateEvent) -> None:
        """Print the event's line."""
        if event["event"] == sp.LEAD_DRAW:
            for number, draw in enumerate(event["draws"]):
                contenders = ", ".join(f"{letter}" for letter in draw)
                lead = "redraw" if number < len(event["draws"]) - 1 else f"P{event['leader'] + 1} leads"
                self.echo(f"draw for the lead{' (tie)' * (number > 0)}: {contenders} -> {lead}")
        elif event["event"] == sp.DEAL:
            sizes = " ".join(str(size) for size in event["hands"])
            self.echo(f"-- round {event['round']}: P{event['leader'] + 1} leads; hands {sizes} --")
        elif event["event"] == sp.PLAY:
            self.echo(f"{self.who(event['player'])}  plays {event['letters']}  ({event['left']} left)")
        elif event["event"] == sp.PASS:
            self.echo(f"{self.who(event['player'])}  passes")
        elif event["event"] == sp.CLEAR:
            self.echo(f"{self.who(event['player'])}  clears the table and leads")
        elif event["event"] == sp.WIN:
            scores = " ".join(f"P{seat + 1} {score:+d}" for seat, score in enumerate(event["scores"]))
            self.echo(f"{self.who(event['player'])}  goes out and wins the round; scores {scores}")


class HumanSeat:
    """A seat played at the terminal (the SpellevateBot interface)."""

    name = "you"

    def __init__(
        self,
        lexicon: Lexicon,
        min_length: int = 2,
        read: Callable[[], str] | None = None,
        echo: Callable[[str], None] = click.echo,
    ):
        self.index = word_index(lexicon)
        self.min_length = min_length
        self.read = read or sys.stdin.readline
        self.echo = echo

    def begin(self, view: SeatView) -> None:
        pass

    def choose(self, view: SeatView) -> Play | None:
        self.show(view)
        while True:
            click.echo("your play (a word, a letter or pass)> ", nl=False)
            line = self.read()
            if not line:
                raise LeftTable("input ended before the round did", by_choice=False)
            text = line.strip()
            if text.lower() in ("quit", "exit"):
                raise LeftTable("you left the table", by_choice=True)
            if text in ("", "?", "help"):
                self.show(view)
                continue
            try:
                play = None if text.lower() == "pass" else parse_play(text)
            except SpellevateError as error:
                self.echo(f"  not allowed: {error}")
                continue
            reason = view.state.move_error(view.seat, play, view.lexicon, view.min_length, view.hand)
            if reason is None:
                return play
            self.echo(f"  not allowed: {reason.replace('the hand', 'your hand')}")

    def show(self, view: SeatView) -> None:
        state = view.state
        others = "  ".join(f"P{seat + 1} {size}" for seat, size in enumerate(state.sizes) if seat != view.seat)
        self.echo(f"  hands: {others}")
        self.echo(f"  your hand ({len(view.hand)}): {view.hand.letters()}")
        if state.table is None:
            self.echo("  the table is empty: you lead any letter or a word from your hand")
            words = self.index.formable(view.hand, self.min_length).all_words()
            if words:
                self.echo(f"  your longest words: {', '.join(words[:MAX_SHOWN_PLAYS])}" + more(len(words)))
            return
        table = state.table
        kind = "letter" if table.is_letter else f"{len(table.letters)}-letter word"
        self.echo(f"  table: {table.letters} (a {kind}, by P{state.last_player + 1})")
        plays = beating_plays(self.index, view.hand, table, self.min_length)
        if plays:
            self.echo(f"  you can beat it with: {', '.join(plays[:MAX_SHOWN_PLAYS])}" + more(len(plays)) + ", or pass")
        else:
            self.echo(f"  nothing in your hand beats {table.letters}: pass")


def more(count: int) -> str:
    return f" (+{count - MAX_SHOWN_PLAYS} more)" if count > MAX_SHOWN_PLAYS else ""
