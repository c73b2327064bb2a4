"""Minimal DAWG construction and its flat-array form for the numba kernels.

The word graph is built once per word list (a trie laid out as arrays, its nodes merged by
right language, height by height) and flattened into numpy arrays; the lexicon module caches those arrays on
disk, so this code runs only on a cold start.

Array layout (all indexed by node id; node 0 is the root):

    first_edge  int32[N+1]  CSR: the edges of node n are first_edge[n] .. first_edge[n+1]-1
    edge_label  uint8[E]    letter code 1..26 of each edge, ascending within a node
    edge_target int32[E]    node the edge leads to
    child       int32[N*26] dense copy of the edges: child[n*26 + (code-1)] = target or -1
                            (the kernels use this: one load per step instead of a scan)
    terminal    uint8[N]    1 when the path from the root to n spells a word
    next_mask   int32[N]    bit (code-1) set when letter `code` continues from n
    end_mask    int32[N]    bit (code-1) set when letter `code` from n completes a word
    reach       int32[N*REACH] bit (code-1) of reach[n*REACH + j] set when some path from n
                            has letter `code` as its j-th letter (j = 1..REACH-1; j = 0 unused).
                            Move generation uses it to drop a prefix that cannot meet the
                            tile (or hook) j cells ahead.
    below_mask  int32[N]    letters on any path from n (the closure of next_mask): lets the
                            first word's search drop prefixes that can never take a letter.

Built from reversed words, the same arrays answer "which letters can precede a run":
walk the run backwards from the root, then read end_mask.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ARRAY_NAMES = (
    "first_edge",
    "edge_label",
    "edge_target",
    "child",
    "terminal",
    "next_mask",
    "end_mask",
    "reach",
    "below_mask",
)
REACH = 16


def build_dawg(sorted_words: Sequence[str]) -> dict[str, np.ndarray]:
    """Minimal DAWG of `sorted_words` (lowercase a-z, sorted, unique) as flat arrays.

    Whole-array steps rather than a loop over words (a cold build of a 250k-word list takes a
    fraction of a second): lay out the trie, merge nodes with equal right languages height by
    height, then number the merged nodes breadth-first from the root.
    """
    trie = _Trie(sorted_words)
    node_class = _merge_equivalent(trie)
    return _flatten(trie, node_class)


class _Trie:
    """The trie of sorted words as arrays. Nodes are numbered in the order a walk through the
    sorted words creates them (the root is 0), so a node's children have increasing ids and
    increasing letters, and every parent precedes its children."""

    def __init__(self, sorted_words: Sequence[str]):
        words = list(sorted_words)
        count = len(words)
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=count)
        width = int(lengths.max(initial=0))
        codes = np.zeros((count, width + 1), dtype=np.int64)  # a zero column ends every word
        if width:
            letters = np.array(words, dtype=f"S{width}").view(np.uint8).reshape(count, width)
            codes[:, :width] = np.where(letters > 0, letters.astype(np.int64) - 96, 0)
        # A word shares its first `common[i]` letters (its path in the trie) with the word before.
        common = np.zeros(count, dtype=np.int64)
        if count > 1:
            common[1:] = (codes[1:] != codes[:-1]).argmax(axis=1)
        created = lengths - common  # new nodes each word adds
        first_new = 1 + np.cumsum(created) - created  # id of its first new node
        size = 1 + int(created.sum())
        word = np.repeat(np.arange(count), created)
        depth = np.zeros(size, dtype=np.int64)
        depth[1:] = np.repeat(common, created) + 1 + np.arange(size - 1) - np.repeat(first_new - 1, created)
        parent = np.zeros(size, dtype=np.int64)
        parent[1:] = np.arange(size - 1)  # below a word's first new node, the parent is the node before
        label = np.zeros(size, dtype=np.int64)
        label[1:] = codes[word, depth[1:] - 1]
        # The first new node hangs under the node at depth common[i] on the path the words
        # share: the last node created at that depth by an earlier word (a forward fill).
        branching = created > 0
        for level in range(1, width + 1):
            made_here = (common < level) & (level <= lengths)
            at_level = np.maximum.accumulate(np.where(made_here, first_new + level - common - 1, 0))
            hangs = branching & (common == level)
            parent[first_new[hangs]] = at_level[hangs]
        parent[first_new[branching & (common == 0)]] = 0
        final = np.zeros(size, dtype=bool)
        final[first_new[branching] + created[branching] - 1] = True
        final[0] = bool(count) and lengths[0] == 0
        self.size, self.depth, self.parent, self.label, self.final = size, depth, parent, label, final
        # Children by parent (CSR); a stable sort keeps each node's children in letter order.
        children = np.argsort(parent[1:], kind="stable") + 1
        self.child = children
        self.first_child = np.searchsorted(parent[children], np.arange(size + 1))

    def degree(self, nodes: np.ndarray) -> np.ndarray:
        return self.first_child[nodes + 1] - self.first_child[nodes]

    def child_slots(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the children of `nodes`: (row in `nodes`, rank among its siblings, child id)."""
        degree = self.degree(nodes)
        row = np.repeat(np.arange(len(nodes)), degree)
        rank = np.arange(int(degree.sum())) - np.repeat(np.cumsum(degree) - degree, degree)
        return row, rank, self.child[self.first_child[nodes][row] + rank]


