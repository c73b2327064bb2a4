"""A Spellevate match that drives itself: the lead draw, the deals, the turns and the end.

`SpellevateMatch` is one owner of a game of one or more rounds (lichess's round is the model,
as for `solver.play.hand.Hand`). Its drivers - `bananas spellevate`, the engine protocol's
hosted game, a room's table - use only this:

- `start()`: the lead draw (unless a leader is given) and the first deal;
- `bot_to_move`: whether the seat to move is a bot's (the driver lets it move in its own time);
- `bot_move()`: that bot's move; when it ends a round, the next round is dealt;
- `bot_choice()`, `make_bot_move(play)`: the same in two steps (the choice may run in a worker thread);
- `play_bots()`: the bots' moves until a remote seat must move or the match is over;
- `move_error(seat, play)` / `move(seat, play)`: a remote seat's move, judged or made;
- `leave(seat)`: a remote seat's player leaves, and a stand-in bot plays their hand to the end;
- `results`, `over`: the rounds played out, and whether the match is over.

A seat is a `SpellevateBot` or a `solver.play.remote.RemoteSeat` (a person or a program
moving from outside). The events (`solver.play.spellevate_events`) go to the `observer` as
they happen and into `log`.

**The journal.** Every input from outside - a remote seat's move, a leave - goes into
`journal` with `step`, the number of moves made before it (`on_input` is told of each, for a
driver that stores them). The bots are deterministic, so `replay(new_match, journal)` on a
match built with the same seats and seed makes the very same moves and events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypedDict

import numpy as np

from solver.core.limits import MAX_SPELLEVATE_TURNS
from solver.core.tiles import ENGLISH, TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.play import spellevate_events as sp
from solver.play.refusals import Refusal
from solver.play.remote import RemoteSeat, is_remote
from solver.play.spellevate import (
    Play,
    RoundState,
    SeatView,
    SpellevateBot,
    SpellevateError,
    SpellevateResult,
    SpellevateRound,
    check_table,
    deal,
    first_leader,
)
from solver.play.spellevate_bots import make_spellevate_bot

Seat = SpellevateBot | RemoteSeat
STAND_IN = "simple"  # the preset that plays on for a player who left


class MoveInput(TypedDict):
    """A remote seat's move from outside (`letters` None: a pass)."""

    input: Literal["move"]
    step: int
    seat: int
    letters: str | None


class LeaveInput(TypedDict):
    input: Literal["leave"]
    step: int
    seat: int


JournalEntry = MoveInput | LeaveInput


