"""The word search's kernel: a complete search over crossing words for hands of up to 21 tiles.

`solver.search.wordsearch` is its Python side (the word arrays, the slices) and explains the
pruning. Its names carry WS_ / _ws_: the move search's state slots and undo kinds (`layout`)
are other arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.search.kernels.resumable import SEARCH_RUNNING, pause_or_exhaust
from solver.search.kernels.wordbounds import (
    _ws_bound_spent,
    _ws_group_fit,
    _ws_hopeless,
    _ws_hosts_short,
    _ws_items_hopeless,
    _ws_letter_room,
    _ws_list_host_uses,
)
from solver.search.kernels.wordslots import (  # noqa: F401 (re-exported: the word search's Python side reads them here)
    ANY_DIRECTION,
    FROM_OCCURRENCES,
    FROM_POOL,
    NO_DEPTH,
    NO_LETTER,
    NO_LETTERS,
    NO_WORD,
    WS_COVERED,
    WS_DEPTH,
    WS_EXHAUSTED,
    WS_FOUND,
    WS_GROUPS,
    WS_LEFT,
    WS_NODES,
    WS_NONE,
    WS_OPEN,
    WS_OVERFLOW,
    WS_OVERFLOW_AT,
    WS_PAUSED,
    WS_POOL,
    WS_RUNNING,
    WS_SINGLE,
    WS_STATE_SIZE,
    WS_STATUS,
    WS_TILES,
    WS_UNDO,
    WS_UNDO_BLOCK,
    WS_UNDO_STATUS,
    WS_UNDO_TILE,
    WS_WEIGHTS,
)
from solver.search.native import njit  # numba.njit, bound on first use (see native)


class SpelledWords(NamedTuple):
    """The words the hand spells, as arrays, and where each letter occurs in them."""

    letters: np.ndarray  # int64[words, longest]: letter codes 0..25
    length: np.ndarray  # int64[words]
    occ_word: np.ndarray  # int64[occurrences]: word of each occurrence, grouped by letter
    occ_offset: np.ndarray  # int64[occurrences]: its position in the word
    occ_start: np.ndarray  # int64[27]: letter l's occurrences are occ_start[l]..occ_start[l+1]
    carrier: np.ndarray  # int64[26]: 1 for a carrier letter
    mask: np.ndarray  # int64[words]: the letters of each word, one bit each
    rho: np.ndarray  # float64[26]: carrier c's weight: every word's carrier tiles weigh its length - 1 or more
    together: np.ndarray  # int64[26]: letters some word holds beside letter l (bit l: l twice)
    hosts: np.ndarray  # int64[26]: carrier letters one of which every word holding l holds
    hard_order: np.ndarray  # int64[26]: non-carrier letters, in fewest words first
    occ_rest: np.ndarray  # int64[occurrences]: the word's letters but the one occurrence, one bit each ...
    occ_rest_twice: np.ndarray  # ... and those it still holds twice or more (the fit's quick test)
    share: np.ndarray  # float64[words]: (length - 1) / carrier tiles of each word
    by_share: np.ndarray  # int64[...]: the words holding carrier c and no other carrier letter, largest share first ...
    by_share_start: np.ndarray  # int64[27]: ... c's are by_share[by_share_start[c]:by_share_start[c + 1]]
    weight: np.ndarray  # float64[rows, 26]: each row a signed weight per letter: every word's letters weigh its
    # length - 1 or more (the letter-use bound; the state takes the row of least room: `_ws_letter_rooms_short`)
    mixed: np.ndarray  # int64[...]: the words holding two carrier letters or more, by their carrier tiles, ...
    mixed_start: np.ndarray  # int64[patterns + 1]: ... longest first within each pattern: mixed[start[p]:start[p + 1]]
    tally: np.ndarray  # int64[words, longest]: each word's distinct letters as code * 32 + count, then -1
    letter_groups: np.ndarray  # int64[26]: the groups of non-carrier letter l (bit g: hosts[l] within g's carriers)
    carrier_groups: np.ndarray  # int64[26]: the groups whose carriers include letter c, one bit each
    group_carriers: np.ndarray  # int64[WS_GROUPS]: each group's carriers, one bit each (0: no group, and none after)
    group_cap: np.ndarray  # float64[WS_GROUPS]: the most tiles of g's letters a word holds per tile of g's carriers
    by_group: np.ndarray  # int64[...]: the words holding a carrier of group g, most of g's tiles per carrier tile first
    by_group_start: np.ndarray  # int64[WS_GROUPS + 1]: ... g's are by_group[by_group_start[g]:by_group_start[g + 1]]
    banned: np.ndarray  # int64[words]: 1 for a word no grid holds (`WordSearch` bans a root option's word once
    # its search has ended without a grid), skipped as an option from then on
    charge: np.ndarray  # float64[rows, words]: what each word's letters weigh by each row of `weight`, counting
    # only weights >= 0: the most laying it takes from that row's letter room (the lookahead's quick test)


class WordSearchState(NamedTuple):
    """The search's arrays: the board, the statuses, the undo log and the decision stack."""

    board: np.ndarray  # int64[side*side]: 0 empty, 1..26 letters
    blocked: np.ndarray  # int64[side*side]: how many decisions keep the cell empty
    status: np.ndarray  # int64[side*side, 2]: WS_NONE/WS_OPEN/WS_COVERED/WS_SINGLE across (0) and down (1)
    hand: np.ndarray  # int64[26]: letters not laid yet
    state: np.ndarray  # int64[WS_STATE_SIZE]
    tiles: np.ndarray  # int64[tiles]: the cells holding tiles, in the order laid
    undo: np.ndarray  # int64[entries, 3]: kind, cell, direction
    item_cell: np.ndarray  # int64[depths, items]: each depth's open (tile, direction)s ...
    item_dir: np.ndarray
    item_start: np.ndarray  # ... the options that fit there: pool[start:start + count] ...
    item_count: np.ndarray
    item_single: np.ndarray  # ... and whether the tile may stay alone that way
    items: np.ndarray  # int64[depths]: how many
    pool: np.ndarray  # int64[WS_POOL]: occurrences (options), each depth's lists after the one before
    pool_top: np.ndarray  # int64[depths]: the pool's end after each depth's lists
    scratch: np.ndarray  # int64[12, SCRATCH]: the exclusive tiles' matching (0-5, 7), carrier uses (6), hosts' (8-9),
    # per group (10): its letters' tiles in the hand (g), its carriers' uses (8 + g), the groups with tiles (26)
    # and the letter uses left (11: `_ws_count_letter_uses`)
    chosen_item: np.ndarray  # int64[depths]: the item decided at each depth
    option: np.ndarray  # int64[depths]: the next of its options to try
    mark: np.ndarray  # int64[depths]: the undo log's length before the depth's choice
    item_share: np.ndarray  # float64[depths, items]: the most new tiles an option of the item lays beyond its new
    # carrier tiles' weights (rho_now), per tile and at least 0 each
    rho_now: np.ndarray  # float64[26]: the weights as the hand left allows (`_ws_supplied_weights`)
    item_mask: np.ndarray  # int64[depths, items]: the letters of the item's options' words, one bit each
    group_now: np.ndarray  # float64[WS_GROUPS]: group_cap as the hand left allows
    item_bound: np.ndarray  # float64[depths, items, WS_GROUPS]: per group whose carriers hold the item's letter, the
    # most new tiles of the group's letters an option lays per tile of the group's carriers it holds
    item_excess: np.ndarray  # float64[depths, items]: the most new tiles an option of the item lays beyond their
    # letters' weights, per tile and at least 0 each (the letter-use bound's charge for the item's use) ...
    weight_row: np.ndarray  # int64[depths]: ... the row of words.weight those are (state[WS_WEIGHTS] when listed)


