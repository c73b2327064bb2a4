"""Tournament games on a Dask distributed cluster (the optional `cluster` extra).

`run_tournament(..., scheduler="tcp://HOST:PORT")` hands its schedule to `play_on_cluster`:
the games go to the cluster in batches (one Dask task plays several games, so the task
overhead stays small next to a game of a few hundredths of a second), and each batch's
records come back as soon as it finishes (`distributed.as_completed`), so progress is live.

Why the results cannot differ from a local run: the schedule (who sits where, which hand
seed) is made in the calling process, and a game is a pure function of its scheduled task
(`solver.play.schedule.play_game`), so where it runs changes nothing; records are keyed
by game index and sorted at the end.

A worker lost mid-run (killed, out of memory, machine gone) costs no game: Dask's scheduler
re-runs the tasks that the worker held, finished or not. Whatever arrives is counted once
per game index, so a batch that runs twice adds nothing twice. A batch that keeps killing
its workers (Dask's `KilledWorker`, after `distributed.scheduler.allowed-failures` tries) is
submitted again, up to `RESUBMITS` times, before the run fails.

The workers must run the same version of this package (same code, same lexicons), or the
"same seed, same games" promise no longer holds. Connection settings (timeouts, TLS) are
Dask's own configuration (~/.config/dask, or `DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s`);
an unreachable scheduler is given up after CONNECT_TIMEOUT seconds at most.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from solver.core.limits import MAX_CLUSTER_BATCH
from solver.play.rules import Rules
from solver.play.schedule import GameRecord, play_game

SCHEMES = ("tcp", "tls", "ws", "wss")
ADDRESS = re.compile(r"^(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d+)$")
TASKS_PER_THREAD = 4  # batches per worker thread: enough to balance the load and to stream progress
RESUBMITS = 2
CONNECT_TIMEOUT = 10.0  # seconds; Dask's own default (30 s) feels like a hang on a mistyped address


class ClusterError(ValueError):
    """A problem the user has to fix on the cluster side (the extra missing, a bad or
    unreachable address, workers that keep dying). A ValueError, so the command line
    reports it as one `error: ...` line."""


def require_distributed() -> None:
    """Fail early, with the install command, when the optional extra is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(
            "--scheduler needs Dask distributed, an optional extra: pip install 'bananas[cluster]'"
        ) from None


def normalise_address(address: str) -> str:
    """'tcp://HOST:PORT' (the scheme defaults to tcp, like Dask's); anything else is refused."""
    match = ADDRESS.match(address.strip())
    if not match:
        raise ClusterError(f"bad scheduler address {address!r}: expected tcp://HOST:PORT")
    scheme = match["scheme"] or "tcp"
    if scheme not in SCHEMES:
        raise ClusterError(f"bad scheduler address {address!r}: the scheme must be one of {', '.join(SCHEMES)}")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise ClusterError(f"bad scheduler address {address!r}: port {port} is not in 1-65535")
    return f"{scheme}://{match['host']}:{port}"


def connect(address: str, timeout: float | None = None):
    """A `distributed.Client` on the scheduler at `address`. `timeout` defaults to
    CONNECT_TIMEOUT, or Dask's configured connect timeout when that is shorter.
    Unreachable, or no workers, is a ClusterError."""
    require_distributed()
    import dask
    from dask.utils import parse_timedelta
    from distributed import Client

    address = normalise_address(address)
    if timeout is None:
        timeout = min(CONNECT_TIMEOUT, parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s"))
    try:
        client = Client(address, set_as_default=False, timeout=timeout)
    except (OSError, TimeoutError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    if not client.nthreads():
        client.close()
        raise ClusterError(f"the Dask scheduler at {address} has no workers (start some: dask worker {address})")
    return client


def batch_size(games: int, threads: int) -> int:
    """Games per task: about TASKS_PER_THREAD tasks per worker thread, at most MAX_CLUSTER_BATCH."""
    return max(1, min(MAX_CLUSTER_BATCH, math.ceil(games / max(1, threads * TASKS_PER_THREAD))))


def play_batch(tasks: list[tuple], bot_specs: list[str], rules: Rules) -> list:
    """A Dask task: play scheduled games one after another (runs on a worker)."""
    return [play_game(task, bot_specs, rules) for task in tasks]


def play_on_cluster(
    address: str,
    tasks: list[tuple],
    bot_specs: list[str],
    rules: Rules,
    done: Callable[[GameRecord], None],
    batch: int | None = None,
    timeout: float | None = None,
) -> int:
    """Play the scheduled `tasks` on the cluster, calling `done(record)` once per game as
    batches finish (in this process). Returns the number of workers at the start."""
    from distributed import KilledWorker, as_completed

    with connect(address, timeout) as client:
        workers = len(client.nthreads())
        threads = sum(client.nthreads().values())
        size = batch or batch_size(len(tasks), threads)
        batches = [tasks[start : start + size] for start in range(0, len(tasks), size)]
        # pure=False: a rerun of the same tournament in one session must play again, not hit Dask's cache.
        futures = {client.submit(play_batch, chunk, bot_specs, rules, pure=False): chunk for chunk in batches}
        resubmits = dict.fromkeys(range(len(batches)), 0)
        numbers = {future.key: number for number, future in enumerate(futures)}
        seen: set[int] = set()
        queue = as_completed(list(futures), loop=client.loop, with_results=True, raise_errors=False)
        try:
            for future, result in queue:
                if future.status != "finished":
                    number = numbers[future.key]
                    error = future.exception() if future.status == "error" else None
                    if isinstance(error, KilledWorker) and resubmits[number] < RESUBMITS:
                        resubmits[number] += 1
                        retry = client.submit(play_batch, futures[future], bot_specs, rules, pure=False)
                        futures[retry], numbers[retry.key] = futures[future], number
                        queue.add(retry)
                        continue
                    if error is None:  # cancelled or lost: the scheduler forgot it
                        raise ClusterError(f"the Dask scheduler at {address} dropped a batch of games "
                                           f"({future.status}): was it stopped or restarted?")  # fmt: skip
                    raise ClusterError(f"a batch of games failed on the cluster: {error_summary(error)}")
                for record in result:
                    if record.index not in seen:  # a batch that ran twice counts once
                        seen.add(record.index)
                        done(record)
        except (OSError, TimeoutError) as error:  # the scheduler went away (CommClosedError is an OSError)
            raise ClusterError(f"lost the Dask scheduler at {address}: {error_summary(error)}") from None
        except BaseException:
            client.cancel(list(futures))
            raise
        if len(seen) != len(tasks):  # cannot happen while every batch reports back; never return a short count
            raise ClusterError(f"the cluster returned {len(seen)} of {len(tasks)} games")
        return workers


def error_summary(error: BaseException) -> str:
    """One line for a failed batch: the exception's type and its message, whitespace collapsed."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
