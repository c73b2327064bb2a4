"""Packaging: the wheel and the sdist carry the word lists and their licences, the package list
in pyproject.toml covers every package, and the loader finds the lists installed or in a
checkout. (.ci/run installs the wheel into a fresh virtual environment and solves with it.)"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from solver.lexicon import files

ROOT = Path(__file__).resolve().parents[2]
WORD_LISTS = sorted(path.name for path in (ROOT / "lexicons").iterdir() if path.is_file())


def test_pyproject_lists_every_package():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "solver").rglob("__init__.py")} | {
        "solver.lexicon.data"
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


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The wheel and sdist built from this checkout (python -m build: about 20 s)."""
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True, text=True
    )
    if run.returncode != 0 and "No module named build" in run.stderr:
        pytest.skip("the 'build' package is not installed (pip install -e '.[test]')")
    assert run.returncode == 0, run.stderr[-2000:]
    return out


@pytest.mark.slow
def test_the_wheel_holds_the_word_lists_and_every_module(built):
    (wheel,) = built.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"solver/lexicon/data/{name}" for name in WORD_LISTS} <= names
    assert {name for name in names if name.startswith("bananas-0.1.0.dist-info/licenses/")} == {
        "bananas-0.1.0.dist-info/licenses/lexicons/en.LICENSE",
        "bananas-0.1.0.dist-info/licenses/lexicons/fr.LICENSE",
    }
    sources = {str(path.relative_to(ROOT)) for path in (ROOT / "solver").rglob("*.py")}
    assert sources <= names
    (sdist,) = built.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"lexicons/{name}" for name in WORD_LISTS} <= members
