"""What every player may see of a Bananagrams hand: the read-only view its drivers read.

`solver.play.hand.Hand.public_view()` builds a `HandView`: each seat's `PublicSeat` (status,
tiles held and placed, PEELs and DUMPs, its last call, a bot at work, winner) and, once the
hand has ended, its `HandEnding` (outcome, winners, end reason, scores, the grids the table
last saw). All are frozen: a driver - a room's table, the protocol's hosted game, the command
line - reads them and never the hand's own state (`tests/project/test_architecture.py` fails
on such a read outside `solver/play`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from solver.play.events import Outcome
from solver.play.rules import EndReason

if TYPE_CHECKING:
    from solver.play.hand import HandResult

SeatStatus = Literal["playing", "stuck", "rotten", "left"]
LastCall = Literal["peel", "dump", "bananas"]


def sole_winner(outcome: Outcome, winners: Sequence[int]) -> int | None:
    """The winning seat when one player won alone; None for a shared, unawarded or replayed hand."""
    return winners[0] if outcome == "win" and len(winners) == 1 else None


@dataclass(frozen=True)
class PublicSeat:
    """One seat of a hand as every player may see it: what drivers read, never the hand's
    own seat state."""

    status: SeatStatus  # in the hand (playing, or stuck: waiting for tiles), or out and why
    held: int  # tiles held, on the grid and in the rack
    placed: int  # tiles on the grid the table sees (`Hand.table_grid`)
    peels: int  # PEELs called
    dumps: int  # DUMPs made
    building: bool  # a bot's work is under way (its call not landed yet)
    winner: bool  # among the winners of the hand (a win or a shared win), once it has ended
    # The seat's own last PEEL, DUMP or BANANAS, until tiles reach it from another's PEEL or
    # it says it is stuck (None: nothing since).
    last_call: LastCall | None = None

    @property
    def active(self) -> bool:
        """Whether the seat is still in the hand."""
        return self.status in ("playing", "stuck")

    @property
    def waiting(self) -> bool:
        """Whether the seat is stuck, waiting for tiles."""
        return self.status == "stuck"


@dataclass(frozen=True)
class HandEnding:
    """How a hand ended, as every player may see it."""

    outcome: Outcome  # win | shared | unawarded | replay (a Banana Smoothie tie)
    winners: tuple[int, ...]  # the winning seats (for a replay: the tied ones)
    reason: str  # the English reason of the `end` event
    reason_code: EndReason | None  # its key in `rules.END_REASONS`, for front-ends to translate
    reason_params: Mapping[str, object]  # the values the reason names
    scores: Mapping[str, object]  # the variant's scores (none in a race)
    grids: tuple[tuple[str, ...] | None, ...]  # each seat's grid as the table last saw it; None once out
    clock: float  # the hand's clock at its end (seconds)

    @property
    def sole_winner(self) -> int | None:
        """The winning seat when one player won alone (`sole_winner`)."""
        return sole_winner(self.outcome, self.winners)

    @classmethod
    def of(cls, result: HandResult) -> HandEnding:
        """The public part of a hand's result, frozen."""
        grids = tuple(tuple(grid) if grid is not None else None for grid in result.grids)
        params, scores = MappingProxyType(dict(result.reason_params)), MappingProxyType(dict(result.scores))
        winners = tuple(result.winners)
        return cls(result.outcome, winners, result.reason, result.reason_code, params, scores, grids, result.clock)


@dataclass(frozen=True)
class HandView:
    """A hand as every player may see it now."""

    seats: tuple[PublicSeat, ...]
    bunch: int  # tiles in the bunch
    clock: float  # the hand's clock (seconds)
    ending: HandEnding | None  # None while the hand runs

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.ending is not None

    @property
    def active(self) -> tuple[int, ...]:
        """The seats still in the hand, in seat order."""
        return tuple(index for index, seat in enumerate(self.seats) if seat.active)
