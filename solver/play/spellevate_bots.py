"""Spellevate bots: `simple` (no planning) and `planner` (plans the whole hand).

Both look words up in a `WordIndex`: every word of the lexicon as a row of 26 letter
counts, grouped by length and sorted alphabetically, so "which words can this hand
spell" is one vectorized comparison and "which words of length L beat this one" is a
binary search. `Lexicon.formable_words` (a DAWG walk) is the pure-Python reference the
tests check it against.

simple   leads the longest word it can spell (up to 7 letters; the alphabetically latest
         of that length, so it is hard to beat), or its latest letter; follows with the
         cheapest play that beats the table, otherwise passes.
planner  partitions its hand into words and single letters (a beam search that covers
         the hardest letter first, longest words first) and rates each piece by how
         likely it is to hold the table when led. It counts what has been played: the
         tiles it cannot see are exactly the other hands, so a letter is safe when no
         later letter is unseen, and a word is as safe as the later words of its length
         that the unseen tiles can still spell are few (a Poisson estimate of an
         opponent holding one). A plan costs one turn per piece plus the leads it may
         lose; a piece kept to regain the lead lowers that cost. It leads the piece whose
         loss costs least (weak pieces while it still holds pieces that win the table
         back, its safe pieces last), beats the table only when what it plays is worth
         more than what it breaks, and goes out whenever it can.

Presets take settings like Bananagrams' bots: 'planner:beam=8,lost_lead=3'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np

from solver.core.tiles import ALPHABET, HARD_FIRST, TileCounts
from solver.lexicon.loader import Lexicon
from solver.play.spellevate import (
    Play,
    SeatView,
)

LEAD_MAX_LENGTH = 7  # longest word the simple bot looks for when leading (today's behaviour)
PIVOT_ORDER = np.array([ALPHABET.index(letter) for letter in HARD_FIRST])  # letters hardest to use first


class WordIndex:
    """Every word of a lexicon as letter counts, sorted by length then alphabetically.

    A word is known by its row number; `starts[L]` is the first row of length L."""

    def __init__(self, lexicon: Lexicon):
        words = sorted(lexicon.trie.keys(), key=lambda word: (len(word), word))
        self.words = [word.upper() for word in words]
        self.lengths = np.array([len(word) for word in words], dtype=np.int64)
        longest = int(self.lengths.max()) if words else 0
        self.starts = np.searchsorted(self.lengths, np.arange(longest + 2))
        self.counts = np.zeros((len(words), 26), dtype=np.uint8)  # row-major: whole-word checks
        for length in range(1, longest + 1):
            first, last = int(self.starts[length]), int(self.starts[length + 1])
            if first == last:
                continue
            chunk = "".join(words[first:last]).encode("ascii")
            codes = np.frombuffer(chunk, dtype=np.uint8).reshape(last - first, length) - 97
            rows = np.arange(first, last)
            for position in range(length):
                self.counts[rows, codes[:, position]] += 1
        self.by_letter = np.ascontiguousarray(self.counts.T)  # letter-major: one-letter checks
        self.masks = ((self.counts > 0).astype(np.uint32) << np.arange(26, dtype=np.uint32)).sum(
            axis=1, dtype=np.uint32
        )
        self.sorted_by_length = {
            length: np.array(self.words[self.starts[length] : self.starts[length + 1]], dtype=f"U{length}")
            for length in range(2, longest + 1)
            if self.starts[length] < self.starts[length + 1]
        }

    def span(self, min_length: int, max_length: int) -> tuple[int, int]:
        """The rows (start, end) of the words of min_length..max_length letters (the index is sorted by
        length); (0, 0) when none.
        """
        top = len(self.starts) - 2
        low, high = max(min_length, 0), min(max_length, top)
        return (int(self.starts[low]), int(self.starts[high + 1])) if low <= high else (0, 0)

    def formable(self, hand: TileCounts, min_length: int = 2, max_length: int | None = None) -> Words:
        """The words `hand` can spell, min_length..max_length letters."""
        counts = hand.counts
        first, last = self.span(max(min_length, 2), len(hand) if max_length is None else min(max_length, len(hand)))
        present = int(((counts > 0).astype(np.int64) << np.arange(26)).sum())
        missing = np.uint32(~present & 0x3FFFFFF)
        rows = first + np.flatnonzero((self.masks[first:last] & missing) == 0)
        rows = rows[(self.counts[rows] <= counts).all(axis=1)]
        return Words(self, rows, counts.copy())

    def after(self, word: str) -> int:
        """The first row of the words of `word`'s length that come after it."""
        same = self.sorted_by_length.get(len(word))
        if same is None:
            return int(self.starts[min(len(word), len(self.starts) - 2)])
        return int(self.starts[len(word)]) + int(np.searchsorted(same, word, side="right"))


