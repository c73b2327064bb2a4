"""The benchmark scripts still run: each at its smallest setting, without --record (so
nothing in benchmarks/results/ or the README changes). A script that rots (say, one that
reaches into a module a refactor changed) fails here instead of on the next recorded run.
The figures themselves are not checked: speed and strength targets live in the recorded
results. Start-up, compile and lexicon benchmarks build caches from empty: left out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

SMALLEST = {
    # --no-first-call: its fresh-process compile costs (a cold compile, 90-100 s of this test on
    # a slow machine) are a compile benchmark, left out like the others (test_startup compiles).
    "solve": ["bench_solve.py", "--quick", "--sizes", "11", "--hands", "5", "--time-limit", "0.2", "--no-first-call"]
    + ["--against", f"{sys.executable} -c \"import sys; [print('solved in 1.0 ms') for _ in sys.argv[1:]]\""],
    "strategies": ["bench_strategies.py", "--hands", "1", "--max-nodes", "50", "--first-nodes", "500"],
    "game": ["bench_game.py", "--games", "2", "--tournament-games", "2"],
    "live": ["bench_live.py", "--sequences", "1"],
    "spellevate": ["bench_spellevate.py", "--rounds", "2", "--double-rounds", "1", "--baseline-rounds", "1"]
    + ["--workers", "1"],
    "strength": ["bench_strength.py", "--games", "2", "--lever-games", "2", "--calibration-hands", "2"]
    + ["--workers", "1"],
    "cluster": ["bench_cluster.py", "--games", "8"],
    "pace": ["bench_pace.py", "--hands", "1", "--players", "1", "--presets", "expert"],
    "process": ["bench_process.py", "--runs", "1", "--hands", "1", "--use-caches", "--jit"]
    + ["--against", f"{sys.executable} -c pass"],
    "load": ["bench_load.py", "--rooms", "2", "--seconds", "5", "--processes", "2"],
    "fair": ["bench_fair.py", "--seconds", "2", "--flood", "1"],
    "ceiling": ["bench_ceiling.py", "--games", "2", "--oracle-games", "2", "--confirm-seed", "0"]
    + ["--candidates", "hard;tuned", "--cache", "cache"],
    "deal-features": ["bench_deal_features.py", "--games", "2", "--cache", "cache"],
    "first-grid": ["bench_first_grid.py", "--deals", "1", "--seed", "5", "--specs", "hard;hard:side_words=3"],
    "tune": ["bench_tune.py", "--storage", "sqlite:///tune.db", "--trials", "2", "--games", "2"]
    + ["--confirm-games", "2", "--dump-games", "2", "--order-games", "4", "--workers", "1"],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SMALLEST))
def test_benchmark_runs_and_prints_its_tables(name, tmp_path):
    script, *arguments = SMALLEST[name]
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # whatever a script might write lands in a scratch folder
    )
    assert result.returncode == 0, result.stderr[-2000:]
    table = [line for line in result.stdout.splitlines() if line.startswith("|")]
    assert len(table) >= 3 and set(table[1]) <= set("|-: "), result.stdout[-2000:]  # header, rule, a row
    assert "Traceback" not in result.stderr
