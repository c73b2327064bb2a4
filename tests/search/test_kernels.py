"""The numba kernels against plain-Python oracles.

* scan_runs      vs solver.core.grid.validate (runs, directions, validity; min length 2 and 3)
* cross_mask     vs brute force (place each letter, look the perpendicular run up)
* generate_moves vs solver.search.reference.generate_moves_reference. Moves are compared as
  (row, col, direction, WORD) tuples, with the single-tile convention both sides share (a
  one-new-tile placement that has a horizontal neighbour is listed only as across), and
  also as placements: the frozenset of ((row, col), LETTER) each move adds.
* generate_first_words vs Lexicon.formable_words (the words holding the hardest letter)
* _apply_move / _undo_to: incrementally kept cross masks equal freshly computed ones, and
  undo restores the board exactly.

The kernels take their arrays in three bundles (`kernels.layout.Graph`, `kernels.layout.Ordering`,
`kernels.layout.Workspace`); the tests build them the way `solver.search.solving` does.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import sweep

from solver.core.grid import Grid, validate
from solver.core.tiles import ALPHABET, ENGLISH, HARD_FIRST, HARDNESS_TIERS, TileCounts, draw
from solver.search.kernels import crosschecks, layout, movegen, movesearch, spelling
from solver.search.reference import generate_moves_reference, placements
from solver.search.solving import default_ordering, solve

LETTER_P = ENGLISH.counts / ENGLISH.counts.sum()


# -- kernel bundles ----------------------------------------------------------------------------


def graph(lexicon) -> layout.Graph:
    return layout.graph_of(lexicon.forward, lexicon.reverse)


# -- random material --------------------------------------------------------------------------


def random_words(lexicon, rng, count, min_len=2, max_len=8):
    assert 2 <= min_len <= max_len
    words = []
    size = len(lexicon.trie)  # (the words a search may lay: offensive ones are valid but not in it)
    while len(words) < count:
        word = lexicon.trie.restore_key(int(rng.integers(size)))
        if min_len <= len(word) <= max_len:
            words.append(word.upper())
    return words


def random_code_grid(lexicon, rng) -> np.ndarray:
    """A random letter grid up to 8x8: random letters at a random density, often with real
    words written over it (so valid runs of both directions occur)."""
    height, width = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    density = rng.uniform(0.05, 0.95)
    mask = rng.random((height, width)) < density
    codes = (rng.choice(26, size=(height, width), p=LETTER_P) + 1) * mask
    kind = rng.integers(3) if max(height, width) >= 2 else 0
    if kind > 0:
        if kind == 2:
            codes[:] = 0
        for word in random_words(lexicon, rng, int(rng.integers(1, 5)), max_len=max(height, width)):
            down = bool(rng.integers(2)) if height >= len(word) and width >= len(word) else height >= len(word)
            if (down and height < len(word)) or (not down and width < len(word)):
                continue
            row = int(rng.integers(height - (len(word) if down else 1) + 1))
            col = int(rng.integers(width - (1 if down else len(word)) + 1))
            for i, letter in enumerate(word):
                codes[row + i * down, col + i * (not down)] = ord(letter) - 64
    return codes.astype(np.uint8)


def grid_of(codes: np.ndarray) -> Grid:
    return Grid.from_rows("".join(ALPHABET[c - 1] if c else "." for c in row) for row in codes)


# -- scan_runs vs validate --------------------------------------------------------------------


def kernel_runs(codes, lexicon, min_len):
    out = np.zeros((2 * codes.size + 2, 5), dtype=np.int64)
    count = crosschecks.scan_runs(codes, graph(lexicon), min_len, out)
    assert count >= 0
    runs = set()
    for row, col, direction, length, valid in out[:count]:
        dr, dc = (1, 0) if direction == 1 else (0, 1)
        cells = tuple((int(row + i * dr), int(col + i * dc)) for i in range(length))
        runs.add((cells, "down" if direction == 1 else "across", bool(valid)))
    assert len(runs) == count  # no run listed twice
    return runs


def validator_runs(codes, lexicon, min_len):
    report = validate(grid_of(codes), lexicon.laid, min_length=min_len)  # the kernels' words
    invalid = {(w.cells, w.direction) for w in report.invalid_words}
    return {(w.cells, w.direction, (w.cells, w.direction) not in invalid) for w in report.words}


def check_scan(codes, lexicon):
    for min_len in (2, 3):
        assert kernel_runs(codes, lexicon, min_len) == validator_runs(codes, lexicon, min_len), (
            grid_of(codes).text(),
            min_len,
        )


SCAN_EXAMPLES = ["CAT\nDOG", ".M.\nCAT\n.P.", "QI\n.T", "A", "..\n..", "ABCDEFGH\nIJKLMNOP", "CATS\nA...\nTWO.\nS..X"]


@pytest.mark.nojit
@pytest.mark.parametrize("text", SCAN_EXAMPLES)
def test_scan_runs_examples(en, text):
    check_scan(Grid.parse(text).to_array(), en)


@pytest.mark.nojit
def test_scan_runs_random_small(en, make_rng):
    rng = make_rng(11)
    for _ in range(60):
        check_scan(random_code_grid(en, rng), en)


@sweep("trials", 300, 3000)
def test_scan_runs_random(en, fr, make_rng, trials):
    rng = make_rng(2024)
    valid_seen = 0
    for trial in range(trials):
        lexicon = fr if trial % 5 == 4 else en
        codes = random_code_grid(lexicon, rng)
        check_scan(codes, lexicon)
        valid_seen += sum(v for _, _, v in validator_runs(codes, lexicon, 2))
    assert valid_seen > trials // 3  # the sample really exercises valid runs


def test_scan_runs_reports_overflow(en):
    codes = Grid.parse("CAT\nDOG").to_array()
    out = np.zeros((2, 5), dtype=np.int64)  # five runs do not fit
    assert crosschecks.scan_runs(codes, graph(en), 2, out) == -1


# -- cross_mask vs brute force ------------------------------------------------------------------


def brute_cross(cells: dict, cell, perpendicular: str, lexicon, min_len):
    """Letters that may fill `cell` given the run through it along `perpendicular`."""
    dr, dc = (1, 0) if perpendicular == "down" else (0, 1)
    row, col = cell
    before, after = "", ""
    r, c = row - dr, col - dc
    while (r, c) in cells:
        before = cells[(r, c)] + before
        r, c = r - dr, c - dc
    r, c = row + dr, col + dc
    while (r, c) in cells:
        after += cells[(r, c)]
        r, c = r + dr, c + dc
    if not before and not after:
        return layout.FULL
    mask = 0
    for code, letter in enumerate(ALPHABET):
        word = before + letter + after
        if len(word) >= min_len and lexicon.lays(word):
            mask |= 1 << code
    return mask


def flat_board(codes: np.ndarray, side: int, top: int, left: int) -> np.ndarray:
    board = np.zeros((side, side), dtype=np.uint8)
    board[top : top + codes.shape[0], left : left + codes.shape[1]] = codes
    return board.ravel()


def check_cross_masks(codes, lexicon, min_len, cells_to_check=None):
    side = max(codes.shape) + 4
    board = flat_board(codes, side, 2, 2)
    cells = {(r, c): ALPHABET[board[r * side + c] - 1] for r in range(side) for c in range(side) if board[r * side + c]}
    words = graph(lexicon)
    checked = nontrivial = 0
    for row in range(1, side - 1):
        for col in range(1, side - 1):
            if board[row * side + col] or (cells_to_check is not None and (row - 2, col - 2) not in cells_to_check):
                continue
            for perp, name in ((side, "down"), (1, "across")):
                got = crosschecks.cross_mask(board, row * side + col, perp, min_len, words)
                expected = brute_cross(cells, (row, col), name, lexicon, min_len)
                assert got == expected, (
                    grid_of(codes).text(),
                    (row - 2, col - 2),
                    name,
                    min_len,
                    bin(got),
                    bin(expected),
                )
                checked += 1
                nontrivial += 0 < expected < layout.FULL
    return checked, nontrivial


@pytest.mark.nojit
def test_cross_mask_examples(en):
    # Every empty cell around the MAP/CAT crossing, both directions.
    codes = Grid.parse(".M.\nCAT\n.P.").to_array()
    checked, nontrivial = check_cross_masks(codes, en, 2)
    assert checked > 0 and nontrivial > 0
    # A hole in the middle of a word: C?T down -> A, O, U (CAT, COT, CUT) among others.
    side = 9
    board = flat_board(Grid.parse("C\n.\nT").to_array(), side, 3, 4)
    mask = crosschecks.cross_mask(board, 4 * side + 4, side, 2, graph(en))
    for letter in "AOU":
        assert mask & (1 << (ord(letter) - 65))
    assert not mask & (1 << (ord("Q") - 65))
    # Under min_len 3, a perpendicular run of two letters allows nothing.
    board = flat_board(Grid.parse("Q").to_array(), side, 3, 4)
    assert crosschecks.cross_mask(board, 4 * side + 4, side, 3, graph(en)) == 0
    assert crosschecks.cross_mask(board, 4 * side + 4, side, 2, graph(en)) == 1 << 8  # QI


def test_cross_mask_random(en, fr, make_rng):
    rng = make_rng(7)
    nontrivial = 0
    for trial in range(400):
        lexicon = fr if trial % 4 == 3 else en
        codes = random_code_grid(lexicon, rng)
        if rng.random() < 0.7:  # knock holes into the words: the masks must contain the lost letter
            holes = rng.random(codes.shape) < 0.3
            codes = np.where(holes, 0, codes).astype(np.uint8)
        nontrivial += check_cross_masks(codes, lexicon, int(rng.choice([2, 2, 3])))[1]
    assert nontrivial > 500


def test_cross_mask_word_with_a_hole(en, make_rng):
    rng = make_rng(5)
    for word in random_words(en, rng, 300, min_len=2, max_len=9):
        hole = int(rng.integers(len(word)))
        codes = np.array([[ord(ch) - 64 if i != hole else 0] for i, ch in enumerate(word)], dtype=np.uint8)
        side = len(word) + 4
        board = flat_board(codes, side, 2, 2)
        mask = crosschecks.cross_mask(board, (2 + hole) * side + 2, side, 2, graph(en))
        assert mask & (1 << (ord(word[hole]) - 65)), word


# -- move generation vs the reference ----------------------------------------------------------

SIDE = 41


class Board:
    """A position laid into a kernel workspace: the grid's cells around the centre of a SIDE x
    SIDE board, cross masks freshly computed for every empty cell, a hand and a state vector
    (uncapped generation: every anchor gets the whole budget)."""

    def __init__(self, cells: dict, hand: TileCounts, lexicon, min_len: int = 2):
        self.lexicon, self.min_len = lexicon, min_len
        self.graph = graph(lexicon)
        self.ordering = default_ordering()
        self.ws = layout.new_workspace((SIDE - 5) // 2, 1 << 16, 1 << 20, 16)
        assert len(self.ws.grid) == SIDE * SIDE
        self.grid, self.cross, self.hand, self.state = self.ws.grid, self.ws.cross, self.ws.hand, self.ws.state
        self.moves, self.letters, self.frames = self.ws.moves, self.ws.letters, self.ws.frames
        self.cells = dict(cells)
        rows = [r for r, _ in cells] or [0]
        cols = [c for _, c in cells] or [0]
        self.top = SIDE // 2 - min(rows) - (max(rows) - min(rows)) // 2
        self.left = SIDE // 2 - min(cols) - (max(cols) - min(cols)) // 2
        for (r, c), letter in cells.items():
            self.grid[self.flat(r, c)] = ord(letter) - 64
        self.cross[:] = fresh_cross(self.grid, lexicon, min_len)
        self.hand[:] = hand.counts
        self.state[layout.ST_SIDE] = SIDE
        self.state[layout.ST_HAND] = len(hand)
        self.state[layout.ST_MIN_LEN] = min_len
        self.state[layout.ST_MAX_BRANCH] = 0  # uncapped: the whole budget for every anchor
        self.state[layout.ST_GEN_BUDGET] = 1 << 40
        if cells:
            self.frames[0, layout.F_RMIN : layout.F_CMAX + 1] = self.bbox()
        self.generated = 0

    def flat(self, row, col):
        return (row + self.top) * SIDE + col + self.left

    def unflat(self, cell):
        row, col = divmod(int(cell), SIDE)
        return row - self.top, col - self.left

    def bbox(self):
        rows, cols = np.nonzero(self.grid.reshape(SIDE, SIDE))
        return np.array([rows.min(), rows.max(), cols.min(), cols.max()], dtype=np.int64)

    def generate(self):
        """generate_moves -> list of (row, col, direction, WORD) in the test's coordinates."""
        hand_before = self.hand.copy()
        self.ws.bbox[:] = self.bbox()
        end, _, truncated = movegen.generate_moves(self.ws, self.graph, self.ordering, 0, 0)
        assert truncated == 0
        assert np.array_equal(self.hand, hand_before)  # the hand is restored after generation
        self.generated = int(end)
        return [self.move(i) for i in range(self.generated)]

    def move(self, index):
        cell, direction, length, offset = (
            int(self.moves[index, k]) for k in (layout.M_CELL, layout.M_DIR, layout.M_LEN, layout.M_LETTERS)
        )
        row, col = self.unflat(cell)
        word = "".join(ALPHABET[code - 1] for code in self.letters[offset : offset + length])
        return row, col, "down" if direction == 1 else "across", word


