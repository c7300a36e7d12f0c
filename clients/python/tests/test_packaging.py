"""The installed package: one version everywhere, and its type hints are shipped."""

import importlib.metadata
import importlib.util
import re
from pathlib import Path

import intentbus

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def test_one_source_for_the_version():
    # pyproject.toml names no version of its own: it reads intentbus/_version.py.
    pyproject = (PACKAGE_DIR / "pyproject.toml").read_text()
    assert re.search(r'^version\s*=\s*"', pyproject, re.M) is None
    assert 'dynamic = ["version"]' in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+", intentbus.__version__)
    # The installed distribution (the venv's, built from this checkout) agrees.
    assert importlib.metadata.version("intentbus") == intentbus.__version__


def test_installed_package_ships_py_typed():
    spec = importlib.util.find_spec("intentbus")
    assert spec is not None and spec.origin is not None
    installed = [Path(p) for p in importlib.metadata.files("intentbus") or [] if p.name == "py.typed"]
    assert installed, "py.typed is not in the installed distribution's file list"
    assert (PACKAGE_DIR / "intentbus" / "py.typed").exists()
