"""Learners' progress, stored in a real database through SQLAlchemy.

Where the data lives: on the server that runs the app, in its database. By default that is a
SQLite file (``data/tutor.sqlite3`` under the working directory, or the folder named by
``TUTOR_DATA_DIR``), created on first use; any SQLAlchemy URL (PostgreSQL for a school server)
through ``TUTOR_DATABASE_URL``. Nothing is stored in the learner's browser but their token. The
schema is versioned with Alembic migrations (``tutor/migrations``), applied when a store opens, so
an old database file is brought up to date rather than rebuilt.

How long: until the learner erases it (``delete_learner``, the "My data" page) or the server's
administrator deletes the database file (or the database). Nothing expires on its own.

Who a learner is: a private random token held by their browser (``tutor.identity``), found here
by its SHA-256 only (``learner_for_token``); no password, no e-mail, no personal data. The
nickname is an optional display name, never the key to anything: two learners may share one, and
typing someone's nickname reaches none of their data. Everything stored about a learner can be
exported (``export``) and deleted (``delete_learner``), and those two touch that learner's rows
only.

What is kept: quiz answers and their review schedule (``record``), and each lesson's progress
(``save_lesson``: the seed its random deals were drawn from, the step reached, the steps seen) with
one record per answered step (``save_lesson_step``), enough to rebuild a lesson run by replaying
it; and the learner's settings (``save_settings``: the table, the language, the grading
reference), so that they follow the code to a reload, a new visit or another device.

>>> import tempfile, pathlib
>>> from tutor.identity import new_token
>>> store = Store(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'doc.sqlite3'}")
>>> token = new_token()
>>> ana = store.learner_for_token(token)
>>> store.learner_for_token(token) == ana, ana.nickname
(True, None)
>>> store.set_nickname(ana, "Ana").nickname
'Ana'
>>> store.learner_for_token(new_token(), create=False) is None
True
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from tutor.identity import parse_code, token_hash
from tutor.refusal import Refusal, RefusedError
from tutor.srs import Grade, Review, next_due
from tutor.store.base import FOLDED_MAX as FOLDED_MAX
from tutor.store.base import NICKNAME_MAX as NICKNAME_MAX
from tutor.store.base import UTCDateTime as UTCDateTime
from tutor.store.base import metadata as metadata
from tutor.store.classes import ClassRecords as ClassRecords
from tutor.store.classes import class_answers as class_answers
from tutor.store.classes import class_key_attempts as class_key_attempts
from tutor.store.classes import class_questions as class_questions
from tutor.store.classes import class_rate as class_rate
from tutor.store.classes import class_sessions as class_sessions
from tutor.store.classes import class_students as class_students

#: Every column that may hold a learner's token hash (``tutor.identity.token_hash``): what
#: ``Store.delete_learner`` clears, and what its test reads back. ``class_rate.bucket`` holds it
#: after a prefix (``RATE_KINDS``).
LEARNER_HASH_COLUMNS: tuple[str, ...] = (
    "learners.token_hash",
    "class_sessions.creator_hash",
    "class_students.learner_hash",
    "class_key_attempts.guesser",
    "class_rate.bucket",
)
#: The rate buckets keyed by a browser's learner hash (``tutor.classroom.session``).
RATE_KINDS: tuple[str, ...] = ("create-browser", "join-browser")

LESSON_ID_MAX = 64
#: A lesson's steps are counted in tens; a bound keeps a forged request from storing millions.
STEPS_MAX = 1000
#: The JSON of one step's record or of a lesson's seen steps, in UTF-8 bytes.
JSON_MAX = 4096
#: A language code or a grading reference's name (``fr``, ``exact``): short words only.
SETTING_MAX = 8


learners = sa.Table(
    "learners",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    # A display name, None until the learner gives one; never a key (two learners may share it).
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=True),
    # SHA-256 of the learner's token: how a learner is found. None only on rows made before
    # migration 0003, when a nickname was the key (see ``Store.learner``).
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("token_hash", name="uq_learners_token_hash"),
)
#: Only the deprecated nickname-keyed learners (no token) keep unique nicknames, so that two
#: racing first visits of ``Store.learner`` still make one row.
sa.Index(
    "ix_learners_legacy_nickname",
    learners.c.nickname,
    unique=True,
    sqlite_where=learners.c.token_hash.is_(None),
    postgresql_where=learners.c.token_hash.is_(None),
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
    # Where the answer was given: the quiz, the practice table, a lesson's deal (``ORIGINS``).
    sa.Column("origin", sa.String(8), nullable=False, server_default="quiz"),
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
# -- lessons: one row per learner and lesson, one per step the learner acted on --
lesson_progress = sa.Table(
    "lesson_progress",
    metadata,
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("lesson_id", sa.String(LESSON_ID_MAX), primary_key=True),
    # The seed the lesson's random deals were drawn from: replaying it deals the same cards.
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("seen", sa.Text, nullable=False),  # JSON list of step indexes, ascending
    sa.Column("completed", sa.Integer, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)
lesson_steps = sa.Table(
    "lesson_steps",
    metadata,
    sa.Column("learner_id", sa.Integer, primary_key=True),
    sa.Column("lesson_id", sa.String(LESSON_ID_MAX), primary_key=True),
    sa.Column("step_index", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # JSON object, shape by kind (``StepRecord``)
    sa.Column("done", sa.Boolean, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    # A step belongs to a lesson run: without its seed it could not be replayed.
    sa.ForeignKeyConstraint(
        ["learner_id", "lesson_id"],
        ["lesson_progress.learner_id", "lesson_progress.lesson_id"],
        ondelete="CASCADE",
        name="fk_lesson_steps_progress",
    ),
)

# -- a learner's settings: one row per learner, written at each change, read at each visit --
learner_settings = sa.Table(
    "learner_settings",
    metadata,
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("language", sa.String(SETTING_MAX), nullable=False),
    sa.Column("reference", sa.String(SETTING_MAX), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),  # JSON object (``Settings.rules``)
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

_NICKNAME = re.compile(r"^[\w .'-]+$")
#: Letters that draw as nothing yet count as letters (``\w``): Hangul fillers, the Khmer
#: inherent vowels, the combining grapheme joiner and variation selectors. Format characters
#: (zero-width spaces, joiners, direction marks: category Cf) are caught by their category.
_INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
    "\u2800\ufe00\ufe01\ufe02\ufe03\ufe04\ufe05\ufe06\ufe07\ufe08\ufe09\ufe0a"
    "\ufe0b\ufe0c\ufe0d\ufe0e\ufe0f"
)
#: Alphabets whose letters look alike (Latin a, Cyrillic а, Greek α): one name mixing them is a
#: look-alike of another name, so a nickname uses one of them only.
_CONFUSABLE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"})

NicknameProblem = Literal[
    "empty", "too-long", "invisible", "compatibility", "characters", "mixed-scripts"
]


class InvalidNicknameError(RefusedError, ValueError):
    """A nickname that is empty, too long, or made of characters a name does not need.

    ``code`` says why, for the page to say it in the learner's language: ``empty``,
    ``too-long``, ``invisible`` (a character that draws as nothing), ``compatibility``
    (full-width or styled letters, such as ｆｕｌｌ or 𝐛𝐨𝐥𝐝), ``characters`` (anything but letters,
    digits, spaces, dots, hyphens and apostrophes), ``mixed-scripts`` (Latin mixed with Greek or
    Cyrillic letters: a look-alike of another name).
    """

    codes = get_args(NicknameProblem)

    def __init__(
        self, message: str, code: NicknameProblem = "characters", **params: object
    ) -> None:
        super().__init__(Refusal(code, params), message)


def _script(char: str) -> str | None:
    """The alphabet of a letter among the look-alike ones (``_CONFUSABLE_SCRIPTS``), else None."""
    if not char.isalpha():
        return None
    first = unicodedata.name(char, "").split(" ", 1)[0]
    return first if first in _CONFUSABLE_SCRIPTS else None


def clean_nickname(raw: str) -> str:
    """A nickname as stored: trimmed, NFC-normalised, 1 to 24 letters, digits, spaces, . ' -

    Refused (``InvalidNicknameError`` with its ``code``): invisible characters, full-width or
    styled letters, and a mix of look-alike alphabets, because on a projected roster each would
    let one student pass for another (``Ana`` with a Cyrillic ``А``) or be nobody at all.

    >>> clean_nickname(" Zoé ")
    'Zoé'
    >>> try:
    ...     clean_nickname("\u0410na")  # a Cyrillic A before Latin letters
    ... except InvalidNicknameError as error:
    ...     error.code
    'mixed-scripts'
    """
    nickname = unicodedata.normalize("NFC", raw).strip()
    if not nickname:
        raise InvalidNicknameError("a nickname cannot be empty", "empty")
    if len(nickname) > NICKNAME_MAX:
        raise InvalidNicknameError(
            f"a nickname has at most {NICKNAME_MAX} characters", "too-long", most=NICKNAME_MAX
        )
    if any(char in _INVISIBLE or unicodedata.category(char) == "Cf" for char in nickname):
        raise InvalidNicknameError("a nickname cannot hold invisible characters", "invisible")
    if unicodedata.normalize("NFKC", nickname) != nickname:
        raise InvalidNicknameError(
            "a nickname uses ordinary letters, not full-width or styled ones", "compatibility"
        )
    if not _NICKNAME.match(nickname):
        raise InvalidNicknameError(
            "a nickname uses letters, digits, spaces, dots, hyphens and apostrophes only"
        )
    scripts = {script for script in map(_script, nickname) if script is not None}
    if len(scripts) > 1:
        raise InvalidNicknameError(
            f"a nickname uses one alphabet, not a mix of {' and '.join(sorted(scripts))}",
            "mixed-scripts",
            scripts=tuple(sorted(scripts)),
        )
    return nickname


class UnknownLearnerError(RefusedError, LookupError):
    """A learner who is not (or no longer) in the database: erased in another tab, say."""

    codes = ("unknown-learner",)

    def __init__(self, message: str) -> None:
        super().__init__(Refusal("unknown-learner"), message)


@dataclass(frozen=True)
class Learner:
    """A handle on one learner's rows. Only the server makes one, from the learner's token: the
    browser holds the token, never an id, so nothing it sends can name another learner."""

    id: int
    #: The display name, None until the learner gives one.
    nickname: str | None


#: Where a judged answer comes from: a quiz question, a hand at the practice table, a lesson.
Origin = Literal["quiz", "table", "lesson"]
ORIGINS: frozenset[str] = frozenset(get_args(Origin))

StepKind = Literal["ask", "deal", "drill"]
STEP_KINDS: frozenset[str] = frozenset(get_args(StepKind))


@dataclass(frozen=True)
class LessonProgress:
    """A lesson as the course list shows it: the step reached and how many steps are done."""

    step: int
    completed: int
    updated_at: datetime


@dataclass(frozen=True)
class StepRecord:
    """What the learner did on one step, enough to show it again as answered.

    ``data`` by ``kind`` (the pages write it; the store only bounds its size):

    - ``ask``: ``{"answer": str, "right": bool}``, the answer given and whether it was right;
    - ``deal``: ``{"actions": [str, ...], "net": str}``, the action values played in order and
      the net result in chips (a string, so that halves stay exact);
    - ``drill``: ``{"answers": [...]}``, the answers given in order.
    """

    kind: StepKind
    data: Mapping[str, Any]
    done: bool


@dataclass(frozen=True)
class LessonRecord:
    """Everything needed to rebuild a lesson run by replay: the seed of its deals, the step
    reached, the steps seen, and each step's record by index."""

    seed: int
    step: int
    seen: frozenset[int]
    completed: int
    steps: Mapping[int, StepRecord]
    updated_at: datetime