_INDEXES: dict[int, tuple[Lexicon, WordIndex]] = {}


def word_index(lexicon: Lexicon) -> WordIndex:
    """The lexicon's WordIndex, built once per process (under a second for 250k words)."""
    entry = _INDEXES.get(id(lexicon))
    if entry is None or entry[0] is not lexicon:
        entry = _INDEXES[id(lexicon)] = (lexicon, WordIndex(lexicon))
    return entry[1]


@dataclass
class Words:
    """A subset of a WordIndex: sorted row numbers, all spelled from `hand` (26 counts)."""

    index: WordIndex
    rows: np.ndarray
    hand: np.ndarray

    def restrict(self, hand: TileCounts | np.ndarray) -> Words:
        """The words of this set that `hand` can still spell. When `hand` is part of the
        hand this set was made for, only the letters it lacks need checking."""
        counts = hand.counts if isinstance(hand, TileCounts) else hand
        if (counts > self.hand).any():
            rows = self.rows[(self.index.counts[self.rows] <= counts).all(axis=1)]
            return Words(self.index, rows, counts.copy())
        rows = self.rows
        for code in np.flatnonzero(counts < self.hand):
            rows = rows[self.index.by_letter[code][rows] <= counts[code]]
        return Words(self.index, rows, counts.copy())

    def __len__(self) -> int:
        return len(self.rows)

    def of_length(self, length: int) -> list[str]:
        """The words of one length, alphabetical."""
        first, last = self.index.span(length, length)
        low, high = np.searchsorted(self.rows, [first, last])
        return [self.index.words[row] for row in self.rows[low:high]]

    def later_than(self, word: str) -> list[str]:
        """The words of the same length alphabetically after `word`, in order."""
        low, high = self._later(word)
        return [self.index.words[row] for row in self.rows[low:high]]

    def count_later(self, word: str) -> int:
        """How many of these words of `word`'s length come later than it (would beat it)."""
        low, high = self._later(word)
        return int(high - low)

    def _later(self, word: str) -> tuple[int, int]:
        end = self.index.span(len(word), len(word))[1]
        low, high = np.searchsorted(self.rows, [self.index.after(word), end])
        return int(low), int(high)

    def containing(self, letter_code: int, limit: int) -> np.ndarray:
        """Up to `limit` rows of words that use the letter (code 0..25): longest first,
        then alphabetically latest."""
        rows = self.rows[self.index.by_letter[letter_code][self.rows] > 0]
        return rows[::-1][:limit]

    def longest(self, max_length: int | None = None) -> str | None:
        """The longest word (at most max_length letters), the alphabetically latest of its length."""
        rows = self.rows
        if max_length is not None:
            rows = rows[: np.searchsorted(rows, self.index.span(0, max_length)[1])]
        return self.index.words[rows[-1]] if len(rows) else None

    def all_words(self) -> list[str]:
        """Longest first, then alphabetical (Lexicon.formable_words' order, upper case)."""
        return sorted((self.index.words[row] for row in self.rows), key=lambda word: (-len(word), word))


def beating_plays(index: WordIndex, hand: TileCounts, table: Play, min_length: int = 2) -> list[str]:
    """Every play from `hand` that beats `table`, cheapest (alphabetically earliest) first."""
    if table.is_letter:
        return sorted({letter for letter in hand.letters() if letter > table.letters})
    length = len(table.letters)
    if length < min_length:
        return []
    return index.formable(hand, length, length).later_than(table.letters)


