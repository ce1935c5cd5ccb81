"""Homework: a teacher gives a study group lessons and drills to do before a date, and follows
who did what (``tutor.homework.core`` holds the rules, ``tutor.homework.follow`` the follow-up,
``tutor.store.groups`` the tables)."""

from __future__ import annotations

from tutor.homework.core import (
    MAX_ASSIGNMENTS,
    MAX_GROUPS,
    MAX_HANDS,
    MAX_MEMBERS,
    RETENTION,
    Assignment,
    GroupTeacher,
    Homework,
    Membership,
    Todo,
)
from tutor.homework.errors import (
    GroupFullError,
    GroupKeyLockError,
    GroupsTooFastError,
    HomeworkError,
    InvalidWorkError,
    NameTakenError,
    TooManyGroupsError,
    TooManyTriesError,
    TooMuchWorkError,
    UnknownGroupError,
)
from tutor.homework.follow import FollowUp, KindOfHand, MissedHand, StudentWork, follow_up
from tutor.homework.in_class import Attendance, ClassKind, LiveClass, live_classes

__all__ = [
    "MAX_ASSIGNMENTS",
    "MAX_GROUPS",
    "MAX_HANDS",
    "MAX_MEMBERS",
    "RETENTION",
    "Assignment",
    "Attendance",
    "ClassKind",
    "FollowUp",
    "GroupFullError",
    "GroupKeyLockError",
    "GroupTeacher",
    "GroupsTooFastError",
    "Homework",
    "HomeworkError",
    "InvalidWorkError",
    "KindOfHand",
    "LiveClass",
    "Membership",
    "MissedHand",
    "NameTakenError",
    "StudentWork",
    "Todo",
    "TooManyGroupsError",
    "TooManyTriesError",
    "TooMuchWorkError",
    "UnknownGroupError",
    "follow_up",
    "live_classes",
]
