"""What the package's build compiles ahead of time, so that a first run finds it ready.

setup.py's build step runs `python -m solver.search.prebuilt ROOT` (in a child process, so a
crash in a compiler cannot take the install down), which calls `build_all(ROOT)`: every
artifact in `ARTIFACTS` is built into ROOT, a folder laid out like the installed package (the
wheel's build folder, or the source tree itself for an editable install):

- the default word list's arrays, solver/lexicon/arrays/<key>/ (`solver.lexicon.loader`, about
  3 s), so that a first `bananas solve` neither builds nor waits for anything; then
- the compiled kernels, solver/search/compiled/<key>/ (`solver.search.library`, some 20 s):
  one C-ABI library of every entry kernel, which proves itself on the word list just built
  before it is installed.

`python -m solver.search.prebuilt --caches` builds the library into the cache instead, when the
install did not bring it: a first run's background build (`solver.cli.warmup.start_library_build`).

Each <key> is the one the run time computes (the kernels' sources, Python, machine, numba and
numpy for the library; the list's bytes and the cache format for the arrays), so a stale artifact is
never used: the run time then falls back to the cache, built on first use as without it. With
`--reuse SOURCE_ROOT`, an artifact already built under SOURCE_ROOT with the same key (an
editable install's, in the checkout) is copied instead of built again.

Fail-soft: an artifact that cannot be built (no C compiler, no Python headers, any error) is
reported and skipped; the exit code is 0 all the same. BANANAS_PREBUILT=0 at build time builds
none (setup.py checks it), at run time ignores them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.lexicon import files, loader
from solver.search import library, library_build


@dataclass(frozen=True)
class Artifact:
    """One thing built ahead of time: in `folder` (below the package root) / `key()`, by
    `build(that <key> folder, log)`, which raises when it cannot build it and may `log` a line
    before each of its long steps; `about` is what it takes, said before it starts."""

    name: str
    folder: str
    key: Callable[[], str]
    build: Callable[[Path, Callable[[str], None]], None]
    about: str = ""


ARTIFACTS = (
    Artifact(
        "en word-list arrays",
        "solver/lexicon/arrays",
        lambda: loader.arrays_key("en"),
        lambda d, log: loader.write_arrays("en", d),
        "5-15 s",
    ),
    Artifact(
        "compiled kernels",
        "solver/search/compiled",
        library.key,
        lambda d, log: library_build.build(d, progress=log),
        "30-130 s on 2 cores",
    ),
)


def build_caches() -> dict[str, str]:
    """Build the library into the cache, unless it is there (`python -m solver.search.prebuilt
    --caches`, the first run's background build). Returns name -> '' (there now) or why not."""
    return {"compiled kernels": library_build.build_into_cache()}


def build_all(root: Path, reuse: Path | None = None, log: Callable[[str], None] = print) -> dict[str, str]:
    """Build every artifact into `root` (copied from under `reuse` when it is built there with
    the same key). Returns name -> '' (built) or why not; an artifact's failure never raises."""
    problems = {}
    # The library's self-check solves with the word list built just before it, into `root`:
    # read from there, as an installed package would.
    package_arrays, files.PREBUILT_ARRAYS = files.PREBUILT_ARRAYS, root / "solver" / "lexicon" / "arrays"
    try:
        for artifact in ARTIFACTS:
            problems[artifact.name] = _build_one(artifact, root, reuse, log)
    finally:
        files.PREBUILT_ARRAYS = package_arrays
    return problems


def _build_one(artifact: Artifact, root: Path, reuse: Path | None, log: Callable[[str], None]) -> str:
    """Build `artifact` into `root` (module docstring); '' when built, else why not."""
    started = time.perf_counter()
    try:
        directory = root / artifact.folder / artifact.key()
        built_before = reuse / artifact.folder / directory.name if reuse else None
        if built_before is not None and built_before.is_dir() and built_before != directory:
            shutil.copytree(built_before, directory, dirs_exist_ok=True)  # complete: built, then renamed in
        else:
            # Said before it starts, so that a build log does not look hung.
            log(f"bananas: building the {artifact.name}{f' ({artifact.about})' if artifact.about else ''}...")
            artifact.build(directory, log)
        _readable_by_all(directory)
        log(f"bananas: {artifact.name} ready in {time.perf_counter() - started:.1f} s: {directory}")
        return ""
    except Exception as error:  # fail-soft: the run time builds it on first use instead
        problem = f"{type(error).__name__}: {error}".strip()
        log(f"bananas: WARNING: {artifact.name} not built ({problem}); a first run builds it")
        return problem


def _readable_by_all(directory: Path) -> None:
    """The builds stage in private temporary folders (0700); an install is read by every user."""
    directory.chmod(0o755)
    for path in directory.rglob("*"):
        path.chmod(0o755 if path.is_dir() or path.suffix == ".so" else 0o644)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.search.prebuilt", description=__doc__.splitlines()[0])
    parser.add_argument(
        "root", type=Path, nargs="?", help="the folder holding the solver package (a build folder or the checkout)"
    )
    parser.add_argument("--reuse", type=Path, help="copy artifacts already built under this root with the same key")
    parser.add_argument("--caches", action="store_true", help="build into the caches instead (a first run's build)")
    arguments = parser.parse_args(argv)
    if arguments.caches:
        problems = build_caches()
        return 1 if any(problems.values()) else 0
    if arguments.root is None:
        parser.error("ROOT is required (or --caches)")
    if os.environ.get("BANANAS_PREBUILT", "1") == "0":
        print("bananas: BANANAS_PREBUILT=0: no artifact built ahead of time", file=sys.stderr)
        return 0
    build_all(arguments.root, arguments.reuse, log=lambda line: print(line, file=sys.stderr, flush=True))
    return 0


if __name__ == "__main__":
    # As a script this file is `__main__`, a second copy: the imported module does the work.
    from solver.search.prebuilt import main as imported_main

    sys.exit(imported_main())
