"""Learners' progress, stored in a real database through SQLAlchemy.

By default a SQLite file (``data/tutor.sqlite3`` under the working directory, or the folder named
by ``TUTOR_DATA_DIR``), created on first use; any SQLAlchemy URL (PostgreSQL for a school server)
through ``TUTOR_DATABASE_URL``. The schema is versioned with Alembic migrations
(``tutor/migrations``), applied when a store opens, so an old database file is brought up to date
rather than rebuilt.

A learner is a nickname on this device: no password and no personal data. Everything stored about
a learner can be exported (``export``) and deleted (``delete_learner``).

>>> import tempfile, pathlib
>>> store = Store(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'doc.sqlite3'}")
>>> ana = store.learner("Ana")
>>> store.learner("Ana") == ana
True
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from tutor.srs import Grade, Review, next_due

metadata = sa.MetaData()


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """Timestamps stored as UTC and always read back timezone-aware (SQLite forgets the zone)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


learners = sa.Table(
    "learners",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("nickname", sa.String(24), nullable=False, unique=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
)
answers = sa.Table(
    "answers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("answered_at", UTCDateTime, nullable=False),
    sa.Column("category", sa.String(16), nullable=False),
    sa.Column("item", sa.String(64), nullable=False),
    sa.Column("cards", sa.String(48), nullable=False),
    sa.Column("dealer_up", sa.String(4), nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("chosen", sa.String(24), nullable=False),
    sa.Column("best", sa.String(24), nullable=False),
    sa.Column("verdict", sa.String(12), nullable=False),  # the answer's Grade
    sa.Column("ev_loss", sa.Float, nullable=False),
)
reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("item", sa.String(64), primary_key=True),
    sa.Column("category", sa.String(16), nullable=False),
    sa.Column("box", sa.Integer, nullable=False),
    sa.Column("due_at", UTCDateTime, nullable=False, index=True),
    sa.Column("seen", sa.Integer, nullable=False),
    sa.Column("missed", sa.Integer, nullable=False),
)

# -- class mode (tutor.classroom): a teacher's live quiz --
class_sessions = sa.Table(
    "class_sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(8), nullable=False, unique=True),
    sa.Column("title", sa.String(80), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("key_hash", sa.String(200), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Column("current", sa.Integer, nullable=False),
    sa.Column("revealed", sa.Boolean, nullable=False),
    sa.Column("failed_keys", sa.Integer, nullable=False),
    sa.Column("locked_until", UTCDateTime, nullable=True),
)
class_questions = sa.Table(
    "class_questions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "session_id",
        sa.Integer,
        sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("cards", sa.String(48), nullable=False),
    sa.Column("dealer_up", sa.String(4), nullable=False),
    sa.Column("insurance", sa.Boolean, nullable=False),
    sa.UniqueConstraint("session_id", "position"),
)
class_students = sa.Table(
    "class_students",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "session_id",
        sa.Integer,
        sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("nickname", sa.String(24), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("joined_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("session_id", "nickname"),
)
class_answers = sa.Table(
    "class_answers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "question_id",
        sa.Integer,
        sa.ForeignKey("class_questions.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column(
        "student_id",
        sa.Integer,
        sa.ForeignKey("class_students.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("action", sa.String(24), nullable=False),
    sa.Column("answered_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("question_id", "student_id"),
)

NICKNAME_MAX = 24
_NICKNAME = re.compile(r"^[\w .'-]+$")


class InvalidNicknameError(ValueError):
    """A nickname that is empty, too long, or made of characters a name does not need."""


def clean_nickname(raw: str) -> str:
    """A nickname as stored: trimmed, NFC-normalised, 1 to 24 letters, digits, spaces, . ' -"""
    nickname = unicodedata.normalize("NFC", raw).strip()
    if not nickname:
        raise InvalidNicknameError("a nickname cannot be empty")
    if len(nickname) > NICKNAME_MAX:
        raise InvalidNicknameError(f"a nickname has at most {NICKNAME_MAX} characters")
    if not _NICKNAME.match(nickname):
        raise InvalidNicknameError(
            "a nickname uses letters, digits, spaces, dots, hyphens and apostrophes only"
        )
    return nickname


@dataclass(frozen=True)
class Learner:
    id: int
    nickname: str


@dataclass(frozen=True)
class Answer:
    """One judged answer, as stored."""

    category: str
    item: str
    cards: str
    dealer_up: str
    rules: str
    chosen: str
    best: str
    grade: Grade
    ev_loss: float
    answered_at: datetime


def default_url() -> str:
    """``TUTOR_DATABASE_URL``, or a SQLite file in ``TUTOR_DATA_DIR`` (default ``./data``)."""
    url = os.environ.get("TUTOR_DATABASE_URL")
    if url:
        return url
    folder = Path(os.environ.get("TUTOR_DATA_DIR", "data"))
    return f"sqlite:///{folder / 'tutor.sqlite3'}"


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")  # so deleting a learner deletes their data
            cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for a writer
            # With WAL, NORMAL syncs at checkpoints rather than at every commit: a power cut can
            # lose the last answers, never corrupt the file. A class's burst of answers needs it.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    # A class answers at once: enough pooled connections that 40 students do not queue for one.
    return sa.create_engine(url, pool_pre_ping=True, pool_size=20, max_overflow=30)


def migrate(connection: Connection) -> None:
    """Bring the schema up to the newest migration (creating it on an empty database)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Store:
    """The learners' progress in one database. Safe to share between threads (one engine)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = _make_engine(self.url)
        with self.engine.begin() as connection:
            migrate(connection)

    def close(self) -> None:
        self.engine.dispose()

    # -- learners --
    def learner(self, nickname: str) -> Learner:
        """The learner with this nickname on this device, created on first use."""
        name = clean_nickname(nickname)
        with self.engine.begin() as db:
            row = db.execute(sa.select(learners.c.id).where(learners.c.nickname == name)).first()
            if row is not None:
                return Learner(row.id, name)
        try:
            with self.engine.begin() as db:
                new_id = db.execute(
                    learners.insert().values(nickname=name, created_at=datetime.now(UTC))
                ).inserted_primary_key
                assert new_id is not None
                return Learner(int(new_id[0]), name)
        except sa.exc.IntegrityError:
            # Another session created the same nickname between our read and our write.
            return self.learner(name)

    def learners(self) -> list[Learner]:
        with self.engine.connect() as db:
            rows = db.execute(sa.select(learners.c.id, learners.c.nickname).order_by("nickname"))
            return [Learner(row.id, row.nickname) for row in rows]

    def delete_learner(self, learner: Learner) -> None:
        """Forget a learner and everything stored about them."""
        with self.engine.begin() as db:
            db.execute(answers.delete().where(answers.c.learner_id == learner.id))
            db.execute(reviews.delete().where(reviews.c.learner_id == learner.id))
            db.execute(learners.delete().where(learners.c.id == learner.id))

    # -- answers and reviews --
    def record(self, learner: Learner, answer: Answer, review: Review) -> None:
        """Store an answer and the item's new schedule together (one transaction)."""
        with self.engine.begin() as db:
            db.execute(answers.insert().values(learner_id=learner.id, **_answer_row(answer)))
            key = (reviews.c.learner_id == learner.id) & (reviews.c.item == review.item)
            values = {
                "category": review.category,
                "box": review.box,
                "due_at": review.due_at,
                "seen": review.seen,
                "missed": review.missed,
            }
            updated = db.execute(reviews.update().where(key).values(**values)).rowcount
            if not updated:
                db.execute(
                    reviews.insert().values(learner_id=learner.id, item=review.item, **values)
                )

    def review(self, learner: Learner, item: str) -> Review | None:
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(reviews).where(
                    (reviews.c.learner_id == learner.id) & (reviews.c.item == item)
                )
            ).first()
        return None if row is None else _review(row._mapping)

    def reviews(self, learner: Learner, categories: Iterable[str] | None = None) -> list[Review]:
        query = sa.select(reviews).where(reviews.c.learner_id == learner.id)
        if categories is not None:
            query = query.where(reviews.c.category.in_(list(categories)))
        with self.engine.connect() as db:
            return [_review(row._mapping) for row in db.execute(query)]

    def due(
        self, learner: Learner, now: datetime, categories: Iterable[str] | None = None
    ) -> list[Review]:
        """Items due at ``now``, the least known first."""
        return next_due(self.reviews(learner, categories), now)

    def answers(self, learner: Learner) -> list[Answer]:
        query = (
            sa.select(answers)
            .where(answers.c.learner_id == learner.id)
            .order_by(answers.c.answered_at, answers.c.id)
        )
        with self.engine.connect() as db:
            return [_answer(row._mapping) for row in db.execute(query)]

    def export(self, learner: Learner) -> dict[str, Any]:
        """Everything stored about a learner, as plain JSON-ready values."""

        def plain(record: Mapping[str, Any]) -> dict[str, Any]:
            out = {}
            for key, value in record.items():
                if isinstance(value, datetime):
                    value = value.isoformat()
                elif isinstance(value, Grade):
                    value = value.value
                out[key] = value
            return out

        return {
            "nickname": learner.nickname,
            "answers": [plain(asdict(answer)) for answer in self.answers(learner)],
            "reviews": [plain(asdict(review)) for review in self.reviews(learner)],
        }


def _answer_row(answer: Answer) -> dict[str, Any]:
    row = asdict(answer)
    row["verdict"] = row.pop("grade").value
    return row


def _answer(row: sa.RowMapping) -> Answer:
    return Answer(
        category=row["category"],
        item=row["item"],
        cards=row["cards"],
        dealer_up=row["dealer_up"],
        rules=row["rules"],
        chosen=row["chosen"],
        best=row["best"],
        grade=Grade(row["verdict"]),
        ev_loss=row["ev_loss"],
        answered_at=row["answered_at"],
    )


def _review(row: sa.RowMapping) -> Review:
    return Review(
        item=row["item"],
        category=row["category"],
        box=row["box"],
        due_at=row["due_at"],
        seen=row["seen"],
        missed=row["missed"],
    )
