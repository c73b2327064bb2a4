"""Spellevate: a turn-based climbing game played with Bananagrams tiles (RULES.md).

3+ players. All tiles are dealt (one set, or a double set for large groups), starting
with the player who leads; an uneven deal leaves the last players one tile fewer. In the
first round each player draws a tile and the letter closest to Z leads (ties redraw);
later rounds, the previous round's winner leads. The leader plays a single letter or a
word from their hand; each later play must beat the current one: a single letter later
in the alphabet, or a word of the same length that is alphabetically later. A player may
pass except when leading. When every other player has passed in turn, the last player
to play clears the table and leads again. The first player to empty their hand wins the
round. Optional score: the winner gains one point per tile left in all opponents' hands;
each other player loses one point per tile they still hold (the scores sum to zero).

This module is the referee: `RoundState` is the public state of a round (whose turn,
what is on the table, hand sizes, what has been played) and says why a move is illegal;
`SpellevateRound` adds the hands. The same state machine runs bot games, the protocol's seats and
hosted games, and a person at the terminal. The bots are in `solver.play.spellevate_bots`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, get_args

import numpy as np

from solver.core.limits import MAX_SPELLEVATE_TURNS
from solver.core.tiles import ALPHABET, ENGLISH, TileCounts
from solver.lexicon.loader import Lexicon
from solver.play import spellevate_events as sp
from solver.play.refusals import PlayRefusal, Refusal

MIN_PLAYERS = 3  # the smallest table (docs/RULES.md, Spellevate: 3 or more players)

# The codes of `RoundState.move_error`'s refusals (solver.play.refusals): front-ends translate them.
SPELLEVATE_REFUSALS: tuple[PlayRefusal, ...] = get_args(PlayRefusal)


class SpellevateError(ValueError):
    """A play or setting the rules do not allow (the message says why)."""


@dataclass(frozen=True)
class Play:
    """Letters laid on the table: one letter, or a word (upper case)."""

    letters: str

    @property
    def is_letter(self) -> bool:
        """Whether the play is a single letter (not a word)."""
        return len(self.letters) == 1

    def beats(self, other: Play) -> bool:
        """RULES.md: a single letter later in the alphabet, or a word of the same length
        that is alphabetically later."""
        if len(self.letters) != len(other.letters):
            return False
        return self.letters > other.letters

    def tiles(self) -> TileCounts:
        """The tiles the play lays (a TileCounts)."""
        return TileCounts.from_letters(self.letters)


def parse_play(text: str) -> Play:
    """A play typed by a person or sent by a client: letters A-Z, any case."""
    letters = text.strip().upper()
    if not letters or not letters.isascii() or not letters.isalpha():
        raise SpellevateError(f"{text.strip()!r} is not a play: type letters A-Z (a word or one letter)")
    return Play(letters)


def shape_error(play: Play, table: Play | None, lexicon: Lexicon, min_length: int) -> Refusal | None:
    """Why `play` cannot go on `table` whoever holds the tiles (None: it can)."""
    words = {"play": play.letters}
    if not play.is_letter:
        if len(play.letters) < min_length:
            message = f"{play.letters} is too short: words have at least {min_length} letters"
            return Refusal("too_short", message, {**words, "min_length": min_length})
        if play.letters not in lexicon:
            return Refusal("not_a_word", f"{play.letters} is not a word", words)
    if table is None or play.beats(table):
        return None
    words["table"] = table.letters
    if table.is_letter:
        if play.is_letter:
            message = f"{play.letters} does not beat {table.letters}: play a letter later in the alphabet"
            return Refusal("letter_too_early", message, words)
        message = f"the table holds the single letter {table.letters}: play a later single letter"
        return Refusal("table_holds_a_letter", message, words)
    if len(play.letters) != len(table.letters):
        message = (
            f"{play.letters} has {len(play.letters)} letter{'s' if len(play.letters) > 1 else ''}: "
            f"the table holds the {len(table.letters)}-letter word {table.letters}"
        )
        return Refusal("wrong_length", message, {**words, "length": len(table.letters)})
    message = (
        f"{play.letters} does not beat {table.letters}: play a {len(table.letters)}-letter word alphabetically later"
    )
    return Refusal("word_too_early", message, {**words, "length": len(table.letters)})


def hand_error(play: Play, hand: TileCounts) -> Refusal | None:
    """Why the hand cannot make `play` (None: it can)."""
    need = play.tiles()
    if hand.contains(need):
        return None
    missing = ", ".join(TileCounts(np.maximum(need.counts - hand.counts, 0)).letters())
    return Refusal(
        "not_in_hand",
        f"{play.letters} is not in the hand (missing {missing})",
        {"play": play.letters, "missing": missing},
    )


def seat_name(seat: int) -> str:
    """How people name seats: P1, P2, ... (the protocol counts players from 0 instead)."""
    return f"P{seat + 1}"


@dataclass
class RoundState:
    """The public state of a round, as every player sees it.

    `sizes` are the hand sizes, `played` every tile laid so far, `events` the round's log
    (play, pass, clear, win). `turn` is whose move it is; `table` is None when the mover
    leads."""

    sizes: list[int]
    leader: int
    turn: int = -1
    table: Play | None = None
    last_player: int = -1
    passes: int = 0
    played: TileCounts = field(default_factory=TileCounts)
    events: list[sp.SpellevateEvent] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        if self.turn < 0:
            self.turn = self.leader
        if self.last_player < 0:
            self.last_player = self.leader

    @property
    def players(self) -> int:
        """The number of players at the table."""
        return len(self.sizes)

    @property
    def over(self) -> bool:
        """Whether someone has gone out (the round is won)."""
        return self.winner is not None

    def move_error(
        self,
        player: int,
        play: Play | None,
        lexicon: Lexicon,
        min_length: int,
        hand: TileCounts | None = None,
        label: Callable[[int], str] = seat_name,
    ) -> Refusal | None:
        """Why `player` may not make this move now (None: it is legal): the one judge of a
        play, a `Refusal` (its code in SPELLEVATE_REFUSALS). With `hand`, the player's tiles
        are checked too; without, only their number. `label` names a seat."""
        if self.over:
            return Refusal("round_over", "the round is over")
        if player != self.turn:
            return Refusal("not_your_turn", f"it is {label(self.turn)}'s turn, not {label(player)}'s")
        if play is None:
            leads = Refusal("leader_must_play", "the leader must play: a leader cannot pass")
            return leads if self.table is None else None
        if hand is not None:
            error = hand_error(play, hand)
            if error is not None:
                return error
        elif len(play.letters) > self.sizes[player]:
            message = f"{play.letters} has {len(play.letters)} tiles but {label(player)} holds {self.sizes[player]}"
            return Refusal("too_many_tiles", message, {"play": play.letters, "held": self.sizes[player]})
        return shape_error(play, self.table, lexicon, min_length)

    def apply(self, player: int, play: Play | None) -> list[sp.SpellevateEvent]:
        """Make a legal move (see `move_error`); return the events it caused."""
        start = len(self.events)
        if play is None:
            self.passes += 1
            self.events.append(sp.Passed(event=sp.PASS, player=player))
            if self.passes == self.players - 1:  # everyone else passed in turn: the last player clears and leads
                self.events.append(sp.Cleared(event=sp.CLEAR, player=self.last_player))
                self.table, self.turn, self.passes = None, self.last_player, 0
                return self.events[start:]
        else:
            self.sizes[player] -= len(play.letters)
            self.played = self.played + play.tiles()
            left = self.sizes[player]
            self.events.append(sp.Played(event=sp.PLAY, player=player, letters=play.letters, left=left))
            self.table, self.last_player, self.passes = play, player, 0
            if self.sizes[player] == 0:
                self.winner = player
                self.events.append(sp.Won(event=sp.WIN, player=player, scores=scores(self.sizes, player)))
                return self.events[start:]
        self.turn = (self.turn + 1) % self.players
        return self.events[start:]


def scores(sizes: Sequence[int], winner: int) -> list[int]:
    """RULES.md score: the winner gains a point per tile left in all opponents' hands,
    each other player loses one per tile held; the scores sum to zero."""
    result = [-count for count in sizes]
    result[winner] = sum(sizes) - sizes[winner]
    return result


@dataclass
class SeatView:
    """What one seat knows: its own hand, the public state, the set dealt and the rules."""

    seat: int
    hand: TileCounts
    state: RoundState
    tiles: TileCounts  # every tile of the set(s) dealt
    lexicon: Lexicon
    min_length: int

    @property
    def unseen(self) -> TileCounts:
        """Tiles in the other players' hands (all tiles are dealt)."""
        return self.tiles - self.hand - self.state.played


