"""Move generation: every word a move may lay from the anchors of a position, scored for the
search's ordering (`movesearch` calls it; `solver.search.reference.generate_moves_reference`
is the plain-Python twin it is tested against; the arrays' layouts are in `layout`).
"""

from __future__ import annotations

import numpy as np

from solver.search.kernels.layout import (
    A_DIR,
    A_LINE,
    A_POS,
    A_PREVIOUS,
    C_LETTERS,
    C_MOVES,
    C_TRUNCATED,
    HASH_MASK,
    M_CELL,
    M_DIR,
    M_LEN,
    M_LETTERS,
    M_NEW,
    MAX_WORD,
    REACH,
    ST_GEN_BUDGET,
    ST_HAND,
    ST_MAX_BRANCH,
    ST_MIN_LEN,
    ST_SIDE,
    START_STEPS_FLOOR,
    VOWELS_MASK,
    WALK_FIXED,
    WALK_NEW,
    WALK_NODE,
    WALK_SIDE,
    WALK_TOUCH,
    WALK_TRIED,
    WALK_WORD,
)
from solver.search.kernels.spelling import bit_code
from solver.search.native import njit  # numba.njit, bound on first use (see native)


@njit(cache=True, nogil=True, _nrt=False)
def _record_move(
    moves,
    scores,
    letters,
    cursor,
    rng,
    ordering,
    word,
    start_cell,
    direction,
    length,
    new_count,
    weight,
    vowels_left,
    consonants_left,
    side_words,
):
    """Append `word` as a move with its ordering score (see `Ordering`) at the generation
    cursor; returns False when the buffers are full. Arrays as in `_walk_words`."""
    move_count, letter_top = cursor[C_MOVES], cursor[C_LETTERS]
    if move_count >= moves.shape[0] or letter_top + length > letters.shape[0]:
        return False
    moves[move_count, M_CELL] = start_cell
    moves[move_count, M_DIR] = direction
    moves[move_count, M_LEN] = length
    moves[move_count, M_LETTERS] = letter_top
    moves[move_count, M_NEW] = new_count
    for i in range(length):
        letters[letter_top + i] = word[i]
    score = weight + ordering.per_tile * new_count - ordering.side_word * side_words
    left = vowels_left + consonants_left
    if left > 0:
        if vowels_left == 0 or consonants_left == 0:
            score -= ordering.one_sided_leave * left
        else:
            score -= ordering.balance * abs(consonants_left - 2 * vowels_left)
    if ordering.noise > 0.0:
        rng[0] = (int(rng[0]) * 6364136223846793005 + 1442695040888963407) & HASH_MASK
        score += ordering.noise * ((rng[0] >> 20) & 0xFFFF) / 65536.0
    scores[move_count] = score
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _hand_summary(hand):
    """(mask of letters present, vowel tiles, consonant tiles)."""
    mask = 0
    vowels = 0
    consonants = 0
    for code in range(26):
        if hand[code] > 0:
            mask |= 1 << code
            if VOWELS_MASK & (1 << code):
                vowels += hand[code]
            else:
                consonants += hand[code]
    return mask, vowels, consonants


@njit(cache=True, nogil=True, _nrt=False)
def _list_anchors(ws):
    """Fill ws.anchors with (direction, line, pos, previous anchor pos) rows for the box
    ws.bbox; return the count, or -1 when the table is full.

    An anchor is a cell a new word along the line must reach: a tile, or an empty cell
    with a perpendicular neighbour (a hook). Lines outside bbox +-1 have none.
    """
    grid, bbox, anchors = ws.grid, ws.bbox, ws.anchors
    side = ws.state[ST_SIDE]
    hand_count = ws.state[ST_HAND]
    count = 0
    for direction in range(2):
        step = 1 if direction == 0 else side
        perp = side if direction == 0 else 1
        if direction == 0:
            line_lo, line_hi, pos_lo, pos_hi = bbox[0] - 1, bbox[1] + 1, bbox[2] - 1, bbox[3] + 1
        else:
            line_lo, line_hi, pos_lo, pos_hi = bbox[2] - 1, bbox[3] + 1, bbox[0] - 1, bbox[1] + 1
        for line in range(line_lo, line_hi + 1):
            base = line * side if direction == 0 else line
            previous = max(bbox[2] if direction == 0 else bbox[0], 1 + hand_count) - hand_count - 1
            for pos in range(pos_lo, pos_hi + 1):
                cell = base + pos * step
                if grid[cell] != 0 or grid[cell - perp] != 0 or grid[cell + perp] != 0:
                    if count >= anchors.shape[0]:
                        return -1
                    anchors[count, A_DIR] = direction
                    anchors[count, A_LINE] = line
                    anchors[count, A_POS] = pos
                    anchors[count, A_PREVIOUS] = previous
                    previous = pos
                    count += 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def generate_moves(ws, graph, ordering, move_base, letter_base):
    """All moves from the current position (tiles inside ws.bbox) into moves[move_base:],
    letters[letter_base:].

    A move is a word along one line that places at least one hand tile, touches the grid
    (runs through a tile or hooks onto one) and keeps every cross word valid. Start
    squares are taken nearest their anchor first, so when the step budget
    (state[ST_GEN_BUDGET], split evenly over the anchors) cuts generation short, the
    moves kept are the ones anchored closest. Returns (move_end, letter_end, truncated).
    """
    return _generate(ws, graph, ordering, move_base, letter_base, np.int64(0))


