"""Opening a database: the URL by default, the engine with its SQLite pragmas, and the migrations.

A module of its own because it is about the connection, not about learners: the pool size a
class needs, the pragmas that keep SQLite's foreign keys and readers honest, and how Alembic is
run so that a migration never loses a learner's rows.

Two things every engine does, whatever the database:

- ``hide_parameters=True``: an error's text holds the statement that failed, and SQLAlchemy
  adds its values by default; the store's values include token hashes and nicknames, and the
  error's text goes to the operator's log. The statement alone says what went wrong.
- A SQLite connection that meets a read-only database is thrown away with its pool
  (``_read_only_is_a_lost_connection``). SQLite opens a file it may not write read-only, and that
  connection stays read-only for its whole life, so a server started while its file or folder
  was read-only kept refusing every write after the operator fixed it, until a restart. Treated
  as a lost connection, the next request opens the file again, and writes once it may.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, ExceptionContext


def default_url() -> str:
    """``TUTOR_DATABASE_URL``, or a SQLite file in ``TUTOR_DATA_DIR`` (default ``./data``)."""
    url = os.environ.get("TUTOR_DATABASE_URL")
    if url:
        return url
    folder = Path(os.environ.get("TUTOR_DATA_DIR", "data"))
    return f"sqlite:///{folder / 'tutor.sqlite3'}"


#: What SQLite says on a connection that opened its file read-only (``SQLITE_READONLY``).
READ_ONLY_MESSAGE = "readonly database"


def _read_only_is_a_lost_connection(context: ExceptionContext) -> None:
    """A SQLite error saying the database is read-only invalidates the connection and its pool
    (a lost connection's treatment): the next checkout opens the file again."""
    original = context.original_exception
    if isinstance(original, sqlite3.OperationalError) and READ_ONLY_MESSAGE in str(original):
        context.is_disconnect = True


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("sqlite"):
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            hide_parameters=True,
        )
        sa.event.listen(engine, "handle_error", _read_only_is_a_lost_connection)

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
    return sa.create_engine(
        url, pool_pre_ping=True, pool_size=20, max_overflow=30, hide_parameters=True
    )


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
