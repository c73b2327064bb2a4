"""A complete search over whole words that may cross anywhere: settles vowel-poor hands fast.

The move model (`solver.search.kernels`) keeps every intermediate grid valid, so it misses the
grids none of whose build orders stays valid; the cell-by-cell search (`solver.search.exact`)
is complete but decides every cell, far too slow on hands of 11-21 tiles. This search is
complete and works on whole words: each word it lays is *declared* a maximal run of the final
grid (the cells just before and after it are blocked: they stay empty for good), and every
tile has, in each direction, a status: open (undecided), covered (inside a declared word of
that direction) or single (its run that way is the tile alone: both neighbours blocked).

It starts from a word holding the hand's hardest letter (the letter in fewest words), laid
across: in any valid grid a tile of that letter is in an across word or in a down one, and the
transposed grid is valid too. Then, as long as some (tile, direction) is open, it takes the one
with the fewest options and branches on them: the tile is single that way, or it is letter i
of word w laid that way. The options partition what a valid grid can hold there, so every
valid grid consistent with the decisions so far stays reachable by one branch: when the search
ends without a grid, none exists. A state with nothing open and no tile left is a valid grid
(every run is a declared word or one tile; connected, since each word went through a tile
already laid).

What it prunes, each a property of every valid grid reachable from the state:

- an option must fit: letters on the board match and are open that way, empty cells are not
  blocked and the hand has their letters, the cells past the word's ends hold no tile;
- carrier uses: the *carriers* are letters such that every word the hand spells holds one
  (the vowels, then greedily whatever letter the other words share). A tile is in at most two
  words, so a carrier tile on the board offers its open directions, a carrier in the hand two;
  every word laid from now on uses at least one of these, and lays at most length - 1 new
  tiles: share them among the carriers it holds, and a use of carrier c gets at most rho[c]
  (the most (length - 1) / carriers of a word holding c). So the tiles left must not exceed
  the sum of rho over the carrier uses left;
- exclusive tiles: tiles of the hand no word holds two of each need a word of their own, and
  that word a use of a carrier that every word holding the tile's letter holds one of (its
  hosts): the uses left must match them (Hall's condition, by augmenting paths).

Every grid it returns passes `solver.core.grid.validate` (the caller checks); its "no grid"
answers are tested against `solver.search.reference.exhaustive_grid_exists` on small hands.
All state is in arrays, so it runs in slices under a deadline and resumes where it paused.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.search.native import njit

RUNNING, FOUND, EXHAUSTED, PAUSED, OVERFLOW = 0, 1, 2, 3, 4
NONE, OPEN, COVERED, SINGLE = 0, 1, 2, 3  # a cell's status in one direction
UNDO_BLOCK, UNDO_STATUS, UNDO_TILE = 1, 2, 3
# state slots
S_DEPTH, S_NODES, S_STATUS, S_LEFT, S_UNDO, S_TILES, S_OVERFLOW = range(7)
STATE_SIZE = 8


class Words(NamedTuple):
    """The words the hand spells, as arrays, and where each letter occurs in them."""

    letters: np.ndarray  # int64[words, longest]: letter codes 0..25
    length: np.ndarray  # int64[words]
    occ_word: np.ndarray  # int64[occurrences]: word of each occurrence, grouped by letter
    occ_offset: np.ndarray  # int64[occurrences]: its position in the word
    occ_start: np.ndarray  # int64[27]: letter l's occurrences are occ_start[l]..occ_start[l+1]
    carrier: np.ndarray  # int64[26]: 1 for a carrier letter
    mask: np.ndarray  # int64[words]: the letters of each word, one bit each
    rho: np.ndarray  # float64[26]: new tiles a word lays per use of carrier c, at most
    together: np.ndarray  # int64[26]: letters some word holds beside letter l (bit l: l twice)
    hosts: np.ndarray  # int64[26]: carrier letters one of which every word holding l holds
    hard_order: np.ndarray  # int64[26]: non-carrier letters, in fewest words first


class Search(NamedTuple):
    """The search's arrays: the board, the statuses, the undo log and the decision stack."""

    board: np.ndarray  # int64[side*side]: 0 empty, 1..26 letters
    blocked: np.ndarray  # int64[side*side]: how many decisions keep the cell empty
    status: np.ndarray  # int64[side*side, 2]: NONE/OPEN/COVERED/SINGLE across (0) and down (1)
    hand: np.ndarray  # int64[26]: letters not laid yet
    state: np.ndarray  # int64[STATE_SIZE]
    tiles: np.ndarray  # int64[tiles]: the cells holding tiles, in the order laid
    undo: np.ndarray  # int64[entries, 3]: kind, cell, direction
    item_cell: np.ndarray  # int64[depths, items]: each depth's open (tile, direction)s ...
    item_dir: np.ndarray
    item_start: np.ndarray  # ... the options that fit there: pool[start:start + count] ...
    item_count: np.ndarray
    item_single: np.ndarray  # ... and whether the tile may stay alone that way
    items: np.ndarray  # int64[depths]: how many
    pool: np.ndarray  # int64[POOL]: occurrences (options), each depth's lists after the one before
    pool_top: np.ndarray  # int64[depths]: the pool's end after each depth's lists
    scratch: np.ndarray  # int64[6, SCRATCH]: the exclusive-tile matching's work arrays
    chosen_item: np.ndarray  # int64[depths]: the item decided at each depth
    option: np.ndarray  # int64[depths]: the next of its options to try
    mark: np.ndarray  # int64[depths]: the undo log's length before the depth's choice


