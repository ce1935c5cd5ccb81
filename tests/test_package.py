"""The front door, ``tutor/__init__.py``: the public names a reader starts from, each found where
it lives, and an ``import tutor`` that costs next to nothing."""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tutor

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_is_the_object_of_its_home_module() -> None:
    assert len(tutor.__all__) == len(set(tutor.__all__)) >= 20
    for name in tutor.__all__:
        home = importlib.import_module(tutor._HOMES[name])
        assert getattr(tutor, name) is getattr(home, name), name


def test_the_front_doors_example_runs() -> None:
    """``tests/test_doctests.py`` walks the modules below ``tutor``, not the package itself."""
    results = doctest.testmod(tutor)
    assert results.attempted >= 2
    assert results.failed == 0


def test_the_front_door_lists_what_it_can_give() -> None:
    assert sorted(tutor._HOMES) == sorted(tutor.__all__)
    assert set(tutor.__all__) <= set(dir(tutor))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="nothing_here"):
        tutor.nothing_here  # noqa: B018


def test_a_public_name_never_hides_a_module_of_the_package() -> None:
    modules = {path.stem for path in (ROOT / "tutor").iterdir()} - {"__init__", "__main__"}
    assert not set(tutor.__all__) & modules


def test_import_tutor_loads_no_numeric_or_database_library() -> None:
    heavy = ("numpy", "pandas", "pydantic", "sqlalchemy", "streamlit", "numba", "yaml")
    code = (
        "import sys, tutor; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}))"
    )
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
        timeout=60, check=True,
    )
    assert done.stdout.strip() == "[]"