class SpellevateMatch:
    """A game of `rounds` rounds between `seats` (module docstring). The first round's leader is
    drawn unless `leader` is given (a room's last winner); each later round is led by the last
    winner and every round deals the whole of `tiles` anew, starting with its leader."""

    def __init__(
        self,
        seats: Sequence[Seat],
        seed: int,
        lexicon: Lexicon,
        *,
        rounds: int = 1,
        tiles: TileCounts = ENGLISH,
        min_length: int = 2,
        leader: int | None = None,
        observer: Callable[[sp.SpellevateEvent], None] | None = None,
    ):
        check_table(len(seats), tiles)
        self._seats: list[Seat] = list(seats)
        self.lexicon = lexicon
        self.rounds = rounds
        self.tiles = tiles
        self.min_length = min_length
        self.leader = leader
        self.observer = observer
        self._rng = np.random.default_rng(seed)
        self.log: list[sp.SpellevateEvent] = []
        self.journal: list[JournalEntry] = []
        self.on_input: Callable[[JournalEntry], None] | None = None  # told of each journal entry
        self.steps = 0  # moves made: a journal entry's place among them
        self.number = 0  # the round under way (from 1), or the last one played
        self._current: SpellevateRound | None = None
        self.results: list[SpellevateResult] = []
        self.lead_draw: sp.LeadDraw | None = None

    # -- what drivers read ---------------------------------------------------------------
    @property
    def _round(self) -> SpellevateRound:
        """The round under way, or the last one played (after `start`)."""
        if self._current is None:
            raise SpellevateError("the match has not started")
        return self._current

    @property
    def state(self) -> RoundState:
        """The public state of the round under way (or of the last one)."""
        return self._round.state

    @property
    def over(self) -> bool:
        """Whether every round has been played out."""
        return len(self.results) == self.rounds

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot's move is due (not a remote seat's, and the match is not over)."""
        return self._current is not None and not self.over and not is_remote(self._seats[self.state.turn])

    @property
    def players(self) -> int:
        """The number of seats at the table."""
        return len(self._seats)

    def is_bot(self, seat: int) -> bool:
        """Whether the seat is played by a bot (a stand-in included)."""
        return not is_remote(self._seats[seat])

    def hand(self, seat: int) -> TileCounts:
        """The tiles `seat` holds in the round under way (private to that seat)."""
        return self._round.hands[seat]

    def view(self, seat: int) -> SeatView:
        """What `seat` sees in the round under way."""
        return self._round.view(seat)

    @property
    def winners(self) -> list[int]:
        """Each round's winner, in order."""
        return [result.winner for result in self.results]

    @property
    def totals(self) -> list[int]:
        """Each seat's score summed over the rounds played out."""
        return [sum(result.scores[seat] for result in self.results) for seat in range(len(self._seats))]

    # -- the match's own moves -----------------------------------------------------------
    def start(self) -> list[sp.SpellevateEvent]:
        """The lead draw (when no leader was given) and the first round's deal: the events."""
        if self._current is not None:
            raise SpellevateError("the match has started")
        start = len(self.log)
        if self.leader is None:
            leader, draws = first_leader(len(self._seats), self.tiles, self._rng)
            self.lead_draw = sp.LeadDraw(event=sp.LEAD_DRAW, draws=draws, leader=leader)
            self._emit(self.lead_draw)
            self.leader = leader
        self._deal(self.leader)
        return self.log[start:]

    def _deal(self, leader: int) -> None:
        self.number += 1
        hands = deal(len(self._seats), self.tiles, self._rng, first=leader)
        self._current = SpellevateRound(hands, leader, self.lexicon, self.min_length)
        for index, seat in enumerate(self._seats):
            seat.begin(self._current.view(index))
        self._emit(sp.Deal(event=sp.DEAL, round=self.number, leader=leader, hands=[len(hand) for hand in hands]))

    def _emit(self, event: sp.SpellevateEvent) -> None:
        self.log.append(event)
        if self.observer is not None:
            self.observer(event)

    def _made(self, seat: int, play: Play | None) -> None:
        """Make a legal move; a won round is scored and the next one dealt."""
        game = self._round
        self.steps += 1
        for event in game.move(seat, play):
            self._emit(event)
        if not game.state.over:
            return
        result = game.result()
        if self.number == 1 and self.lead_draw is not None:
            result.events.insert(0, self.lead_draw)
        self.results.append(result)
        if not self.over:
            self._deal(result.winner)

    def bot_choice(self) -> Play | None:
        """The move the bot whose turn it is chooses (None: a pass). It changes nothing of
        the match's, so a driver may run it in a worker thread, then `make_bot_move`."""
        if not self.bot_to_move:
            raise SpellevateError("no bot's move is due")
        bot = self._seats[self.state.turn]
        assert not isinstance(bot, RemoteSeat)  # bot_to_move
        return bot.choose(self.view(self.state.turn))

    def make_bot_move(self, play: Play | None) -> list[sp.SpellevateEvent]:
        """Make the due bot's move `play` (its `bot_choice`): the events it caused. A bot's
        illegal move is a bug: SpellevateError."""
        seat = self.state.turn
        if not self.bot_to_move:
            raise SpellevateError("no bot's move is due")
        error = self.move_error(seat, play)
        if error is not None:
            raise SpellevateError(f"bot {self._seats[seat].name} at P{seat + 1}: {error}")
        start = len(self.log)
        self._made(seat, play)
        return self.log[start:]

    def bot_move(self) -> list[sp.SpellevateEvent]:
        """The due bot's move, chosen and made: the events it caused."""
        return self.make_bot_move(self.bot_choice())

    def play_bots(self) -> list[sp.SpellevateEvent]:
        """The bots' moves until a remote seat must move or the match is over: the events."""
        start = len(self.log)
        for _ in range(MAX_SPELLEVATE_TURNS * self.rounds):
            if not self.bot_to_move:
                return self.log[start:]
            self.bot_move()
        raise SpellevateError("the match did not end")

    # -- inputs from outside ---------------------------------------------------------------
    def move_error(self, seat: int, play: Play | None, label: Callable[[int], str] | None = None) -> Refusal | None:
        """Why `seat` may not make this move now (None: it may): the round's referee
        (`RoundState.move_error`, the seat's tiles included). `label` names a seat in the reason."""
        if self.over:
            return Refusal("round_over", "the round is over")
        game = self._round
        if label is None:
            return game.move_error(seat, play)
        return game.state.move_error(seat, play, self.lexicon, self.min_length, game.hands[seat], label)

    def move(self, seat: int, play: Play | None) -> list[sp.SpellevateEvent]:
        """A remote seat's move (None: a pass), made and journaled: the events it caused.
        SpellevateError, carrying the `Refusal`, if the rules refuse it (nothing changes)."""
        if not is_remote(self._seats[seat]):
            raise SpellevateError(f"P{seat + 1} is a bot: its moves are its own")
        error = self.move_error(seat, play)
        if error is not None:
            raise SpellevateError(error)
        self._record(MoveInput(input="move", step=self.steps, seat=seat, letters=play.letters if play else None))
        start = len(self.log)
        self._made(seat, play)
        return self.log[start:]

    def leave(self, seat: int) -> list[sp.SpellevateEvent]:
        """A remote seat's player leaves: a `STAND_IN` bot plays their hand from now on (the
        events: a `left`; none once the match is over or for a bot's seat)."""
        if self.over or self.is_bot(seat):
            return []
        self._record(LeaveInput(input="leave", step=self.steps, seat=seat))
        bot = make_spellevate_bot(STAND_IN, self.lexicon, self.min_length)
        bot.begin(self.view(seat))
        self._seats[seat] = bot
        start = len(self.log)
        self._emit(sp.Left(event=sp.LEFT, player=seat))
        return self.log[start:]

    def _record(self, entry: JournalEntry) -> None:
        self.journal.append(entry)
        if self.on_input is not None:
            self.on_input(entry)


