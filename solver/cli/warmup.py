"""First-run work, said out loud, and `bananas warm-up`, which does it ahead of time.

Three things are built once and cached: a word list's arrays (the marisa-trie and the DAWGs,
in $BANANAS_CACHE), the compiled library that `bananas solve`, `peel` and `dump` run the
search with (`solver.search.library`, in $BANANAS_CACHE/kernels), and numba's compiled kernels
(numba's cache, in a folder keyed by the kernels' sources: `native.numba_cache_dir`), which the
library, games and the server use. Each takes seconds the first time. The package's build makes
the first two for the default word list ahead of time, into the package
(`solver.search.prebuilt`): where that worked, a first `bananas solve` builds
nothing. `Notice` says on stderr what is being built and roughly for how long: on a terminal
with a spinner, and then how long it took; off a terminal (pipes, files, CI logs) in one line
as the build starts, for a build of seconds or more. A warm start builds nothing and says nothing.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

import solver
from solver.cli.common import reports_input_errors
from solver.lexicon.loader import SHIPPED, Lexicon, cache_root, load_lexicon, set_build_notice

if TYPE_CHECKING:
    import subprocess

# Cold build of the compiled library (the kernels compiled, linked and self-checked), with empty caches
# on the benchmark machine (benchmarks/results/*-startup.md).
BUILD_SECONDS = {"library": 30.0}

# Off a terminal, a build expected to take this long or more is announced (a line each): a
# pause long enough to wonder whether the command hangs. Shorter ones pass unsaid, as a line
# per second-long step of a first run would be noise in a log.
LINE_NOTICE_SECONDS = 2.0


class Notice:
    """Around a first run's build, on `stream`. On a terminal: '<spinner> building WHAT (once;
    about N s) 3.1 s', redrawn ten times a second, then 'built WHAT in 3.4 s'. Elsewhere (a pipe,
    a file, a CI log), where a redrawn line would be garbage: one line as it starts, 'bananas:
    building WHAT (once; about N s)...', when it takes LINE_NOTICE_SECONDS or more."""

    FRAMES = "|/-\\"

    def __init__(
        self,
        stream: TextIO,
        what: str,
        seconds: float,
        verb: tuple[str, str] = ("building", "built"),
        started: float | None = None,
    ):
        self.stream = stream
        self.what = what
        self.seconds = seconds
        self.doing, self.done = verb
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._width = 0
        self._started = started  # the work may have begun before the notice (a child process)
        self._spinning = notices_wanted(stream)

    def __enter__(self) -> Notice:
        self._started = self._started or time.perf_counter()
        if self._spinning:
            self._thread.start()
        elif self.seconds >= LINE_NOTICE_SECONDS:
            self.stream.write(f"bananas: {self.doing} {self.what} (once; {self._estimate()})...\n")
            self.stream.flush()
        return self

    def __exit__(self, *exc_info) -> None:
        if not self._spinning:
            return
        self._stop.set()
        self._thread.join()
        assert self._started is not None  # set by __enter__
        elapsed = time.perf_counter() - self._started
        if exc_info[0] is None:
            self._draw(f"{self.done} {self.what} in {elapsed:.1f} s", end="\n")
        else:
            self._draw(f"{self.doing} {self.what} failed", end="\n")

    def _spin(self) -> None:
        frame = 0
        assert self._started is not None  # set by __enter__ before the thread starts
        estimate = self._estimate()
        while True:
            elapsed = time.perf_counter() - self._started
            self._draw(f"{self.FRAMES[frame % 4]} {self.doing} {self.what} (once; {estimate}) {elapsed:.1f} s")
            frame += 1
            if self._stop.wait(0.1):
                return

    def _estimate(self) -> str:
        return f"about {self.seconds:.0f} s" if self.seconds >= 1 else "about a second"

    def _draw(self, text: str, end: str = "") -> None:
        # Pad over the previous text: a carriage return alone would leave its tail behind.
        self.stream.write("\r" + text.ljust(self._width) + end)
        self.stream.flush()
        self._width = len(text)