def fresh_cross(board, lexicon, min_len):
    """cross_mask of every empty cell, both directions. Only cells in the tiles' bounding
    box +-1 can have a neighbour; every other cell is FULL (no perpendicular run)."""
    words = graph(lexicon)
    cross = np.full(2 * SIDE * SIDE, layout.FULL, dtype=np.int32)
    rows, cols = np.nonzero(board.reshape(SIDE, SIDE))
    if rows.size == 0:
        return cross
    near = np.zeros((SIDE, SIDE), dtype=bool)
    near[max(rows.min() - 1, 1) : rows.max() + 2, max(cols.min() - 1, 1) : cols.max() + 2] = True
    for cell in np.flatnonzero((board == 0) & near.ravel()):
        row, col = divmod(int(cell), SIDE)
        if 0 < row < SIDE - 1 and 0 < col < SIDE - 1:
            for direction, perp in ((0, SIDE), (1, 1)):
                cross[direction * SIDE * SIDE + cell] = crosschecks.cross_mask(board, int(cell), perp, min_len, words)
    return cross


def compare_moves(cells, hand, lexicon, min_len=2):
    got = Board(cells, hand, lexicon, min_len).generate()
    expected = generate_moves_reference(cells, hand, lexicon, min_len)
    assert len(got) == len(set(got)), "a move listed twice"
    missing, invented = expected - set(got), set(got) - expected
    assert not missing and not invented, (
        f"\n{Grid.from_cells(cells).text() if cells else '(empty)'}\nhand {hand.letters()} min_len {min_len}"
        f"\nmissing (reference only): {sorted(missing)[:10]}\ninvented (kernel only): {sorted(invented)[:10]}"
    )
    got_placements = placements(got, cells)
    assert len(set(got_placements)) == len(got_placements), "one placement listed under two moves"
    assert set(got_placements) == set(placements(expected, cells))
    return len(got)