@dataclass(frozen=True)
class Settings:
    """What a learner chose in Settings, kept with their code so that a reload, a new visit or
    another device finds it again.

    ``rules`` is a JSON object the pages write and read (``{"preset": name}`` or every option of
    an edited table, ``TableRules.as_dict``); the store only bounds its size, as a step's data.
    """

    language: str
    reference: str
    rules: Mapping[str, Any]


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
    #: Where it was answered (``ORIGINS``): the quiz unless said otherwise.
    origin: Origin = "quiz"


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
    """Bring the schema up to the newest migration (creating it on an empty database).

    ``connection`` must not be inside a transaction: on SQLite, foreign keys are switched off for
    the migration and checked after it. SQLite changes a constraint by copying the table and
    dropping the old one, and a ``DROP TABLE`` with foreign keys on deletes the rows that
    reference it (``ON DELETE CASCADE``): every answer of every learner would go with it.
    """
    from alembic import command
    from alembic.config import Config
    from alembic.migration import MigrationContext

    config = Config()
    config.set_main_option(
        "script_location", str(Path(__file__).resolve().parent.parent / "migrations")
    )
    config.attributes["connection"] = connection
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        if connection.exec_driver_sql("PRAGMA foreign_keys").scalar():
            # Inside a transaction SQLite ignores the pragma; migrating then could lose data.
            raise RuntimeError("cannot switch SQLite's foreign keys off to migrate")
        connection.commit()
    try:
        before = MigrationContext.configure(connection).get_current_revision()
        command.upgrade(config, "head")
        changed = MigrationContext.configure(connection).get_current_revision() != before
        if sqlite and changed:  # the check reads every row: only after a migration ran
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
            if broken is not None:
                raise RuntimeError(f"the migration broke a foreign key: {tuple(broken)}")
        connection.commit()
    finally:
        if sqlite:
            connection.rollback()  # a no-op after the commit; ends a failed migration's work
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def _json(value: object, what: str) -> str:
    """``value`` as compact JSON, refused when it is not JSON or larger than ``JSON_MAX``."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must be plain JSON values: {error}") from None
    size = len(text.encode())
    if size > JSON_MAX:
        raise ValueError(f"{what} takes {size} bytes as JSON, at most {JSON_MAX}")
    return text


def _count(value: int, what: str, most: int = STEPS_MAX) -> int:
    """A step index or count: an ``int`` from 0 to ``most``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ValueError(f"{what} must be an integer from 0 to {most}, not {value!r}")
    return value


