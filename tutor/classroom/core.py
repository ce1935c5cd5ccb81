"""What both sides of a class session share: the database handle, the clock, the cache of the
phones' polls, and the reads and guards the teacher's side and the students' side both call (a
session by its code or id, with its expiry; the rate limits; the join step's pattern; a seat's
token; a question).

A module of its own so that ``Classroom`` (``tutor.classroom.session``) reads as the class's
steps, one method per thing a teacher or a student does, over this base.
"""


from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from tutor.classroom.access import (
    RETENTION,
    UNSTARTED_RETENTION,
    client_key,
    learner_hash,
    normalise_code,
    student_token_hash,
)
from tutor.classroom.errors import (
    ExpiredSessionError,
    PatternNeededError,
    TooManyJoinsError,
    UnknownSessionError,
    UnknownStudentError,
    WrongPatternError,
)
from tutor.classroom.handles import Student, Teacher, question_of, rules_of
from tutor.classroom.info import SessionInfo
from tutor.classroom.joinstep import (
    PATTERN_LENGTH,
    pattern_matches,
)
from tutor.classroom.questions import ClassQuestion
from tutor.classroom.ticks import TickCache
from tutor.classroom.tries import Guesser, Tries
from tutor.store import Store

#: How long the reads of the phones' polls are shared (``tutor.classroom.ticks``); a phone
#: polls every two seconds.
TICK_SECONDS = 1.0


class ClassroomCore:
    """The state and the shared reads of Classroom, its only subclass."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] | None = None,
        tick: float | None = None,
    ) -> None:
        self.store = store
        self.engine = store.engine
        self.records = store.classes
        self.clock = clock or (lambda: datetime.now(UTC))
        #: What the phones' polls read, shared for ``tick`` seconds (``tutor.classroom.ticks``).
        self.ticks = TickCache(TICK_SECONDS if tick is None else tick)
        #: The last moment ``watched_moment`` read of each session it was asked about.
        self._watched: dict[int, tuple[int, bool, bool]] = {}
        #: Finished classes' (questions asked, right answers per seat), oldest first
        #: (``Classroom.final_score``).
        self._finals: dict[int, tuple[int, dict[int, int]]] = {}
        #: The wrong codes and patterns counted per guesser (``tutor.classroom.tries``).
        self.tries = Tries(self.records, lambda: self.clock())

    def info(self, code: str) -> SessionInfo:
        return self._session(
            self.records.session(code=normalise_code(code)), "no class session has this code"
        )

    def guessed_info(self, code: str, guesser: Guesser) -> SessionInfo:
        """``info`` for a code typed by a visitor: refused before the lookup for a guesser past
        its wrong codes of the minute, and a code that names no class (or an expired one)
        counted as the guesser's failure (``tutor.classroom.tries``)."""
        self.tries.before_code("class", guesser)
        try:
            return self.info(code)
        except UnknownSessionError:
            self.tries.wrong_code("class", guesser)
            raise

    def _info_by_id(self, session_id: int) -> SessionInfo:
        return self._session(self.records.session(session_id=session_id), "no such class session")

    def _session(self, row: Any, missing: str) -> SessionInfo:
        if row is None:
            raise UnknownSessionError(missing)
        if row.created_at + RETENTION <= self.clock():
            raise ExpiredSessionError(
                f"this class session expired {RETENTION.days} days after its creation",
                days=RETENTION.days,
            )
        unstarted = row.current < 0 and row.finished_at is None
        if unstarted and row.created_at + UNSTARTED_RETENTION <= self.clock():
            raise ExpiredSessionError(
                "this class session was never started and expired"
                f" {UNSTARTED_RETENTION.total_seconds() / 3600:g} hours after its creation",
                days=RETENTION.days,
                hours=int(UNSTARTED_RETENTION.total_seconds() // 3600),
            )
        return SessionInfo(
            id=row.id,
            code=row.code,
            title=row.title,
            rules=rules_of(row.rules),
            created_at=row.created_at,
            finished_at=row.finished_at,
            current=row.current,
            revealed=row.revealed,
            questions=row.question_count,
            locked=bool(row.locked),
            has_join_step=row.join_pattern is not None,
            given_names=row.given_names,
        )

    # -- helpers --
    @staticmethod
    def _guesser(learner_token: str | None, client: str | None) -> Guesser:
        """Who a visitor's request is, for the failure counts: its browser and its client."""
        return Guesser(
            browser=None if learner_token is None else learner_hash(learner_token),
            client=None if client is None else client_key(client),
        )

    def _throttle(
        self, bucket: str, limit: int, error: type[TooManyJoinsError] = TooManyJoinsError
    ) -> None:
        """Count one hit of ``bucket`` in this minute; ``error`` past ``limit``.

        A bucket's first hit of a minute also deletes the counts older than an hour, so the
        table stays small even on a server where no class is created for weeks."""
        now = self.clock()
        hits = self.records.count_hit(bucket, now.replace(second=0, microsecond=0))
        if hits == 1:
            self.records.purge_counts(counted_before=now - timedelta(hours=1))
        if hits > limit:
            raise error("too many attempts: wait a minute", seconds=60 - now.second)

    def _check_pattern(
        self, session_id: int, pattern: Sequence[str] | None, guesser: Guesser
    ) -> None:
        """Refuse a join without the class's pattern; a try of it is claimed from the guesser's
        wrong patterns of the minute before it is weighed, and given back when it is right."""
        row = self.records.session(session_id=session_id)
        kept = None if row is None else row.join_pattern
        if kept is None:
            return
        if not pattern:
            raise PatternNeededError("this class asks for the pattern shown on the projector")
        give_back = self.tries.claim_pattern_try(session_id, guesser)
        if not pattern_matches(tuple(itertools.islice(pattern, PATTERN_LENGTH + 1)), kept):
            raise WrongPatternError("this is not the pattern shown on the projector")
        give_back()

    def _polled_student(self, student: Student) -> Student:
        """``student``, if its token still holds its seat: checked against the class's seats,
        read once a tick for the whole class (a reseat or a removal takes the seat from the old
        token, at once in this process and within a tick in others)."""
        session_id = student.session_id
        seats = self.ticks.get(("seats", session_id), lambda: self.records.seat_tokens(session_id))
        if seats.get(student.id) != student_token_hash(student.token):
            raise UnknownStudentError("this student is not in any session")
        return student

    def _changed(self, session_id: int, *, students: bool = False) -> None:
        """Forget what this process shares about a session it just changed (and its students'
        rows, when a seat went)."""
        self.ticks.forget(
            lambda key: isinstance(key, tuple)
            and (
                (key[0] in ("session", "answers") and key[1] == session_id)
                or (students and key[0] == "seats" and key[1] == session_id)
            )
        )

    def _reseat(self, session_id: int, learner: str) -> Student | None:
        """The learner's seat in the session with a fresh token (the old one stops working: only
        the latest device of a learner holds the seat), counted as a reconnection."""
        token = secrets.token_urlsafe(16)
        row = self.records.reseat(session_id, learner, student_token_hash(token))
        if row is None:
            return None
        self._changed(session_id, students=True)  # the seat's old token stops working now
        return Student(row.id, session_id, row.nickname, token)

    def _teacher_info(self, teacher: Teacher) -> SessionInfo:
        return self._info_by_id(teacher.session_id)

    def _question(self, session_id: int, position: int) -> ClassQuestion:
        """One question of a session (a student's poll needs only the one on screen)."""
        row = self.records.question(session_id, position)
        if row is None:
            raise UnknownSessionError("no such question in this class session")
        return question_of(row)
