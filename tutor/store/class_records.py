"""Every statement class mode runs on its tables (``tutor.store.classes``): ``ClassRecords``.

Why here rather than in ``tutor.classroom``: the SQL sits beside the tables it reads, as the
learners' statements sit beside theirs in ``tutor.store``, and class mode's rules (who may do what,
what a refusal means) stay in ``tutor.classroom`` with no SQL in them. Each method here is one
transaction and decides nothing; where a rule must be checked *inside* the transaction (an answer
stored only while its question is open), the caller passes the check in.

The statements that guard against races are written so that the database decides:

- counters go up by one ``UPDATE ... SET n = n + 1 ... RETURNING n`` (``bump``), so parallel
  requests each count;
- a teacher key's try is counted, and its lock set, before the key is weighed, only while the
  guesser is not locked (``claim_key_turn``), so tries sent together take one turn;
- the class steps move with ``UPDATE ... WHERE current = :position`` (``move_on``, ``close``),
  so a second click finds nothing to change;
- an answer holds the session row (``FOR SHARE`` on PostgreSQL; SQLite has one writer) and is
  inserted only if its question is still open as the statement runs (``store_answer``), and a
  reveal closes its question before it counts (``close``), so the count holds every stored answer;
- a new seat holds the session row (``FOR UPDATE``) and is inserted only if the class is not
  locked and not full as the statement runs (``insert_student``), and the lock is an
  ``UPDATE`` of that row (``set_locked``): a join racing the teacher's click is seated before
  the lock commits or refused after it, never seated once the teacher's page says "locked";
  a class never seats more than its cap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tutor.store.base import UTCDateTime
from tutor.store.classes import (
    class_answers,
    class_key_attempts,
    class_questions,
    class_rate,
    class_sessions,
    class_students,
)
from tutor.store.key_turns import claim_key_turn

#: A row of the columns a statement names (SQLAlchemy's ``Row``, read by attribute).
Record = Any


class ClassRecords:
    """Class mode's statements on one engine (thread-safe: every call takes its own connection)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- sessions --
    def insert_session(
        self, session: Mapping[str, Any], questions: Sequence[Mapping[str, Any]]
    ) -> int:
        """A session and its questions in one transaction; its id. ``IntegrityError`` when its
        code is taken (the caller draws another)."""
        with self.engine.begin() as db:
            inserted = db.execute(class_sessions.insert().values(**session)).inserted_primary_key
            assert inserted is not None
            session_id = int(inserted[0])
            db.execute(
                class_questions.insert(),
                [{"session_id": session_id, **question} for question in questions],
            )
        return session_id

    def session(self, *, code: str | None = None, session_id: int | None = None) -> Record | None:
        """The session with this code or id, and its ``question_count``, in one query."""
        where = (
            class_sessions.c.code == code if code is not None else class_sessions.c.id == session_id
        )
        with self.engine.connect() as db:
            return db.execute(_with_question_count().where(where)).first()

    def sessions(
        self,
        *,
        since: datetime,
        creator_hash: str | None = None,
        unstarted_since: datetime | None = None,
    ) -> list[Record]:
        """The sessions created after ``since`` with their ``question_count``, newest first, in
        one query; only those created by ``creator_hash``'s browser when it is given; a session
        that never showed a question and is not finished only when created after
        ``unstarted_since``."""
        where = class_sessions.c.created_at > since
        if unstarted_since is not None:
            where = where & (
                (class_sessions.c.current >= 0)
                | class_sessions.c.finished_at.is_not(None)
                | (class_sessions.c.created_at > unstarted_since)
            )
        if creator_hash is not None:
            where = where & (class_sessions.c.creator_hash == creator_hash)
        with self.engine.connect() as db:
            return list(
                db.execute(
                    _with_question_count()
                    .where(where)
                    .order_by(class_sessions.c.created_at.desc(), class_sessions.c.id.desc())
                ).all()
            )

    def unused_of_client(self, client: str, *, since: datetime) -> int:
        """The classes ``client`` created after ``since`` that never showed a question and are
        not finished: what a flood of creations from one address leaves behind."""
        with self.engine.connect() as db:
            return int(
                db.execute(
                    sa.select(sa.func.count()).where(
                        (class_sessions.c.creator_client == client)
                        & (class_sessions.c.current < 0)
                        & class_sessions.c.finished_at.is_(None)
                        & (class_sessions.c.created_at > since)
                    )
                ).scalar_one()
            )

    def purge(
        self,
        *,
        created_before: datetime,
        counted_before: datetime,
        unstarted_before: datetime | None = None,
    ) -> int:
        """Delete the sessions created before ``created_before`` (or before ``unstarted_before``
        when they never showed a question and are not finished) with everything they hold, and
        the rate counts older than ``counted_before``; the number of sessions deleted.

        Children are deleted explicitly rather than by cascade: a SQLite database may have been
        opened without foreign keys by another tool."""
        with self.engine.begin() as db:
            condition = class_sessions.c.created_at <= created_before
            if unstarted_before is not None:
                condition = condition | (
                    (class_sessions.c.current < 0)
                    & class_sessions.c.finished_at.is_(None)
                    & (class_sessions.c.created_at <= unstarted_before)
                )
            expired = sa.select(class_sessions.c.id).where(condition)
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
            db.execute(class_rate.delete().where(class_rate.c.window_start < counted_before))
        return len(ids)

    def purge_counts(self, *, counted_before: datetime) -> None:
        with self.engine.begin() as db:
            db.execute(class_rate.delete().where(class_rate.c.window_start < counted_before))

    # -- counters --
    def bump(
        self,
        table: sa.Table,
        key: Mapping[str, Any],
        column: str,
        amount: int = 1,
    ) -> int:
        """Add ``amount`` (one) to ``column`` of the row at ``key`` (made at it if missing) and
        return the new count, atomically: one ``UPDATE ... SET n = n + 1 ... RETURNING n``, so
        that parallel requests each count. A racing first insert makes ours fail; the next pass
        updates."""
        where = sa.and_(*(table.c[name] == value for name, value in key.items()))
        for attempt in range(3):
            try:
                with self.engine.begin() as db:
                    count = db.execute(
                        table.update()
                        .where(where)
                        .values({column: table.c[column] + amount})
                        .returning(table.c[column])
                    ).scalar_one_or_none()
                    if count is None:
                        db.execute(table.insert().values(**key, **{column: amount}))
                        count = amount
                    return int(count)
            except sa.exc.IntegrityError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def count_hit(self, bucket: str, window: datetime, amount: int = 1) -> int:
        """``amount`` more hits (one by default) of ``bucket`` in the minute starting at
        ``window``; the minute's count."""
        return self.bump(class_rate, {"bucket": bucket, "window_start": window}, "hits", amount)

    def hits(self, bucket: str, window: datetime) -> int:
        """The hits of ``bucket`` in the minute starting at ``window`` (0 when none), counting
        none: what a limit reads before it lets a try through."""
        with self.engine.connect() as db:
            count = db.execute(
                sa.select(class_rate.c.hits).where(
                    (class_rate.c.bucket == bucket) & (class_rate.c.window_start == window)
                )
            ).scalar_one_or_none()
        return 0 if count is None else int(count)

    def uncount_hit(self, bucket: str, window: datetime) -> None:
        """One hit of ``bucket`` in the minute at ``window`` taken back: a try claimed before it
        was weighed that turned out right (``tutor.classroom.tries``)."""
        with self.engine.begin() as db:
            db.execute(
                class_rate.update()
                .where(
                    (class_rate.c.bucket == bucket)
                    & (class_rate.c.window_start == window)
                    & (class_rate.c.hits > 0)
                )
                .values(hits=class_rate.c.hits - 1)
            )

    # -- teacher keys --
    def claim_key_turn(
        self, session_id: int, guesser: str, now: datetime, locked_until: Callable[[int], datetime]
    ) -> tuple[int, datetime | None, str]:
        """Take ``guesser``'s turn to try a key on this session, before the key is weighed
        (``tutor.store.key_turns.claim_key_turn``: tries sent together take one turn); a right
        key then forgets the failures (``forget_wrong_keys``).

        Returns (the failures counted with this one, or 0 when refused; until when the guesser
        is locked, when refused; the session's key hash)."""
        return claim_key_turn(
            self.engine,
            class_key_attempts,
            _attempts(session_id, guesser),
            sa.select(class_sessions.c.key_hash).where(class_sessions.c.id == session_id),
            {"session_id": session_id, "guesser": guesser},
            now,
            locked_until,
        )

    def forget_wrong_keys(self, session_id: int, guesser: str) -> None:
        with self.engine.begin() as db:
            db.execute(class_key_attempts.delete().where(_attempts(session_id, guesser)))

    # -- the class's steps --
    def move_on(self, session_id: int, position: int) -> None:
        """Show the question after ``position``, only if the class is still on ``position``."""
        with self.engine.begin() as db:
            db.execute(
                class_sessions.update()
                .where(
                    (class_sessions.c.id == session_id)
                    & (class_sessions.c.current == position)
                    & class_sessions.c.finished_at.is_(None)
                )
                .values(current=position + 1, revealed=False)
            )

    def close(self, session_id: int, position: int) -> tuple[Record, list[str], int] | None:
        """Close question ``position`` for answers and read it with its answers and the number
        of students, in one transaction; None when the class is no longer on it."""
        with self.engine.begin() as db:
            closed = db.execute(
                class_sessions.update()
                .where((class_sessions.c.id == session_id) & (class_sessions.c.current == position))
                .values(revealed=True)
            ).rowcount
            if not closed:
                return None
            question = db.execute(_question_at(session_id, position)).one()
            actions = list(
                db.execute(
                    sa.select(class_answers.c.action).where(
                        class_answers.c.question_id == question.id
                    )
                ).scalars()
            )
            students = db.execute(
                sa.select(sa.func.count()).where(class_students.c.session_id == session_id)
            ).scalar_one()
        return question, actions, int(students)

    def finish(self, session_id: int, at: datetime, position: int | None = None) -> None:
        """End the session (while it is on ``position``, when given)."""
        where = (class_sessions.c.id == session_id) & class_sessions.c.finished_at.is_(None)
        if position is not None:
            where = where & (class_sessions.c.current == position)
        with self.engine.begin() as db:
            db.execute(class_sessions.update().where(where).values(finished_at=at, revealed=True))

    # -- questions --
    def question(self, session_id: int, position: int) -> Record | None:
        with self.engine.connect() as db:
            return db.execute(_question_at(session_id, position)).first()

    def questions(self, session_id: int) -> list[Record]:
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(class_questions)
                    .where(class_questions.c.session_id == session_id)
                    .order_by(class_questions.c.position)
                ).all()
            )

    # -- students --
    def counts(self, session_id: int) -> tuple[int, int]:
        """(answers to the question on screen, students seated)."""
        with self.engine.connect() as db:
            current = db.execute(
                sa.select(class_sessions.c.current).where(class_sessions.c.id == session_id)
            ).scalar_one()
            students = db.execute(
                sa.select(sa.func.count()).where(class_students.c.session_id == session_id)
            ).scalar_one()
            answered = db.execute(
                sa.select(sa.func.count())
                .select_from(class_answers.join(class_questions))
                .where(
                    (class_questions.c.session_id == session_id)
                    & (class_questions.c.position == current)
                )
            ).scalar_one()
        return int(answered), int(students)

    def seats(self, session_id: int) -> int:
        with self.engine.connect() as db:
            return int(
                db.execute(
                    sa.select(sa.func.count()).where(class_students.c.session_id == session_id)
                ).scalar_one()
            )

    def nicknames(self, session_id: int) -> list[str]:
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(class_students.c.nickname)
                    .where(class_students.c.session_id == session_id)
                    .order_by(class_students.c.joined_at, class_students.c.id)
                ).scalars()
            )

    def roster(self, session_id: int) -> list[Record]:
        """Every seat in joining order: nickname, joined_at, reconnections, answered."""
        answered = (
            sa.select(sa.func.count())
            .where(class_answers.c.student_id == class_students.c.id)
            .scalar_subquery()
        )
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(
                        class_students.c.id,
                        class_students.c.nickname,
                        class_students.c.joined_at,
                        class_students.c.reconnections,
                        answered.label("answered"),
                    )
                    .where(class_students.c.session_id == session_id)
                    .order_by(class_students.c.joined_at, class_students.c.id)
                ).all()
            )

    def remove_students(self, session_id: int, nicknames: Sequence[str]) -> list[str]:
        """Delete the seats of these nicknames in the session, with their answers, in one
        transaction; the nicknames removed (those still seated), in joining order. Answers are
        deleted explicitly rather than by cascade (a SQLite file opened without foreign keys)."""
        wanted = sorted(set(nicknames))
        if not wanted:
            return []
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(class_students.c.id, class_students.c.nickname)
                .where(
                    (class_students.c.session_id == session_id)
                    & class_students.c.nickname.in_(wanted)
                )
                .order_by(class_students.c.joined_at, class_students.c.id)
            ).all()
            ids = [int(row.id) for row in rows]
            if ids:
                db.execute(class_answers.delete().where(class_answers.c.student_id.in_(ids)))
                db.execute(class_students.delete().where(class_students.c.id.in_(ids)))
        return [str(row.nickname) for row in rows]

    def remove_where(
        self,
        session_id: int,
        *,
        joined_since: datetime | None = None,
        unanswered_at: int | None = None,
    ) -> list[str]:
        """Delete, in one transaction, the seats of the session that joined after
        ``joined_since`` and/or hold no answer (to the question at position ``unanswered_at``;
        to any question when it is -1, the lobby), with their answers; the nicknames removed,
        in joining order. What the teacher's one click sends away: a flood of names that came
        in the last seconds, or every phone that is not playing."""
        where = class_students.c.session_id == session_id
        if joined_since is not None:
            where = where & (class_students.c.joined_at > joined_since)
        if unanswered_at is not None:
            answered = sa.select(class_answers.c.student_id).join(class_questions)
            if unanswered_at >= 0:
                answered = answered.where(
                    (class_questions.c.session_id == session_id)
                    & (class_questions.c.position == unanswered_at)
                )
            else:
                answered = answered.where(class_questions.c.session_id == session_id)
            where = where & class_students.c.id.not_in(answered)
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(class_students.c.id, class_students.c.nickname)
                .where(where)
                .order_by(class_students.c.joined_at, class_students.c.id)
            ).all()
            ids = [int(row.id) for row in rows]
            if ids:
                db.execute(class_answers.delete().where(class_answers.c.student_id.in_(ids)))
                db.execute(class_students.delete().where(class_students.c.id.in_(ids)))
        return [str(row.nickname) for row in rows]

    def set_locked(self, session_id: int, locked: bool) -> None:
        """Lock or unlock the class: one ``UPDATE`` of its row, which waits on PostgreSQL for the
        joins holding the row (``insert_student``) and makes the later ones see it."""
        with self.engine.begin() as db:
            db.execute(
                class_sessions.update()
                .where(class_sessions.c.id == session_id)
                .values(locked=locked)
            )

    def insert_student(self, student: Mapping[str, Any], *, most: int) -> int | None:
        """A new seat, made only if its class is not locked and seats fewer than ``most`` as the
        statement runs; its id, or None when the class is locked or full. ``IntegrityError``
        when the folded nickname or the learner is already seated in the session.

        One transaction: the session's row held ``FOR UPDATE`` on PostgreSQL (the seats of one
        class are made one after another, so two joins cannot both take the last seat; a lock
        being set waits for this seat, or is seen here once committed), then an
        ``INSERT ... SELECT`` whose ``WHERE`` reads the lock and counts the seats (on SQLite,
        one writer runs it wholly before or after any other). Either way a seat is never made
        once the lock is stored, and a class never seats more than ``most``."""
        session_id = student["session_id"]
        columns = list(student)
        seated = (
            sa.select(sa.func.count())
            .where(class_students.c.session_id == session_id)
            .scalar_subquery()
        )
        open_class = sa.select(
            *(
                sa.literal(student[name], class_students.c[name].type).label(name)
                for name in columns
            )
        ).where(
            sa.exists().where(
                (class_sessions.c.id == session_id) & sa.not_(class_sessions.c.locked)
            )
            & (seated < most)
        )
        with self.engine.begin() as db:
            db.execute(
                sa.select(class_sessions.c.id)
                .where(class_sessions.c.id == session_id)
                .with_for_update()
            )
            inserted = db.execute(
                class_students.insert()
                .from_select(columns, open_class)
                .returning(class_students.c.id)
            ).scalar_one_or_none()
        return None if inserted is None else int(inserted)

    def reseat(self, session_id: int, learner_hash: str, token_hash: str) -> Record | None:
        """Give the learner's seat in the session a new token hash and count a reconnection;
        the seat's id and nickname, or None when the learner holds no seat there."""
        seat = (class_students.c.session_id == session_id) & (
            class_students.c.learner_hash == learner_hash
        )
        # Most pages that ask hold no seat: every phone that opens the join address asks, and a
        # class's phones open it together. A read says so without a write transaction, which
        # waits for SQLite's one writer (the joins of the same class are writing).
        with self.engine.connect() as db:
            if db.execute(sa.select(class_students.c.id).where(seat)).first() is None:
                return None
        with self.engine.begin() as db:
            updated = db.execute(
                class_students.update()
                .where(seat)
                .values(token_hash=token_hash, reconnections=class_students.c.reconnections + 1)
            ).rowcount
            if not updated:
                return None
            return db.execute(
                sa.select(class_students.c.id, class_students.c.nickname).where(seat)
            ).one()

    def seat_tokens(self, session_id: int) -> dict[int, str]:
        """Each seat's current token hash, by student id: how the phones' polls check that a
        seat is still theirs, one read per class (``tutor.classroom.ticks``)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(class_students.c.id, class_students.c.token_hash).where(
                    class_students.c.session_id == session_id
                )
            ).all()
        return {int(row.id): str(row.token_hash) for row in rows}

    # -- answers --
    def answer_of(self, student_id: int, position: int) -> str | None:
        with self.engine.connect() as db:
            action = db.execute(
                sa.select(class_answers.c.action)
                .select_from(class_answers.join(class_questions))
                .where(
                    (class_answers.c.student_id == student_id)
                    & (class_questions.c.position == position)
                )
            ).scalar_one_or_none()
        return None if action is None else str(action)

    def answers_at(self, session_id: int, position: int) -> dict[int, str]:
        """Every answer to question ``position`` of the session, by student id: one read that
        every phone of the class shares (``tutor.classroom.ticks``)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(class_answers.c.student_id, class_answers.c.action)
                .select_from(class_answers.join(class_questions))
                .where(
                    (class_questions.c.session_id == session_id)
                    & (class_questions.c.position == position)
                )
            ).all()
        return {int(row.student_id): str(row.action) for row in rows}

    def answers(self, session_id: int) -> list[Record]:
        """Every answer of the session: student_id, position, action."""
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(
                        class_answers.c.student_id,
                        class_questions.c.position,
                        class_answers.c.action,
                    )
                    .select_from(class_answers.join(class_questions))
                    .where(class_questions.c.session_id == session_id)
                ).all()
            )

    def store_answer(
        self, token_hash: str, action: str, at: datetime, check: Callable[[Record | None], None]
    ) -> bool:
        """Store the answer of the student holding ``token_hash`` to the question on screen.

        One transaction: the student's row with their session's state and the question on
        screen (``check`` raises to refuse it: it runs inside the transaction, on PostgreSQL
        with the session row held ``FOR SHARE`` so that a reveal waits for this answer and
        counts it, or is seen here and refuses it), then the insert, made only if the question
        is still open as the statement runs (SQLite has no ``FOR SHARE``, but its one writer
        runs this before or after a reveal, never between the reveal's update and its count).
        False when the question closed meanwhile; ``IntegrityError`` for a second answer."""
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
                    class_questions.c.own_rules,
                    class_questions.c.texts,
                    class_questions.c.offered,
                    class_questions.c.explanations,
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
                .where(class_students.c.token_hash == token_hash)
                .with_for_update(read=True, of=class_sessions)
            ).first()
            check(row)  # refuses a missing row too
            assert row is not None
            still_open = sa.select(
                sa.literal(row.question_id, sa.Integer),
                sa.literal(row.id, sa.Integer),
                sa.literal(action, sa.String),
                sa.literal(at, UTCDateTime),
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
        return bool(stored)


def _attempts(session_id: int, guesser: str) -> sa.ColumnElement[bool]:
    return (class_key_attempts.c.session_id == session_id) & (
        class_key_attempts.c.guesser == guesser
    )


def _with_question_count() -> sa.Select[Any]:
    """A session's row with the number of its questions."""
    count = (
        sa.select(sa.func.count())
        .where(class_questions.c.session_id == class_sessions.c.id)
        .scalar_subquery()
    )
    return sa.select(class_sessions, count.label("question_count"))


def _question_at(session_id: int, position: int) -> sa.Select[Any]:
    return sa.select(class_questions).where(
        (class_questions.c.session_id == session_id) & (class_questions.c.position == position)
    )
