"""Tournaments on a Dask cluster (solver.play.cluster): a distributed.LocalCluster started
here, same per-game results and table as a local run, a worker killed mid-run, the
`--scheduler` option, and its errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from pathlib import Path

import pytest
from helpers import per_game, run_cli

from solver.play.cluster import ClusterError, batch_size, normalise_address
from solver.play.tournament import run_tournament

distributed = pytest.importorskip("distributed")

SPECS = ["easy:node_budget=20", "easy", "easy:speed=1"]  # cheap bots: a game takes a few hundredths of a second
GAMES = 12


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes, as `dask worker --nworkers 2 --nthreads 1` would give."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as local:
        yield local


@pytest.fixture(scope="module")
def local_run():
    return run_tournament(SPECS, GAMES, players=2, seed=11, workers=1)


def test_the_cluster_plays_the_same_games_and_table_as_a_local_run(cluster, local_run, tmp_path: Path):
    out = tmp_path / "cluster.json"
    result = run_cli("tournament", "--bots", ",".join(SPECS), "--games", str(GAMES), "--seed", "11",
                 "--scheduler", cluster.scheduler_address, "--json", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:5] == local_run.table().splitlines()[:5]  # all but the timing line
    assert "2 workers on tcp://127.0.0.1:" in result.stdout
    data = json.loads(out.read_text())
    assert data["games"] == per_game(local_run)
    assert data["bots"] == [s.to_json() for s in local_run.stats]
    assert data["settings"]["scheduler"] == cluster.scheduler_address


@pytest.mark.slow  # kills a worker and waits for the cluster to notice
def test_a_worker_killed_mid_run_costs_no_game_and_counts_none_twice(cluster, local_run):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as observer:
        pids = observer.run(os.getpid)
        killed = []

        def progress(done: int, total: int) -> None:
            if not killed and done < total:
                busy = [worker for worker, keys in observer.processing().items() if keys]
                if busy:  # else try again after the next game
                    os.kill(pids[busy[0]], signal.SIGKILL)  # the nanny starts a fresh worker; its batch runs again
                    killed.append(busy[0])

        remote = run_tournament(
            SPECS, GAMES, players=2, seed=11, scheduler=cluster.scheduler_address, progress=progress
        )
        assert killed and pids[killed[0]] not in observer.run(os.getpid).values()  # it died holding a batch
    assert [game.index for game in remote.games] == list(range(GAMES))  # every game, once
    assert per_game(remote) == per_game(local_run)
    assert [s.to_json() for s in remote.stats] == [s.to_json() for s in local_run.stats]


@pytest.mark.slow  # what the ladder and the tournament share: tests/play/test_ladder.py, locally
def test_a_ladder_on_the_cluster_rates_as_a_local_one(cluster):
    args = ["ladder", "--bots", ",".join(SPECS), "--games", "6", "--seed", "2", "--bootstrap", "100", "--json", "-"]
    on_cluster = run_cli(*args, "--scheduler", cluster.scheduler_address)
    at_home = run_cli(*args)
    assert on_cluster.exit_code == 0 and at_home.exit_code == 0
    assert json.loads(on_cluster.stdout)["entries"] == json.loads(at_home.stdout)["entries"]


# -- errors ---------------------------------------------------------------------------


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # free, and nothing listens on it once closed


@pytest.mark.parametrize(
    "scheduler, message",
    [
        ("tcp://127.0.0.1", "bad scheduler address"),
        ("tcp://127.0.0.1:99999", "port 99999"),
        ("udp://127.0.0.1:8786", "scheme"),
        ("not an address", "bad scheduler address"),
    ],
)
def test_bad_addresses_are_refused_before_any_game(scheduler, message, tmp_path: Path):
    out = tmp_path / "out.json"
    result = run_cli(
        "tournament", "--bots", "easy,medium", "--games", "2", "--scheduler", scheduler, "--json", str(out)
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1 and message in result.stderr
    assert not out.exists()


def test_an_unreachable_scheduler_is_one_error_line_and_writes_nothing(tmp_path: Path):
    import dask

    out = tmp_path / "out.json"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = run_cli("ladder", "--bots", "easy,medium", "--games", "2", "--scheduler",
                     f"tcp://127.0.0.1:{closed_port()}", "--json", str(out))  # fmt: skip
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:")
    assert list(tmp_path.iterdir()) == []


def test_without_the_extra_scheduler_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    result = run_cli("tournament", "--bots", "easy,medium", "--games", "2", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "pip install 'bananas[cluster]'" in result.stderr


def test_workers_and_scheduler_do_not_mix():
    result = run_cli("tournament", "--bots", "easy,medium", "--games", "2", "--workers", "2", "--scheduler", "h:1")
    assert result.exit_code == 2 and "choose one" in result.stderr


def test_addresses_and_batches():
    assert normalise_address("10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert normalise_address(" tls://scheduler.lab:8786 ") == "tls://scheduler.lab:8786"
    assert normalise_address("tcp://[::1]:8786") == "tcp://[::1]:8786"
    with pytest.raises(ClusterError):
        normalise_address("tcp://host:0")
    assert batch_size(12, 2) == 2  # about four tasks per worker thread
    assert batch_size(100_000, 8) == 50  # capped: a lost worker costs at most a few batches
    assert batch_size(3, 64) == 1