@njit(cache=True, nogil=True, _nrt=False)
def _ws_single_fits(board, side, cell, direction) -> bool:
    step = 1 if direction == 0 else side
    return board[cell - step] == 0 and board[cell + step] == 0


@njit(cache=True, nogil=True, _nrt=False)
def _ws_log(undo, state, kind, cell, direction):
    at = state[WS_UNDO]
    undo[at, 0], undo[at, 1], undo[at, 2] = kind, cell, direction
    state[WS_UNDO] = at + 1


@njit(cache=True, nogil=True, _nrt=False)
def _ws_block(blocked, undo, state, cell):
    blocked[cell] += 1
    _ws_log(undo, state, WS_UNDO_BLOCK, cell, ANY_DIRECTION)


@njit(cache=True, nogil=True, _nrt=False)
def _ws_lay(s, words, side, cell, direction, k, offset):
    """Lay word k as `_ws_add_item` found it fits, logging every change."""
    step = 1 if direction == 0 else side
    length = words.length[k]
    start = cell - offset * step
    _ws_block(s.blocked, s.undo, s.state, start - step)
    _ws_block(s.blocked, s.undo, s.state, start + length * step)
    for j in range(length):
        p = start + j * step
        if s.board[p] == 0:
            letter = words.letters[k, j]
            s.board[p] = letter + 1
            s.hand[letter] -= 1
            s.state[WS_LEFT] -= 1
            s.tiles[s.state[WS_TILES]] = p
            s.state[WS_TILES] += 1
            s.status[p, 1 - direction] = WS_OPEN
            _ws_log(s.undo, s.state, WS_UNDO_TILE, p, direction)
        else:
            _ws_log(s.undo, s.state, WS_UNDO_STATUS, p, direction)
        s.status[p, direction] = WS_COVERED


