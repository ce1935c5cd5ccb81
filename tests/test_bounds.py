"""Bounded before parsed (issue 25): what a visitor types is measured before any work is done
on it, so a megabyte pasted into a field, or sent by a script, costs nothing.

Why lines are counted rather than time alone: a clock on this shared machine can say anything,
but the number of lines read is the work itself, and it does not flake.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.classroom import MAX_HANDS_CHARS, MAX_QUESTIONS, HandsError, parse_hands
from tutor.classroom import questions as class_questions
from tutor.lessons import course as course_module
from tutor.lessons import load_course
from tutor.render.class_messages import WORD_JOINER, markdown_text
from tutor.spreadsheet import FORMULA_STARTS, safe_text

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"

A_HAND = "10 6 / 10\n"


@pytest.fixture
def lines_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The line numbers ``parse_hands`` hands to the line parser, in order."""
    seen: list[int] = []
    parse_line = class_questions.parse_hand_line

    def counting(text: str, rules: object, *, line: int = 1) -> object:
        seen.append(line)
        return parse_line(text, rules, line=line)  # type: ignore[arg-type]

    monkeypatch.setattr(class_questions, "parse_hand_line", counting)
    return seen


def test_a_megabyte_of_hands_is_refused_without_reading_a_line(lines_read: list[int]) -> None:
    megabyte = A_HAND * (1_000_000 // len(A_HAND))
    started = time.perf_counter()
    with pytest.raises(HandsError) as refused:
        parse_hands(megabyte)
    elapsed = time.perf_counter() - started
    assert [problem.code for problem in refused.value.problems] == ["too-long"]
    assert lines_read == []  # refused on its length: no line was parsed
    # The bound, with room to spare: the refusal is one len(); 50 ms is ten thousand
    # times what it takes, so only a frozen machine could fail it.
    assert elapsed < 0.05


def test_reading_stops_at_the_first_hand_past_the_limit(lines_read: list[int]) -> None:
    text = A_HAND * ((MAX_HANDS_CHARS - 1) // len(A_HAND))  # within the length, 600 hands
    assert len(text) <= MAX_HANDS_CHARS
    with pytest.raises(HandsError) as refused:
        parse_hands(text)
    assert [problem.code for problem in refused.value.problems] == ["too-many"]
    assert lines_read == list(range(1, MAX_QUESTIONS + 1))  # the 61st line and after: unread


def test_blank_lines_and_comments_do_not_count_as_hands(lines_read: list[int]) -> None:
    text = "# the class of Tuesday\n\n" + (A_HAND + "\n") * MAX_QUESTIONS
    assert len(parse_hands(text)) == MAX_QUESTIONS
    assert len(lines_read) == MAX_QUESTIONS


def test_the_longest_text_allowed_is_still_read() -> None:
    text = A_HAND * 5 + "#" * (MAX_HANDS_CHARS - 5 * len(A_HAND))
    assert len(text) == MAX_HANDS_CHARS
    assert len(parse_hands(text)) == 5
    with pytest.raises(HandsError):
        parse_hands(text + "#")


# -- lesson files that lead out of their folder ---------------------------------------------------

SECRET = "TOPSECRET-7Q: ["  # what a file outside lessons/ holds (and a YAML error would quote)


def _folder_with_a_link_out(tmp_path: Path) -> tuple[Path, Path]:
    """A lessons folder holding one real lesson and a link to a file outside the folder."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(LESSONS / "01-card-values.yaml", folder)
    outside = tmp_path / "private" / "notes.yaml"
    outside.parent.mkdir()
    outside.write_text(f"id: notes\ntitle: {SECRET}\n", encoding="utf-8")
    (folder / "02-notes.yaml").symlink_to(outside)
    return folder, outside


def test_a_lesson_linked_from_outside_its_folder_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, outside = _folder_with_a_link_out(tmp_path)
    read: list[Path] = []
    real_read = course_module._read

    def spy(path: Path) -> object:
        read.append(path)
        return real_read(path)

    monkeypatch.setattr(course_module, "_read", spy)
    course = load_course([folder], strategy=None)
    assert [path.name for path in read] == ["01-card-values.yaml"]  # the link was never opened
    assert [lesson.id for lesson in course.lessons] == ["card-values"]
    (refused,) = [file for file in course.files if file.path.name == "02-notes.yaml"]
    (problem,) = refused.problems
    assert "outside its folder" in problem.message
    assert SECRET not in str(problem)
    assert str(outside) not in str(problem)
    # named directly, a link out of its own folder is refused the same way
    direct = load_course([folder / "02-notes.yaml"], strategy=None)
    assert not direct.lessons
    assert "outside its folder" in direct.files[0].problems[0].message


def test_the_command_line_refuses_the_link_without_quoting_it(tmp_path: Path) -> None:
    folder, _outside = _folder_with_a_link_out(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "check", str(folder)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1
    assert "02-notes.yaml:1:1: the file is a link to a file outside its folder" in done.stdout
    assert SECRET not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_a_link_that_stays_inside_its_folder_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    (folder / "drafts").mkdir(parents=True)
    shutil.copy(LESSONS / "01-card-values.yaml", folder / "drafts")
    (folder / "01-card-values.yaml").symlink_to(folder / "drafts" / "01-card-values.yaml")
    course = load_course([folder], strategy=None)
    assert [lesson.id for lesson in course.lessons] == ["card-values"]


# -- what people typed, written out ---------------------------------------------------------------

#: GitHub's autolink literals, which Streamlit's Markdown finds in the text once its escapes are
#: read: ``www.`` addresses, addresses with a scheme, e-mail addresses (``\w`` is ASCII there).
AUTOLINKS = re.compile(
    r"www(?=\.)|https?://|[-.\w+]+@[-\w]+(?:\.[-\w]+)+", re.IGNORECASE | re.ASCII
)


def _as_markdown_reads_it(shown: str) -> str:
    """The text Markdown makes of ``markdown_text``'s output: each backslash escape read."""
    return re.sub(r"\\(.)", r"\1", shown)


@given(st.text())
def test_no_csv_cell_begins_as_a_formula(text: str) -> None:
    cell = safe_text(text)
    assert not cell.startswith(FORMULA_STARTS)
    assert cell in (text, "'" + text)  # the text itself, a quote in front at most


@given(st.text(alphabet="wW.:/@htpsx-_ aé1", max_size=40))
def test_no_typed_name_is_an_address_once_shown(text: str) -> None:
    read = _as_markdown_reads_it(markdown_text(text))
    assert AUTOLINKS.search(read) is None
    assert read.replace(WORD_JOINER, "") == text  # and it reads as typed
