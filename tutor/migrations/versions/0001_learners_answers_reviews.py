"""Learners, their answers, and the review schedule of each item.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learners",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("nickname", sa.String(24), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "learner_id",
            sa.Integer,
            sa.ForeignKey("learners.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("item", sa.String(64), nullable=False),
        sa.Column("cards", sa.String(48), nullable=False),
        sa.Column("dealer_up", sa.String(4), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("chosen", sa.String(24), nullable=False),
        sa.Column("best", sa.String(24), nullable=False),
        sa.Column("verdict", sa.String(12), nullable=False),
        sa.Column("ev_loss", sa.Float, nullable=False),
    )
    op.create_table(
        "reviews",
        sa.Column(
            "learner_id",
            sa.Integer,
            sa.ForeignKey("learners.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("item", sa.String(64), primary_key=True),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("box", sa.Integer, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("seen", sa.Integer, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
    op.drop_table("answers")
    op.drop_table("learners")
