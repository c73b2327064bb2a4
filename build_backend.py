"""The build backend: setuptools', asking for numba, numpy and marisa-trie only when the build
compiles the artifacts ahead of time (setup.py; not for an sdist, nor with BANANAS_PREBUILT=0),
so that builds which do not compile them do not install numba into their build environment
(some 18 s on 2 cores)."""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  # every hook, as setuptools defines it

ARTIFACT_REQUIRES = ["numpy>=1.26", "numba>=0.59", "marisa-trie>=1.1"]


def _artifact_requires() -> list[str]:
    return ARTIFACT_REQUIRES if os.environ.get("BANANAS_PREBUILT", "1") != "0" else []


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return _setuptools.get_requires_for_build_wheel(config_settings) + _artifact_requires()


def get_requires_for_build_editable(config_settings=None) -> list[str]:
    return _setuptools.get_requires_for_build_editable(config_settings) + _artifact_requires()