@njit(cache=True, nogil=True, _nrt=False)
def hardest_letter(hand, letter_weight):
    """Code of the hand's hardest letter: the highest weight, the first in the alphabet
    among equals (0 for an empty hand)."""
    hardest = 0
    for code in range(26):
        if hand[code] > 0 and (hardest == 0 or letter_weight[code] > letter_weight[hardest - 1]):
            hardest = code + 1
    return hardest


@njit(cache=True, nogil=True, _nrt=False)
def generate_first_words(ws, graph, ordering):
    """Moves for an empty grid: the words the hand spells that hold its hardest letter
    (`hardest_letter`), laid across from the centre.

    Every tile ends up in some word, so some word of any grid holds the hardest letter;
    starting there spends it first and keeps the root narrow.
    """
    hardest = hardest_letter(ws.hand, ordering.letter)
    if hardest == 0:
        return 0, 0, 0
    return _generate(ws, graph, ordering, np.int64(0), np.int64(0), np.int64(1 << (hardest - 1)))


@njit(cache=True, nogil=True, _nrt=False)
def _generate(ws, graph, ordering, move_base, letter_base, first_letters):
    """Both move generators: the empty grid's first words (`first_letters` != 0: one anchor,
    the centre, see `_centre_anchor`) or the moves around the anchors of ws.bbox."""
    cursor = ws.cursor
    cursor[C_MOVES] = move_base
    cursor[C_LETTERS] = letter_base
    cursor[C_TRUNCATED] = 0
    anchor_count = _centre_anchor(ws) if first_letters != 0 else _list_anchors(ws)
    if anchor_count < 0:  # more anchors than the workspace was sized for: no moves, no proof
        cursor[C_TRUNCATED] = 1
    else:
        _walk_words(ws, graph, ordering, anchor_count, first_letters)
    return cursor[C_MOVES], cursor[C_LETTERS], cursor[C_TRUNCATED]


@njit(cache=True, nogil=True, _nrt=False)
def _centre_anchor(ws):
    """The empty grid's one anchor: the centre, across, with no start square before it, so
    the first word is laid from the centre. Returns the anchor count, 1."""
    anchors = ws.anchors
    centre = ws.state[ST_SIDE] // 2
    anchors[0, A_DIR] = 0
    anchors[0, A_LINE] = centre
    anchors[0, A_POS] = centre
    anchors[0, A_PREVIOUS] = centre - 1
    return 1


@njit(cache=True, nogil=True, _nrt=False)
def _start_square(grid, cross, anchors, anchor_row, dist, side, hand_count):
    """The start square `dist` cells before the anchor in row `anchor_row` of `anchors`, as
    (first cell, direction, room: the most cells a word from it may take, what its anchor
    needs: a letter mask, whether the anchor is empty); first cell -1 when no word may start
    there (it reaches back to the previous anchor, or the board's edge, or needs more tiles
    than the hand has, or follows a tile)."""
    direction, line, anchor, previous = (
        anchors[anchor_row, A_DIR],
        anchors[anchor_row, A_LINE],
        anchors[anchor_row, A_POS],
        anchors[anchor_row, A_PREVIOUS],
    )
    start = anchor - dist
    step = 1 if direction == 0 else side
    base = line * side if direction == 0 else line
    anchor_cell = base + anchor * step
    start_cell = base + start * step
    if (
        start <= previous
        or start < 1
        or dist + (1 if grid[anchor_cell] == 0 else 0) > hand_count
        or grid[start_cell - step] != 0
    ):
        return np.int64(-1), direction, np.int64(0), np.int64(0), False
    if grid[anchor_cell] != 0:
        need = 1 << (int(grid[anchor_cell]) - 1)  # int(): uint8 without JIT
        return start_cell, direction, side - 2 - start, np.int64(need), False
    return start_cell, direction, side - 2 - start, np.int64(cross[direction * side * side + anchor_cell]), True