def notices_wanted(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def show_build_notices() -> None:
    """Announce every cold word-list build of this process on stderr (`Notice`)."""
    set_build_notice(lambda what, seconds: Notice(sys.stderr, what, seconds))


class CompileWatch:
    """Around work that may compile numba kernels: notes whether anything was compiled and,
    when `stream` is given, shows a `Notice` from the first real compilation (numba's
    "numba:compile" event; a load from its cache raises none, so a warm start shows nothing)."""

    def __init__(self, what: str = "", seconds: float = 0.0, stream: TextIO | None = None):
        self.what, self.seconds, self.stream = what, seconds, stream
        self.compiled = False
        self._notice: Notice | None = None
        self._listener: object | None = None  # a numba event.Listener once entered

    def __enter__(self) -> CompileWatch:
        from solver.search import numba_internals  # the caller is about to use numba anyway

        def on_start(ev) -> None:
            if not self.compiled:
                self.compiled = True
                if self.stream is not None:
                    self._notice = Notice(self.stream, self.what, self.seconds, ("compiling", "compiled"))
                    self._notice.__enter__()

        self._listener = numba_internals.listen_to_compiles(on_start, lambda ev: None)
        return self

    def __exit__(self, *exc_info) -> None:
        from solver.search import numba_internals

        numba_internals.stop_listening(self._listener)
        if self._notice is not None:
            self._notice.__exit__(*exc_info)


# Cold JIT compile of each entry kernel (with its callees; `native.ENTRIES`, every one:
# tests/cli/test_startup.py), benchmarks/results/*-startup.md and a cold `bananas play`.
ENTRY_COMPILE_SECONDS = {
    "search": 15.0,
    "hostable_letters": 1.0,
    "word_letter_counts": 1.0,
    "lay_grid": 1.5,
    "word_search": 10.0,
    "lightest_weights": 1.0,
}
_watching: list[bool] = []  # [True] once this process listens to numba's compiles


def show_compile_notices() -> None:
    """Announce each JIT compile of an entry kernel (the search, the proofs' pre-checks, laying
    a grid) in this process on stderr (`Notice`), whichever command triggers it; loads from
    numba's cache raise no compile event, so a warm start says nothing. Once a process: a
    command run in-process again (the tests' CliRunner) adds no second listener."""
    from solver.search import native

    if not _watching:
        _watching.append(True)
        native.when_numba_is_needed(_watch_entry_compiles)


def _watch_entry_compiles() -> None:
    from solver.search import numba_internals
    from solver.search.native import ENTRIES, KERNELS_PACKAGE

    depth: list[Notice | None] = []  # one slot per compile in progress; callees nest

    def on_start(ev) -> None:
        # Whatever raised the event (not always a dispatcher of ours): nothing to announce.
        function = getattr(ev.data.get("dispatcher"), "py_func", None)
        name, module = getattr(function, "__name__", ""), getattr(function, "__module__", "") or ""
        notice = None
        if not depth and module.startswith(f"{KERNELS_PACKAGE}.") and name in ENTRIES:
            what = f"the solver's {name} kernel"
            seconds = ENTRY_COMPILE_SECONDS[name]
            # sys.stderr as it is now: a command run in-process swaps it between runs.
            notice = Notice(sys.stderr, what, seconds, ("compiling", "compiled"))
            notice.__enter__()
        depth.append(notice)

    def on_end(ev) -> None:
        notice = depth.pop()
        if notice is not None:
            notice.__exit__(None, None, None)

    numba_internals.listen_to_compiles(on_start, on_end)


class KernelPrep:
    """The solver's kernels for a command that solves (`bananas solve`, `peel`, `dump`).

    The compiled library (`solver.search.library`) when the install or the cache has it: the
    process then never imports numba. When neither has it, this run takes numba's JIT
    (compiled on a first run, announced) and starts building the library in a child process
    that outlives the command, for the next run: waiting for the build (about 50 s on 2 cores,
    the JIT's compile included) would cost a first run more than the JIT's compile alone
    (about 30 s; benchmarks/results/2026-12-04-startup.md)."""

    def __init__(self):
        from solver.search import library, native

        native.prefer_library()
        self.builder: subprocess.Popen | None = None
        missing = library.enabled() and library.state() == "missing"
        if missing and native.cache_writable() and not library.build_in_progress():
            self.builder = start_library_build()

    def ready(self, lexicon: Lexicon, include_extend: bool) -> bool:
        """Bind and load the kernels before any timed search. True when something was compiled."""
        from solver.search import library, native
        from solver.search.solving import warm_kernels

        if library.enabled() and library.state() == "built":
            warm_kernels(lexicon, include_extend=include_extend)
            return False
        native.prefer_library(False)  # the library is not there yet: numba's JIT, this run
        with CompileWatch() as watch:  # announced, on a terminal, by show_compile_notices
            warm_kernels(lexicon, include_extend=include_extend)
        return watch.compiled


def start_library_build() -> subprocess.Popen:
    """`python -m solver.search.prebuilt --caches` in a child process: the compiled library
    (quiet; a failed build leaves a note)."""
    import subprocess  # first runs only

    package_root = str(Path(solver.__file__).resolve().parents[1])  # this copy of the package
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "solver.search.prebuilt", "--caches"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, PYTHONPATH=path),
        start_new_session=True,  # outlives the command (and its Ctrl-C): the next run finds it built
    )