def random_position(lexicon, rng):
    """A valid grid: a solved small hand, one word, or two crossing words."""
    kind = rng.integers(3)
    if kind == 0:
        for _ in range(20):
            tiles = draw(ENGLISH, int(rng.integers(3, 9)), rng)
            solution = solve(tiles, lexicon, time_limit=2.0, seed=int(rng.integers(1000)))
            if solution.solved:
                return solution.grid.cells()
    words = random_words(lexicon, rng, 2, max_len=7)
    cells = {(0, i): letter for i, letter in enumerate(words[0])}
    if kind == 2:
        shared = [(i, j) for i, a in enumerate(words[0]) for j, b in enumerate(words[1]) if a == b]
        if shared:
            i, j = shared[int(rng.integers(len(shared)))]
            crossed = dict(cells)
            crossed.update({(k - j, i): letter for k, letter in enumerate(words[1])})
            if validate(Grid.from_cells(crossed), lexicon).ok:
                return crossed
    return cells


@pytest.mark.nojit
@pytest.mark.parametrize(
    "text, hand",
    [(".M.\nCAT\n.P.", "SEDIRT"), ("CAT", "S"), ("CAT", "AB"), ("QI", "Q"), ("CAT", "QQ"), ("A", "ET"), ("CAB", "SE")],
)
def test_generate_moves_examples(en, text, hand):
    compare_moves(Grid.parse(text).cells(), TileCounts.from_letters(hand), en)


