"""Bounded before parsed (issue 25): what a visitor types is measured before any work is done
on it, so a megabyte pasted into a field, or sent by a script, costs nothing.

Why lines are counted rather than time alone: a clock on this shared machine can say anything,
but the number of lines read is the work itself, and it does not flake.
"""

from __future__ import annotations

import time

import pytest

from tutor.classroom import MAX_HANDS_CHARS, MAX_QUESTIONS, HandsError, parse_hands
from tutor.classroom import questions as class_questions

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
