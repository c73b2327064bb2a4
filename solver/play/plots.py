"""Plots of tournaments and ladders, and PNG pictures of grids (matplotlib: the optional
`plots` extra).

    tournament_figure(result)   win rates with 95% Wilson intervals, game lengths, dumps
    ladder_figure(ladder)       ratings with bootstrap 95% intervals, game lengths, dumps
    save_figure(figure, path)   SVG or PNG by the file's suffix
    save_grid_png(grid, path)   the `solver.core.svg` picture of a grid, drawn as a PNG

Figures are built with `matplotlib.figure.Figure` (no pyplot, no GUI backend), so they
work in scripts, servers and worker processes alike. SVG output carries no date and a
fixed id salt, so the same results give the same file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.core.grid import Grid, Report
from solver.core.svg import BACKGROUND, INVALID_COLOUR, LETTER_COLOUR, TILE_EDGE, TILE_FILL, layout

FORMATS = ("svg", "png")
DPI = 100


def require_matplotlib(option: str = "--plot") -> None:
    """ValueError naming `option` and the `plots` extra when matplotlib is not installed; nothing otherwise."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ValueError(f"{option} needs matplotlib, an optional extra: pip install 'bananas[plots]'") from None


def plot_format(path: str, option: str = "--plot") -> str:
    """'svg' or 'png' from the file name; anything else is refused before a run starts."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{option}: {path!r} must end in .svg or .png")
    return suffix


def save_figure(figure, path: str, fmt: str | None = None) -> None:
    """Write the figure to `path`, as `fmt` ('svg' or 'png'; default: from the suffix)."""
    import matplotlib

    fmt = fmt or plot_format(path)
    metadata = {"Date": None} if fmt == "svg" else {}  # no timestamp: same results, same file
    with matplotlib.rc_context({"svg.hashsalt": "bananas"}):
        figure.savefig(path, format=fmt, dpi=DPI, metadata=metadata)


def _figure(panels: int, height_first: float):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, height_first + 2.8 * (panels - 1)), layout="constrained")
    axes = figure.subplots(panels, 1, height_ratios=[height_first] + [2.8] * (panels - 1))
    return figure, axes


def _intervals(axis, labels: list[str], values, lows, highs, xlabel: str) -> None:
    """One horizontal interval per entry, best at the top."""
    values, lows, highs = (np.asarray(v, dtype=float) for v in (values, lows, highs))
    rows = np.arange(len(labels))[::-1]
    axis.errorbar(values, rows, xerr=[values - lows, highs - values], fmt="o", color="#1f77b4", capsize=4)
    axis.set_yticks(rows, labels)
    axis.set_xlabel(xlabel)
    axis.grid(axis="x", alpha=0.3)


def _game_lengths(axis, games) -> None:
    clocks = [game.clock for game in games]
    axis.hist(clocks, bins=min(30, max(5, len(clocks) // 4)), color="#8c6d31", alpha=0.85)
    axis.set_xlabel("game length (simulated seconds)")
    axis.set_ylabel("games")


def _dumps(axis, names: list[str], games) -> None:
    """For each entry, the share of its seat-games with 0, 1, 2... dumps."""
    per_entry: list[list[int]] = [[] for _ in names]
    for game in games:
        for seat, entry in enumerate(game.entries):
            per_entry[entry].append(game.dumps[seat])
    top = max((max(d) for d in per_entry if d), default=0)
    width = 0.8 / max(1, len(names))
    for index, (name, dumps) in enumerate(zip(names, per_entry, strict=True)):
        counts = np.bincount(dumps, minlength=top + 1) / max(1, len(dumps))
        axis.bar(np.arange(top + 1) + (index - (len(names) - 1) / 2) * width, counts, width, label=name)
    axis.set_xlabel("dumps per game")
    axis.set_ylabel("share of an entry's games")
    axis.set_xticks(range(top + 1))
    axis.legend(fontsize="small")


def tournament_figure(result):
    """Win rates with their intervals, the game-length histogram and the dumps per game."""
    stats = result.stats
    figure, (rates, lengths, dumps) = _figure(3, 0.6 + 0.45 * len(stats))
    _intervals(
        rates,
        [s.name for s in stats],
        [100 * s.win_rate for s in stats],
        [100 * s.ci[0] for s in stats],
        [100 * s.ci[1] for s in stats],
        "win rate, % (95% Wilson interval)",
    )
    rates.set_title(f"{len(result.games)} games, {result.players} players, seed {result.seed}")
    _game_lengths(lengths, result.games)
    _dumps(dumps, [s.name for s in stats], result.games)
    return figure


def ladder_figure(ladder):
    """Ratings (best first) with bootstrap intervals, game lengths and dumps per game."""
    ratings = ladder.ratings
    figure, (axis, lengths, dumps) = _figure(3, 0.6 + 0.45 * len(ratings))
    _intervals(
        axis,
        [r.name for r in ratings],
        [r.rating for r in ratings],
        [r.ci_low for r in ratings],
        [r.ci_high for r in ratings],
        "rating (Elo scale, field mean 1500; 95% bootstrap interval)",
    )
    result = ladder.tournament
    axis.set_title(f"ladder: {len(result.games)} games, {result.players} players, seed {result.seed}")
    _game_lengths(lengths, result.games)
    _dumps(dumps, result.names, result.games)
    return figure


def save_grid_png(grid: Grid, path: str, report: Report | None = None, cell: float = 40) -> None:
    """The picture `solver.core.svg.grid_svg` draws, as a PNG (same layout, same colours)."""
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    picture = layout(grid, report.invalid_words if report else (), cell)
    figure = Figure(figsize=(picture.width / DPI, picture.height / DPI), dpi=DPI, facecolor=BACKGROUND)
    axis = figure.add_axes((0, 0, 1, 1))
    axis.set_xlim(0, picture.width)
    axis.set_ylim(picture.height, 0)  # pixels, origin top left, as in SVG
    axis.set_axis_off()
    points = 72 / DPI  # matplotlib sizes text and lines in points
    radius = 0.12 * cell

    def rounded(box, **style) -> None:
        shape = f"round,pad=0,rounding_size={radius}"
        axis.add_patch(FancyBboxPatch((box.x, box.y), box.width, box.height, boxstyle=shape, **style))

    for mark in picture.tiles:
        rounded(mark.box, facecolor=TILE_FILL, edgecolor=TILE_EDGE, linewidth=0.04 * cell * points)
        axis.text(
            mark.box.x + mark.box.width / 2,
            mark.box.y + mark.box.height / 2,
            mark.letter,
            ha="center",
            va="center_baseline",
            fontsize=0.6 * cell * points,
            fontweight="bold",
            color=LETTER_COLOUR,
            family="DejaVu Sans",  # ships with matplotlib: no font-not-found warnings
        )
    for box, _word in picture.outlines:
        rounded(box, facecolor="none", edgecolor=INVALID_COLOUR, linewidth=0.08 * cell * points)
    figure.savefig(path, format="png", dpi=DPI, facecolor=BACKGROUND)