@pytest.mark.nojit
def test_generate_moves_word_ending_on_a_late_letter(en):
    # QI on the grid, a Q in hand: Q above the I makes QI down, the only move.
    moves = Board(Grid.parse("QI").cells(), TileCounts.from_letters("Q"), en).generate()
    assert moves == [(-1, 1, "down", "QI")]


def test_generate_moves_known_answers(en):
    # CAT + S: CATS and SCAT across (if words), AS down under the A (S has no horizontal neighbour).
    moves = Board(Grid.parse("CAT").cells(), TileCounts.from_letters("S"), en).generate()
    assert (0, 0, "across", "CATS") in moves
    assert (0, 1, "down", "AS") in moves
    assert all(len(placement) == 1 for placement in placements(moves, Grid.parse("CAT").cells()))
    # A single tile hooked to two runs at once is listed once, across: an S at (0, 1)
    # makes AS across and SO down.
    cells = Grid.parse("A.\n.O").cells()
    moves = Board(cells, TileCounts.from_letters("S"), en).generate()
    single = [m for m in moves if placements([m], cells)[0] == frozenset({((0, 1), "S")})]
    assert single == [(0, 0, "across", "AS")]


@sweep("trials", 40, 300)
def test_generate_moves_random_positions(en, make_rng, trials):
    rng = make_rng(99)
    total = 0
    for trial in range(trials):
        cells = random_position(en, rng)
        hand = draw(ENGLISH, int(rng.integers(2, 7)), rng)
        total += compare_moves(cells, hand, en, min_len=3 if trial % 4 == 3 else 2)
    assert total > 16 * trials


