"""The review schedule: a missed item comes back soon, a known one later."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor.srs import BOXES, INTERVALS, Grade, next_due, schedule

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_a_wrong_answer_brings_the_item_back_within_minutes() -> None:
    review = schedule(None, "pairs:8:10", "pairs", Grade.WRONG, NOW)
    assert review.box == 1
    assert review.due_at - NOW <= timedelta(minutes=5)
    assert review.missed == 1


def test_each_right_answer_moves_the_item_up_a_box_and_further_away() -> None:
    review = schedule(None, "hard:12:4", "hard", Grade.WRONG, NOW)
    waits = []
    for _ in range(BOXES + 2):
        review = schedule(review, "hard:12:4", "hard", Grade.RIGHT, NOW)
        waits.append(review.due_at - NOW)
    assert review.box == BOXES  # it stays in the last box
    assert waits == sorted(waits)
    assert waits[-1] == INTERVALS[-1]


def test_a_wrong_answer_sends_a_known_item_back_to_the_first_box() -> None:
    review = schedule(None, "soft:18:9", "soft", Grade.RIGHT, NOW)
    review = schedule(review, "soft:18:9", "soft", Grade.RIGHT, NOW)
    assert review.box == 3
    review = schedule(review, "soft:18:9", "soft", Grade.WRONG, NOW)
    assert review.box == 1
    assert review.seen == 3


@pytest.mark.parametrize("box_before", [1, 2, 3])
def test_a_close_call_keeps_the_item_in_its_box(box_before: int) -> None:
    review = schedule(None, "soft:18:2", "soft", Grade.WRONG, NOW)
    for _ in range(box_before - 1):
        review = schedule(review, "soft:18:2", "soft", Grade.RIGHT, NOW)
    assert review.box == box_before
    after = schedule(review, "soft:18:2", "soft", Grade.ACCEPTABLE, NOW)
    assert after.box == box_before
    assert after.due_at - NOW == INTERVALS[box_before - 1]


def test_a_missed_item_comes_back_before_a_known_one() -> None:
    missed = schedule(None, "a", "hard", Grade.WRONG, NOW)
    known = schedule(schedule(None, "b", "hard", Grade.RIGHT, NOW), "b", "hard", Grade.RIGHT, NOW)
    later = NOW + timedelta(days=30)
    assert [r.item for r in next_due([known, missed], later)] == ["a", "b"]
    assert [r.item for r in next_due([known, missed], NOW + timedelta(minutes=2))] == ["a"]
