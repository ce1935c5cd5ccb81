"""Class mode: the network client that created a class, so that its unused classes are bounded.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07

- ``class_sessions.creator_client``: the creating request's network client as the rate buckets
  keep it (``tutor.classroom.access.client_key``: a hash of its IPv4 address or IPv6 /64),
  indexed. A client holds at most ``UNUSED_CLASSES_PER_CLIENT`` classes never started, so that a
  flood of creations from one address leaves a bounded number behind; classes created before
  this revision have none and count for nobody.

One nullable column and an index: SQLite adds the column in place, no batch copy.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("class_sessions", sa.Column("creator_client", sa.String(40), nullable=True))
    op.create_index("ix_class_sessions_creator_client", "class_sessions", ["creator_client"])


def downgrade() -> None:
    op.drop_index("ix_class_sessions_creator_client", table_name="class_sessions")
    with op.batch_alter_table("class_sessions") as batch:
        batch.drop_column("creator_client")