def test_generate_moves_random_french(fr, make_rng):
    rng = make_rng(3)
    for trial in range(25):
        cells = random_position(fr, rng)
        compare_moves(cells, draw(ENGLISH, int(rng.integers(2, 6)), rng), fr, min_len=2 + trial % 2)


@pytest.mark.slow
def test_generate_moves_random_sweep(en, make_rng):
    """A longer sweep: bigger solved grids (up to 12 tiles), hands of 1-8. 400 trials (about
    13 s on a quiet machine); it was 2,500, then 1,000 (33 s in CI, 2026-12-04), the suite's
    largest single costs, for no failure the first 400 did not find."""
    rng = make_rng(123456)
    for trial in range(400):
        cells = None
        if trial % 2:
            solution = solve(
                draw(ENGLISH, int(rng.integers(6, 13)), rng), en, time_limit=2.0, seed=int(rng.integers(1000))
            )
            cells = solution.grid.cells() if solution.solved else None
        cells = cells or random_position(en, rng)
        compare_moves(cells, draw(ENGLISH, int(rng.integers(1, 9)), rng), en, min_len=3 if trial % 3 == 2 else 2)


def side_words(move, cells) -> int:
    """The words a move makes beside itself, counted on the grid: its new tiles with a tile next to
    them across the move (each such tile is part of a perpendicular run, a word of its own)."""
    _, _, direction, _ = move
    dr, dc = (1, 0) if direction == "across" else (0, 1)
    return sum(
        (row - dr, col - dc) in cells or (row + dr, col + dc) in cells for (row, col), _ in placements([move], cells)[0]
    )


