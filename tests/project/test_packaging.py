"""Packaging: the wheel and the sdist carry the word lists and their licences, the package list
in pyproject.toml covers every package, and the loader finds the lists installed or in a
checkout; what the build compiles ahead of time (setup.py, solver.search.prebuilt) is found
first, and a build that cannot compile it still installs. (.ci/run installs the wheel, with
its compiled library, into a fresh virtual environment and solves with it.)"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from solver.lexicon import files, loader
from solver.search import library, library_build, prebuilt

ROOT = Path(__file__).resolve().parents[2]
WORD_LISTS = sorted(path.name for path in (ROOT / "lexicons").iterdir() if path.is_file())


def test_pyproject_lists_every_package():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "solver").rglob("__init__.py")} | {
        "solver.lexicon.data",
        "solver.web.static",  # the page's files: listed, or setuptools warns it is "absent" (issue 65)
    }
    assert set(setuptools["packages"]) == on_disk
    assert setuptools["package-dir"] == {"solver.lexicon.data": "lexicons"}


def test_a_checkout_finds_the_word_lists_in_lexicons(monkeypatch):
    monkeypatch.delenv("BANANAS_LEXICONS", raising=False)
    assert files.shipped_dir() == ROOT / "lexicons"  # no solver/lexicon/data in a checkout
    assert {"en.txt.gz", "en.levels.gz", "en.LICENSE", "fr.txt.gz", "fr.LICENSE"} <= set(WORD_LISTS)


def test_an_installed_package_finds_its_package_data(tmp_path, monkeypatch):
    # Installed, solver/lexicon/data/ sits beside solver/lexicon/files.py.
    monkeypatch.delenv("BANANAS_LEXICONS", raising=False)
    (tmp_path / "data").mkdir()
    monkeypatch.setattr(files, "__file__", str(tmp_path / "files.py"))
    assert files.shipped_dir() == tmp_path / "data"
    monkeypatch.setenv("BANANAS_LEXICONS", str(tmp_path / "mine"))  # the override comes first
    assert files.shipped_dir() == tmp_path / "mine"


# -- built ahead of time ---------------------------------------------------------------------


@pytest.fixture
def mini_list(tmp_path, monkeypatch):
    """A two-word list, an artifact for it in place of en's (3 s), and a private cache."""
    words = tmp_path / "mini.txt"
    words.write_text("cat\nact\n")
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BANANAS_PREBUILT", "1")
    arrays = prebuilt.Artifact(
        "mini word-list arrays",
        "solver/lexicon/arrays",
        lambda: loader.arrays_key(str(words)),
        lambda directory, log: loader.write_arrays(str(words), directory),
    )
    monkeypatch.setattr(prebuilt, "ARTIFACTS", (arrays, prebuilt.ARTIFACTS[1]))
    return words


def test_word_list_arrays_built_at_install_are_loaded_from_the_package(mini_list, tmp_path, monkeypatch):
    package = tmp_path / "package"
    monkeypatch.setattr(library_build, "build_blocker", lambda: "no C compiler (test)")
    prebuilt.build_all(package, log=lambda line: None)
    monkeypatch.setattr(files, "PREBUILT_ARRAYS", package / "solver/lexicon/arrays")
    lexicon = loader.load_lexicon(str(mini_list))
    assert "cold_build_s" not in lexicon.timings and "cat" in lexicon
    assert not (tmp_path / "cache").exists()  # nothing built on first use
    monkeypatch.setenv("BANANAS_PREBUILT", "0")
    assert "cold_build_s" in loader.load_lexicon(str(mini_list)).timings  # ignored: the cache's


def test_what_cannot_be_built_ahead_is_skipped_with_a_warning(mini_list, tmp_path, monkeypatch):
    monkeypatch.setattr(library_build, "build_blocker", lambda: "no C compiler (test)")
    logged: list[str] = []
    problems = prebuilt.build_all(tmp_path / "package", log=logged.append)
    assert problems == {"compiled kernels": "CannotBuild: no C compiler (test)", "mini word-list arrays": ""}
    assert logged[0] == "bananas: building the mini word-list arrays..."  # before the wait: issue 65
    assert "WARNING: compiled kernels not built (CannotBuild: no C compiler (test))" in logged[-1]
    assert not (tmp_path / "package/solver/search/compiled" / library.key()).exists()
    (arrays,) = (tmp_path / "package/solver/lexicon/arrays").iterdir()
    assert arrays.stat().st_mode & 0o777 == 0o755  # built in a private temporary folder, readable by all


