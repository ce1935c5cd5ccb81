"""Hostile lesson files (issue 14): each becomes ``file:line:col`` problems, never an exception.

The corpus in ``tests/lessons_fuzz/`` holds the files the reliability probe found crashing or
freezing the app (an alias bomb, a form feed, ``'17/0'``, deep brackets, numbers too large to
compute, binary junk); a file over the size bound is generated here rather than committed. Every
test asserts on the reason in the message, not on time: the bounds are what keep it fast.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import OpenApp
from tests.marks import examples
from tutor.lessons import load_course
from tutor.lessons.source import MAX_BYTES, MAX_DEPTH, MAX_NODES, parse_yaml
from tutor.visit import AppState

FUZZ = Path(__file__).resolve().parent / "lessons_fuzz"
CORPUS = sorted(FUZZ.glob("*.yaml"))
LOCATED = re.compile(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")

#: What each corpus file's problems must say: the reason, as a teacher reads it.
WHY = {
    "alias-bomb.yaml": "anchors are not allowed",
    "bad-date.yaml": "day is out of range",
    "binary-junk.yaml": "is not UTF-8 text",
    "deep-mapping.yaml": f"nest more than {MAX_DEPTH} deep",
    "deep-nesting.yaml": f"nest more than {MAX_DEPTH} deep",
    "divide-by-zero.yaml": "'17/0' divides by 0",
    "empty-bom.yaml": "the file is empty",
    "exponent-answer.yaml": "(no exponent)",
    "form-feed.yaml": "form feed (U+000C)",
    "huge-numbers.yaml": "'1e9999999' is not a number",
    "long-integer.yaml": "4300 digits",
    "merge-alias.yaml": "anchors are not allowed",
    "nul-byte.yaml": "NUL byte (U+0000)",
    "python-tag.yaml": "title: expected a text",
    "unterminated.yaml": "YAML syntax",
}


def test_every_corpus_file_has_its_reason_listed() -> None:
    assert {path.name for path in CORPUS} == set(WHY)


@pytest.mark.parametrize("path", CORPUS, ids=[path.name for path in CORPUS])
def test_a_hostile_lesson_file_is_problems_with_file_line_col(path: Path) -> None:
    course = load_course([path], strategy=None)
    assert not course.lessons
    lines = [str(problem) for problem in course.problems]
    assert lines, f"{path.name} must be refused"
    for line in lines:
        match = LOCATED.match(line)
        assert match is not None, f"not file:line:col: {line!r}"
        assert match["file"].endswith(path.name)
        assert int(match["line"]) >= 1
        assert int(match["col"]) >= 1
    assert any(WHY[path.name] in line for line in lines), lines


def test_the_alias_bomb_is_refused_at_its_first_anchor_without_expanding() -> None:
    text = (FUZZ / "alias-bomb.yaml").read_text("utf-8")
    document = parse_yaml(text, "bomb.yaml")
    assert document.data is None
    (problem,) = document.problems
    assert (problem.position.line, problem.position.column) == (2, 4)
    assert "anchors are not allowed" in problem.message


def test_an_alias_alone_is_refused_too() -> None:
    document = parse_yaml("a: *nowhere\n", "alias.yaml")
    assert "aliases are not allowed" in document.problems[0].message


def test_a_form_feed_is_located_at_its_character() -> None:
    document = parse_yaml('id: x\ntitle: "A\x0cB"\n', "ff.yaml")
    (problem,) = document.problems
    assert (problem.position.line, problem.position.column) == (2, 10)


def test_a_file_over_the_size_bound_is_refused_without_being_parsed(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("id: huge\nsteps:\n" + "  - explain: hi\n" * (1024 * 1024 // 16), "utf-8")
    assert path.stat().st_size > MAX_BYTES
    (problem,) = load_course([path], strategy=None).problems
    assert (problem.line, problem.column) == (1, 1)
    assert f"larger than {MAX_BYTES // 1024} KB" in problem.message
    # The parser holds the same bound when handed the text directly.
    assert "larger than" in parse_yaml(path.read_text("utf-8"), "huge.yaml").problems[0].message


def test_more_values_than_the_bound_are_refused_where_the_excess_starts() -> None:
    text = "steps: [" + ", ".join(["1"] * (MAX_NODES + 10)) + "]\n"
    assert len(text) < MAX_BYTES
    (problem,) = parse_yaml(text, "many.yaml").problems
    assert f"more than {MAX_NODES:,} values" in problem.message
    assert problem.position.line == 1
    assert problem.position.column > 1


def test_nesting_just_within_the_bound_still_parses() -> None:
    depth = MAX_DEPTH - 1  # the root mapping is one level
    document = parse_yaml("a: " + "[" * depth + "]" * depth + "\n", "ok.yaml")
    assert not document.problems


def test_the_course_still_lists_every_other_lesson() -> None:
    course = load_course(["lessons", *CORPUS])
    assert len(course.lessons) == 19
    assert {Path(file.path).name for file in course.broken} == set(WHY)


def test_a_learner_never_sees_the_hostile_files_and_a_teacher_still_finds_them(
    open_app: OpenApp,
) -> None:
    """The Lessons page lists the playable lessons only: no error card, no problem line; the
    problems stay where a teacher looks (the course's broken files, as ``tutor check`` prints
    them)."""
    paths = ("lessons", *(str(path.relative_to(FUZZ.parents[1])) for path in CORPUS))
    at = open_app("lessons", AppState(lesson_paths=paths))
    assert not at.exception
    assert not at.error, "no error card for a learner"
    assert not at.code, "no checker's line for a learner"
    page = " ".join(str(block.value) for block in [*at.markdown, *at.caption])
    for path in CORPUS:
        assert path.name not in page
    assert len([b for b in at.button if b.label == "Commencer"]) == 19
    course = load_course(list(paths), strategy=None)
    assert {Path(file.path).name for file in course.broken} == set(WHY)
    assert any("anchors are not allowed" in str(p) for p in course.problems)


# -- small mutations of a valid lesson: the loader never raises ----------------------------------

VALID = (Path(__file__).resolve().parents[1] / "lessons" / "02-hand-totals.yaml").read_text("utf-8")
SPICE = ["\x0c", "\x00", "&a ", "*a", "[", "]", "{", "}", ":", "- ", "'", '"', "17/0", "1e9999",
         "!!binary ", "!!int ", "<<: ", "\t", "\n", "#", "|", ">", "%YAML 1.1\n", "---\n", "...\n",
         "9" * 30, "\u2028", "\ufeff", "é", "?"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = VALID
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(SPICE) | st.text(max_size=3))
        end = min(len(text), at + draw(st.integers(1, 20)))
        if action == "insert":
            text = text[:at] + piece + text[at:]
        elif action == "delete":
            text = text[:at] + text[end:]
        else:
            text = text[:at] + piece + text[end:]
    return text


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated())
def test_a_mutated_lesson_never_makes_the_loader_raise(text: str) -> None:
    document = parse_yaml(text, "mutated.yaml")
    for problem in document.problems:
        assert problem.position.line >= 1
        assert problem.position.column >= 1
        assert problem.message


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated())
def test_a_mutated_lesson_file_loads_into_problems_or_a_lesson(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "02-hand-totals.yaml"
        path.write_text(text, "utf-8", errors="surrogatepass")
        course = load_course([path], strategy=None)
    (file,) = course.files
    assert file.lesson is not None or file.problems
    for problem in file.problems:
        assert problem.line >= 1
        assert problem.column >= 1