def test_the_side_word_weight_takes_each_side_word_off_a_moves_score(en, make_rng):
    """With `side_word` w, every move's score is the default score less w per side word it makes,
    counted independently on the grid; the moves listed are the same, in the same order."""
    rng = make_rng(64)
    seen = 0
    for _ in range(30):
        cells = random_position(en, rng)
        hand = draw(ENGLISH, int(rng.integers(2, 7)), rng)
        plain = Board(cells, hand, en)
        moves = plain.generate()
        weighed = Board(cells, hand, en)
        weighed.ordering = default_ordering(side_word=2.5)
        assert weighed.generate() == moves
        for index, move in enumerate(moves):
            sides = side_words(move, cells)
            seen += sides > 0
            assert weighed.ws.scores[index] == pytest.approx(plain.ws.scores[index] - 2.5 * sides)
    assert seen > 0  # positions where some move makes side words


# -- first words -----------------------------------------------------------------------------------


@pytest.mark.parametrize("letters, min_len", [("RETAINS", 2), ("QIZAX", 2), ("BANANAS", 3), ("QQ", 2), ("EEAT", 2)])
def test_generate_first_words(en, letters, min_len):
    """The empty grid's moves: the words the hand spells that hold its hardest letter (the
    first in tiles.HARD_FIRST), across from the centre."""
    hand = TileCounts.from_letters(letters)
    hardest = min(hand.letters(), key=HARD_FIRST.index)
    board = Board({}, hand, en, min_len)
    end, _, truncated = movegen.generate_first_words(board.ws, board.graph, board.ordering)
    assert truncated == 0
    assert np.array_equal(board.hand, hand.counts)
    moves = [board.move(i) for i in range(int(end))]
    centre = board.unflat((SIDE // 2) * SIDE + SIDE // 2)
    assert all(direction == "across" and (row, col) == centre for row, col, direction, _ in moves)
    words = sorted(word.lower() for *_, word in moves)
    assert len(words) == len(set(words))
    expected = sorted(w for w in en.formable_words(hand, min_length=min_len) if hardest.lower() in w)
    assert words == expected
    assert bool(words) == bool(expected)


def test_first_words_cut_short_by_the_step_budget(en):
    """A budget of a few DAWG steps stops the first words early, says so, and what it did
    list are words from the centre holding the hardest letter; the hand comes back whole."""
    hand = TileCounts.from_letters("RETAINS")
    hardest = min(hand.letters(), key=HARD_FIRST.index)
    board = Board({}, hand, en)
    board.state[layout.ST_GEN_BUDGET] = 6
    end, _, truncated = movegen.generate_first_words(board.ws, board.graph, board.ordering)
    assert truncated == 1
    assert np.array_equal(board.hand, hand.counts)
    full = set(en.formable_words(hand, min_length=2))
    moves = [board.move(i) for i in range(int(end))]
    centre = board.unflat((SIDE // 2) * SIDE + SIDE // 2)
    assert all(direction == "across" and (row, col) == centre for row, col, direction, _ in moves)
    assert 0 < len(moves) < len([word for word in full if hardest.lower() in word])
    assert all(word.lower() in full and hardest in word for *_, word in moves)


@pytest.mark.nojit
def test_one_order_of_hardness(make_rng):
    """The move-ordering weights never rise along tiles.HARD_FIRST and are equal exactly
    within a tier, and the kernel's hardest letter of any hand is its first in HARD_FIRST."""
    weights = default_ordering().letter
    along = [weights[ord(letter) - 65] for letter in HARD_FIRST]
    assert sorted(HARD_FIRST) == list(ALPHABET)
    assert along == sorted(along, reverse=True)
    for tier in HARDNESS_TIERS:
        assert list(tier) == sorted(tier) and len({weights[ord(letter) - 65] for letter in tier}) == 1
    rng = make_rng(8)
    for _ in range(300):
        hand = draw(ENGLISH, int(rng.integers(1, 12)), rng)
        code = movegen.hardest_letter(hand.counts, weights)
        assert ALPHABET[code - 1] == min(hand.letters(), key=HARD_FIRST.index), hand.letters()


# -- the kept moves of a capped list -----------------------------------------------------------------


@pytest.mark.nojit
def test_rank_best_is_the_head_of_the_stable_sort(make_rng):
    """A capped frame keeps the first `cap` moves of the stable sort by score, ties in
    generation order, found in one pass; coarse scores make many ties."""
    rng = make_rng(24)
    for _ in range(40):
        count, cap, base = int(rng.integers(1, 200)), int(rng.integers(1, 20)), int(rng.integers(0, 5))
        scores = np.zeros(base + count)
        scores[base:] = rng.integers(0, 6, count) / 2.0
        order = np.full(base + count, -1, dtype=np.int64)
        movesearch._rank_best(scores, order, np.zeros(cap), base, base + count, min(cap, count))
        stable = base + np.argsort(-scores[base:], kind="mergesort")
        assert list(order[base : base + min(cap, count)]) == list(stable[:cap])


# -- incremental cross masks and undo ---------------------------------------------------------------


def test_apply_and_undo_keep_masks_exact(en, make_rng):
    rng = make_rng(17)
    applied = 0
    for trial in range(150):
        cells = random_position(en, rng)
        hand = draw(ENGLISH, int(rng.integers(3, 8)), rng)
        board = Board(cells, hand, en, min_len=2 + (trial % 5 == 4))
        snapshot = (board.grid.copy(), board.cross.copy(), board.hand.copy(), int(board.state[layout.ST_HAND]))
        depth = 0
        # Play up to three random moves in a row, checking the masks after each.
        while depth < 3:
            board.frames[depth, layout.F_RMIN : layout.F_CMAX + 1] = board.bbox()
            moves = board.generate()
            if not moves:
                break
            index = int(rng.integers(len(moves)))
            row, col, direction, word = moves[index]
            new_tiles = placements([moves[index]], board.cells)[0]
            hand_before = board.hand.copy()
            movesearch._apply_move(board.ws, board.graph, index, depth)
            for (r, c), letter in new_tiles:
                board.cells[(r, c)] = letter
                assert board.grid[board.flat(r, c)] == ord(letter) - 64
                hand_before[ord(letter) - 65] -= 1
            assert np.array_equal(board.hand, hand_before)
            assert board.state[layout.ST_HAND] == board.hand.sum()
            assert np.array_equal(board.frames[depth + 1, layout.F_RMIN : layout.F_CMAX + 1], board.bbox())
            expected = fresh_cross(board.grid, en, board.min_len)
            differ = np.flatnonzero((board.cross != expected) & np.tile(board.grid == 0, 2))
            assert differ.size == 0, (
                Grid.from_cells(board.cells).text(),
                [(divmod(int(slot % (SIDE * SIDE)), SIDE), int(slot // (SIDE * SIDE))) for slot in differ[:5]],
            )
            depth += 1
            applied += 1
            if board.state[layout.ST_HAND] == 0:
                break
        movesearch._undo_to(board.ws, board.frames[1, layout.F_UNDO_MARK] if depth else 0)
        assert np.array_equal(board.grid, snapshot[0])
        assert np.array_equal(board.cross, snapshot[1])
        assert np.array_equal(board.hand, snapshot[2]) and board.state[layout.ST_HAND] == snapshot[3]
    assert applied > 250


def test_hostable_letters_are_the_letters_of_the_words_a_hand_spells(en, make_rng):
    """The stranded-letter walk skips what cannot cover a letter it still needs (`below_mask`);
    its mask is still exactly the hand's letters that some word the hand spells holds
    (`Lexicon.formable_words`, no kernel), rare letters and hands with none included."""
    rng = make_rng(4711)
    graph = layout.graph_of(en.forward, en.reverse)
    hands = [draw(ENGLISH, int(size), rng) for size in rng.integers(2, 12, 60)]
    hands += [TileCounts.from_letters(letters) for letters in ("QZXJVKW", "QIZ", "CWM", "VVVXXZQ", "AEEIRSTQUNL")]
    for hand in hands:
        for min_len in (2, 3):
            spelled = set("".join(en.formable_words(hand, min_len)).upper())
            expected = sum(1 << (ord(letter) - ord("A")) for letter in spelled)
            counts = np.array(hand.counts, dtype=np.int64)
            assert spelling.hostable_letters(counts, min_len, 5_000_000, graph) == expected, hand.letters()
            assert (counts == hand.counts).all()  # the hand put back
