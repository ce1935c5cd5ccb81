"""Saved solutions: a rule set solved once is read back, never trusted when it is not its own."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tutor.rules import PRESETS
from tutor.strategy import saved, solver
from tutor.strategy import solution as solution_module
from tutor.strategy.dealer import full_shoe
from tutor.strategy.solution import solve
from tutor.strategy.solver import hand_of

FAMILY = PRESETS["family"]
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A data folder of this test's own, and no solution left in memory from another test."""
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    solution_module._solve.cache_clear()
    yield tmp_path
    solution_module._solve.cache_clear()


def _no_dealer_computation(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the dealer was computed although the solution was saved")

    monkeypatch.setattr(solver, "outcome_matrix", refuse)


def test_a_solved_rule_set_is_read_back_whole(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = solve(FAMILY)
    edge = first.house_edge()
    evs = first.action_evs(10, hand_of((8, 8)))
    assert len(list((data / "solutions").glob("*.npz"))) == 1
    solution_module._solve.cache_clear()  # as a new process would start
    _no_dealer_computation(monkeypatch)
    again = solve(FAMILY)
    assert again is not first
    assert again.house_edge() == edge
    assert again.action_evs(10, hand_of((8, 8))) == evs


def test_the_table_name_is_not_part_of_the_key(data: Path) -> None:
    solve(FAMILY)
    solve(FAMILY.replace(name="my kitchen table"))
    assert len(list((data / "solutions").glob("*.npz"))) == 1


def test_a_corrupt_file_is_logged_and_solved_again(
    data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    edge = solve(FAMILY).house_edge()
    (path,) = (data / "solutions").glob("*.npz")
    path.write_bytes(b"not a solution at all")
    solution_module._solve.cache_clear()
    with caplog.at_level(logging.WARNING, logger="tutor.strategy.saved"):
        assert solve(FAMILY).house_edge() == pytest.approx(edge, abs=1e-12)
    assert "unreadable" in caplog.text
    assert saved.load(FAMILY, solve(FAMILY).shoe) is not None  # written again, whole


def test_a_file_of_another_rule_set_is_not_trusted(
    data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    edge = solve(FAMILY).house_edge()
    (path,) = (data / "solutions").glob("*.npz")
    solve(FAMILY.replace(decks=2))  # another file to pass off as the family table's
    (foreign,) = set((data / "solutions").glob("*.npz")) - {path}
    os.replace(foreign, path)
    solution_module._solve.cache_clear()
    with caplog.at_level(logging.WARNING, logger="tutor.strategy.saved"):
        assert solve(FAMILY).house_edge() == pytest.approx(edge, abs=1e-12)
    assert "another rule set" in caplog.text


def test_a_saved_file_of_the_wrong_shape_is_solved_again(
    data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    solution = solve(FAMILY)
    edge = solution.house_edge()
    arrays = solution.snapshot()
    arrays["up5_dealer"] = np.zeros((3, 2), dtype=np.float32)
    saved.save(FAMILY, solution.shoe, arrays)
    solution_module._solve.cache_clear()
    with caplog.at_level(logging.WARNING):
        assert solve(FAMILY).house_edge() == pytest.approx(edge, abs=1e-12)
    assert "does not fit" in caplog.text


def test_a_folder_that_cannot_be_written_costs_only_the_saving(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("the data folder is a file here")
    monkeypatch.setenv("TUTOR_DATA_DIR", str(blocker))
    solution_module._solve.cache_clear()
    with caplog.at_level(logging.WARNING, logger="tutor.strategy.saved"):
        assert solve(FAMILY).house_edge() < 0
    assert "could not save" in caplog.text
    solution_module._solve.cache_clear()


def test_the_folder_keeps_the_most_recently_used(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saved, "KEEP", 2)
    tables = [FAMILY.replace(decks=decks) for decks in (3, 5, 7)]  # none of them a preset
    for table in tables:
        solve(table)
    files = list((data / "solutions").glob("*.npz"))
    assert len(files) == 2
    oldest = tables[0]
    assert saved.path_for(saved.key_text(oldest, full_shoe(oldest.decks))) not in files


def test_a_flood_of_tables_never_pushes_a_presets_solution_out(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teacher's lesson naming many tables of its own: the presets' solutions stay, on disk and
    in memory, so every other page is not made to solve them again."""
    monkeypatch.setattr(saved, "KEEP", 2)
    monkeypatch.setattr(solution_module, "OTHERS_KEPT", 2)
    family = solve(FAMILY)
    for decks in (3, 5, 7, 4):
        solve(FAMILY.replace(decks=decks))
    files = {path.name for path in (data / "solutions").glob("*.npz")}
    assert saved.path_for(saved.key_text(FAMILY, family.shoe)).name in files
    assert len(files) == 1 + 2  # the preset's, and the two most recent others
    assert solve(FAMILY) is family  # still in memory: not solved nor read again
    assert len(solution_module._solve.kept()) == 1 + 2


@pytest.mark.slow  # two whole processes
def test_two_processes_solving_at_once_leave_one_good_file(data: Path) -> None:
    command = [sys.executable, "-m", "tutor", "edge", "--rules", "family"]
    runs = [
        subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert outputs[0][0] == outputs[1][0]
    assert not any(err for _, err in outputs)
    assert len(list((data / "solutions").glob("*.npz"))) == 1
    assert not list((data / "solutions").glob(".saving-*"))
    assert saved.load(FAMILY, solve(FAMILY).shoe) is not None
