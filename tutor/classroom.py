"""Class mode: a teacher runs a live quiz that students answer from their own devices.

A teacher creates a class session (a title, the table rules, a list of hands to ask) and gets a
short join code to project and a teacher key, shown once and stored only as a slow salted hash
(scrypt). Students join with the code and a nickname; they see the current hand, answer once, and
learn whether they were right only when the teacher reveals. The teacher sees the answers arrive,
reveals the distribution with the correct play and its reason, and moves on. Afterwards the results
are a table per student and per question; sessions stay in the database to be reopened.

Security, rule by rule (each has a test that fails if the rule is removed):

- join codes are 6 characters from a 31-letter alphabet without look-alikes (887 million codes),
  drawn with ``secrets``: at the rate a web form allows, guessing one during a lesson's life is
  out of reach;
- the teacher's pages need the key; a wrong key locks the door *for the guesser* (their browser's
  learner token hash) for a time that doubles with each of their failures (1 s, 2 s, 4 s... up
  to a minute), on top of scrypt's own cost. Keyed to the guesser, so that a stranger's guesses
  slow the stranger down and never lock the teacher out of their own class; a new browser starts
  afresh, which is safe because the key holds 72 random bits (at 1,000 guesses a second, a
  hundred billion years). Failures are counted by one atomic ``UPDATE ... failed = failed + 1``,
  so parallel wrong keys all count, and the delay's exponent is capped (no overflow);
- joining is limited per browser and per class and per minute (``JOINS_PER_MINUTE``), creating
  classes per browser and per server (``CREATES_PER_MINUTE``), all counted in the database so
  that every server process agrees; a class holds at most ``MAX_SEATS`` students;
- a session is deleted ``RETENTION`` after its creation (the teacher's pages say when), and the
  reopen screen lists nothing: a class is reopened by its code and its key;
- the class steps (next, reveal, finish) name the question they act on and change the session
  in one ``UPDATE ... WHERE current = :position``: a double click or a racing click acts once;
  an answer locks the session row while it is stored (``FOR SHARE`` on PostgreSQL, SQLite's
  single writer) and is stored only if its question is still open, and the reveal reads the
  distribution after closing the question in the same transaction: the chart counts every
  stored answer;
- a student answers each question once (a unique index in the database, so two clicks racing
  cannot both count), and only the open, unrevealed question;
- a student's view never holds other students' answers, the distribution or the correct play
  before the reveal;
- nicknames are length-limited and restricted to plain characters (``store.clean_nickname``);
  the pages escape them when they draw them all the same;
- a finished session accepts no answers.

The teacher and student handles returned here are capabilities held in the server's memory of
that browser session: a page cannot forge one without the key or the student's token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import pandas as pd
import sqlalchemy as sa

from tutor.cards import Card, format_cards, parse_cards
from tutor.decision import Action, DecisionPoint, Grade
from tutor.identity import fold_nickname, parse_code, token_hash
from tutor.rules import TableRules
from tutor.store import (
    Store,
    UTCDateTime,
    class_answers,
    class_key_attempts,
    class_questions,
    class_rate,
    class_sessions,
    class_students,
    clean_nickname,
)
from tutor.strategy.judge import Judgement
from tutor.table import decision_for

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: scrypt's cost: about 30-60 ms a key here, which is what makes a stolen hash slow to attack.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MAX_LOCK = timedelta(seconds=60)
#: The lock doubles with each failure up to ``MAX_LOCK``; the exponent stops here (2**6 s is past
#: a minute already), so that a thousand failures cannot overflow a ``timedelta``.
MAX_LOCK_EXPONENT = 6
#: How long a session is kept after its creation, then deleted with its answers.
RETENTION = timedelta(days=30)
#: Joins a minute: from one browser (a typo or two, a reload), and into one class (a class of
#: forty joining at once, with room for retries).
JOINS_PER_MINUTE = {"browser": 10, "class": 120}
#: Classes created a minute: from one browser (a teacher trying a few settings), and on the whole
#: server (a school's morning, with room to spare). Without a limit, a script could fill the
#: database with sessions faster than ``RETENTION`` removes them.
CREATES_PER_MINUTE = {"browser": 5, "server": 60}
#: Seats in one class: a lecture hall, not a bot farm (2,000 bots joined one class before).
MAX_SEATS = 300
#: The guesser of a teacher key when the request names no browser (scripts, tests).
ANONYMOUS = "anonymous"
#: The bet a class's costs are stated in (the family table's two chips).
CLASS_BET = 2


class ClassroomError(Exception):
    """A refused class-mode request; ``code`` lets the interface translate it."""

    code = "classroom"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.params = params


class UnknownSessionError(ClassroomError):
    code = "unknown-session"


class ExpiredSessionError(UnknownSessionError):
    """A session past its retention: deleted, or about to be."""

    code = "expired"


class TooManyJoinsError(ClassroomError):
    """Joining too often from one browser or into one class; ``seconds`` to wait."""

    code = "too-many-joins"


class TooManyClassesError(TooManyJoinsError):
    """Creating classes too often from one browser or on the server; ``seconds`` to wait."""

    code = "too-many-classes"


class ClassFullError(ClassroomError):
    """The class already seats ``MAX_SEATS`` students."""

    code = "class-full"


class WrongKeyError(ClassroomError):
    code = "wrong-key"


class SlowDownError(ClassroomError):
    code = "slow-down"


class SessionFinishedError(ClassroomError):
    code = "finished"


class NotOpenError(ClassroomError):
    code = "not-open"


class MovedOnError(NotOpenError):
    """A teacher's step aimed at a question the class has already left (a stale or racing
    click): nothing was changed."""

    code = "moved-on"


class AlreadyAnsweredError(ClassroomError):
    code = "already-answered"


class NicknameTakenError(ClassroomError):
    code = "nickname-taken"


class UnknownStudentError(ClassroomError):
    code = "unknown-student"


class IllegalAnswerError(ClassroomError):
    code = "illegal-answer"


@dataclass(frozen=True)
class ClassQuestion:
    """One hand to ask: the player's cards against the dealer's up-card (or the insurance offer)."""

    cards: tuple[Card, ...]
    dealer_up: Card
    insurance: bool = False

    @classmethod
    def parse(cls, cards: str, dealer_up: str, *, insurance: bool = False) -> ClassQuestion:
        return cls(parse_cards(cards), Card.parse(dealer_up), insurance)

    def point(self, rules: TableRules) -> DecisionPoint:
        return decision_for(rules, self.cards, self.dealer_up, insurance=self.insurance)


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

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    @property
    def expires_at(self) -> datetime:
        """When the session and its results are deleted (``RETENTION`` after its creation)."""
        return self.created_at + RETENTION


@dataclass(frozen=True)
class Teacher:
    """Proof that the key was given for this session."""

    session_id: int
    code: str


@dataclass(frozen=True)
class Student:
    id: int
    session_id: int
    nickname: str
    token: str


@dataclass(frozen=True)
class Seat:
    """A student's seat as the teacher's roster shows it: one row per person, however many
    times their device reconnected."""

    nickname: str
    joined_at: datetime
    reconnections: int
    answered: int


@dataclass(frozen=True)
class StudentView:
    """What a student's screen may show, and nothing more."""

    title: str
    position: int
    questions: int
    question: ClassQuestion | None
    legal: tuple[Action, ...]
    answer: Action | None
    #: Only once the teacher has revealed: the play graded against, and the judge's grade of
    #: the student's answer (None without an answer).
    best: Action | None
    grade: Grade | None
    finished: bool