def test_a_wheel_build_copies_what_the_checkout_built_with_the_same_key(mini_list, tmp_path, monkeypatch):
    checkout, wheel = tmp_path / "checkout", tmp_path / "wheel"
    built = checkout / "solver/search/compiled" / library.key()
    built.mkdir(parents=True)
    (built / library.LIBRARY).write_bytes(b"compiled")  # as an editable install leaves it
    monkeypatch.setattr(library_build, "build_blocker", lambda: "no C compiler (test)")  # a compile would fail
    assert prebuilt.build_all(wheel, reuse=checkout, log=lambda line: None)["compiled kernels"] == ""
    copied = wheel / "solver/search/compiled" / library.key()
    assert (copied / library.LIBRARY).read_bytes() == b"compiled"


def load_setup_py():
    spec = importlib.util.spec_from_file_location("bananas_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: defines the build step without running setup()
    return module


@pytest.mark.parametrize("python", ["/bin/false", "/nonexistent/python3"])  # exits 1; cannot start
def test_the_build_step_warns_and_goes_on_when_the_artifacts_fail(python, tmp_path, capsys):
    load_setup_py().build_artifacts(tmp_path / "build", python=python)
    warning = capsys.readouterr().err
    assert warning.startswith("bananas: compiling the solver's kernels")  # before the wait: issue 38
    assert "WARNING: the artifacts were not built" in warning
    assert "the package installs without them; a first run builds them" in warning


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The wheel and sdist built from this checkout (python -m build: about 20 s), without the
    compiled artifacts (BANANAS_PREBUILT=0: they would cost a compile; CI's install check has them)."""
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        env=dict(os.environ, BANANAS_PREBUILT="0"),
    )
    if run.returncode != 0 and "No module named build" in run.stderr:
        pytest.skip("the 'build' package is not installed (pip install -e '.[test]')")
    assert run.returncode == 0, run.stderr[-2000:]
    (out / "build.log").write_text(run.stdout + run.stderr)
    return out


@pytest.mark.slow
def test_the_wheel_holds_the_word_lists_and_every_module(built):
    (wheel,) = built.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")  # BANANAS_PREBUILT=0: nothing compiled, pure
    # Issue 65: "Package 'solver.web.static' is absent from the `packages` configuration"
    # (test_pyproject_lists_every_package is the quick test of the list)
    assert "absent from the `packages` configuration" not in (built / "build.log").read_text()
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"solver/lexicon/data/{name}" for name in WORD_LISTS} <= names
    assert not [name for name in names if name.startswith(("solver/search/compiled/", "solver/lexicon/arrays/"))]
    assert {name for name in names if name.startswith("bananas-0.1.0.dist-info/licenses/")} == {
        "bananas-0.1.0.dist-info/licenses/lexicons/en.LICENSE",
        "bananas-0.1.0.dist-info/licenses/lexicons/fr.LICENSE",
        "bananas-0.1.0.dist-info/licenses/lexicons/offensive.LICENSE",
    }
    sources = {str(path.relative_to(ROOT)) for path in (ROOT / "solver").rglob("*.py")}
    assert sources <= names
    page = {str(path.relative_to(ROOT)) for path in (ROOT / "solver/web/static").iterdir()}
    assert page <= names, page - names  # the browser page's modules, markup and style (package data)
    (sdist,) = built.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"lexicons/{name}" for name in WORD_LISTS} <= members
    assert "setup.py" in members
    assert page <= members, page - members
    assert not [name for name in members if name.startswith(("solver/search/compiled/", "solver/lexicon/arrays/"))]


def test_a_library_built_under_its_key_is_not_compiled_again(tmp_path, monkeypatch):
    """A second editable install (CI's `pip install -e '.[docs]'` after '.[test]') compiled the
    library again, a minute and more under load (issue 65): the same key is the same library."""
    folder = tmp_path / library.key()
    folder.mkdir()
    (folder / library.LIBRARY).write_bytes(b"compiled")
    (folder / library.LAYOUT).write_text("{}")

    def compile_again(work):
        raise AssertionError("compiled again")

    monkeypatch.setattr(library_build, "_compile_and_link", compile_again)
    said: list[str] = []
    library_build.build(folder, progress=said.append)
    assert said == [f"bananas: the compiled kernels are built already: {folder}"]
    assert (folder / library.LIBRARY).read_bytes() == b"compiled"
