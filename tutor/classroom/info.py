"""What a class session is, as every class-mode module reads it: its code, title, table, where it
stands and the teacher's join options.

Why a module of its own: the session's steps (``tutor.classroom.session``) compute the results
(``tutor.classroom.results``), whose report names the session it is about; kept in the session's
module, the results had to import it back, a circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tutor.classroom.access import RETENTION
from tutor.rules import TableRules


@dataclass(frozen=True)
class SessionInfo:
    id: int
    code: str
    title: str
    rules: TableRules
    created_at: datetime
    finished_at: datetime | None
    #: Index of the question on screen; -1 before the first.
    current: int
    revealed: bool
    questions: int
    #: Locked by the teacher: nobody new joins (a seated student still rejoins).
    locked: bool = False
    #: Whether a phone taps the projector's pattern after the code (the pattern itself is the
    #: teacher's: ``Classroom.join_pattern``).
    has_join_step: bool = False
    #: The language of the names the app gives its students (``tutor.classroom.names``); None
    #: when they type their nicknames.
    given_names: str | None = None

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    @property
    def moment(self) -> tuple[int, bool, bool]:
        """Where the class stands, as a phone's screen follows it: the hand on screen, whether
        it is revealed, whether the class is over (``Classroom.watched_moment``)."""
        return (self.current, self.revealed, self.is_finished)

    @property
    def expires_at(self) -> datetime:
        """When the session and its results are deleted (``RETENTION`` after its creation)."""
        return self.created_at + RETENTION

    @property
    def asked(self) -> int:
        """How many questions the class has been shown (a class finished early asked fewer than
        it holds: its results are about those)."""
        return max(0, min(self.current + 1, self.questions))