# -- simple -----------------------------------------------------------------------------


class SimpleBot:
    """Leads its longest (<= 7 letters), latest word; follows with the cheapest beating play."""

    name = "simple"

    def __init__(self, lexicon: Lexicon, min_length: int = 2):
        self.index = word_index(lexicon)
        self.min_length = min_length

    def begin(self, view: SeatView) -> None:
        """SpellevateBot.begin: nothing to prepare."""
        pass

    def choose(self, view: SeatView) -> Play | None:
        """SpellevateBot.choose: lead on an empty table, else follow."""
        table = view.state.table
        return self.lead(view.hand) if table is None else self.follow(view.hand, table)

    def lead(self, hand: TileCounts) -> Play:
        """Its longest word of up to LEAD_MAX_LENGTH letters, else its latest letter."""
        word = self.index.formable(hand, self.min_length, LEAD_MAX_LENGTH).longest()
        return Play(word if word is not None else max(hand.letters()))

    def follow(self, hand: TileCounts, table: Play) -> Play | None:
        """The cheapest play that beats `table` (the alphabetically earliest, `beating_plays`), or None to pass."""
        plays = beating_plays(self.index, hand, table, self.min_length)
        return Play(plays[0]) if plays else None


# -- planner ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannerSettings:
    """The planner's settings (`planner:beam=8,...`): `beam` (partial plans kept), `branch` (words tried per
    step), `lost_lead` (turns a lost lead costs), `follow_candidates` (beating plays weighed), `regain`
    (the share of a lost lead a piece that wins the table back saves).
    """

    beam: int = 6  # partial plans kept per step of the partition search
    branch: int = 5  # words tried per step (longest first) besides the single letter
    lost_lead: float = 2.0  # turns a lost lead costs (the turns until the table comes back)
    follow_candidates: int = 16  # beating plays weighed when following
    regain: float = 0.5  # how much of a lost lead a piece that can win the table back saves


PLANNER_PRESETS = {"planner": PlannerSettings()}


@dataclass
class Piece:
    """A part of a plan: a word or a letter, and the chance (0.0 to 1.0) that nobody beats it when it is led."""

    letters: str
    safety: float  # chance that nobody beats it when it is led


@dataclass
class Plan:
    """A partition of the hand into pieces, and its cost in turns (lower is better)."""

    pieces: list[Piece]
    cost: float


class Odds:
    """What a seat can infer about the other hands from what it cannot see."""

    def __init__(self, view: SeatView, unseen_words: Words):
        self.unseen = view.unseen
        self.unseen_total = len(self.unseen)
        sizes = [size for seat, size in enumerate(view.state.sizes) if seat != view.seat]
        self.opponent_sizes = [size for size in sizes if size > 0]
        self.unseen_words = unseen_words
        higher = np.cumsum(self.unseen.counts[::-1])[::-1]  # unseen tiles at or after each letter
        self.unseen_after = np.append(higher[1:], 0)
        self.cache: dict[str, float] = {}

    def hold_chance(self, tiles: int) -> float:
        """Chance that no opponent holds any of `tiles` given unseen tiles (all dealt: 0)."""
        if tiles == 0:
            return 1.0
        held = sum(self.opponent_sizes)
        if held >= self.unseen_total:
            return 0.0
        return (1 - held / self.unseen_total) ** tiles

    def safety(self, letters: str) -> float:
        """Chance that nobody beats `letters` when it is led."""
        found = self.cache.get(letters)
        if found is not None:
            return found
        if len(letters) == 1:
            result = self.hold_chance(int(self.unseen_after[ord(letters) - 65]))
        else:
            later = self.unseen_words.count_later(letters)
            expected = sum(
                later * (size / self.unseen_total) ** len(letters)
                for size in self.opponent_sizes
                if size >= len(letters)
            )
            result = math.exp(-expected)
        self.cache[letters] = result
        return result


