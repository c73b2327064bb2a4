"""Spellevate: a turn-based climbing game played with Bananagrams tiles (RULES.md).

3+ players. All tiles are dealt (one set, or a double set for large groups), starting
with the first player; an uneven deal leaves the last players one tile fewer. In the
first round each player draws a tile and the letter closest to Z leads (ties redraw);
later rounds, the previous round's winner leads. The leader plays a single letter or a
word from their hand; each later play must beat the current one: a single letter later
in the alphabet, or a word of the same length that is alphabetically later. A player may
pass except when leading. When every other player has passed in turn, the last player
to play clears the table and leads again. The first player to empty their hand wins the
round. Optional score: the winner gains one point per tile left in all opponents' hands;
each other player loses one point per tile they still hold (the scores sum to zero).

The bots here are simple and deterministic: lead with the longest word they can spell
(the alphabetically latest of that length, so it is hard to beat), follow with the
cheapest play that beats the table, otherwise pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.core.tiles import ALPHABET, ENGLISH, TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon

LEAD_MAX_LENGTH = 7  # longest word a bot looks for when leading (keeps the search small)
MAX_TURNS = 100_000  # a guard, not a rule


class SpellevateError(ValueError):
    """A play or setting the rules do not allow."""


@dataclass(frozen=True)
class Play:
    """Letters laid on the table: one letter, or a word."""

    letters: str

    @property
    def is_letter(self) -> bool:
        return len(self.letters) == 1

    def beats(self, other: Play) -> bool:
        """RULES.md: a single letter later in the alphabet, or a word of the same length
        that is alphabetically later."""
        if len(self.letters) != len(other.letters):
            return False
        return self.letters > other.letters


@dataclass
class RoundResult:
    winner: int
    leader: int
    scores: list[int]
    hands_left: list[str]
    events: list[dict] = field(default_factory=list)


def deal(players: int, tiles: TileCounts, rng: np.random.Generator) -> list[TileCounts]:
    """Deal every tile one at a time starting with the first player (uneven: the last
    players get one fewer)."""
    pool = rng.permutation(np.repeat(np.arange(26), tiles.counts))
    hands = [np.zeros(26, dtype=np.int64) for _ in range(players)]
    for index, code in enumerate(pool):
        hands[index % players][code] += 1
    return [TileCounts(hand) for hand in hands]


def first_leader(players: int, tiles: TileCounts, rng: np.random.Generator) -> tuple[int, list[list[str]]]:
    """Each player draws a tile; the letter closest to Z leads; tied players redraw."""
    contenders = list(range(players))
    draws: list[list[str]] = []
    while True:
        pool = np.repeat(np.arange(26), tiles.counts)
        picks = rng.choice(pool, size=len(contenders), replace=False)
        draws.append([ALPHABET[code] for code in picks])
        best = picks.max()
        contenders = [player for player, code in zip(contenders, picks) if code == best]
        if len(contenders) == 1:
            return contenders[0], draws


class SpellevateBot:
    """The simple climbing strategy of the module docstring."""

    def __init__(self, lexicon: Lexicon, min_length: int = 2):
        self.lexicon = lexicon
        self.min_length = min_length

    def lead(self, hand: TileCounts) -> Play:
        words = self.lexicon.formable_words(hand, self.min_length, max_length=LEAD_MAX_LENGTH)
        if words:
            longest = len(words[0])
            return Play(max(w for w in words if len(w) == longest).upper())
        return Play(max(hand.letters()))

    def follow(self, hand: TileCounts, table: Play) -> Play | None:
        if table.is_letter:
            higher = [letter for letter in hand.letters() if letter > table.letters]
            return Play(min(higher)) if higher else None
        length = len(table.letters)
        words = [
            w.upper()
            for w in self.lexicon.formable_words(hand, length, max_length=length)
            if len(w) == length and w.upper() > table.letters
        ]
        return Play(min(words)) if words else None


def play_round(
    hands: list[TileCounts], leader: int, lexicon: Lexicon, bots: list[SpellevateBot], min_length: int = 2
) -> RoundResult:
    """Play one round from the given hands; the first to empty their hand wins."""
    hands = list(hands)
    players = len(hands)
    events: list[dict] = []
    turn = leader
    table: Play | None = None
    last_player = leader
    passes = 0
    for _ in range(MAX_TURNS):
        if table is None:
            play = bots[turn].lead(hands[turn])
            _check_play(play, hands[turn], lexicon, min_length)
        else:
            play = bots[turn].follow(hands[turn], table)
            if play is not None:
                _check_play(play, hands[turn], lexicon, min_length)
                if not play.beats(table):
                    raise SpellevateError(f"{play.letters} does not beat {table.letters}")
        if play is None:
            passes += 1
            events.append({"event": "pass", "player": turn})
            if passes == players - 1:  # everyone else passed in turn: the last player clears and leads
                events.append({"event": "clear", "player": last_player})
                table, turn, passes = None, last_player, 0
                continue
        else:
            hands[turn] = hands[turn] - TileCounts.from_letters(play.letters)
            events.append({"event": "play", "player": turn, "letters": play.letters, "left": len(hands[turn])})
            table, last_player, passes = play, turn, 0
            if len(hands[turn]) == 0:
                return _finish(turn, leader, hands, events)
        turn = (turn + 1) % players
    raise SpellevateError("round did not end")


def _check_play(play: Play, hand: TileCounts, lexicon: Lexicon, min_length: int) -> None:
    if not hand.contains(TileCounts.from_letters(play.letters)):
        raise SpellevateError(f"{play.letters} is not in the hand")
    if not play.is_letter and (len(play.letters) < min_length or play.letters not in lexicon):
        raise SpellevateError(f"{play.letters} is not a word")


def _finish(winner: int, leader: int, hands: list[TileCounts], events: list[dict]) -> RoundResult:
    """RULES.md score: the winner gains a point per tile left in all opponents' hands,
    each other player loses one per tile held; the scores sum to zero."""
    left = [len(hand) for hand in hands]
    scores = [-count for count in left]
    scores[winner] = sum(left)
    events.append({"event": "win", "player": winner, "scores": scores})
    return RoundResult(winner, leader, scores, [hand.letters() for hand in hands], events)


def play_spellevate(
    players: int,
    rounds: int = 1,
    seed: int = 0,
    lexicon: Lexicon | str = "en",
    tiles: TileCounts = ENGLISH,
    min_length: int = 2,
) -> list[RoundResult]:
    """Rounds of Spellevate between simple bots; later rounds are led by the previous
    round's winner. Each round deals the whole set anew."""
    if players < 3:
        raise SpellevateError("Spellevate takes 3 or more players")
    if players > len(tiles):
        raise SpellevateError(f"{players} players but only {len(tiles)} tiles")
    lexicon = get_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
    rng = np.random.default_rng(seed)
    bots = [SpellevateBot(lexicon, min_length) for _ in range(players)]
    results = []
    leader, draws = first_leader(players, tiles, rng)
    for number in range(rounds):
        hands = deal(players, tiles, rng)
        result = play_round(hands, leader, lexicon, bots, min_length)
        if number == 0:
            result.events.insert(0, {"event": "lead_draw", "draws": draws, "leader": leader})
        results.append(result)
        leader = result.winner
    return results
