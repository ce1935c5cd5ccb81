"""Class mode: who created a class, so that its teacher finds their classes again.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

- ``class_sessions.creator_hash``: the creating browser's learner token hash (a SHA-256 of the
  browser's private token, as ``class_students.learner_hash``), indexed. The teacher's page lists
  the classes this browser created, newest first, and reopens them without the key: the browser's
  token is a secret at least as strong as the key. Classes created before this revision have
  none and are reopened with their code and key, as before.

One nullable column and an index: SQLite adds the column in place, no batch copy.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("class_sessions", sa.Column("creator_hash", sa.String(64), nullable=True))
    op.create_index("ix_class_sessions_creator_hash", "class_sessions", ["creator_hash"])


def downgrade() -> None:
    op.drop_index("ix_class_sessions_creator_hash", table_name="class_sessions")
    with op.batch_alter_table("class_sessions") as batch:
        batch.drop_column("creator_hash")