class PlannerBot:
    """Plans its whole hand (see the module docstring)."""

    name = "planner"

    def __init__(self, lexicon: Lexicon, min_length: int = 2, settings: PlannerSettings = PlannerSettings()):
        self.index = word_index(lexicon)
        self.min_length = min_length
        self.settings = settings
        self.words: Words | None = None
        self.unseen_words: Words | None = None

    def begin(self, view: SeatView) -> None:
        """SpellevateBot.begin: the words its hand can spell, and those the unseen tiles can."""
        self.words = self.index.formable(view.hand, self.min_length)
        self.unseen_words = self.index.formable(view.unseen, self.min_length)

    def choose(self, view: SeatView) -> Play | None:
        """SpellevateBot.choose: lead by its plan, or follow when that does not break it (None: pass)."""
        if self.words is None or self.unseen_words is None or (view.hand.counts > self.words.hand).any():
            self.begin(view)  # a new round that nobody announced
        assert self.words is not None and self.unseen_words is not None  # set by begin
        self.words = self.words.restrict(view.hand)
        self.unseen_words = self.unseen_words.restrict(view.unseen)
        odds = Odds(view, self.unseen_words)
        table = view.state.table
        if table is None:
            return self.lead(view.hand, odds)
        return self.follow(view.hand, table, odds)

    # -- planning
    def plan(self, hand: np.ndarray, words: Words, odds: Odds) -> Plan:
        """The best partition of `hand` (26 counts) into words and letters that the beam
        search finds. Each step covers the hardest letter left, with a word that uses it
        (the longest, latest ones) or on its own, so no partition is reached twice."""
        settings = self.settings
        index = self.index
        beam: list[tuple[np.ndarray, list[Piece], Words]] = [(hand, [], words)]
        finished: list[Plan] = []
        while beam:
            grown = []
            for remaining, pieces, spellable in beam:
                if not remaining.any():
                    finished.append(Plan(pieces, self.cost(pieces)))
                    continue
                pivot = int(PIVOT_ORDER[np.argmax(remaining[PIVOT_ORDER] > 0)])
                single = remaining.copy()
                single[pivot] -= 1
                options = [(ALPHABET[pivot], single)]
                for row in spellable.containing(pivot, settings.branch):
                    options.append((index.words[row], remaining - index.counts[row]))
                for letters, left in options:
                    extended = pieces + [Piece(letters, odds.safety(letters))]
                    grown.append((self.partial_cost(extended, int(left.sum())), left, extended, spellable))
            grown.sort(key=lambda entry: entry[0])
            beam = [(left, pieces, spellable.restrict(left)) for _, left, pieces, spellable in grown[: settings.beam]]
        return min(finished, key=lambda plan: plan.cost)

    def cost(self, pieces: list[Piece]) -> float:
        """Turns to go out holding the lead: one per piece, plus the leads that the weak
        pieces may lose (the last piece played needs no safety), less what the pieces
        able to win the table back may regain."""
        if not pieces:
            return 0.0
        losses = [1 - piece.safety for piece in pieces]
        expected_losses = sum(losses) - max(losses)
        regainers = sum(piece.safety for piece in pieces if piece.safety > 0.5) - (1 if max(losses) < 0.5 else 0)
        saved = self.settings.regain * min(expected_losses, max(0.0, regainers))
        return len(pieces) + self.settings.lost_lead * (expected_losses - saved)

    def partial_cost(self, pieces: list[Piece], tiles_left: int) -> float:
        """The cost in turns of a partial plan: a turn per piece, `lost_lead` per expected lost lead, and the
        tiles still to place.
        """
        weak = sum(1 - piece.safety for piece in pieces)
        return len(pieces) + self.settings.lost_lead * weak + tiles_left / 6

    # -- moves
    def lead(self, hand: TileCounts, odds: Odds) -> Play:
        """The piece of its plan that costs least to lose (the weakest while stronger ones remain)."""
        assert self.words is not None  # choose sets the words before it leads
        plan = self.plan(hand.counts, self.words, odds)
        if len(plan.pieces) == 1:
            return Play(plan.pieces[0].letters)
        # Lead what costs least to lose: the weakest piece while stronger ones remain to
        # win the table back; with one weak piece left, the strong ones first, it last.
        weak = [piece for piece in plan.pieces if piece.safety < 0.5]
        if len(weak) <= 1:
            strong = [piece for piece in plan.pieces if piece not in weak]
            choice = max(strong, key=lambda piece: (len(piece.letters), piece.safety))
        else:
            choice = max(weak, key=lambda piece: (len(piece.letters), piece.safety))
        return Play(choice.letters)

    def follow(self, hand: TileCounts, table: Play, odds: Odds) -> Play | None:
        """A play that beats `table` and keeps the plan cheapest (going out first), or None to pass."""
        options = self.beating(hand, table)
        if not options:
            return None
        for letters in options:
            if len(letters) == len(hand):
                return Play(letters)  # going out wins the round
        lost_lead = self.settings.lost_lead
        assert self.words is not None  # choose sets the words before it follows
        plan = self.plan(hand.counts, self.words, odds)
        best, best_cost = None, plan.cost + lost_lead  # passing: the plan stands, the lead is still to win
        pieces = [piece.letters for piece in plan.pieces]
        replanned = 0
        for letters in options:
            if letters in pieces:  # a piece of the plan: the rest of the plan stands
                kept = list(plan.pieces)
                kept.pop(pieces.index(letters))
                rest_cost = self.cost(kept)
            elif replanned < self.settings.follow_candidates:  # it breaks the plan: plan the rest anew
                replanned += 1
                rest = hand.counts - TileCounts.from_letters(letters).counts
                rest_cost = self.plan(rest, self.words.restrict(rest), odds).cost
            else:
                continue
            cost = rest_cost + lost_lead * (1 - odds.safety(letters))
            if cost < best_cost:
                best, best_cost = letters, cost
        return Play(best) if best is not None else None

    def beating(self, hand: TileCounts, table: Play) -> list[str]:
        """The plays that beat the table, cheapest first."""
        if table.is_letter:
            return sorted({letter for letter in hand.letters() if letter > table.letters})
        assert self.words is not None  # choose sets the words before it follows
        return self.words.later_than(table.letters)