@njit(cache=True, nogil=True, _nrt=False)
def _walk_words(ws, graph, ordering, anchor_count, first_letters):
    """Every word from the start squares of the first `anchor_count` anchors in ws.anchors,
    appended as moves through ws.cursor: the squares 0 cells before their anchor first, then
    1, ... (`_start_square`), each square's walk held to its share of the step budget.

    From a start square, an iterative DFS where level k decides the letter of cell start+k,
    at most `room` cells long. A word must touch the grid (pass over a tile or hook onto
    one); on the empty grid (`first_letters` != 0) it must instead hold a letter of
    `first_letters`, and prefixes that cannot reach one any more are dropped (`below_mask`).
    The anchor, `dist` cells after the start, must take a letter of `anchor_need` (and of the
    hand, when it is an empty hook): a prefix whose DAWG node cannot reach such a letter at
    that distance is dropped at once (`reach`).

    One kernel walks all the squares and takes the arrays out of the bundles once per node:
    a kernel counts a reference (an atomic add) to each array it is passed or takes out of a
    bundle, and with a kernel call per square (thousands of short walks per node) that was
    10-30% of the solve time, more with the bundles passed (bench_solve, 2026-12-01).
    """
    grid, cross, hand, state, cursor, anchors = ws.grid, ws.cross, ws.hand, ws.state, ws.cursor, ws.anchors
    moves, scores, letters, rng, walk, weight_at = ws.moves, ws.scores, ws.letters, ws.rng, ws.walk, ws.walk_weight
    child, terminal, next_mask, reach, below_mask = (
        graph.child,
        graph.terminal,
        graph.next_mask,
        graph.reach,
        graph.below_mask,
    )
    letter_weight = ordering.letter
    node_at, tried, fixed, new_at, touch_at, word, side_at = (
        walk[WALK_NODE],
        walk[WALK_TRIED],
        walk[WALK_FIXED],
        walk[WALK_NEW],
        walk[WALK_TOUCH],
        walk[WALK_WORD],
        walk[WALK_SIDE],
    )
    side = state[ST_SIDE]
    min_len = state[ST_MIN_LEN]
    hand_count = state[ST_HAND]
    budget = state[ST_GEN_BUDGET]
    cells = side * side
    per_start = budget
    if state[ST_MAX_BRANCH] > 0:  # capped search: share the budget among anchors
        per_start = max(budget // max(anchor_count, 1), START_STEPS_FLOOR)
    spent = 0
    whole_hand = _hand_summary(hand)
    for dist in range(hand_count + 1):
        any_start = False
        for anchor_row in range(anchor_count):
            start_cell, direction, room, anchor_need, anchor_empty = _start_square(
                grid, cross, anchors, anchor_row, dist, side, hand_count
            )
            if start_cell < 0:
                continue
            any_start = True
            limit = min(per_start, budget - spent)
            if limit <= 0:
                cursor[C_TRUNCATED] = 1
                break
            step = 1 if direction == 0 else side
            perp = side if direction == 0 else 1
            hand_mask, vowels, consonants = whole_hand  # each walk gives back every tile it takes
            steps = 0
            k = 0
            node_at[0] = 0
            new_at[0] = 0
            touch_at[0] = 0
            side_at[0] = 0
            weight_at[0] = 0.0
            enter = True
            while k >= 0:
                cell = start_cell + k * step
                if enter:
                    enter = False
                    if grid[cell] != 0:
                        fixed[k] = 1
                        tried[k] = 1
                    else:
                        fixed[k] = 0
                        tried[k] = next_mask[node_at[k]] & cross[direction * cells + cell] & hand_mask
                        if first_letters != 0 and touch_at[k] == 0 and below_mask[node_at[k]] & first_letters == 0:
                            tried[k] = 0  # first word: the hard letter cannot come any more
                        ahead = dist - k + 1
                        if 1 < ahead < REACH:
                            need = anchor_need & hand_mask if anchor_empty else anchor_need
                            if reach[node_at[k] * REACH + ahead] & need == 0:
                                tried[k] = 0
                if tried[k] == 0:  # level exhausted: retreat, giving back the letter below
                    k -= 1
                    if k >= 0 and fixed[k] == 0:
                        hand_mask, vowels, consonants = _return_tile(hand, word[k], hand_mask, vowels, consonants)
                    continue
                if fixed[k]:
                    tried[k] = 0
                    code = grid[cell]
                    new_count = new_at[k]
                    touched = 1
                    side_words = side_at[k]
                    weight = weight_at[k]
                else:
                    bit = tried[k] & (-tried[k])
                    tried[k] ^= bit
                    code = bit_code(bit)
                    hand[code - 1] -= 1
                    if hand[code - 1] == 0:
                        hand_mask ^= bit
                    if VOWELS_MASK & bit:
                        vowels -= 1
                    else:
                        consonants -= 1
                    new_count = new_at[k] + 1
                    touched = touch_at[k]
                    side_words = side_at[k]
                    if grid[cell - perp] != 0 or grid[cell + perp] != 0:
                        touched = 1
                        side_words += 1
                    elif first_letters & bit:
                        touched = 1
                    weight = weight_at[k] + letter_weight[code - 1]
                word[k] = code
                nxt = child[node_at[k] * 26 + code - 1]
                if nxt < 0:  # only a fixed tile can leave the DAWG
                    continue
                steps += 1
                length = k + 1
                after = cell + step
                if (
                    grid[after] == 0
                    and terminal[nxt] == 1
                    and new_count > 0
                    and touched == 1
                    and length >= min_len
                    and not (
                        direction == 1
                        and new_count == 1
                        and _single_is_across(grid, word, length, start_cell, step, perp)
                    )
                ):
                    if _record_move(
                        moves=moves,
                        scores=scores,
                        letters=letters,
                        cursor=cursor,
                        rng=rng,
                        ordering=ordering,
                        word=word,
                        start_cell=start_cell,
                        direction=direction,
                        length=length,
                        new_count=new_count,
                        weight=weight,
                        vowels_left=vowels,
                        consonants_left=consonants,
                        side_words=side_words,
                    ):
                        cursor[C_LETTERS] += length
                        cursor[C_MOVES] += 1
                    else:
                        cursor[C_TRUNCATED] = 1
                if (
                    next_mask[nxt] != 0
                    and length < room
                    and length < MAX_WORD
                    and (grid[after] != 0 or new_count < hand_count)
                    and steps < limit
                    and cursor[C_TRUNCATED] == 0
                ):
                    new_at[k + 1] = new_count
                    touch_at[k + 1] = touched
                    side_at[k + 1] = side_words
                    weight_at[k + 1] = weight
                    node_at[k + 1] = nxt
                    k += 1
                    enter = True
                elif fixed[k] == 0:
                    hand_mask, vowels, consonants = _return_tile(hand, code, hand_mask, vowels, consonants)
            if steps >= limit:
                cursor[C_TRUNCATED] = 1
            spent += steps
        if not any_start or cursor[C_TRUNCATED] == 1 and spent >= budget:
            break


@njit(cache=True, nogil=True, _nrt=False)
def _return_tile(hand, code, hand_mask, vowels, consonants):
    """Put tile `code` back in the hand; returns the updated (mask, vowels, consonants)."""
    hand[code - 1] += 1
    hand_mask |= 1 << (code - 1)
    if VOWELS_MASK & (1 << (code - 1)):
        return hand_mask, vowels + 1, consonants
    return hand_mask, vowels, consonants + 1


@njit(cache=True, nogil=True, _nrt=False)
def _single_is_across(grid, word, length, start_cell, step, perp):
    """A one-new-tile down move whose tile also has a horizontal neighbour: the across
    pass lists the same placement, so the down pass skips it."""
    for i in range(length):
        cell = start_cell + i * step
        if grid[cell] == 0:
            return grid[cell - perp] != 0 or grid[cell + perp] != 0
    return False