def carriers(words: list[str], hand_letters: set[str]) -> set[str]:
    """Letters such that every word of `words` holds one: the hand's vowels, then the letter
    most of the remaining words hold, until none remains (ties alphabetical)."""
    chosen = {vowel for vowel in "AEIOU" if vowel in hand_letters}
    while True:
        unhit = [word for word in words if not chosen.intersection(word)]
        if not unhit:
            return chosen
        frequency: dict[str, int] = {}
        for word in unhit:
            for letter in set(word):
                frequency[letter] = frequency.get(letter, 0) + 1
        chosen.add(min(frequency, key=lambda letter: (-frequency[letter], letter)))


def word_arrays(words: list[str], hand_letters: set[str]) -> Words:
    """`Words` for upper-case `words` (those a hand spells)."""
    longest = max((len(word) for word in words), default=1)
    letters = np.zeros((max(len(words), 1), longest), dtype=np.int64)
    for k, word in enumerate(words):
        letters[k, : len(word)] = [ord(ch) - 65 for ch in word]
    occurrences: list[list[tuple[int, int]]] = [[] for _ in range(26)]
    for k, word in enumerate(words):
        for offset, ch in enumerate(word):
            occurrences[ord(ch) - 65].append((k, offset))
    flat = [pair for per_letter in occurrences for pair in per_letter]
    occ_start = np.zeros(27, dtype=np.int64)
    occ_start[1:] = np.cumsum([len(per_letter) for per_letter in occurrences])
    carrier_set = carriers(words, hand_letters)
    carrier = np.array([1 if chr(65 + code) in carrier_set else 0 for code in range(26)], dtype=np.int64)
    rho = np.zeros(26, dtype=np.float64)
    for word in words:
        share = (len(word) - 1) / sum(ch in carrier_set for ch in word)
        for ch in set(word).intersection(carrier_set):
            rho[ord(ch) - 65] = max(rho[ord(ch) - 65], share)
    together = np.zeros(26, dtype=np.int64)
    for word in words:
        bits = sum(1 << (ord(ch) - 65) for ch in set(word))
        for ch in set(word):
            code = ord(ch) - 65
            together[code] |= bits & ~(1 << code)
            if word.count(ch) > 1:
                together[code] |= 1 << code
    hosts = np.zeros(26, dtype=np.int64)
    for code in range(26):
        chosen: set[str] = set()
        holding = [word for word in words if chr(65 + code) in word]
        while holding:
            unhit = [word for word in holding if not chosen.intersection(word)]
            if not unhit:
                break
            tally = {c: sum(c in word for word in unhit) for c in carrier_set}
            chosen.add(min(tally, key=lambda c: (-tally[c], c)))
        hosts[code] = sum(1 << (ord(c) - 65) for c in chosen)
    in_words = [len(occurrences[code]) for code in range(26)]
    order = [code for code in sorted(range(26), key=lambda c: (in_words[c], c)) if chr(65 + code) not in carrier_set]
    hard_order = np.full(26, -1, dtype=np.int64)
    hard_order[: len(order)] = order
    return Words(
        letters,
        np.array([len(word) for word in words] or [0], dtype=np.int64),
        np.array([k for k, _ in flat] or [0], dtype=np.int64),
        np.array([offset for _, offset in flat] or [0], dtype=np.int64),
        occ_start,
        carrier,
        np.array([sum(1 << (ord(ch) - 65) for ch in set(word)) for word in words] or [0], dtype=np.int64),
        rho,
        together,
        hosts,
        hard_order,
    )


