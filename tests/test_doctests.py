"""The examples in the docstrings and in the README are run as tests, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import tutor

ROOT = Path(__file__).resolve().parent.parent

# Every module below tutor/ except those that run something when imported: the Streamlit
# pages, the command line entry point and the Alembic migrations. The interface's other modules
# (components, state, faults, class mode's views) only define things when imported, so their
# examples run here too, outside any page.
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(tutor.__path__, "tutor.")
    if not info.name.startswith(("tutor.ui.pages", "tutor.migrations"))
    and info.name != "tutor.__main__"
)


def test_the_interface_modules_examples_are_among_them() -> None:
    """The interface's examples run with the rest; only the pages are left out."""
    assert {"tutor.ui.components", "tutor.ui.state", "tutor.ui.class_mode.live"} <= set(MODULES)
    assert not [name for name in MODULES if name.startswith("tutor.ui.pages")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_readme_examples() -> None:
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0
    assert result.failed == 0
