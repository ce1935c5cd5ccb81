"""Where class mode keeps its state in a browser session: one typed object of its own beside the
app's ``AppState``, holding the teacher's desk (the key-checked handle and what the projector
shows) or the student's seat (the token that is the capability)."""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from tutor.classroom import (
    Reveal,
    SessionInfo,
    Student,
    Teacher,
)

#: Seconds between two refreshes of a live view (the teacher's counter, a student's screen).
POLL_SECONDS = 2.0

#: Where class mode keeps its state: one typed object of its own, beside the app's ``AppState``.
KEY = "classes"


@dataclass
class TeacherDesk:
    """The teacher's side of a class in one browser session: the key-checked handle and what the
    projector shows."""

    teacher: Teacher
    #: The teacher key, kept only until the teacher says it is written down (then never shown).
    key: str | None = None
    #: The reveal of the question on screen, fetched once (answers are closed once revealed).
    reveal: Reveal | None = None
    reveal_position: int = -1
    #: When this desk first showed each question (``time.monotonic``): the projector's timer.
    #: Kept with the desk, not in the database: a reloaded projector restarts its clock, and no
    #: other screen needs it.
    shown_at: dict[int, float] = field(default_factory=dict)
    #: The names the teacher's last click removed, to say how many went (None: nothing to say).
    removed: list[str] | None = None

    def seconds_on(self, position: int, now: float) -> float:
        """How long question ``position`` has been on this desk's screen."""
        return now - self.shown_at.setdefault(position, now)

    def shown_reveal(self, info: SessionInfo) -> Reveal | None:
        if self.reveal is not None and self.reveal_position == info.current and info.revealed:
            return self.reveal
        return None


@dataclass
class StudentSeat:
    """A student's place in a class: the ``Student`` handle (its token is the capability) and the
    last refusal to explain, as a translated message."""

    student: Student
    message: str | None = None
    #: The student came back to a seat they held (a reload): said until their next answer.
    welcome: bool = False


@dataclass
class ClassPages:
    """Everything class mode keeps in the app's state for one browser session."""

    desk: TeacherDesk | None = None
    seat: StudentSeat | None = None
    #: The address students type or scan, when the teacher corrected the one guessed.
    base_url: str = ""
    #: What the last attempt to create or open a session said, translated.
    message: str | None = None
    problems: list[str] = field(default_factory=list)
    #: The class being joined asks for the projector's symbols (told by a refused join).
    pattern_needed: bool = False


def class_pages() -> ClassPages:
    """This browser session's class-mode state, created on first use."""
    pages = st.session_state.get(KEY)
    if not isinstance(pages, ClassPages):
        pages = ClassPages()
        st.session_state[KEY] = pages
    return pages
