"""The package's build: pyproject.toml says what is packaged; this adds the artifacts compiled
at install so that a first run needs no build (solver/search/prebuilt.py: the default word
list's arrays and the compiled kernels' library, about 60 s on 2 cores).

- A wheel (`pip install .`, `python -m build`) gets them in its build folder, and is tagged for
  this platform and Python. Ones already built in the checkout with the same key (by an
  editable install) are copied, not rebuilt.
- An editable install (`pip install -e .`) builds them into the source tree, in place
  (solver/search/compiled/, solver/lexicon/arrays/: gitignored).
- Fail-soft: whatever cannot be built is reported as a warning (pip shows it with -v) and the
  package installs without it; the first run then builds it, as it always did.
- BANANAS_PREBUILT=0 builds none, and makes a pure wheel (for builds that only check what is
  packaged, such as tests/project/test_packaging.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent
WANTED = os.environ.get("BANANAS_PREBUILT", "1") != "0"
TIMEOUT_SECONDS = 1200  # a compile that hangs must not hang the install
ANNOUNCEMENT = (
    "compiling the solver's kernels into one library and building the en word-list arrays into the "
    "package (about 60 s on 2 cores; BANANAS_PREBUILT=0 skips it, and a first run builds them)..."
)


class BuildWithArtifacts(build_py):
    """build_py, then every artifact of solver.search.prebuilt."""

    def run(self) -> None:
        super().run()
        if not WANTED:
            return
        if getattr(self, "editable_mode", False):
            build_artifacts(ROOT)  # the source tree is what the editable install imports
        else:
            build_artifacts(Path(self.build_lib).resolve(), reuse=ROOT)


def build_artifacts(root: Path, reuse: Path | None = None, python: str = sys.executable) -> None:
    """`python -m solver.search.prebuilt ROOT` on this checkout's sources; warns, never fails."""
    # Said before the minute of compiling starts, so that a build log (pip -v, python -m build)
    # does not look hung; its report follows when it is done.
    print(f"bananas: {ANNOUNCEMENT}", file=sys.stderr, flush=True)
    command = [python, "-m", "solver.search.prebuilt", str(root)]
    command += ["--reuse", str(reuse)] if reuse else []
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    report, written = "", []
    try:
        # The child's lines are passed on as it writes them (a line before each long step, then
        # each artifact's report), not held until it ends: no silent minute in a build log.
        with subprocess.Popen(
            command, env=dict(os.environ, PYTHONPATH=path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        ) as child:
            timer = threading.Timer(TIMEOUT_SECONDS, child.kill)  # a compile that hangs must not hang the install
            timer.start()
            try:
                assert child.stderr is not None
                for line in child.stderr:
                    written.append(line)
                    print(line, end="", file=sys.stderr, flush=True)
            finally:
                timer.cancel()
        if child.returncode != 0:  # what it said is above
            report = f"WARNING: the artifacts were not built (exit code {child.returncode})"
    except (OSError, subprocess.SubprocessError) as error:
        report = f"WARNING: the artifacts were not built ({type(error).__name__}: {error})"
    if report or any("WARNING" in line for line in written):
        report += "\nbananas: the package installs without them; a first run builds them (README, Caches)"
    if report:
        print(report.strip(), file=sys.stderr, flush=True)


class PlatformWheel(Distribution):
    """The compiled library makes the wheel specific to this platform and Python."""

    def has_ext_modules(self) -> bool:
        return WANTED


if __name__ == "__main__":  # as setuptools runs it (tests import build_artifacts)
    setup(cmdclass={"build_py": BuildWithArtifacts}, distclass=PlatformWheel)