class SpellevateBot(Protocol):
    """A seat played by a program: `choose` returns a play, or None to pass (never
    when leading). `begin` is called once per round before its first move."""

    name: str

    def begin(self, view: SeatView) -> None:
        """A new round: `view` shows the bot's dealt hand."""

    def choose(self, view: SeatView) -> Play | None:
        """Its move on `view`: a Play that beats the table (any play when leading), or None to pass."""


@dataclass
class SpellevateResult:
    """A finished round: the winner and the last leader (seats), the scores (they sum to zero), the tiles each
    hand still held, and the event log.
    """

    winner: int
    leader: int
    scores: list[int]
    hands_left: list[str]
    events: list[sp.SpellevateEvent] = field(default_factory=list)


class SpellevateRound:
    """A round refereed with every hand known: the public state plus the hands."""

    def __init__(self, hands: Sequence[TileCounts], leader: int, lexicon: Lexicon, min_length: int = 2):
        self.hands = list(hands)
        self.lexicon = lexicon
        self.min_length = min_length
        self.tiles = sum(self.hands, TileCounts())
        self.state = RoundState([len(hand) for hand in self.hands], leader)

    def view(self, seat: int) -> SeatView:
        """What the player at `seat` sees when it moves: a SeatView (its hand, the table, the tiles it cannot see)."""
        return SeatView(seat, self.hands[seat], self.state, self.tiles, self.lexicon, self.min_length)

    def move_error(self, player: int, play: Play | None) -> Refusal | None:
        """Why `player` may not make this move now, tiles included (None: legal)."""
        return self.state.move_error(player, play, self.lexicon, self.min_length, self.hands[player])

    def move(self, player: int, play: Play | None) -> list[sp.SpellevateEvent]:
        """Make a move; SpellevateError (with the reason) if it is illegal."""
        error = self.move_error(player, play)
        if error is not None:
            raise SpellevateError(error)
        if play is not None:
            self.hands[player] = self.hands[player] - play.tiles()
        return self.state.apply(player, play)

    def result(self) -> SpellevateResult:
        """The round's SpellevateResult; SpellevateError while it is not over."""
        state = self.state
        if state.winner is None:
            raise SpellevateError("the round is not over")
        return SpellevateResult(
            state.winner,
            state.leader,
            scores(state.sizes, state.winner),
            [hand.letters() for hand in self.hands],
            state.events,
        )


