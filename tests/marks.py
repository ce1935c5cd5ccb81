"""The pytest marks the tests share, kept on the test side: the browser tests' (``pytestmark =
BROWSER``; the served app and the page helpers they drive are in ``serving.py``, which imports no
pytest so that the benchmarks can use it too), and the sample of a repeated test that ``make
check``'s fast lane runs (``sampled``, ``examples``)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Collection, Iterable
from typing import TypeVar

import pytest
from _pytest.mark.structures import ParameterSet

from serving import CHROMIUM

T = TypeVar("T")

#: Whether this run is ``make check``'s fast lane (the Makefile sets ``TUTOR_FAST_LANE=1``).
FAST_LANE = os.environ.get("TUTOR_FAST_LANE") == "1"

#: The marks of every browser test module: skipped, saying why, where chromium or Playwright is
#: missing.
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed (/usr/bin/chromium): apt-get install chromium",
    ),
    pytest.mark.skipif(
        importlib.util.find_spec("playwright") is None, reason="Playwright is not installed"
    ),
]


def sampled(values: Iterable[T], keep: Collection[T]) -> list[T | ParameterSet]:
    """The parameters of a test repeated over ``values`` (presets, languages, lessons), those
    outside ``keep`` marked ``slow``: ``make check``'s fast lane runs the sample, where one case
    catches what a change usually breaks in all of them, and ``make test`` runs every case, with
    the same ids. A ``keep`` that names a value not in ``values`` (a preset renamed) is an error
    here rather than a sample that silently shrinks."""
    listed = list(values)
    missing = [value for value in keep if value not in listed]
    if missing:
        raise ValueError(f"the sample names values that are not parameters: {missing!r}")
    return [value if value in keep else pytest.param(value, marks=pytest.mark.slow)
            for value in listed]


def examples(full: int) -> int:
    """How many examples a property test tries: ``full`` in ``make test``, a quarter (at least
    ten) in ``make check``'s fast lane, as the legality property is sampled there. The property
    and its generators are the same, so each run of the lane still plays it on new examples; the
    whole count stays the gate's."""
    return max(10, full // 4) if FAST_LANE else full
