"""Shared by the tests of the compiled library (`solver.search.library`): one build a session."""

from __future__ import annotations

import os
import shutil

import pytest

from solver.search import library, library_build

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


@pytest.fixture(scope="session")
def built_library(tmp_path_factory):
    """A folder holding the library built from this checkout and its layout file: a copy of the
    one an editable install built into the checkout (solver/search/compiled/<key>/, as CI's is)
    when it is current, else built now (some 40 s: compile, link, self-check)."""
    if JIT_DISABLED:
        pytest.skip("the library is compiled code")
    folder = tmp_path_factory.mktemp("library") / library.key()
    installed = library.PREBUILT_ROOT / library.key()
    if (installed / library.LAYOUT).is_file():
        shutil.copytree(installed, folder)
        return folder
    blocker = library_build.build_blocker()
    if blocker:
        pytest.skip(f"cannot build the library here: {blocker}")
    library_build.build(folder)
    return folder


@pytest.fixture(scope="session")
def library_cache(built_library, tmp_path_factory):
    """A cache folder (BANANAS_CACHE) whose kernels/<key>/ holds the built library."""
    cache = tmp_path_factory.mktemp("library-cache")
    shutil.copytree(built_library, cache / "kernels" / built_library.name)
    return cache