def replay(match: SpellevateMatch, journal: Sequence[JournalEntry]) -> SpellevateMatch:
    """Rebuild a match from its journal: `match` is new, built with the original's seats (the
    same presets, remote seats where it had them) and seed. It is started, and each input is
    made again after the same number of moves, the bots' moves between them played; the
    rebuilt match then stands where the original stood after its last input."""
    match.start()
    for entry in journal:
        while match.steps < entry["step"]:
            match.bot_move()
        if entry["input"] == "leave":
            match.leave(entry["seat"])
            continue
        letters = entry["letters"]
        match.move(entry["seat"], Play(letters) if letters is not None else None)
    return match


def play_spellevate_rounds(
    seats: Sequence[SpellevateBot],
    rounds: int = 1,
    seed: int = 0,
    lexicon: Lexicon | str = "en",
    tiles: TileCounts = ENGLISH,
    min_length: int = 2,
    observer: Callable[[sp.SpellevateEvent], None] | None = None,
) -> list[SpellevateResult]:
    """Rounds between bots, played to the end (`SpellevateMatch`): each round's result, the
    first round's events led by the lead draw. `observer` sees every event as it happens."""
    lexicon = get_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
    match = SpellevateMatch(seats, seed, lexicon, rounds=rounds, tiles=tiles, min_length=min_length, observer=observer)
    match.start()
    match.play_bots()
    return match.results


def play_spellevate(
    players: int,
    rounds: int = 1,
    seed: int = 0,
    lexicon: Lexicon | str = "en",
    tiles: TileCounts = ENGLISH,
    min_length: int = 2,
    bots: Sequence[str] | None = None,
) -> list[SpellevateResult]:
    """Rounds of Spellevate between bots (presets by seat, default all `simple`)."""
    check_table(players, tiles)
    specs = list(bots) if bots is not None else ["simple"] * players
    if len(specs) != players:
        raise SpellevateError(f"{len(specs)} bots for {players} players")
    lexicon = get_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
    seats = [make_spellevate_bot(spec, lexicon, min_length) for spec in specs]
    return play_spellevate_rounds(seats, rounds, seed, lexicon, tiles, min_length)