POOL = 1 << 21  # option slots: a search that needs more gives up (no claim made)


def new_search(counts: np.ndarray) -> Search:
    """The arrays for a hand of letter counts `counts` (int[26]), at the start."""
    n = int(counts.sum())
    side = 2 * n + 5
    depths = 2 * n + 2
    items = 2 * n + 2
    entries = 8 * n * n + 64
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[S_LEFT] = n

    def table() -> np.ndarray:
        return np.zeros((depths, items), dtype=np.int64)

    return Search(
        np.zeros(side * side, dtype=np.int64),
        np.zeros(side * side, dtype=np.int64),
        np.zeros((side * side, 2), dtype=np.int64),
        counts.astype(np.int64).copy(),
        state,
        np.zeros(n + 1, dtype=np.int64),
        np.zeros((entries, 3), dtype=np.int64),
        table(),
        table(),
        table(),
        table(),
        table(),
        np.zeros(depths, dtype=np.int64),
        np.zeros(POOL, dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros((6, 4 * n + 8), dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _single_fits(board, side, cell, direction) -> bool:
    step = 1 if direction == 0 else side
    return board[cell - step] == 0 and board[cell + step] == 0


@njit(cache=True, nogil=True)
def _log(undo, state, kind, cell, direction):
    at = state[S_UNDO]
    undo[at, 0], undo[at, 1], undo[at, 2] = kind, cell, direction
    state[S_UNDO] = at + 1


@njit(cache=True, nogil=True)
def _block(blocked, undo, state, cell):
    blocked[cell] += 1
    _log(undo, state, UNDO_BLOCK, cell, 0)


@njit(cache=True, nogil=True)
def _lay(s, words, side, cell, direction, k, offset):
    """Lay word k as `_add_item` found it fits, logging every change."""
    step = 1 if direction == 0 else side
    length = words.length[k]
    start = cell - offset * step
    _block(s.blocked, s.undo, s.state, start - step)
    _block(s.blocked, s.undo, s.state, start + length * step)
    for j in range(length):
        p = start + j * step
        if s.board[p] == 0:
            letter = words.letters[k, j]
            s.board[p] = letter + 1
            s.hand[letter] -= 1
            s.state[S_LEFT] -= 1
            s.tiles[s.state[S_TILES]] = p
            s.state[S_TILES] += 1
            s.status[p, 1 - direction] = OPEN
            _log(s.undo, s.state, UNDO_TILE, p, direction)
        else:
            _log(s.undo, s.state, UNDO_STATUS, p, direction)
        s.status[p, direction] = COVERED


@njit(cache=True, nogil=True)
def _undo_to(s, mark):
    while s.state[S_UNDO] > mark:
        at = s.state[S_UNDO] - 1
        kind, cell, direction = s.undo[at, 0], s.undo[at, 1], s.undo[at, 2]
        if kind == UNDO_BLOCK:
            s.blocked[cell] -= 1
        elif kind == UNDO_STATUS:
            s.status[cell, direction] = OPEN
        else:
            s.hand[s.board[cell] - 1] += 1
            s.state[S_LEFT] += 1
            s.board[cell] = 0
            s.status[cell, 0] = NONE
            s.status[cell, 1] = NONE
            s.state[S_TILES] -= 1
        s.state[S_UNDO] = at


@njit(cache=True, nogil=True)
def _hopeless(s, words) -> bool:
    """The carrier-use bounds of the module docstring."""
    left = s.state[S_LEFT]
    if left == 0:
        return False
    room = 0.0
    for letter in range(26):
        if words.carrier[letter] == 1:
            room += 2 * s.hand[letter] * words.rho[letter]
    for t in range(s.state[S_TILES]):
        cell = s.tiles[t]
        letter = s.board[cell] - 1
        if words.carrier[letter] == 1:
            for direction in range(2):
                if s.status[cell, direction] == OPEN:
                    room += words.rho[letter]
    if left > room + 1e-9:
        return True
    return not _exclusive_tiles_hosted(s, words)


@njit(cache=True, nogil=True)
def _exclusive_tiles_hosted(s, words) -> bool:
    """Tiles of the hand no word holds two of (taken greedily, hardest letters first) each need
    a word of their own, and that word a carrier use of one of their letter's hosts: whether
    the carrier uses left can be matched to them (Kuhn's augmenting paths)."""
    scratch = s.scratch
    members = scratch[0]  # letters of the exclusive tiles
    count = 0
    taken = 0  # letters already in the set
    for i in range(26):
        letter = words.hard_order[i]
        if letter < 0:
            break
        for _ in range(s.hand[letter]):
            if words.together[letter] & taken:  # some word holds both (or this letter twice)
                break
            members[count] = letter
            count += 1
            taken |= 1 << letter
    if count == 0:
        return True
    slots = scratch[1]  # the carrier letter of each use left
    used = 0
    for letter in range(26):
        if words.carrier[letter] == 1:
            for _ in range(2 * s.hand[letter]):
                if used < len(slots):
                    slots[used] = letter
                    used += 1
    for t in range(s.state[S_TILES]):
        cell = s.tiles[t]
        letter = s.board[cell] - 1
        if words.carrier[letter] == 1:
            for direction in range(2):
                if s.status[cell, direction] == OPEN and used < len(slots):
                    slots[used] = letter
                    used += 1
    if used < count:
        return False
    owner, seen, stack, slot_at = scratch[2], scratch[3], scratch[4], scratch[5]
    owner[:used] = -1
    for member in range(count):
        seen[:used] = 0
        depth = 0
        stack[0], slot_at[0] = member, 0
        found = False
        while depth >= 0 and not found:
            m = stack[depth]
            advanced = False
            while slot_at[depth] < used:
                j = slot_at[depth]
                slot_at[depth] += 1
                if seen[j] or not (words.hosts[members[m]] >> slots[j]) & 1:
                    continue
                seen[j] = 1
                if owner[j] == -1:  # a free use: each member on the path takes the use it tried last
                    for d in range(depth + 1):
                        owner[slot_at[d] - 1] = stack[d]
                    found = True
                    break
                depth += 1
                stack[depth], slot_at[depth] = owner[j], 0
                advanced = True
                break
            if not advanced and not found:
                depth -= 1
        if not found:
            return False
    return True


@njit(cache=True, nogil=True)
def _add_item(s, words, side, depth, cell, direction, first, last, from_pool, need, present) -> bool:
    """Append (cell, direction) to depth's items with those of its candidate options that
    fit now: pool[first:last] when `from_pool`, else occurrences first..last-1. False when it
    has no option at all, or the pool is full (then OVERFLOW is set)."""
    k = s.items[depth]
    top = s.pool_top[depth]
    board, blocked, status, hand = s.board, s.blocked, s.status, s.hand
    word_letters, word_length, occ_word, mask, pool = words.letters, words.length, words.occ_word, words.mask, s.pool
    occ_offset = words.occ_offset
    step = 1 if direction == 0 else side
    area, row = side * side, cell // side
    s.item_cell[depth, k], s.item_dir[depth, k], s.item_start[depth, k] = cell, direction, top
    for i in range(first, last):
        at = pool[i] if from_pool else i
        if mask[occ_word[at]] & ~present:
            continue
        # Whether word kw fits with its letter `offset` on `cell` (see the module docstring),
        # written out here: a call per candidate cost more than the check itself.
        kw, offset = occ_word[at], occ_offset[at]
        length = word_length[kw]
        start = cell - offset * step
        before, after = start - step, start + length * step
        if before < 0 or after >= area or board[before] != 0 or board[after] != 0:
            continue
        if direction == 0 and (before // side != row or after // side != row):
            continue
        ok = True
        for j in range(length):
            p = start + j * step
            letter = word_letters[kw, j]
            if board[p] != 0:
                if board[p] != letter + 1 or status[p, direction] != OPEN:
                    ok = False
                    break
            elif blocked[p] != 0:
                ok = False
                break
            else:
                need[letter] += 1
                if need[letter] > hand[letter]:
                    ok = False
                    break
        for j in range(length):
            need[word_letters[kw, j]] = 0
        if ok:
            if top == len(s.pool):
                s.state[S_OVERFLOW] = 1
                return False
            s.pool[top] = at
            top += 1
    single = _single_fits(s.board, side, cell, direction)
    s.item_count[depth, k] = top - s.item_start[depth, k]
    s.item_single[depth, k] = 1 if single else 0
    s.items[depth] = k + 1
    s.pool_top[depth] = top
    return top > s.item_start[depth, k] or single


@njit(cache=True, nogil=True)
def _next_items(s, words, side, depth, tiles_before, need) -> bool:
    """Depth + 1's items: depth's, but the one just decided and those no longer open, their
    options filtered (options only ever stop fitting deeper down), then the new tiles' own
    direction. False when some item has no option left (or the pool is full)."""
    nxt = depth + 1
    s.items[nxt] = 0
    s.pool_top[nxt] = s.pool_top[depth]
    present = 0
    for letter in range(26):
        if s.hand[letter] > 0:
            present |= 1 << letter
    for t in range(s.state[S_TILES]):
        present |= 1 << (s.board[s.tiles[t]] - 1)
    for k in range(s.items[depth]):
        cell, direction = s.item_cell[depth, k], s.item_dir[depth, k]
        if k == s.chosen_item[depth] or s.status[cell, direction] != OPEN:
            continue
        first = s.item_start[depth, k]
        if not _add_item(
            s, words, side, nxt, cell, direction, first, first + s.item_count[depth, k], True, need, present
        ):
            return False
    for t in range(tiles_before, s.state[S_TILES]):
        cell = s.tiles[t]
        direction = 0 if s.status[cell, 0] == OPEN else 1
        letter = s.board[cell] - 1
        first, last = words.occ_start[letter], words.occ_start[letter + 1]
        if not _add_item(s, words, side, nxt, cell, direction, first, last, False, need, present):
            return False
    return True


@njit(cache=True, nogil=True)
def word_search(s, words, hard: int, node_limit: int) -> int:
    """Run the search from where it stopped for up to `node_limit` more decisions; returns the
    status (FOUND leaves the grid on the board; calling again looks for the next; OVERFLOW:
    the option pool ran out, no claim)."""
    state = s.state
    side = int(np.sqrt(len(s.board)))
    need = np.zeros(26, dtype=np.int64)
    if state[S_STATUS] == RUNNING and state[S_NODES] == 0 and state[S_DEPTH] == 0:
        # Depth 0 decides the first word: across, with a tile of the hardest letter mid-board.
        centre = (side // 2) * side + side // 2
        s.items[0], s.item_cell[0, 0], s.item_dir[0, 0] = 1, centre, 0
        s.item_start[0, 0] = 0
        s.item_count[0, 0] = words.occ_start[hard + 1] - words.occ_start[hard]
        s.item_single[0, 0] = 0
        for i in range(s.item_count[0, 0]):
            s.pool[i] = words.occ_start[hard] + i
        s.pool_top[0] = s.item_count[0, 0]
        s.chosen_item[0], s.option[0], s.mark[0] = 0, 0, 0
    limit = state[S_NODES] + node_limit
    depth = state[S_DEPTH]
    state[S_STATUS] = RUNNING
    while True:
        if state[S_OVERFLOW] == 1:
            state[S_STATUS] = OVERFLOW
            return OVERFLOW
        if state[S_NODES] >= limit:
            state[S_DEPTH] = depth
            state[S_STATUS] = PAUSED
            return PAUSED
        if depth < 0:
            state[S_DEPTH] = 0
            state[S_STATUS] = EXHAUSTED
            return EXHAUSTED
        _undo_to(s, s.mark[depth])
        k = s.chosen_item[depth]
        cell, direction = s.item_cell[depth, k], s.item_dir[depth, k]
        count = s.item_count[depth, k]
        o = s.option[depth]
        if o > count or (o == count and s.item_single[depth, k] == 0):
            depth -= 1
            continue
        s.option[depth] = o + 1
        state[S_NODES] += 1
        tiles_before = state[S_TILES]
        if o == count:  # the last option: the tile alone that way
            step = 1 if direction == 0 else side
            s.status[cell, direction] = SINGLE
            _log(s.undo, s.state, UNDO_STATUS, cell, direction)
            _block(s.blocked, s.undo, s.state, cell - step)
            _block(s.blocked, s.undo, s.state, cell + step)
        else:
            at = s.pool[s.item_start[depth, k] + o]
            _lay(s, words, side, cell, direction, words.occ_word[at], words.occ_offset[at])
        if _hopeless(s, words):
            continue
        if not _next_items(s, words, side, depth, tiles_before, need):
            continue
        nxt = depth + 1
        if s.items[nxt] == 0:  # nothing open
            if state[S_LEFT] == 0:
                state[S_DEPTH] = depth
                state[S_STATUS] = FOUND
                return FOUND
            continue
        best, best_count = 0, 1 << 60
        for i in range(s.items[nxt]):
            options = s.item_count[nxt, i] + s.item_single[nxt, i]
            if options < best_count:
                best, best_count = i, options
        depth = nxt
        s.chosen_item[depth], s.option[depth], s.mark[depth] = best, 0, state[S_UNDO]


def hardest_letter(words: Words, counts: np.ndarray) -> int:
    """The hand's letter that occurs in the fewest words (ties: alphabetical)."""
    present = [code for code in range(26) if counts[code] > 0]
    return min(present, key=lambda code: (int(words.occ_start[code + 1] - words.occ_start[code]), code))


MAX_WORDS = 3_000  # a hand that spells more words is declined (see WordSearch)
WALK_BUDGET = 2_000_000  # DAWG steps spent counting them


def _spelled_count(counts: np.ndarray, lexicon, min_length: int) -> int:
    """How many words the hand spells, or -1 when more than MAX_WORDS (or too long to count)."""
    from solver.search import kernels as K

    out = np.zeros((MAX_WORDS, 26), dtype=np.int8)
    graph = K.graph_of(lexicon.forward, lexicon.reverse)
    return int(K.word_letter_counts(counts.astype(np.int64).copy(), min_length, WALK_BUDGET, graph, out))


class WordSearch:
    """One hand's search, run in calls that each stop at a deadline and resume where it
    paused: `run` returns (status, grid or None, decisions so far), status 'solved' with a
    grid, 'no-grid' when the search is complete without one, 'timeout' when the deadline
    (perf_counter) or the node budget came first."""

    def __init__(self, tiles, lexicon, min_length: int):
        self.counts = tiles.counts.astype(np.int64)
        # A hand that spells very many words is vowel-rich: the move model's ground, and
        # listing them would cost more than the deadline allows. The search declines it.
        self.declined = _spelled_count(self.counts, lexicon, min_length) < 0
        spelled = [] if self.declined or len(tiles) < 2 else lexicon.formable_words(tiles, min_length)
        spelled = [word.upper() for word in spelled]
        self.empty = not spelled and not self.declined  # no word at all (or one tile): no grid
        hand_letters = {chr(65 + code) for code in range(26) if self.counts[code] > 0}
        self.words = word_arrays(spelled, hand_letters)
        self.search = new_search(self.counts)
        self.hard = hardest_letter(self.words, self.counts)
        self.slice_nodes = 2_000

    @property
    def decisions(self) -> int:
        return int(self.search.state[S_NODES])

    def run(self, deadline: float, node_budget: int | None = None) -> tuple:
        import time

        from solver.core.grid import Grid

        if self.declined:
            return "timeout", None, 0
        if self.empty:
            return "no-grid", None, 0
        s = self.search
        while True:
            if node_budget is not None:
                self.slice_nodes = max(1, min(self.slice_nodes, node_budget - self.decisions))
            started = time.perf_counter()
            status = word_search(s, self.words, self.hard, self.slice_nodes)
            if status == FOUND:
                side = int(np.sqrt(len(s.board)))
                cells = {(int(k) // side, int(k) % side): chr(64 + int(s.board[k])) for k in np.nonzero(s.board)[0]}
                return "solved", Grid.from_cells(cells), self.decisions
            if status == EXHAUSTED:
                return "no-grid", None, self.decisions
            if status == OVERFLOW:
                return "timeout", None, self.decisions
            now = time.perf_counter()
            if now >= deadline or (node_budget is not None and self.decisions >= node_budget):
                return "timeout", None, self.decisions
            per_node = (now - started) / max(self.slice_nodes, 1)
            budget = min((deadline - now) / 4, 0.02)
            self.slice_nodes = int(max(100, min(self.slice_nodes * 2, budget / max(per_node, 1e-9))))


def word_search_grid(tiles, lexicon, min_length: int, deadline: float, node_budget: int | None = None):
    """`WordSearch(tiles, lexicon, min_length).run(deadline, node_budget)`."""
    return WordSearch(tiles, lexicon, min_length).run(deadline, node_budget)
