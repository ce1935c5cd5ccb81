"""Class mode: the teacher locks the class, and may ask for a second join step or give names.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

- ``class_sessions.locked``: whether the teacher has locked the class (``Classroom.lock``). While
  it is true nobody new takes a seat; a student who holds one still gets it back after a reload.
  The join's insert reads it inside its own transaction (``ClassRecords.insert_student``), so a
  join racing the teacher's click is seated before the lock or refused after it. Every class
  before this revision is unlocked (the column's default).
- ``class_sessions.join_pattern``: the symbols a phone taps after the code, shown only on the
  projector (``tutor.classroom.joinstep``), kept as their indexes (``"405"``); None when the
  teacher did not turn the step on, as on every class before this revision.
- ``class_sessions.given_names``: the language (``fr``, ``en``) of the two-word names the app
  gives instead of typed nicknames (``tutor.classroom.names``); None when students type theirs,
  as in every class before this revision.

A column with a default and nullable ones: SQLite adds them in place, no batch copy.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "class_sessions",
        sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("class_sessions", sa.Column("join_pattern", sa.String(8), nullable=True))
    op.add_column("class_sessions", sa.Column("given_names", sa.String(2), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("class_sessions") as batch:
        batch.drop_column("given_names")
        batch.drop_column("join_pattern")
        batch.drop_column("locked")
