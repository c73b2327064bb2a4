"""Replays: every player's grid at each moment of a log, and pictures of those moments.

A frame is the table at one moment of a hand: each player's grid as the table last saw it
(a `snapshot`, or the grid of a BANANAS call; None before their first), after the event
that changed one; a bot's work is shown built a tile at a time from when it began, as a room
shows it (`changes`). Each hand's last frame is its `grids` line: every grid as it ended.
A log holds at most MAX_LOG_SNAPSHOTS_PER_HAND snapshots per player and hand; a replay
keeps at most MAX_REPLAY_FRAMES frames per hand (evenly spaced, the first and the last
always kept), so its pictures stay bounded whatever the log.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

from solver.coach.logs import GameLog, HandLog, replay_tables
from solver.core.grid import Grid
from solver.core.svg import grid_svg, layout
from solver.play import events
from solver.play.layout import build_frames

MAX_REPLAY_FRAMES = 200  # frames of one hand
BUILDING = "building"  # a frame of a bot's work shown under way (its tiles laid so far)
FRAME_GAP = 24  # pixels between two players' grids in a frame's picture
LABEL_HEIGHT = 28  # pixels of the band of names above the grids
FRAME_CELL = 24  # pixels per cell in a frame's picture
EMPTY_WIDTH = 3 * FRAME_CELL  # the width a player without a grid yet takes
CLOCK_WIDTH = 100  # pixels right of the grids for the frame's time


__all__ = ["frames", "Frame", "frame_svg"]


@dataclass(frozen=True)
class Frame:
    """The table at one moment of a hand: the hand's number, the time `t` in seconds on the
    game clock, the event that made it, whose grid changed, and every player's grid then."""

    hand: int
    t: float
    event: str  # what made this frame: snapshot, bananas, building (a bot's work shown under way), or grids (the end)
    player: int | None  # whose grid changed (None: the end)
    grids: tuple[Grid | None, ...]


def frames(log: GameLog) -> list[Frame]:
    """Every hand's frames, in order (module docstring)."""
    result: list[Frame] = []
    for hand in log.hands:
        grids: list[Grid | None] = [None] * log.players
        moments: list[Frame] = []
        for t, kind, player, grid in sorted(changes(log, hand), key=lambda change: change[0]):
            grids[player] = grid
            moments.append(Frame(hand.number, t, kind, player, tuple(grids)))
        assert hand.grids is not None and hand.end is not None  # read_log checked
        final = tuple(Grid.from_rows(rows) if rows is not None else None for rows in hand.grids)
        moments.append(Frame(hand.number, hand.end["t"], events.GRIDS, None, final))
        result.extend(spaced(moments, MAX_REPLAY_FRAMES))
    return result


def changes(log: GameLog, hand: HandLog) -> Iterator[tuple[float, str, int, Grid]]:
    """Each time a player's grid changed on the table: (time, what changed it, player, grid).
    A bot's work (a snapshot with the time it `begun`) shows built a tile at a time from then
    until it lands, as the room showed it (`solver.play.layout.grid_while_building`), so the
    replay of a moment is what the table showed then. In the order of the log, not of time."""
    for event, before, table in replay_tables(log, hand):
        if event["event"] != events.SNAPSHOT and event["event"] != events.BANANAS:
            continue
        player = event["player"]
        grid = table.shown[player]
        if grid is None:
            continue
        if event["event"] == events.SNAPSHOT and "begun" in event:
            kept, steps = build_frames(before.shown[player], grid)
            new, begun, lands = grid.tile_count - kept, event["begun"], event["t"]
            for step in steps[:-1]:  # the last is the landed grid, shown when it lands
                yield begun + (lands - begun) * (step.tile_count - kept) / new, BUILDING, player, step
        yield event["t"], event["event"], player, grid


def spaced(items: list[Frame], limit: int) -> list[Frame]:
    """At most `limit` of `items`, evenly spaced, the first and the last kept."""
    if len(items) <= limit:
        return items
    step = (len(items) - 1) / (limit - 1)
    return [items[round(index * step)] for index in range(limit)]


def frame_svg(frame: Frame, labels: list[str]) -> str:
    """One frame as an SVG picture: every player's grid side by side under their name."""
    sizes = [layout(grid, cell=FRAME_CELL) if grid is not None else None for grid in frame.grids]
    widths = [max(size.width if size else EMPTY_WIDTH, 8.0 * len(label)) for size, label in zip(sizes, labels)]
    height = LABEL_HEIGHT + max((size.height for size in sizes if size), default=FRAME_CELL)
    width = sum(widths) + FRAME_GAP * len(widths) + CLOCK_WIDTH
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f"<title>{escape(f'hand {frame.hand}, {frame.t:.1f} s')}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]
    x = 0.0
    for grid, label, column in zip(frame.grids, labels, widths):
        parts.append(
            f'<text x="{x + 4:g}" y="{LABEL_HEIGHT - 9}" font-family="sans-serif" font-size="14">{escape(label)}</text>'
        )
        if grid is not None:
            # A picture inside the picture: grid_svg's own <svg>, placed by its x and y.
            picture = grid_svg(grid, cell=FRAME_CELL).rstrip("\n")
            parts.append(picture.replace("<svg ", f'<svg x="{x:g}" y="{LABEL_HEIGHT}" ', 1))
        x += column + FRAME_GAP
    clock = f"{frame.t:.1f} s" + (" (end)" if frame.event == events.GRIDS else "")
    parts.append(f'<text x="{x:g}" y="{LABEL_HEIGHT - 9}" font-family="sans-serif" font-size="14">{clock}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
