"""A lesson save has a bounded cost: each table of a lesson's own is a strategy solve, so a
lesson may play at no more than ``MAX_OWN_TABLES`` tables besides the presets, and one past it
is refused at the step that passes it, before anything is solved (``tutor check`` and the
« Mes leçons » page alike); the presets' saved solutions stay whatever is solved after them."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from bench.lesson_check import TABLES, _tables, many_tables_lesson
from tests.conftest import ROOT, Clock, OpenApp, as_read
from tests.test_authoring_page import PAGE, _new_lesson, _save
from tutor import authoring
from tutor.authoring import (
    CHECK_BUDGET_MS,
    CREATES_PER_MINUTE,
    TEMPLATE,
    WRONG_KEYS_PER_MINUTE,
    Shelf,
)
from tutor.identity import new_token
from tutor.lessons.checks import MAX_OWN_TABLES
from tutor.lessons.course import Course, check_text
from tutor.rules import PRESETS, TableRules
from tutor.store import Store, TeacherLessonError
from tutor.strategy import saved, solution


def test_the_lesson_names_a_hundred_and_twenty_distinct_tables() -> None:
    distinct = {
        TableRules.from_mapping(
            {**PRESETS[p].as_dict(), "decks": d, "dealer_hits_soft_17": h, "double_after_split": a}
        ).replace(name="")
        for p, d, h, a in _tables()
    }
    assert len(distinct) == TABLES  # the test asks what the issue tried


def test_a_lesson_past_its_own_tables_is_refused_at_the_step_before_anything_is_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solved: list[object] = []
    original = solution._make

    def counted(*args: Any) -> solution.Solution:
        solved.append(args)
        return original(*args)

    monkeypatch.setattr(solution, "_make", counted)
    solution._solve.cache_clear()
    checked = check_text(many_tables_lesson(), "many-tables.yaml", course=Course((), ()))
    problems = [str(problem) for problem in checked.problems]
    assert len(problems) == 1, problems
    # The first step past the bound: deals 1 to 4 play at the family table's variants, the
    # first with one deck and no change being the preset itself.
    assert problems[0].startswith("many-tables.yaml:")
    assert f"steps[{MAX_OWN_TABLES + 1}].deal.rules" in problems[0]
    assert f"at most {MAX_OWN_TABLES} tables of its own" in problems[0]
    assert solved == []  # not one solve for a refused lesson


def test_tutor_check_refuses_it_with_its_file_and_line_and_solves_nothing(tmp_path: Path) -> None:
    """The command's cost is measured by ``bench/lesson_check.py``; here, what it says and that
    it saved no solution (a solve is what costs)."""
    lesson = tmp_path / "many-tables.yaml"
    lesson.write_text(many_tables_lesson(), encoding="utf-8")
    assert lesson.stat().st_size > 25_000
    run = subprocess.run(
        [sys.executable, "-m", "tutor", "check", str(lesson)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TUTOR_DATA_DIR": str(tmp_path / "data")},
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"a lesson plays at most {MAX_OWN_TABLES} tables of its own" in run.stdout
    assert f"{lesson}:" in run.stdout  # its file and line
    assert not (tmp_path / "data" / "solutions").exists()  # nothing solved, nothing saved


def test_verifier_on_the_page_refuses_it_in_french_and_the_presets_solutions_stay(
    open_app: OpenApp,
) -> None:
    for rules in PRESETS.values():  # every preset solved and saved, as on a server in use
        solution.solve(rules)
    presets = {path for path in saved.preset_paths() if path.exists()}
    assert len(presets) >= len(PRESETS)  # a full shoe each, an infinite deck for some
    at: AppTest = open_app()
    at.switch_page(PAGE)
    at.run()
    _new_lesson(at)
    _save(at, many_tables_lesson())
    texts = [as_read(m.value) for m in at.markdown]
    assert any(f"au plus à {MAX_OWN_TABLES} tables à elle" in text for text in texts), texts
    assert all(path.exists() for path in presets)
    assert {rules.replace(name="") for rules in PRESETS.values()} <= {
        rules.replace(name="") for rules in solution._solve.kept()
    }


# -- what a visitor can make the lessons' shelf spend, per browser and per address ---------------


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 12, 7, 8, 0, tzinfo=UTC))


def test_lessons_created_from_one_address_are_limited_and_never_refuse_another(
    store: Store, clock: Clock
) -> None:
    shelf = Shelf(store, clock=clock)
    school = "203.0.113.5"
    made = refused = 0
    for _ in range(CREATES_PER_MINUTE["client"] + 10):  # a fresh browser each time
        try:
            shelf.create(new_token(), client=school)
        except TeacherLessonError as error:
            refused += error.code == "lessons-too-fast"
        else:
            made += 1
    assert (made, refused) == (CREATES_PER_MINUTE["client"], 10)
    assert shelf.create(new_token(), client="198.51.100.2")  # another address: at once
    mine = new_token()
    for _ in range(CREATES_PER_MINUTE["browser"]):
        shelf.create(mine, client="198.51.100.3")
    with pytest.raises(TeacherLessonError) as slowed:
        shelf.create(mine, client="198.51.100.3")
    assert slowed.value.code == "lessons-too-fast"
    clock.now += timedelta(minutes=1)
    assert shelf.create(mine, client="198.51.100.3")


def test_checking_spends_a_budget_of_cpu_per_browser_and_address(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    shelf = Shelf(store, clock=clock)
    teacher = new_token()
    # Each check is made to cost a known second of this thread's CPU (the real ones cost tens
    # of milliseconds; what is tested is the accounting, not the machine's speed).
    ticks = iter(itertools.count(step=1.0))
    monkeypatch.setattr(authoring.time, "thread_time", lambda: next(ticks))
    handle, _key = shelf.create(teacher, client="203.0.113.5")
    budget = CHECK_BUDGET_MS["browser"] // 1000
    for _ in range(budget - 1):  # the creation's check spent the first second
        shelf.save(handle, TEMPLATE, teacher, client="203.0.113.5")
    with pytest.raises(TeacherLessonError) as spent:
        shelf.save(handle, TEMPLATE, teacher, client="203.0.113.5")
    assert spent.value.code == "lesson-checks-spent"
    assert 0 < int(spent.value.params["seconds"]) <= 60  # type: ignore[call-overload]
    other = new_token()  # another teacher on the same address still checks
    other_handle, _ = shelf.create(other, client="203.0.113.5")
    assert shelf.save(other_handle, TEMPLATE, other, client="203.0.113.5").is_ok
    clock.now += timedelta(minutes=1)
    assert shelf.save(handle, TEMPLATE, teacher, client="203.0.113.5").is_ok


def test_wrong_lesson_keys_are_limited_per_lesson_and_guesser_before_the_hash(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    shelf = Shelf(store, clock=clock)
    handle, key = shelf.create(new_token())
    hashed: list[str] = []
    original = authoring.key_matches

    def counted(typed: str, stored: str) -> bool:
        hashed.append(typed)
        return original(typed, stored)

    monkeypatch.setattr(authoring, "key_matches", counted)
    guesser = "203.0.113.9"
    for i in range(WRONG_KEYS_PER_MINUTE):
        with pytest.raises(TeacherLessonError) as wrong:
            shelf.open_with_key(handle.token, f"0000{i}-00000-00000", client=guesser)
        assert wrong.value.code == "wrong-lesson-key"
    with pytest.raises(TeacherLessonError) as locked:  # even the right key: not weighed
        shelf.open_with_key(handle.token, key, client=guesser)
    assert locked.value.code == "lesson-tries"
    assert len(hashed) == WRONG_KEYS_PER_MINUTE
    assert shelf.open_with_key(handle.token, key, client="198.51.100.7") == handle  # the teacher
    clock.now += timedelta(minutes=1)
    assert shelf.open_with_key(handle.token, key, client=guesser) == handle
