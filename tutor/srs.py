"""Spaced repetition: when each quiz item comes back, by Leitner boxes.

An item is one decision to learn: a category, a hand and an up-card ("hard 16 against 10"). It
sits in one of five boxes. A wrong answer sends it back to the first box, due again within minutes
in the same sitting; a right answer moves it up one box, and the higher the box the longer it waits
(a day, three days, a week, three weeks). A close call ("acceptable": a small EV loss) keeps it in
its box and brings it back at that box's interval, so near misses are practised without being
treated as mistakes. Leitner boxes rather than SM-2: a teacher can explain them in one sentence,
and the quiz's items are few (a few hundred) and short.

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 11, 29, 12, tzinfo=timezone.utc)
>>> first = schedule(None, "hard:16:10", "hard", Grade.WRONG, now)
>>> first.box, first.due_at - now
(1, datetime.timedelta(seconds=60))
>>> later = schedule(first, "hard:16:10", "hard", Grade.RIGHT, now)
>>> later.box, later.due_at - now
(2, datetime.timedelta(days=1))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

# The grade is the judge's (tutor.strategy.judge); the schedule only reads it.
from tutor.decision import Grade

__all__ = ["BOXES", "INTERVALS", "Grade", "Review", "next_due", "schedule"]

#: How long an item waits in each box before it is due again.
INTERVALS: tuple[timedelta, ...] = (
    timedelta(minutes=1),
    timedelta(days=1),
    timedelta(days=3),
    timedelta(days=7),
    timedelta(days=21),
)
BOXES = len(INTERVALS)


@dataclass(frozen=True)
class Review:
    """Where one item stands for one learner."""

    item: str
    category: str
    box: int
    due_at: datetime
    seen: int = 1
    missed: int = 0

    def is_due(self, now: datetime) -> bool:
        return self.due_at <= now


def schedule(
    previous: Review | None, item: str, category: str, verdict: Grade, now: datetime
) -> Review:
    """The item's next review after an answer judged ``verdict`` at ``now``."""
    box = previous.box if previous is not None else 1
    seen = previous.seen + 1 if previous is not None else 1
    missed = previous.missed if previous is not None else 0
    if verdict is Grade.WRONG:
        box, missed = 1, missed + 1
    elif verdict is Grade.RIGHT:
        box = min(box + 1, BOXES) if previous is not None else 2
    return Review(item, category, box, now + INTERVALS[box - 1], seen, missed)


def next_due(reviews: Iterable[Review], now: datetime) -> list[Review]:
    """The items due at ``now``, lowest box first (the least known), then the longest overdue."""
    return sorted(
        (review for review in reviews if review.is_due(now)),
        key=lambda review: (review.box, review.due_at),
    )