@click.command("warm-up")
@click.option(
    "--lexicon",
    "lexicons",
    multiple=True,
    metavar="en|en@LEVEL|fr|PATH",
    help="Word lists to build (repeatable). Default: en (with the vocabulary levels the bots use) and fr.",
)
@reports_input_errors
def warm_up(lexicons: tuple[str, ...]) -> None:
    """Build the word-list arrays and compile the solver now, so that no later command waits
    for them.

    For installers and container images: run it once after installing, as the user and with
    the BANANAS_CACHE and NUMBA_CACHE_DIR the commands will run with. Prints one line per
    step: built (or compiled) now, or already cached. A compiled library that cannot be built
    here (no C compiler) is reported, not an error: the solver then runs on numba's JIT.
    """
    from solver.play.bots import PRESETS
    from solver.search import native

    show_build_notices()
    specs = lexicons or SHIPPED
    wanted: list[tuple[str, int | None]] = [(spec, None) for spec in specs]
    if "en" in specs:
        wanted += [("en", level) for level in sorted({p.level for p in PRESETS.values() if p.level is not None})]
    loaded = []
    for spec, level in wanted:
        started = time.perf_counter()
        lexicon = load_lexicon(spec, level)  # not the memoised copy: its timings say what this run did
        loaded.append(lexicon)
        click.echo(f"{lexicon.name}: {done_or_cached('cold_build_s' in lexicon.timings, 'built', started)}")

    click.echo(f"compiled kernels: {library_state()}")
    click.echo(f"numba kernels: {jit_state(loaded[0])}")
    click.echo(f"# caches: word lists and compiled kernels in {cache_root()}, numba's in {native.numba_cache_dir()}")


# A process that loads the entry kernels from numba's cache, counting what it had to compile
# instead: warm-up's check that the cache it filled is the one the commands will read.
CHECK_SCRIPT = """
from solver.cli.warmup import CompileWatch
from solver.search import native
with CompileWatch() as watch:
    native.compile_entries()
print("compiled" if watch.compiled else "loaded")
"""


def jit_state(lexicon: Lexicon) -> str:
    """Compile every entry kernel into numba's cache (what `serve`, `play` and the Python API
    run once the cache is warm: `native.compile_entries`), then run the tiny solves on them and
    check: each entry's index file is in the cache folder, and a new process loads them all
    without compiling. Say which, and how long it took."""
    from solver.search import native
    from solver.search.solving import warm_kernels

    if native.jit_disabled():
        return "off (NUMBA_DISABLE_JIT set)"
    started = time.perf_counter()
    with CompileWatch() as watch:  # announced, on a terminal, by show_compile_notices
        native.use_entries(native.compile_entries())
        warm_kernels(lexicon, include_extend=True)
    missing = native.uncached_entries()
    if missing:
        return f"NOT cached: no {', '.join(missing)} in {native.numba_cache_dir()} (numba could not write there?)"
    problem = _child_loads_from_cache()
    if problem:
        return f"NOT cached: {problem}"
    verb = done("compiled", started) if watch.compiled else "cached"
    return f"{verb}; checked: a new process loads all {len(native.ENTRIES)} entries from the cache"


def _child_loads_from_cache() -> str:
    """'' when a new Python process (this copy of the package, this environment) loads every
    entry kernel from numba's cache without compiling; else what happened."""
    import subprocess

    package_root = str(Path(solver.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    run = subprocess.run(
        [sys.executable, "-c", CHECK_SCRIPT],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=path),
        timeout=600,
    )
    outcome = run.stdout.strip().splitlines()[-1:] if run.returncode == 0 else []
    if outcome == ["loaded"]:
        return ""
    if outcome == ["compiled"]:
        return "a new process compiled the kernels again instead of loading them"
    return f"the check failed (exit {run.returncode}): {run.stderr.strip()[-300:]}"


def library_state() -> str:
    """Build the compiled library unless it is there (retrying a build that failed before);
    say which."""
    from solver.search import library, library_build

    if not library.enabled():
        return "off (BANANAS_FAST_START=0 or NUMBA_DISABLE_JIT set)"
    found = library.find()
    if found is not None:
        return "built at install" if found[0].parent == library.prebuilt_dir() else "cached"
    started = time.perf_counter()
    library.failure_note().unlink(missing_ok=True)
    with Notice(sys.stderr, "the compiled kernels", BUILD_SECONDS["library"]):
        problem = library_build.build_into_cache()
    return f"not built ({problem}); the solver runs on numba's JIT" if problem else done("built", started)


def done(verb: str, started: float) -> str:
    return f"{verb} ({time.perf_counter() - started:.1f} s)"


def done_or_cached(worked: bool, verb: str, started: float) -> str:
    return done(verb, started) if worked else "cached"
