"""Minimal DAWG construction and its flat-array form for the numba kernels.

The word graph is built once per word list (Daciuk's incremental algorithm over the
sorted words) and flattened into numpy arrays; the lexicon module caches those arrays on
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

from collections.abc import Iterable

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


class _Node:
    __slots__ = ("final", "edges", "uid")

    def __init__(self) -> None:
        self.final = False
        self.edges: dict[int, _Node] = {}
        self.uid = -1


def build_dawg(sorted_words: Iterable[str]) -> dict[str, np.ndarray]:
    """Minimal DAWG of `sorted_words` (lowercase a-z, sorted, unique) as flat arrays."""
    root = _Node()
    register: dict[tuple, _Node] = {}
    unchecked: list[tuple[_Node, int, _Node]] = []
    next_uid = [0]

    def minimize(down_to: int) -> None:
        # Replace each not-yet-registered suffix node by an equal registered one.
        while len(unchecked) > down_to:
            parent, code, child = unchecked.pop()
            key = (child.final, tuple((c, n.uid) for c, n in child.edges.items()))
            existing = register.get(key)
            if existing is not None:
                parent.edges[code] = existing
            else:
                child.uid = next_uid[0]
                next_uid[0] += 1
                register[key] = child

    previous = ""
    for word in sorted_words:
        common = 0
        for a, b in zip(word, previous):
            if a != b:
                break
            common += 1
        minimize(common)
        node = unchecked[-1][2] if unchecked else root
        for letter in word[common:]:
            child = _Node()
            code = ord(letter) - 96
            node.edges[code] = child
            unchecked.append((node, code, child))
            node = child
        node.final = True
        previous = word
    minimize(0)
    return _flatten(root)


def _flatten(root: _Node) -> dict[str, np.ndarray]:
    """Number the nodes breadth-first from the root and lay the graph out in arrays."""
    order = [root]
    ids = {id(root): 0}
    for node in order:  # the list grows while we walk it: a breadth-first numbering
        for child in node.edges.values():
            if id(child) not in ids:
                ids[id(child)] = len(order)
                order.append(child)
    node_count = len(order)
    first_edge = np.zeros(node_count + 1, dtype=np.int32)
    labels: list[int] = []
    targets: list[int] = []
    terminal = np.zeros(node_count, dtype=np.uint8)
    for index, node in enumerate(order):
        first_edge[index] = len(labels)
        terminal[index] = node.final
        for code, child in node.edges.items():
            labels.append(code)
            targets.append(ids[id(child)])
    first_edge[node_count] = len(labels)
    return arrays_from_csr(first_edge, np.array(labels, dtype=np.uint8), np.array(targets, dtype=np.int32), terminal)


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