@dataclass(frozen=True)
class Reveal:
    question: ClassQuestion
    distribution: dict[Action, int]
    #: The judge's advice on the question: the chart's play, the exact play, EVs and reason.
    judgement: Judgement
    answered: int
    students: int

    @property
    def best(self) -> Action:
        """The play the class is graded against."""
        return self.judgement.play

    @property
    def right(self) -> int:
        """How many students answered a play the judge grades right."""
        return sum(
            count
            for action, count in self.distribution.items()
            if _judged(self.judgement.point.rules, self.question, action).is_right
        )


def _hash_key(key: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(key.encode(), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def _key_matches(key: str, stored: str) -> bool:
    _, salt_hex, _ = stored.split("$")
    return hmac.compare_digest(_hash_key(key, bytes.fromhex(salt_hex)), stored)


def _token_hash(token: str) -> str:
    # Student tokens are 128 random bits: a fast hash is enough to keep them out of the database.
    return hashlib.sha256(token.encode()).hexdigest()


def _learner_hash(learner_token: str) -> str:
    """What a class seat keeps of the learner who took it: the hash of their canonical token."""
    return token_hash(parse_code(learner_token))


def _lock_for(failures: int) -> timedelta:
    """How long a guesser waits after ``failures`` wrong keys: 1 s, 2 s, 4 s... at most a minute.

    >>> [_lock_for(n).total_seconds() for n in (1, 2, 3, 7, 1000)]
    [1.0, 2.0, 4.0, 60.0, 60.0]
    """
    exponent = min(max(failures - 1, 0), MAX_LOCK_EXPONENT)
    return min(timedelta(seconds=2**exponent), MAX_LOCK)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: str) -> str:
    return "".join(raw.split()).replace("-", "").upper()


@lru_cache(maxsize=4096)
def _judged(rules: TableRules, question: ClassQuestion, action: Action | None = None) -> Judgement:
    """The judge's verdict on a class's answer (or its advice, for the reveal): the same judge as
    every other page, graded against the chart the class learns."""
    from tutor.strategy import judge

    return judge(question.point(rules), action, bet=CLASS_BET)


def _question_of(row: Any) -> ClassQuestion:
    """A stored question (a row with its cards, up-card and insurance flag) as a value."""
    return ClassQuestion(parse_cards(row.cards), Card.parse(row.dealer_up), row.insurance)


@lru_cache(maxsize=64)
def _rules(stored: str) -> TableRules:
    """A session's rules from their stored JSON (cached: every answer needs them)."""
    return TableRules.from_mapping(json.loads(stored))


@lru_cache(maxsize=4096)
def _legal(rules: TableRules, question: ClassQuestion) -> frozenset[Action]:
    return question.point(rules).legal


class Classroom:
    """Class sessions over a ``Store``'s database."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.engine = store.engine
        self.clock = clock or (lambda: datetime.now(UTC))

    # -- the teacher's side --
    def create(
        self,
        title: str,
        rules: TableRules,
        questions: Sequence[ClassQuestion],
        *,
        learner_token: str | None = None,
    ) -> tuple[SessionInfo, str]:
        """A new session and its teacher key (shown once: only its hash is kept).

        ``learner_token`` is the creating browser's, for ``CREATES_PER_MINUTE``; the server-wide
        limit holds without it."""
        title = " ".join(title.split())[:80] or "Blackjack"
        if not questions:
            raise ValueError("a class session needs at least one question")
        if learner_token is not None:
            self._throttle(
                f"create-browser:{_learner_hash(learner_token)}",
                CREATES_PER_MINUTE["browser"],
                TooManyClassesError,
            )
        self._throttle("create-server", CREATES_PER_MINUTE["server"], TooManyClassesError)
        for question in questions:
            question.point(rules)  # refuses a hand with no decision to make, before class starts
            # Judged now, once: the strategy of these rules is computed at the teacher's click,
            # not by forty polling phones at the first reveal.
            _judged(rules, question)
        self.purge_expired()
        key = secrets.token_urlsafe(9)
        for _ in range(10):
            code = new_code()
            try:
                with self.engine.begin() as db:
                    inserted = db.execute(
                        class_sessions.insert().values(
                            code=code,
                            title=title,
                            rules=json.dumps(rules.as_dict()),
                            key_hash=_hash_key(key),
                            created_at=self.clock(),
                            current=-1,
                            revealed=False,
                            failed_keys=0,
                        )
                    ).inserted_primary_key
                    assert inserted is not None
                    session_id = inserted[0]
                    db.execute(
                        class_questions.insert(),
                        [
                            {
                                "session_id": session_id,
                                "position": position,
                                "cards": format_cards(question.cards, ascii=True),
                                "dealer_up": question.dealer_up.ascii,
                                "insurance": question.insurance,
                            }
                            for position, question in enumerate(questions)
                        ],
                    )
                return self.info(code), key
            except sa.exc.IntegrityError:
                continue  # the code was taken: draw another
        raise RuntimeError("could not draw a free join code")  # pragma: no cover

    def sessions(self) -> list[SessionInfo]:
        """Every session kept and not expired, newest first: the administrator's view (the
        teacher's page lists none, so that no visitor sees other teachers' classes)."""
        with self.engine.connect() as db:
            codes = db.execute(
                sa.select(class_sessions.c.code)
                .where(class_sessions.c.created_at > self.clock() - RETENTION)
                .order_by(class_sessions.c.created_at.desc())
            ).scalars()
            return [self.info(code) for code in codes]

    def purge_expired(self) -> int:
        """Delete the sessions past ``RETENTION`` with everything they hold, and the join counts
        older than an hour; the number of sessions deleted. Run when a class is created.

        Children are deleted explicitly rather than by cascade: a SQLite database may have been
        opened without foreign keys by another tool."""
        now = self.clock()
        with self.engine.begin() as db:
            expired = sa.select(class_sessions.c.id).where(
                class_sessions.c.created_at <= now - RETENTION
            )
            ids = list(db.execute(expired).scalars())
            if ids:
                questions = sa.select(class_questions.c.id).where(
                    class_questions.c.session_id.in_(ids)
                )
                db.execute(class_answers.delete().where(class_answers.c.question_id.in_(questions)))
                db.execute(class_questions.delete().where(class_questions.c.session_id.in_(ids)))
                db.execute(class_students.delete().where(class_students.c.session_id.in_(ids)))
                db.execute(
                    class_key_attempts.delete().where(class_key_attempts.c.session_id.in_(ids))
                )
                db.execute(class_sessions.delete().where(class_sessions.c.id.in_(ids)))
            db.execute(
                class_rate.delete().where(class_rate.c.window_start < now - timedelta(hours=1))
            )
        return len(ids)

    def _bump(
        self,
        table: sa.Table,
        key: dict[str, Any],
        column: str,
        then: Callable[[sa.Connection, int], None] | None = None,
    ) -> int:
        """Add one to ``column`` of the row at ``key`` (made at 1 if missing) and return the new
        count, atomically: one ``UPDATE ... SET n = n + 1 ... RETURNING n``, so that parallel
        requests each count. A racing first insert makes ours fail; the next pass updates.
        ``then`` runs in the same transaction with the count (to set a lock from it)."""
        where = sa.and_(*(table.c[name] == value for name, value in key.items()))
        for attempt in range(3):
            try:
                with self.engine.begin() as db:
                    count = db.execute(
                        table.update()
                        .where(where)
                        .values({column: table.c[column] + 1})
                        .returning(table.c[column])
                    ).scalar_one_or_none()
                    if count is None:
                        db.execute(table.insert().values(**key, **{column: 1}))
                        count = 1
                    if then is not None:
                        then(db, int(count))
                    return int(count)
            except sa.exc.IntegrityError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def info(self, code: str) -> SessionInfo:
        return self._info_where(
            class_sessions.c.code == normalise_code(code), "no class session has this code"
        )

    def _info_where(self, condition: sa.ColumnElement[bool], missing: str) -> SessionInfo:
        """The session matching ``condition`` with its question count, in one query."""
        count = (
            sa.select(sa.func.count())
            .where(class_questions.c.session_id == class_sessions.c.id)
            .scalar_subquery()
        )
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(class_sessions, count.label("question_count")).where(condition)
            ).first()
        if row is None:
            raise UnknownSessionError(missing)
        if row.created_at + RETENTION <= self.clock():
            raise ExpiredSessionError(
                f"this class session expired {RETENTION.days} days after its creation",
                days=RETENTION.days,
            )
        return SessionInfo(
            id=row.id,
            code=row.code,
            title=row.title,
            rules=_rules(row.rules),
            created_at=row.created_at,
            finished_at=row.finished_at,
            current=row.current,
            revealed=row.revealed,
            questions=row.question_count,
        )

    def open_as_teacher(self, code: str, key: str, *, learner_token: str | None = None) -> Teacher:
        """The teacher's handle, if ``key`` is this session's; wrong keys lock the guesser out a
        while (``learner_token``: the guessing browser's; without one, the anonymous guesser).

        The lock belongs to the guesser, never to the class: a student who guesses from the
        public page locks only themselves out, and the teacher's own browser still gets in.
        """
        info = self.info(code)
        guesser = ANONYMOUS if learner_token is None else _learner_hash(learner_token)
        mine = (class_key_attempts.c.session_id == info.id) & (
            class_key_attempts.c.guesser == guesser
        )
        now = self.clock()
        with self.engine.connect() as db:
            locked_until = db.execute(
                sa.select(class_key_attempts.c.locked_until).where(mine)
            ).scalar_one_or_none()
            stored = db.execute(
                sa.select(class_sessions.c.key_hash).where(class_sessions.c.id == info.id)
            ).scalar_one()
        if locked_until is not None and locked_until > now:
            wait = (locked_until - now).total_seconds()
            raise SlowDownError(
                f"too many wrong keys: try again in {wait:.0f} s", seconds=round(wait, 1)
            )
        if _key_matches(key, stored):
            with self.engine.begin() as db:
                db.execute(class_key_attempts.delete().where(mine))
            return Teacher(info.id, info.code)

        def lock(db: sa.Connection, failures: int) -> None:
            db.execute(
                class_key_attempts.update()
                .where(mine)
                .values(locked_until=now + _lock_for(failures))
            )

        failures = self._bump(
            class_key_attempts, {"session_id": info.id, "guesser": guesser}, "failed", lock
        )
        raise WrongKeyError("this is not the teacher key of this session", failures=failures)

    def next_question(
        self, teacher: Teacher, *, expected_position: int | None = None
    ) -> SessionInfo:
        """Show the question after ``expected_position`` (the one on the teacher's screen; -1
        in the lobby); answers open for it. If the class has already left that question (the
        second click of a double click, another tab), nothing changes: one atomic
        ``UPDATE ... WHERE current = :position`` moves on once, never twice. Without
        ``expected_position``, the question on screen now (for scripts; a page passes it)."""
        info = self._teacher_info(teacher)
        if info.is_finished:
            raise SessionFinishedError("this session is finished")
        position = info.current if expected_position is None else expected_position
        if position + 1 >= info.questions:
            raise NotOpenError("that was the last question")
        with self.engine.begin() as db:
            db.execute(
                class_sessions.update()
                .where(
                    (class_sessions.c.id == teacher.session_id)
                    & (class_sessions.c.current == position)
                    & class_sessions.c.finished_at.is_(None)
                )
                .values(current=position + 1, revealed=False)
            )
        return self._teacher_info(teacher)

    def question(self, teacher: Teacher) -> ClassQuestion | None:
        """The question on screen (for the projector before the reveal); None before the first."""
        info = self._teacher_info(teacher)
        if not 0 <= info.current < info.questions:
            return None
        return self._question(teacher.session_id, info.current)

    def counts(self, teacher: Teacher) -> tuple[int, int]:
        """(answers to the current question, students joined): the teacher's live counter."""
        with self.engine.connect() as db:
            session = db.execute(
                sa.select(class_sessions.c.current).where(class_sessions.c.id == teacher.session_id)
            ).scalar_one()
            students = db.execute(
                sa.select(sa.func.count()).where(class_students.c.session_id == teacher.session_id)
            ).scalar_one()
            answered = db.execute(
                sa.select(sa.func.count())
                .select_from(class_answers.join(class_questions))
                .where(
                    (class_questions.c.session_id == teacher.session_id)
                    & (class_questions.c.position == session)
                )
            ).scalar_one()
        return int(answered), int(students)

    def students(self, teacher: Teacher) -> list[str]:
        """The nicknames joined so far, in the order they came (for the teacher to see)."""
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(class_students.c.nickname)
                    .where(class_students.c.session_id == teacher.session_id)
                    .order_by(class_students.c.joined_at, class_students.c.id)
                ).scalars()
            )

    def remove_student(self, teacher: Teacher, nickname: str) -> None:
        """Send a student away (a rude nickname): their answers go with them, and their device
        is no longer in the class (it may join again under another name)."""
        with self.engine.begin() as db:
            student_id = db.execute(
                sa.select(class_students.c.id).where(
                    (class_students.c.session_id == teacher.session_id)
                    & (class_students.c.nickname == nickname)
                )
            ).scalar_one_or_none()
            if student_id is None:
                return
            db.execute(class_answers.delete().where(class_answers.c.student_id == student_id))
            db.execute(class_students.delete().where(class_students.c.id == student_id))

    def reveal(self, teacher: Teacher, *, expected_position: int | None = None) -> Reveal:
        """Close question ``expected_position`` and show how the class answered, with the
        right play. Revealing it again shows the same (a double click is harmless); a question
        the class has left raises ``MovedOnError`` and reveals nothing.

        One transaction: the ``UPDATE ... WHERE current = :position`` closes the question first
        (on PostgreSQL it waits for the answers being stored, which hold the session row), then
        the distribution is read, so every stored answer is in the chart."""
        info = self._teacher_info(teacher)
        position = info.current if expected_position is None else expected_position
        if position < 0:
            raise NotOpenError("no question has been shown yet")
        with self.engine.begin() as db:
            closed = db.execute(
                class_sessions.update()
                .where(
                    (class_sessions.c.id == teacher.session_id)
                    & (class_sessions.c.current == position)
                )
                .values(revealed=True)
            ).rowcount
            if not closed:
                raise MovedOnError("the class has moved on from this question", position=position)
            return self._reveal(info, position, db)

    def finish(self, teacher: Teacher, *, expected_position: int | None = None) -> SessionInfo:
        """End the session: no more answers, the results shown. With ``expected_position``,
        only while the class is still on that question (a stale click does nothing)."""
        where = (class_sessions.c.id == teacher.session_id) & class_sessions.c.finished_at.is_(None)
        if expected_position is not None:
            where = where & (class_sessions.c.current == expected_position)
        with self.engine.begin() as db:
            db.execute(
                class_sessions.update().where(where).values(finished_at=self.clock(), revealed=True)
            )
        return self._teacher_info(teacher)

    def results(self, teacher: Teacher) -> pd.DataFrame:
        """One row per student and question: the answer, the best play, right or not, EV lost."""
        info = self._teacher_info(teacher)
        questions = self._questions(teacher.session_id)
        with self.engine.connect() as db:
            students = db.execute(
                sa.select(class_students.c.id, class_students.c.nickname).where(
                    class_students.c.session_id == teacher.session_id
                )
            ).all()
            answers = db.execute(
                sa.select(
                    class_answers.c.student_id, class_questions.c.position, class_answers.c.action
                )
                .select_from(class_answers.join(class_questions))
                .where(class_questions.c.session_id == teacher.session_id)
            ).all()
        given = {(row.student_id, row.position): Action(row.action) for row in answers}
        rows = []
        for position, question in enumerate(questions):
            best = _judged(info.rules, question).play
            for student in students:
                action = given.get((student.id, position))
                verdict = _judged(info.rules, question, action) if action is not None else None
                rows.append(
                    {
                        "student": student.nickname,
                        "question": position + 1,
                        "hand": format_cards(question.cards),
                        "dealer": str(question.dealer_up),
                        "answer": action.value if action is not None else None,
                        "best": best.value,
                        "grade": verdict.grade.value if verdict and verdict.grade else None,
                        "correct": verdict.is_right if verdict is not None else None,
                        "ev_lost": verdict.loss if verdict is not None else None,
                    }
                )
        return pd.DataFrame(
            rows,
            columns=[
                "student",
                "question",
                "hand",
                "dealer",
                "answer",
                "best",
                "grade",
                "correct",
                "ev_lost",
            ],
        )

    def hardest(self, teacher: Teacher) -> pd.DataFrame:
        """The questions the class got most wrong, worst first."""
        frame = self.results(teacher)
        answered = frame.dropna(subset=["answer"])
        if answered.empty:
            return pd.DataFrame(columns=["question", "hand", "dealer", "best", "wrong", "answers"])
        grouped = answered.groupby(["question", "hand", "dealer", "best"], as_index=False).agg(
            wrong=("correct", lambda c: float(1 - c.astype(float).mean())),
            answers=("answer", "count"),
        )
        return grouped.sort_values(["wrong", "question"], ascending=[False, True]).reset_index(
            drop=True
        )

    # -- the students' side --
    def join(self, code: str, nickname: str, *, learner_token: str | None = None) -> Student:
        """Take a seat in the session, or take back the seat this learner already holds.

        With ``learner_token`` (the browser's private learner token, ``tutor.identity``): if that
        learner already sits in this session, the same seat comes back (same nickname, same
        answers) with a fresh student token, whatever nickname was typed this time, even once
        the session is finished (to see its end). Otherwise a new seat under ``nickname``,
        refused if a seated student's nickname folds the same (``fold_nickname``: "CAMILLE
        dupont" is "Camille Dupont") and in a finished session.
        """
        learner_hash = None if learner_token is None else _learner_hash(learner_token)
        if learner_hash is not None:  # before the code is looked up: guessing codes counts too
            self._throttle(f"join-browser:{learner_hash}", JOINS_PER_MINUTE["browser"])
        info = self.info(code)
        self._throttle(f"join-class:{info.id}", JOINS_PER_MINUTE["class"])
        if learner_hash is not None:
            seat = self._reseat(info.id, learner_hash)
            if seat is not None:
                return seat
        if info.is_finished:
            raise SessionFinishedError("this session is finished")
        name = clean_nickname(nickname)
        if self._seats(info.id) >= MAX_SEATS:
            raise ClassFullError("this class is full", seats=MAX_SEATS)
        token = secrets.token_urlsafe(16)
        try:
            with self.engine.begin() as db:
                inserted = db.execute(
                    class_students.insert().values(
                        session_id=info.id,
                        nickname=name,
                        folded=fold_nickname(name),
                        learner_hash=learner_hash,
                        token_hash=_token_hash(token),
                        joined_at=self.clock(),
                        reconnections=0,
                    )
                ).inserted_primary_key
                assert inserted is not None
                student_id = inserted[0]
        except sa.exc.IntegrityError:
            if learner_hash is not None:
                # The same learner's other tab may have taken the seat between our two steps.
                seat = self._reseat(info.id, learner_hash)
                if seat is not None:
                    return seat
            raise NicknameTakenError(
                "this nickname is taken in this session", nickname=name
            ) from None
        return Student(int(student_id), info.id, name, token)

    def _throttle(
        self, bucket: str, limit: int, error: type[TooManyJoinsError] = TooManyJoinsError
    ) -> None:
        """Count one hit of ``bucket`` in this minute; ``error`` past ``limit``.

        A bucket's first hit of a minute also deletes the counts older than an hour, so the
        table stays small even on a server where no class is created for weeks."""
        now = self.clock()
        window = now.replace(second=0, microsecond=0)
        hits = self._bump(class_rate, {"bucket": bucket, "window_start": window}, "hits")
        if hits == 1:
            with self.engine.begin() as db:
                db.execute(
                    class_rate.delete().where(class_rate.c.window_start < now - timedelta(hours=1))
                )
        if hits > limit:
            raise error("too many attempts: wait a minute", seconds=60 - now.second)

    def _seats(self, session_id: int) -> int:
        with self.engine.connect() as db:
            return int(
                db.execute(
                    sa.select(sa.func.count()).where(class_students.c.session_id == session_id)
                ).scalar_one()
            )

    def rejoin(self, code: str, learner_token: str) -> Student | None:
        """The seat this learner holds in the session, with a fresh student token; None if they
        hold none. For a page reloaded by a phone: back in class without typing anything.

        Everything it needs is in the database, so it works after a server restart too. Raises
        ``UnknownSessionError`` for an unknown code and ``InvalidRecoveryCodeError`` (a
        ``ValueError``) for a malformed learner token.
        """
        info = self.info(code)
        return self._reseat(info.id, _learner_hash(learner_token))

    def roster(self, teacher: Teacher) -> list[Seat]:
        """Every seat of the session in joining order, with its reconnections and answer count,
        so the teacher's page can say "reconnected" rather than show a student twice."""
        answered = (
            sa.select(sa.func.count())
            .where(class_answers.c.student_id == class_students.c.id)
            .scalar_subquery()
        )
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(
                    class_students.c.nickname,
                    class_students.c.joined_at,
                    class_students.c.reconnections,
                    answered.label("answered"),
                )
                .where(class_students.c.session_id == teacher.session_id)
                .order_by(class_students.c.joined_at, class_students.c.id)
            ).all()
        return [
            Seat(row.nickname, row.joined_at, row.reconnections, int(row.answered)) for row in rows
        ]

    def _reseat(self, session_id: int, learner_hash: str) -> Student | None:
        """The learner's seat in the session with a fresh token (the old one stops working: only
        the latest device of a learner holds the seat), counted as a reconnection."""
        token = secrets.token_urlsafe(16)
        seat = (class_students.c.session_id == session_id) & (
            class_students.c.learner_hash == learner_hash
        )
        with self.engine.begin() as db:
            updated = db.execute(
                class_students.update()
                .where(seat)
                .values(
                    token_hash=_token_hash(token),
                    reconnections=class_students.c.reconnections + 1,
                )
            ).rowcount
            if not updated:
                return None
            row = db.execute(
                sa.select(class_students.c.id, class_students.c.nickname).where(seat)
            ).one()
        return Student(row.id, session_id, row.nickname, token)

    def student_view(self, student: Student) -> StudentView:
        student = self._student(student.token)
        info = self._info_by_id(student.session_id)
        question = None
        legal: tuple[Action, ...] = ()
        answer = best = None
        grade: Grade | None = None
        if 0 <= info.current < info.questions:
            question = self._question(info.id, info.current)
            point = question.point(info.rules)
            legal = tuple(action for action in Action if action in point.legal)
            answer = self._answer_of(student, info.current)
            if info.revealed:
                best = _judged(info.rules, question).play
                if answer is not None:
                    grade = _judged(info.rules, question, answer).grade
        return StudentView(
            title=info.title,
            position=info.current,
            questions=info.questions,
            question=question,
            legal=legal,
            answer=answer,
            best=best,
            grade=grade,
            finished=info.is_finished,
        )

    def answer(self, student: Student, action: Action, *, position: int | None = None) -> None:
        """Record a student's answer to the open question: once, and only while it is open.

        One transaction of two statements: who the token belongs to with the state of their
        session, then the insert (the unique index refuses a second answer, even a racing one).
        ``position`` is the question the student was looking at: a page that polls every few
        seconds can still show question 3 after the teacher moved on, and a click there must
        not be counted as an answer to question 4.
        """
        now = self.clock()
        try:
            with self.engine.begin() as db:
                row = db.execute(
                    sa.select(
                        class_students.c.id,
                        class_sessions.c.id.label("session_id"),
                        class_sessions.c.current,
                        class_sessions.c.revealed,
                        class_sessions.c.finished_at,
                        class_sessions.c.rules,
                        class_questions.c.id.label("question_id"),
                        class_questions.c.cards,
                        class_questions.c.dealer_up,
                        class_questions.c.insurance,
                    )
                    .select_from(
                        class_students.join(
                            class_sessions, class_sessions.c.id == class_students.c.session_id
                        ).outerjoin(
                            class_questions,
                            (class_questions.c.session_id == class_sessions.c.id)
                            & (class_questions.c.position == class_sessions.c.current),
                        )
                    )
                    .where(class_students.c.token_hash == _token_hash(student.token))
                    # PostgreSQL: hold the session row while the answer is stored, so that a
                    # reveal waits for it (and counts it) or is seen here (and refuses it).
                    .with_for_update(read=True, of=class_sessions)
                ).first()
                if row is None:
                    raise UnknownStudentError("this student is not in any session")
                if row.finished_at is not None:
                    raise SessionFinishedError("this session is finished")
                if row.question_id is None or row.revealed:
                    raise NotOpenError("no question is open for answers")
                if position is not None and row.current != position:
                    raise NotOpenError("the teacher has moved on to another question")
                question = _question_of(row)
                if action not in _legal(_rules(row.rules), question):
                    # The page offers only legal buttons; a forged request gets no further.
                    raise IllegalAnswerError(f"{action.value} is not a legal play on this hand")
                # Stored only if the question is still open as this statement runs: SQLite has
                # no FOR SHARE, but its one writer runs this after or before a reveal, never
                # between the reveal's update and its count.
                still_open = sa.select(
                    sa.literal(row.question_id, sa.Integer),
                    sa.literal(row.id, sa.Integer),
                    sa.literal(action.value, sa.String),
                    sa.literal(now, UTCDateTime),
                ).where(
                    sa.exists().where(
                        (class_sessions.c.id == row.session_id)
                        & (class_sessions.c.current == row.current)
                        & sa.not_(class_sessions.c.revealed)
                        & class_sessions.c.finished_at.is_(None)
                    )
                )
                stored = db.execute(
                    class_answers.insert().from_select(
                        ["question_id", "student_id", "action", "answered_at"], still_open
                    )
                ).rowcount
                if not stored:
                    raise NotOpenError("no question is open for answers")
        except sa.exc.IntegrityError:
            raise AlreadyAnsweredError("you have already answered this question") from None

    # -- helpers --
    def _teacher_info(self, teacher: Teacher) -> SessionInfo:
        return self._info_by_id(teacher.session_id)

    def _info_by_id(self, session_id: int) -> SessionInfo:
        return self._info_where(class_sessions.c.id == session_id, "no such class session")

    def _question(self, session_id: int, position: int) -> ClassQuestion:
        """One question of a session (a student's poll needs only the one on screen)."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(class_questions).where(
                    (class_questions.c.session_id == session_id)
                    & (class_questions.c.position == position)
                )
            ).one()
        return _question_of(row)

    def _questions(self, session_id: int) -> list[ClassQuestion]:
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(class_questions)
                .where(class_questions.c.session_id == session_id)
                .order_by(class_questions.c.position)
            ).all()
        return [_question_of(row) for row in rows]

    def _student(self, token: str) -> Student:
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(class_students).where(class_students.c.token_hash == _token_hash(token))
            ).first()
        if row is None:
            raise UnknownStudentError("this student is not in any session")
        return Student(row.id, row.session_id, row.nickname, token)

    def _answer_of(self, student: Student, position: int) -> Action | None:
        with self.engine.connect() as db:
            action = db.execute(
                sa.select(class_answers.c.action)
                .select_from(class_answers.join(class_questions))
                .where(
                    (class_answers.c.student_id == student.id)
                    & (class_questions.c.position == position)
                )
            ).scalar_one_or_none()
        return Action(action) if action is not None else None

    def _reveal(self, info: SessionInfo, position: int, db: sa.Connection) -> Reveal:
        """The reveal of question ``position``, read on ``db`` (the transaction that closed it)."""
        question = _question_of(
            db.execute(
                sa.select(class_questions).where(
                    (class_questions.c.session_id == info.id)
                    & (class_questions.c.position == position)
                )
            ).one()
        )
        judgement = _judged(info.rules, question)
        actions = db.execute(
            sa.select(class_answers.c.action)
            .select_from(class_answers.join(class_questions))
            .where(
                (class_questions.c.session_id == info.id) & (class_questions.c.position == position)
            )
        ).scalars()
        distribution = Counter(Action(action) for action in actions)
        students = db.execute(
            sa.select(sa.func.count()).where(class_students.c.session_id == info.id)
        ).scalar_one()
        return Reveal(
            question=question,
            distribution=dict(distribution),
            judgement=judgement,
            answered=sum(distribution.values()),
            students=int(students),
        )