# -- presets ----------------------------------------------------------------------------

PRESETS = ("simple", "planner")


def parse_spec(spec: str) -> PlannerSettings | None:
    """The settings of a preset spec ('simple': None; 'planner:beam=8,lost_lead=3');
    ValueError naming what is wrong."""
    name, _, options = spec.partition(":")
    if name == "simple":
        if options:
            raise ValueError("the simple bot takes no settings")
        return None
    if name not in PLANNER_PRESETS:
        raise ValueError(f"unknown Spellevate bot {name!r} (presets: {', '.join(PRESETS)})")
    settings = PLANNER_PRESETS[name]
    kinds = {item.name: item.type for item in fields(PlannerSettings)}
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        if key not in kinds:
            raise ValueError(f"unknown planner setting {key!r} (settings: {', '.join(kinds)})")
        kind = int if kinds[key] in (int, "int") else float
        try:
            number = kind(value)
        except ValueError:
            raise ValueError(f"bad planner setting {key}={value}: expected a number") from None
        if not math.isfinite(number) or number < 0 or (kind is int and number < 1):
            raise ValueError(f"bad planner setting {key}={value}: out of range")
        settings = replace(settings, **{key: number})  # type: ignore[arg-type]  # number has the field's kind
    return settings


def make_spellevate_bot(spec: str, lexicon: Lexicon, min_length: int = 2) -> SimpleBot | PlannerBot:
    """A bot from a preset ('simple', 'planner'), optionally with settings:
    'planner:beam=8,lost_lead=3'."""
    settings = parse_spec(spec)
    if settings is None:
        return SimpleBot(lexicon, min_length)
    bot = PlannerBot(lexicon, min_length, settings)
    bot.name = spec
    return bot


def check_spellevate_spec(spec: str) -> None:
    """ValueError if `spec` names no bot, prefixed with the option's name (no lexicon is loaded)."""
    try:
        parse_spec(spec)
    except ValueError as error:
        raise ValueError(f"--bots: {spec!r}: {error}") from None
