"""The simulator's machine code is ready after ``python -m tutor warm`` (what ``make install`` and
``deploy/school start`` run): a later process compiles nothing, whatever table, strategy or kind
of run it asks for.

Each process here uses its own empty numba cache folder (``NUMBA_CACHE_DIR``), so the test does
not depend on what earlier runs left in ``__pycache__``; compiling twice costs some 15 s, hence
the slow mark.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

#: Every kind of run the app and the command line make: basic strategy at one deck, six decks
#: and a European no-peek table (every table hands the loop the same array types), the
#: dealer's imitation, a learner's error profile, insurance always, a bankroll session, a traced
#: and a recorded run. Prints how many signatures numba had to compile rather than load.
RUNS = """
import json
from tutor.rules import PRESETS
from tutor.simulate import (Simulation, always_insure, bankroll_paths, basic_strategy,
    error_profile, mimic_dealer, simulate)
from tutor.simulate_loop import _play

for name in ("family", "american-s17", "french-casino"):
    simulate(PRESETS[name], basic_strategy(PRESETS[name]), 50, seed=1)
family = PRESETS["family"]
simulate(family, mimic_dealer(family), 50)
simulate(family, always_insure(family), 50)
simulate(family, error_profile(family, []), 50)
bankroll_paths(family, mimic_dealer(family), sessions=3, rounds=10, stack=20, bet=2)
Simulation(family, mimic_dealer(family), trace_rounds=5).run(4)
Simulation(family, mimic_dealer(family), record_nets=5).run(5)
print(json.dumps({"compiled": sum(_play.stats.cache_misses.values()),
                  "loaded": sum(_play.stats.cache_hits.values())}))
"""


def _python(*arguments: str, cache: Path, data: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "TUTOR_DATA_DIR": str(data)}
    return subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, env=environment, capture_output=True,
        text=True, check=True, timeout=600,
    )


def _runs(cache: Path, data: Path) -> dict[str, int]:
    output = _python("-c", RUNS, cache=cache, data=data).stdout
    figures: dict[str, int] = json.loads(output.strip().splitlines()[-1])
    return figures


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data folder for both tests, so the charts are solved once."""
    return tmp_path_factory.mktemp("data")


def test_after_warm_no_run_of_any_table_or_strategy_compiles(tmp_path: Path, data: Path) -> None:
    warmed = tmp_path / "warmed"
    said = _python("-m", "tutor", "warm", cache=warmed, data=data).stdout
    assert said.startswith("simulator ready: ")
    assert _runs(warmed, data) == {"compiled": 0, "loaded": 1}


def test_without_warm_the_first_run_compiles(tmp_path: Path, data: Path) -> None:
    """The other side of the check above: an empty cache does compile, so a zero there is the
    warm step's doing and not a count that cannot move."""
    assert _runs(tmp_path / "empty", data)["compiled"] == 1