@njit(cache=True, nogil=True, _nrt=False)
def _ws_undo_to(s, mark):
    while s.state[WS_UNDO] > mark:
        at = s.state[WS_UNDO] - 1
        kind, cell, direction = s.undo[at, 0], s.undo[at, 1], s.undo[at, 2]
        if kind == WS_UNDO_BLOCK:
            s.blocked[cell] -= 1
        elif kind == WS_UNDO_STATUS:
            s.status[cell, direction] = WS_OPEN
        else:
            s.hand[s.board[cell] - 1] += 1
            s.state[WS_LEFT] += 1
            s.board[cell] = 0
            s.status[cell, 0] = WS_NONE
            s.status[cell, 1] = WS_NONE
            s.state[WS_TILES] -= 1
        s.state[WS_UNDO] = at


@njit(cache=True, nogil=True, _nrt=False)
def _ws_reach(s, side, cell, direction) -> tuple:
    """Cells before and after `cell` along `direction` that a word through it may cover (not
    blocked, on the board and, across, in its row), and the letters of the tiles among them
    (one bit each): what `_ws_add_item`'s quick test needs."""
    step = 1 if direction == 0 else side
    area, row = side * side, cell // side
    line = 0
    before = after = 0
    for way in (-step, step):
        p, cells = cell + way, 0
        while 0 <= p < area and (direction == 1 or p // side == row) and s.blocked[p] == 0:
            cells += 1
            if s.board[p] != 0:
                line |= 1 << (s.board[p] - 1)
            p += way
        if way < 0:
            before = cells
        else:
            after = cells
    return before, after, line


@njit(cache=True, nogil=True, _nrt=False)
def _ws_add_item(
    s, words, side, depth, cell, direction, first, last, from_pool, need, in_hand, room, every, rows
) -> bool:
    """Append (cell, direction) to depth's items with those of its candidate options that
    fit now: pool[first:last] when `from_pool`, else occurrences first..last-1. False when it
    has no option at all, or the pool is full (then WS_OVERFLOW is set). `in_hand`: the letters
    the hand holds one of (bits 0-25) and two or more of (bits 26-51). `room`: the carrier
    room of the state (`_ws_hopeless`, with rho_now), `every` its letter room (`_ws_letter_room`,
    with the state's row of weights), `rows` the other rows' (`_ws_tight_rows`);
    an option that would leave the tiles left above either is left out, as trying it would prune
    it: each carrier tile of a word, on the board or laid by it, takes one carrier use, and each
    of its tiles one use of its letter. Sound deeper down too: what is reachable from a deeper
    state with the option laid is reachable from this one with it."""
    k = s.items[depth]
    top = s.pool_top[depth]
    board, blocked, status, hand = s.board, s.blocked, s.status, s.hand
    word_letters, word_length, occ_word, mask, pool = words.letters, words.length, words.occ_word, words.mask, s.pool
    occ_offset, occ_rest, occ_rest_twice = words.occ_offset, words.occ_rest, words.occ_rest_twice
    carrier, rho_now, weight = words.carrier, s.rho_now, words.weight[s.weight_row[depth]]
    slack = s.scratch[9, 26]
    bound_groups = s.scratch[10, 26]  # the groups with tiles left (`_ws_bound_short`)
    carrier_groups = words.carrier_groups
    step = 1 if direction == 0 else side
    area, row = side * side, cell // side
    left = s.state[WS_LEFT]
    s.item_cell[depth, k], s.item_dir[depth, k], s.item_start[depth, k] = cell, direction, top
    # The quick test, before the fit cell by cell (most candidates fail it: the hand has run
    # out of a letter they need): a word's cells lie within the reach, and each letter it needs
    # besides the one on `cell` comes from the hand or from a tile on the line (twice: the hand
    # holds two, or a tile helps).
    room_before, room_after, line = _ws_reach(s, side, cell, direction)
    best_share = best_excess = 0.0
    cell_groups = carrier_groups[board[cell] - 1] & bound_groups  # the item's `item_bound`s
    g = 0
    while cell_groups >> g:
        s.item_bound[depth, k, g] = 0.0
        g += 1
    letters = 0  # of the options' words
    once = (in_hand & 0x3FFFFFF) | line
    twice = (in_hand >> 26) | line
    for i in range(first, last):
        at = pool[i] if from_pool else i
        # First the letters, from the occurrence's own arrays (read in order when listing a new
        # tile's): 96-99% of a new tile's candidates fail here on the hard hands. (All the word's
        # letters are then on the board or in the hand: the cell's is on the board.)
        if occ_rest[at] & ~once or occ_rest_twice[at] & ~twice:
            continue
        kw, offset = occ_word[at], occ_offset[at]
        length = word_length[kw]
        if offset > room_before or length - 1 - offset > room_after or words.banned[kw] != 0:
            continue
        # Whether word kw fits with its letter `offset` on `cell` (see `solver.search.wordsearch`),
        # written out here: a call per candidate cost more than the check itself.
        start = cell - offset * step
        before, after = start - step, start + length * step
        if before < 0 or after >= area or board[before] != 0 or board[after] != 0:
            continue
        if direction == 0 and (before // side != row or after // side != row):
            continue
        ok = True
        fresh = 0
        spent = 0.0  # the carrier room the word's carrier tiles take ...
        carried = 0  # ... and how many they are
        weighed = 0.0  # the letter room its tiles take
        # What its new tiles lay beyond their weights, carriers' (rho_now) and letters', counted
        # per tile and never below 0 for one: a later word through the item may find some of
        # these cells filled, and must then be charged no more (`item_share`, `item_excess`).
        excess_carrier = excess_letters = 0.0
        for j in range(length):
            p = start + j * step
            letter = word_letters[kw, j]
            weighed += max(weight[letter], 0.0)  # (a signed weight < 0: only where the tile is new)
            if carrier[letter] == 1:
                spent += rho_now[letter]
                carried += 1
            if board[p] != 0:
                if board[p] != letter + 1 or status[p, direction] != WS_OPEN:
                    ok = False
                    break
            elif blocked[p] != 0:
                ok = False
                break
            else:
                fresh += 1
                weighed += min(weight[letter], 0.0)
                excess_letters += max(1.0 - weight[letter], 0.0)
                excess_carrier += max(1.0 - rho_now[letter], 0.0) if carrier[letter] == 1 else 1.0
                need[letter] += 1
                if need[letter] > hand[letter]:
                    ok = False
                    break
        if ok and left > 0 and (left - fresh > room - spent + 1e-9 or left - fresh > every - weighed + 1e-9):
            ok = False
        if ok and left > 0 and carried > slack and _ws_hosts_short(s, words, kw, need, NO_LETTER):
            ok = False
        if ok and left > 0:
            ok = not _ws_rows_short(words, rows, kw, need, left - fresh)
        if ok and bound_groups != 0:
            ok = _ws_group_fit(s, words, need, kw, left, bound_groups, cell_groups, depth, k)
        for j in range(length):
            need[word_letters[kw, j]] = 0
        if ok:
            if top == len(pool):
                s.state[WS_OVERFLOW_AT] = 1
                return False
            pool[top] = at
            top += 1
            letters |= mask[kw]
            if excess_carrier > best_share:
                best_share = excess_carrier
            if excess_letters > best_excess:
                best_excess = excess_letters
    single = _ws_single_fits(board, side, cell, direction)
    letter = board[cell] - 1
    if single and left > 0 and left > every - max(weight[letter], 0.0) + 1e-9:  # its use gone, the room falls short
        single = False
    if single and left > 0 and _ws_rows_short_alone(words, rows, letter, left):  # likewise by another row
        single = False
    if single and left > 0 and carrier[letter] == 1:
        # its use gone, the carrier bound or a letter's hosts fall short
        short = slack < 1 and _ws_hosts_short(s, words, NO_WORD, need, letter)
        groups = carrier_groups[letter] & bound_groups
        if groups != 0:
            for g in range(WS_GROUPS):
                need[34 + g] = (groups >> g) & 1
            short = short or _ws_bound_spent(s, need)
            for g in range(WS_GROUPS):
                need[34 + g] = 0
        single = not (left > room - rho_now[letter] + 1e-9 or short)
    s.item_count[depth, k] = top - s.item_start[depth, k]
    s.item_single[depth, k] = 1 if single else 0
    s.item_share[depth, k] = best_share
    s.item_excess[depth, k] = best_excess
    s.item_mask[depth, k] = letters
    s.items[depth] = k + 1
    s.pool_top[depth] = top
    return top > s.item_start[depth, k] or single


@njit(cache=True, nogil=True, _nrt=False)
def _ws_rows_short(words, rows, kw, need, left) -> bool:
    """Whether laying word kw (its new tiles counted by letter in `need`), leaving `left` tiles,
    leaves the letter room of one of the state's tight rows of weights short (`_ws_tight_rows`):
    its tiles take each row's weights >= 0, and a new tile of a letter of weight < 0 leaves the
    hand, so the room grows by that weight. (The state's own row is checked as the fit is.)"""
    for i in range(rows.tight[0]):
        row = rows.tight[1 + i]
        weighed = words.charge[row, kw]
        if left <= rows.room[row] - weighed + 1e-9:
            continue  # even before the new tiles' weights < 0 give room back
        for j in range(words.length[kw]):
            entry = words.tally[kw, j]
            if entry < 0:
                break
            weighed += min(words.weight[row, entry >> 5], 0.0) * need[entry >> 5]
        if left > rows.room[row] - weighed + 1e-9:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _ws_rows_short_alone(words, rows, letter, left) -> bool:
    """Whether a tile of `letter` left alone one way (that use of it gone) leaves the letter room
    of one of the state's tight rows short of the `left` tiles."""
    for i in range(rows.tight[0]):
        row = rows.tight[1 + i]
        if left > rows.room[row] - max(words.weight[row, letter], 0.0) + 1e-9:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _ws_tight_rows(s, words, rows, row_now) -> None:
    """Each row's letter room in the state (`_ws_letter_room`), and the rows but `row_now` that
    some word's weights >= 0 could leave short (`rows.tight`: how many, then which): the others
    cannot prune an option of this state."""
    left = s.state[WS_LEFT]
    rows.tight[0] = 0
    for row in range(len(rows.room)):
        rows.room[row] = _ws_letter_room(s, words, row)
        if row != row_now and rows.room[row] - left < rows.most[row] + 1e-9:
            rows.tight[1 + rows.tight[0]] = row
            rows.tight[0] += 1


class RowRooms(NamedTuple):
    """The letter room of each row of weights in the state being listed (`_ws_tight_rows`)."""

    room: np.ndarray  # float64[rows]: the row's room in the state
    most: np.ndarray  # float64[rows]: the most any word takes of it (the largest of words.charge[row])
    tight: np.ndarray  # int64[rows + 1]: how many rows some word could leave short, then which


@njit(cache=True, nogil=True, _nrt=False)
def _ws_most_charges(words, most) -> None:
    """`RowRooms.most`: the largest of each row's words.charge."""
    for row in range(len(most)):
        most[row] = 0.0
        for kw in range(words.charge.shape[1]):
            most[row] = max(most[row], words.charge[row, kw])


@njit(cache=True, nogil=True, _nrt=False)
def _ws_next_items(s, words, side, depth, tiles_before, need, rows) -> bool:
    """Depth + 1's items: depth's, but the one just decided and those no longer open, their
    options filtered (options only ever stop fitting deeper down), then the new tiles' own
    direction. False when some item has no option left (or the pool is full)."""
    nxt = depth + 1
    s.items[nxt] = 0
    s.pool_top[nxt] = s.pool_top[depth]
    in_hand = NO_LETTERS
    for letter in range(26):
        if s.hand[letter] > 0:
            in_hand |= 1 << letter
        if s.hand[letter] > 1:
            in_hand |= 1 << (26 + letter)
    room = 0.0  # the carrier room as `_ws_hopeless` left it (its uses and rho_now are this state's)
    for letter in range(26):
        room += s.scratch[6, letter] * s.rho_now[letter]
    s.weight_row[nxt] = s.state[WS_WEIGHTS]
    every = _ws_letter_room(s, words, s.weight_row[nxt])
    _ws_tight_rows(s, words, rows, s.weight_row[nxt])
    _ws_list_host_uses(s, words)
    for k in range(s.items[depth]):
        cell, direction = s.item_cell[depth, k], s.item_dir[depth, k]
        if k == s.chosen_item[depth] or s.status[cell, direction] != WS_OPEN:
            continue
        first = s.item_start[depth, k]
        last = first + s.item_count[depth, k]
        if not _ws_add_item(
            s, words, side, nxt, cell, direction, first, last, FROM_POOL, need, in_hand, room, every, rows
        ):
            return False
    for t in range(tiles_before, s.state[WS_TILES]):
        cell = s.tiles[t]
        direction = 0 if s.status[cell, 0] == WS_OPEN else 1
        letter = s.board[cell] - 1
        first, last = words.occ_start[letter], words.occ_start[letter + 1]
        listed = _ws_add_item(
            s, words, side, nxt, cell, direction, first, last, FROM_OCCURRENCES, need, in_hand, room, every, rows
        )
        if not listed:
            return False
    return True


@njit(cache=True, nogil=True)
def word_search(s, words, hard: int, node_limit: int) -> int:
    """Run the search from where it stopped for up to `node_limit` more decisions; returns the
    status (WS_FOUND leaves the grid on the board; calling again looks for the next; WS_OVERFLOW:
    the option pool ran out, no claim)."""
    state = s.state
    side = int(np.sqrt(len(s.board)))
    need = np.zeros(26 + 16, dtype=np.int64)  # letters, then groups' tiles and uses (`_ws_add_item`)
    count = words.weight.shape[0]
    rows = RowRooms(np.zeros(count), np.zeros(count), np.zeros(count + 1, dtype=np.int64))
    _ws_most_charges(words, rows.most)
    if state[WS_STATUS] == WS_RUNNING and state[WS_NODES] == 0 and state[WS_DEPTH] == 0:
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
    limit = state[WS_NODES] + node_limit
    depth = state[WS_DEPTH]
    state[WS_STATUS] = WS_RUNNING
    while True:
        if state[WS_OVERFLOW_AT] == 1:
            state[WS_STATUS] = WS_OVERFLOW
            return WS_OVERFLOW
        stop = pause_or_exhaust(state, depth, limit)
        if stop != SEARCH_RUNNING:
            return stop
        _ws_undo_to(s, s.mark[depth])
        k = s.chosen_item[depth]
        cell, direction = s.item_cell[depth, k], s.item_dir[depth, k]
        count = s.item_count[depth, k]
        o = s.option[depth]
        if o > count or (o == count and s.item_single[depth, k] == 0):
            depth -= 1
            continue
        s.option[depth] = o + 1
        if o < count and words.banned[words.occ_word[s.pool[s.item_start[depth, k] + o]]] != 0:
            continue  # banned since it was listed: no grid holds the word
        state[WS_NODES] += 1
        tiles_before = state[WS_TILES]
        if o == count:  # the last option: the tile alone that way
            step = 1 if direction == 0 else side
            s.status[cell, direction] = WS_SINGLE
            _ws_log(s.undo, s.state, WS_UNDO_STATUS, cell, direction)
            _ws_block(s.blocked, s.undo, s.state, cell - step)
            _ws_block(s.blocked, s.undo, s.state, cell + step)
        else:
            at = s.pool[s.item_start[depth, k] + o]
            _ws_lay(s, words, side, cell, direction, words.occ_word[at], words.occ_offset[at])
        if _ws_hopeless(s, words):
            continue
        if not _ws_next_items(s, words, side, depth, tiles_before, need, rows):
            continue
        if _ws_items_hopeless(s, words, depth + 1):
            continue
        nxt = depth + 1
        if s.items[nxt] == 0:  # nothing open
            if state[WS_LEFT] == 0:
                state[WS_DEPTH] = depth
                state[WS_STATUS] = WS_FOUND
                return WS_FOUND
            continue
        best, best_count = 0, 1 << 60
        for i in range(s.items[nxt]):
            options = s.item_count[nxt, i] + s.item_single[nxt, i]
            if options < best_count:
                best, best_count = i, options
        depth = nxt
        s.chosen_item[depth], s.option[depth], s.mark[depth] = best, 0, state[WS_UNDO]