def _lesson_id(lesson_id: str) -> str:
    if not isinstance(lesson_id, str) or not 1 <= len(lesson_id) <= LESSON_ID_MAX:
        raise ValueError(f"a lesson id has 1 to {LESSON_ID_MAX} characters, not {lesson_id!r}")
    return lesson_id


class Store:
    """The learners' progress in one database. Safe to share between threads (one engine)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = _make_engine(self.url)
        with self.engine.connect() as connection:
            migrate(connection)
        #: Class mode's statements (``tutor.store.classes``), on the same engine.
        self.classes = ClassRecords(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- learners --
    def learner_for_token(self, token: str, *, create: bool = True) -> Learner | None:
        """The learner whose browser holds ``token`` (or who typed it as a recovery code),
        created on first use unless ``create`` is false (then None for an unknown token).

        The token is read with ``parse_code`` (case, hyphens and look-alikes forgiven), so a
        malformed one raises ``InvalidRecoveryCodeError`` (a ``ValueError``). Only its hash is
        looked up or stored. Two tabs making the same learner at once make one row.
        """
        hashed = token_hash(parse_code(token))
        found = self._learner_where(learners.c.token_hash == hashed)
        if found is not None or not create:
            return found
        try:
            with self.engine.begin() as db:
                new_id = db.execute(
                    learners.insert().values(token_hash=hashed, created_at=datetime.now(UTC))
                ).inserted_primary_key
                assert new_id is not None
                return Learner(int(new_id[0]), None)
        except sa.exc.IntegrityError:
            # Another request with the same token created the learner between our read and write.
            found = self._learner_where(learners.c.token_hash == hashed)
            if found is None:  # pragma: no cover - the unique token is the only constraint
                raise
            return found

    def set_nickname(self, learner: Learner, nickname: str | None) -> Learner:
        """Give the learner a display name (``clean_nickname``'s rules), or none with None.

        Any name is allowed even if another learner uses it: the name only displays.
        """
        name = None if nickname is None else clean_nickname(nickname)
        with self.engine.begin() as db:
            updated = db.execute(
                learners.update().where(learners.c.id == learner.id).values(nickname=name)
            ).rowcount
        if not updated:
            raise UnknownLearnerError("this learner's data has been erased")
        return Learner(learner.id, name)

    def _learner_where(self, condition: sa.ColumnElement[bool]) -> Learner | None:
        with self.engine.connect() as db:
            row = db.execute(sa.select(learners.c.id, learners.c.nickname).where(condition)).first()
        return None if row is None else Learner(row.id, row.nickname)

    def learners(self) -> list[Learner]:
        """Every learner, named ones by name first (the administrator's view)."""
        query = sa.select(learners.c.id, learners.c.nickname).order_by(
            learners.c.nickname.is_(None), learners.c.nickname, learners.c.id
        )
        with self.engine.connect() as db:
            return [Learner(row.id, row.nickname) for row in db.execute(query)]

    def delete_learner(self, learner: Learner) -> None:
        """Forget a learner and everything stored about them, in one transaction.

        Their class seats stay in their teachers' results under the nickname typed in class, but
        nothing links those seats to this learner any more. Erasing means gone: the token's hash
        leaves every table that holds it (``LEARNER_HASH_COLUMNS``), so the old code finds
        nothing: not the seats, not the classes this browser created (a class stays, opened with
        its code and key as any other), not the wrong-key counts or the rate buckets it left.
        """
        with self.engine.begin() as db:
            hashed = db.execute(
                sa.select(learners.c.token_hash).where(learners.c.id == learner.id)
            ).scalar_one_or_none()
            if hashed is not None:
                db.execute(
                    class_students.update()
                    .where(class_students.c.learner_hash == hashed)
                    .values(learner_hash=None)
                )
                db.execute(
                    class_sessions.update()
                    .where(class_sessions.c.creator_hash == hashed)
                    .values(creator_hash=None)
                )
                db.execute(
                    class_key_attempts.delete().where(class_key_attempts.c.guesser == hashed)
                )
                db.execute(
                    class_rate.delete().where(
                        class_rate.c.bucket.in_([f"{kind}:{hashed}" for kind in RATE_KINDS])
                    )
                )
            db.execute(lesson_steps.delete().where(lesson_steps.c.learner_id == learner.id))
            db.execute(lesson_progress.delete().where(lesson_progress.c.learner_id == learner.id))
            db.execute(answers.delete().where(answers.c.learner_id == learner.id))
            db.execute(reviews.delete().where(reviews.c.learner_id == learner.id))
            db.execute(
                learner_settings.delete().where(learner_settings.c.learner_id == learner.id)
            )
            db.execute(learners.delete().where(learners.c.id == learner.id))

    # -- settings --
    def save_settings(self, learner: Learner, settings: Settings) -> None:
        """Keep the learner's settings (created or replaced), at each change."""
        for what, value in (("a language", settings.language), ("a reference", settings.reference)):
            if not isinstance(value, str) or not 1 <= len(value) <= SETTING_MAX:
                raise ValueError(f"{what} is a word of 1 to {SETTING_MAX} letters, not {value!r}")
        if not isinstance(settings.rules, Mapping):
            raise ValueError("the settings' rules are a JSON object (a mapping)")
        self._upsert(
            learner_settings,
            {"learner_id": learner.id},
            {
                "language": settings.language,
                "reference": settings.reference,
                "rules": _json(dict(settings.rules), "the settings' rules"),
                "updated_at": datetime.now(UTC),
            },
            missing="this learner's data has been erased",
        )

    def settings(self, learner: Learner) -> Settings | None:
        """The learner's saved settings; None when they never changed one."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(learner_settings).where(learner_settings.c.learner_id == learner.id)
            ).first()
        if row is None:
            return None
        return Settings(row.language, row.reference, json.loads(row.rules))

    # -- answers and reviews --
    def record(self, learner: Learner, answer: Answer, review: Review) -> None:
        """Store an answer and the item's new schedule together (one transaction).

        Race-safe: two first answers to the same item (two tabs) both find no review row and
        both insert one; the loser's transaction fails on the primary key and is run again,
        when its update finds the winner's row. Both answers are kept.
        """
        key = (reviews.c.learner_id == learner.id) & (reviews.c.item == review.item)
        values = {
            "category": review.category,
            "box": review.box,
            "due_at": review.due_at,
            "seen": review.seen,
            "missed": review.missed,
        }
        for attempt in range(3):
            try:
                with self.engine.begin() as db:
                    db.execute(
                        answers.insert().values(learner_id=learner.id, **_answer_row(answer))
                    )
                    updated = db.execute(reviews.update().where(key).values(**values)).rowcount
                    if not updated:
                        db.execute(
                            reviews.insert().values(
                                learner_id=learner.id, item=review.item, **values
                            )
                        )
                return
            except sa.exc.IntegrityError:
                if attempt == 2:
                    # No race lasts three rounds: the learner's row is gone (erased).
                    raise UnknownLearnerError("this learner's data has been erased") from None

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

    # -- lessons --
    def lesson_progress(self, learner: Learner) -> dict[str, LessonProgress]:
        """Each lesson the learner started, by lesson id: what the course list shows."""
        query = sa.select(
            lesson_progress.c.lesson_id,
            lesson_progress.c.step,
            lesson_progress.c.completed,
            lesson_progress.c.updated_at,
        ).where(lesson_progress.c.learner_id == learner.id)
        with self.engine.connect() as db:
            return {
                row.lesson_id: LessonProgress(row.step, row.completed, row.updated_at)
                for row in db.execute(query)
            }

    def lesson_record(self, learner: Learner, lesson_id: str) -> LessonRecord | None:
        """The learner's run of one lesson, to resume it by replay; None if never started."""
        key = (lesson_progress.c.learner_id == learner.id) & (
            lesson_progress.c.lesson_id == lesson_id
        )
        step_key = (lesson_steps.c.learner_id == learner.id) & (
            lesson_steps.c.lesson_id == lesson_id
        )
        with self.engine.connect() as db:
            row = db.execute(sa.select(lesson_progress).where(key)).first()
            if row is None:
                return None
            steps = db.execute(
                sa.select(
                    lesson_steps.c.step_index,
                    lesson_steps.c.kind,
                    lesson_steps.c.data,
                    lesson_steps.c.done,
                ).where(step_key)
            ).all()
        return LessonRecord(
            seed=row.seed,
            step=row.step,
            seen=frozenset(json.loads(row.seen)),
            completed=row.completed,
            steps={
                step.step_index: StepRecord(step.kind, json.loads(step.data), step.done)
                for step in steps
            },
            updated_at=row.updated_at,
        )

    def save_lesson(
        self,
        learner: Learner,
        lesson_id: str,
        *,
        seed: int,
        step: int,
        seen: Iterable[int],
        completed: int,
    ) -> None:
        """Store where the learner is in a lesson (created or replaced)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not -(2**63) <= seed < 2**63:
            raise ValueError(f"a lesson's seed is a 64-bit integer, not {seed!r}")
        steps_seen = sorted({_count(index, "a seen step") for index in seen})
        self._upsert(
            lesson_progress,
            {"learner_id": learner.id, "lesson_id": _lesson_id(lesson_id)},
            {
                "seed": seed,
                "step": _count(step, "the step reached"),
                "seen": _json(steps_seen, "the steps seen"),
                "completed": _count(completed, "the steps completed"),
                "updated_at": datetime.now(UTC),
            },
            missing="this learner's data has been erased",
        )

    def save_lesson_step(
        self,
        learner: Learner,
        lesson_id: str,
        index: int,
        *,
        kind: StepKind,
        data: Mapping[str, Any],
        done: bool,
    ) -> None:
        """Store what the learner did on one step (created or replaced); ``save_lesson`` first.

        ``data`` is a JSON object of at most ``JSON_MAX`` bytes; its shape by kind is described
        on ``StepRecord``.
        """
        if kind not in STEP_KINDS:
            raise ValueError(f"a step's kind is one of {sorted(STEP_KINDS)}, not {kind!r}")
        if not isinstance(data, Mapping):
            raise ValueError("a step's data is a JSON object (a mapping)")
        self._upsert(
            lesson_steps,
            {
                "learner_id": learner.id,
                "lesson_id": _lesson_id(lesson_id),
                "step_index": _count(index, "a step index"),
            },
            {
                "kind": kind,
                "data": _json(dict(data), "a step's data"),
                "done": bool(done),
                "updated_at": datetime.now(UTC),
            },
            missing=f"no run of lesson {lesson_id!r} is saved for this learner: save_lesson first",
        )

    def reset_lesson(self, learner: Learner, lesson_id: str) -> None:
        """Forget the learner's run of one lesson, to restart it on purpose."""
        with self.engine.begin() as db:
            db.execute(
                lesson_steps.delete().where(
                    (lesson_steps.c.learner_id == learner.id)
                    & (lesson_steps.c.lesson_id == lesson_id)
                )
            )
            db.execute(
                lesson_progress.delete().where(
                    (lesson_progress.c.learner_id == learner.id)
                    & (lesson_progress.c.lesson_id == lesson_id)
                )
            )

    def _upsert(
        self, table: sa.Table, key: Mapping[str, Any], values: Mapping[str, Any], *, missing: str
    ) -> None:
        """Update the row at ``key``, or insert it: portable (no dialect's ON CONFLICT), and
        safe against a racing insert, which makes ours fail and the second pass update."""
        where = sa.and_(*(table.c[column] == value for column, value in key.items()))
        for attempt in range(2):
            try:
                with self.engine.begin() as db:
                    if db.execute(table.update().where(where).values(**values)).rowcount:
                        return
                    db.execute(table.insert().values(**key, **values))
                    return
            except sa.exc.IntegrityError:
                if attempt:
                    # Still refused with no race left: a foreign key names no row.
                    raise UnknownLearnerError(missing) from None

    # -- everything about one learner --
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

        with self.engine.connect() as db:
            created = db.execute(
                sa.select(learners.c.created_at, learners.c.token_hash).where(
                    learners.c.id == learner.id
                )
            ).first()
            progress = db.execute(
                sa.select(lesson_progress)
                .where(lesson_progress.c.learner_id == learner.id)
                .order_by(lesson_progress.c.lesson_id)
            ).all()
            steps = db.execute(
                sa.select(lesson_steps)
                .where(lesson_steps.c.learner_id == learner.id)
                .order_by(lesson_steps.c.lesson_id, lesson_steps.c.step_index)
            ).all()
            seats = (
                []
                if created is None or created.token_hash is None
                else db.execute(
                    sa.select(
                        class_students.c.id,
                        class_students.c.nickname,
                        class_students.c.joined_at,
                        class_sessions.c.code,
                        class_sessions.c.title,
                    )
                    .select_from(class_students.join(class_sessions))
                    .where(class_students.c.learner_hash == created.token_hash)
                    .order_by(class_students.c.joined_at)
                ).all()
            )
            seat_answers = db.execute(
                sa.select(
                    class_answers.c.student_id,
                    class_questions.c.position,
                    class_answers.c.action,
                    class_answers.c.answered_at,
                )
                .select_from(class_answers.join(class_questions))
                .where(class_answers.c.student_id.in_([seat.id for seat in seats]))
                .order_by(class_questions.c.position)
            ).all()

        saved = self.settings(learner)
        return {
            "nickname": learner.nickname,
            "created_at": None if created is None else created.created_at.isoformat(),
            "settings": None if saved is None else plain(asdict(saved)),
            "answers": [plain(asdict(answer)) for answer in self.answers(learner)],
            "reviews": [plain(asdict(review)) for review in self.reviews(learner)],
            "lessons": [
                {
                    "lesson": row.lesson_id,
                    "seed": row.seed,
                    "step": row.step,
                    "seen": json.loads(row.seen),
                    "completed": row.completed,
                    "updated_at": row.updated_at.isoformat(),
                    "steps": [
                        {
                            "index": step.step_index,
                            "kind": step.kind,
                            "data": json.loads(step.data),
                            "done": step.done,
                            "updated_at": step.updated_at.isoformat(),
                        }
                        for step in steps
                        if step.lesson_id == row.lesson_id
                    ],
                }
                for row in progress
            ],
            "class_seats": [
                {
                    "class": seat.code,
                    "title": seat.title,
                    "nickname": seat.nickname,
                    "joined_at": seat.joined_at.isoformat(),
                    "answers": [
                        {
                            "question": answer.position + 1,
                            "action": answer.action,
                            "answered_at": answer.answered_at.isoformat(),
                        }
                        for answer in seat_answers
                        if answer.student_id == seat.id
                    ],
                }
                for seat in seats
            ],
        }


def _answer_row(answer: Answer) -> dict[str, Any]:
    if answer.origin not in ORIGINS:
        raise ValueError(f"an answer comes from one of {sorted(ORIGINS)}, not {answer.origin!r}")
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
        origin=row["origin"],
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
