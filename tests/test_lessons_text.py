"""A lesson checked from text (the teacher's editor): the same passes as a file, against a course.

The editor holds a lesson in the browser and the database, never on disk, so
``tutor.lessons.check_text`` must find what ``load_course`` finds in the same text written to a
file beside the course: every problem at the same line and column, the hostile texts refused by
the same bounds, and ``requires:`` resolved against the course it is given.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import builtin_folder
from tutor.lessons import BUILTIN_LESSONS, Code, Course, check_text, load_course
from tutor.lessons.source import MAX_BYTES

TESTS = Path(__file__).resolve().parent
BUILTIN = builtin_folder()  # load_course(BUILTIN_LESSONS, strategy=None), once per process
EMPTY = Course(files=(), lessons=())

#: A valid lesson of a teacher's own, in French only, that builds on a lesson of the course.
MINE = """\
id: mine
title: Ma leçon
level: 1
goals: [Compter une main]
requires: [dealer-rules]
steps:
  - explain: "Un As vaut 1 ou 11."
  - ask:
      question: "Combien de cartes de valeur 10 compte un jeu ?"
      answer: {number: 16}
      explanation: "Les 10, valets, dames et rois : 4 × 4 = 16."
"""



def _is_text(path: Path) -> bool:
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


#: The files of the test corpora that are text (a non-UTF-8 file never reaches the editor).
CORPUS = [
    path
    for folder in ("lessons_bad", "lessons_fuzz")
    for path in sorted((TESTS / folder).glob("*.yaml"))
    if _is_text(path)
]


def _lines(problems: object) -> list[tuple[int, int, str, Code]]:
    assert isinstance(problems, tuple | list)
    return [(p.line, p.column, p.message, p.code) for p in problems]


@pytest.fixture(scope="module")
def beside_the_course() -> Course:
    """Every corpus file loaded as a file, beside the built-in course (their ids are distinct)."""
    return load_course([BUILTIN_LESSONS, *CORPUS], strategy=None)


@pytest.mark.parametrize("path", CORPUS, ids=[f"{p.parent.name}/{p.name}" for p in CORPUS])
def test_a_text_has_the_problems_its_file_has_beside_the_course(
    path: Path, beside_the_course: Course
) -> None:
    """Same lines, columns, sentences and codes as the file loaded with the built-in course."""
    (file,) = [f for f in beside_the_course.files if f.path == path]
    as_text = check_text(path.read_text("utf-8"), str(path), course=BUILTIN, strategy=None)
    assert _lines(as_text.problems) == _lines(file.problems)
    assert (as_text.lesson is None) == (file.lesson is None)


def test_a_teachers_lesson_may_require_a_lesson_of_the_course() -> None:
    checked = check_text(MINE, "mine.yaml", course=BUILTIN, strategy=None)
    assert [str(p) for p in checked.problems] == []
    assert checked.is_ok
    assert checked.lesson is not None
    assert checked.lesson.requires == ("dealer-rules",)


def test_an_unknown_prerequisite_is_reported_at_its_line_and_column() -> None:
    checked = check_text(MINE, "mine.yaml", course=EMPTY, strategy=None)
    (problem,) = checked.problems
    assert (problem.line, problem.column, problem.code) == (5, 12, Code.PREREQUISITE)
    assert "unknown prerequisite 'dealer-rules'" in problem.message


def test_a_taken_id_is_a_duplicate_unless_it_is_the_same_file_checked_again() -> None:
    text = MINE.replace("id: mine", "id: card-values").replace("[dealer-rules]", "[]")
    (problem,) = check_text(text, "draft", course=BUILTIN, strategy=None).problems
    assert problem.code is Code.DUPLICATE_ID
    assert (problem.line, problem.column) == (1, 5)
    again = BUILTIN_LESSONS / "01-card-values.yaml"
    checked = check_text(again.read_text("utf-8"), str(again), course=BUILTIN, strategy=None)
    assert checked.problems == ()


def test_a_name_that_is_a_files_must_match_the_id_and_a_drafts_label_need_not() -> None:
    assert check_text(MINE, "Brouillon du 2 décembre", course=BUILTIN, strategy=None).is_ok
    (problem,) = check_text(MINE, "03-other.yaml", course=BUILTIN, strategy=None).problems
    assert problem.code is Code.FILE
    assert "NN-mine.yaml" in problem.message


def test_a_prerequisite_cycle_through_the_course_is_reported(tmp_path: Path) -> None:
    (tmp_path / "first.yaml").write_text(MINE.replace("id: mine", "id: first")
                                         .replace("[dealer-rules]", "[mine]"), "utf-8")
    course = load_course([tmp_path], strategy=None)
    text = MINE.replace("[dealer-rules]", "[first]")
    (problem,) = check_text(text, "mine.yaml", course=course, strategy=None).problems
    assert problem.code is Code.CYCLE
    assert "first → mine → first" in problem.message


def test_a_text_over_the_size_bound_is_refused_without_being_read() -> None:
    ascii_text = MINE + "#" * MAX_BYTES
    (problem,) = check_text(ascii_text, "big.yaml", course=BUILTIN).problems
    assert problem.code is Code.FILE
    assert "larger than 256 KB" in problem.message
    # Counted in bytes, as a file is: « é » is two bytes of UTF-8.
    wide = MINE + "# " + "é" * (MAX_BYTES // 2)
    assert len(wide) < MAX_BYTES
    (problem,) = check_text(wide, "big.yaml", course=BUILTIN).problems
    assert "larger than 256 KB" in problem.message


def test_the_strategy_pass_runs_on_a_text() -> None:
    path = TESTS / "lessons_bad" / "decision-against-strategy.yaml"
    (problem,) = check_text(path.read_text("utf-8"), "draft", course=BUILTIN).problems
    assert problem.code is Code.STRATEGY
    assert (problem.line, problem.column) == (12, 21)
    assert "plays stand, not hit" in problem.message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_any_text_is_problems_or_a_lesson_never_an_exception(text: str) -> None:
    checked = check_text(MINE[:80] + text, "draft", course=BUILTIN, strategy=None)
    assert checked.lesson is not None or checked.problems