def deal(players: int, tiles: TileCounts, rng: np.random.Generator, first: int = 0) -> list[TileCounts]:
    """Shuffle and deal every tile one at a time starting with player `first` (the
    leader): in an uneven deal the last players served get one fewer."""
    pool = rng.permutation(np.repeat(np.arange(26), tiles.counts))
    hands = [np.zeros(26, dtype=np.int64) for _ in range(players)]
    for index, code in enumerate(pool):
        hands[(first + index) % players][code] += 1
    return [TileCounts(hand) for hand in hands]


def first_leader(players: int, tiles: TileCounts, rng: np.random.Generator) -> tuple[int, list[list[str]]]:
    """Each player draws a tile; the letter closest to Z leads; tied players redraw
    (the drawn tiles go back each time). Returns the leader and every draw, in order."""
    if np.count_nonzero(tiles.counts) < 2:
        raise SpellevateError("cannot draw for the lead: every tile is the same letter")
    contenders = list(range(players))
    draws: list[list[str]] = []
    pool = np.repeat(np.arange(26), tiles.counts)
    while True:
        picks = rng.choice(pool, size=len(contenders), replace=False)
        draws.append([ALPHABET[code] for code in picks])
        best = picks.max()
        contenders = [player for player, code in zip(contenders, picks, strict=True) if code == best]
        if len(contenders) == 1:
            return contenders[0], draws


def check_table(players: int, tiles: TileCounts) -> None:
    """SpellevateError unless `players` (MIN_PLAYERS or more) each get at least one of `tiles`."""
    if players < MIN_PLAYERS:
        raise SpellevateError(f"Spellevate takes {MIN_PLAYERS} or more players")
    if players > len(tiles):
        raise SpellevateError(f"{players} players but only {len(tiles)} tiles")


def play_spellevate_round(
    hands: Sequence[TileCounts],
    leader: int,
    lexicon: Lexicon,
    bots: Sequence[SpellevateBot],
    min_length: int = 2,
    observer: Callable[[sp.SpellevateEvent], None] | None = None,
) -> SpellevateResult:
    """Play one round from the given hands; the first to empty their hand wins. A bot's
    illegal move is a bug: SpellevateError."""
    game = SpellevateRound(hands, leader, lexicon, min_length)
    for seat, bot in enumerate(bots):
        bot.begin(game.view(seat))
    for _ in range(MAX_SPELLEVATE_TURNS):
        seat = game.state.turn
        play = bots[seat].choose(game.view(seat))
        try:
            events = game.move(seat, play)
        except SpellevateError as error:
            raise SpellevateError(f"bot {bots[seat].name} at P{seat + 1}: {error}") from None
        if observer is not None:
            for event in events:
                observer(event)
        if game.state.over:
            return game.result()
    raise SpellevateError("round did not end")


def set_of(sets: int, distribution: TileCounts = ENGLISH) -> TileCounts:
    """One or two sets of tiles (a double set for large groups)."""
    if sets not in (1, 2):
        raise SpellevateError(f"one or two sets, not {sets}")
    return TileCounts(distribution.counts * sets)