def _merge_equivalent(trie: _Trie) -> np.ndarray:
    """Class of each trie node: nodes with the same right language share one. Classes are
    found by height (longest path down), lowest first, so children are classified first."""
    height = np.zeros(trie.size, dtype=np.int64)
    nodes_by_depth = np.argsort(trie.depth, kind="stable")
    bounds = np.searchsorted(trie.depth[nodes_by_depth], np.arange(int(trie.depth.max()) + 2))
    for level in range(int(trie.depth.max()), 0, -1):
        nodes = nodes_by_depth[bounds[level] : bounds[level + 1]]
        np.maximum.at(height, trie.parent[nodes], height[nodes] + 1)
    node_class = np.full(trie.size, -1, dtype=np.int64)
    classes = 0
    nodes_by_height = np.argsort(height, kind="stable")
    bounds = np.searchsorted(height[nodes_by_height], np.arange(int(height.max()) + 2))
    for level in range(int(height.max()) + 1):
        nodes = nodes_by_height[bounds[level] : bounds[level + 1]]
        # A node's signature: final flag, then (child class, letter) per child in letter order.
        row, rank, child = trie.child_slots(nodes)
        signature = np.full((len(nodes), 1 + int(trie.degree(nodes).max())), -1, dtype=np.int64)
        signature[:, 0] = trie.final[nodes]
        signature[row, 1 + rank] = node_class[child] * 32 + trie.label[child]
        rank_of_row = _rank_rows(signature)
        node_class[nodes] = classes + rank_of_row
        classes += int(rank_of_row.max()) + 1
    return node_class


def _rank_rows(matrix: np.ndarray) -> np.ndarray:
    """Equal rows get equal numbers 0, 1, ...: columns are folded in one at a time, each time
    renumbering the pairs (number so far, column value), so the numbers stay small and exact
    (np.unique(axis=0) sorts rows as raw bytes, several times slower)."""
    rank = np.zeros(len(matrix), dtype=np.int64)
    for column in matrix.T:
        # values are >= -1, so (column + 1) < span keeps each pair distinct
        span = int(column.max()) + 2
        _, rank = np.unique(rank * span + (column + 1), return_inverse=True)
        rank = rank.ravel()
    return rank


def _flatten(trie: _Trie, node_class: np.ndarray) -> dict[str, np.ndarray]:
    """Number the classes breadth-first from the root (children in letter order) and lay the
    graph out in arrays."""
    classes = int(node_class.max()) + 1
    _, representative = np.unique(node_class, return_index=True)  # one trie node per class
    number = np.full(classes, -1, dtype=np.int64)
    order = [np.array([node_class[0]])]
    number[node_class[0]] = 0
    numbered = 1
    while len(order[-1]):
        _, _, child = trie.child_slots(representative[order[-1]])
        targets = node_class[child]
        targets = targets[number[targets] < 0]
        _, first_seen = np.unique(targets, return_index=True)
        newcomers = targets[np.sort(first_seen)]
        number[newcomers] = numbered + np.arange(len(newcomers))
        numbered += len(newcomers)
        order.append(newcomers)
    nodes = representative[np.concatenate(order)]  # a trie node for each DAWG node, in DAWG order
    _, _, child = trie.child_slots(nodes)
    first_edge = np.zeros(classes + 1, dtype=np.int32)
    first_edge[1:] = np.cumsum(trie.degree(nodes))
    return arrays_from_csr(
        first_edge,
        trie.label[child].astype(np.uint8),
        number[node_class[child]].astype(np.int32),
        trie.final[nodes].astype(np.uint8),
    )


def arrays_from_csr(first_edge, edge_label, edge_target, terminal) -> dict[str, np.ndarray]:
    """Derive the dense table and the letter masks from the CSR edges."""
    node_count = len(terminal)
    degree = np.diff(first_edge)
    source = np.repeat(np.arange(node_count, dtype=np.int64), degree)
    child = np.full(node_count * 26, -1, dtype=np.int32)
    child[source * 26 + edge_label.astype(np.int64) - 1] = edge_target
    bits = np.left_shift(np.int64(1), edge_label.astype(np.int64) - 1)
    next_mask = np.zeros(node_count, dtype=np.int64)
    np.bitwise_or.at(next_mask, source, bits)
    end_mask = np.zeros(node_count, dtype=np.int64)
    ends = terminal[edge_target].astype(bool)
    np.bitwise_or.at(end_mask, source[ends], bits[ends])
    # reach[:, j] = OR over a node's edges of the targets' reach[:, j-1]; reach[:, 1] = next_mask.
    reach = np.zeros((node_count, REACH), dtype=np.int64)
    reach[:, 1] = next_mask
    has_edges = degree > 0
    starts = first_edge[:-1][has_edges]
    for j in range(2, REACH):
        if len(edge_target):
            reach[has_edges, j] = np.bitwise_or.reduceat(reach[edge_target, j - 1], starts)
    below = next_mask.copy()
    while len(edge_target):
        grown = below.copy()
        grown[has_edges] |= np.bitwise_or.reduceat(below[edge_target], starts)
        if (grown == below).all():
            break
        below = grown
    return {
        "below_mask": below.astype(np.int32),
        "reach": reach.astype(np.int32).ravel(),
        "first_edge": first_edge.astype(np.int32),
        "edge_label": edge_label.astype(np.uint8),
        "edge_target": edge_target.astype(np.int32),
        "child": child,
        "terminal": terminal.astype(np.uint8),
        "next_mask": next_mask.astype(np.int32),
        "end_mask": end_mask.astype(np.int32),
    }


def dawg_words(arrays: dict[str, np.ndarray]) -> list[str]:
    """Every word the arrays spell, in order (a check that the graph is exact)."""
    words: list[str] = []
    stack = [(0, "")]
    first_edge, labels, targets, terminal = (arrays[k] for k in ("first_edge", "edge_label", "edge_target", "terminal"))
    while stack:
        node, prefix = stack.pop()
        if terminal[node]:
            words.append(prefix)
        for edge in range(first_edge[node + 1] - 1, first_edge[node] - 1, -1):
            stack.append((int(targets[edge]), prefix + chr(96 + int(labels[edge]))))
    return words
