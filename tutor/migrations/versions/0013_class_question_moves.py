"""Class mode: a question from a lesson keeps the moves the lesson offers and its explanation.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07

- ``class_questions.offered``: the moves the lesson offers, comma-joined (``hit,stand``), so that
  a class made from a lesson that has not taught doubling offers no Double and is graded among
  the lesson's moves, as the lesson's page is; None offers every move the table allows (typed
  hands, drills, lessons without ``actions``, and every question before this revision).
- ``class_questions.explanations``: the step's own explanation ({language: text} as JSON), shown
  at the reveal beside the judge's figures; None when the step has none.

Two nullable columns: SQLite adds them in place, no batch copy.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("class_questions", sa.Column("offered", sa.String(120), nullable=True))
    op.add_column("class_questions", sa.Column("explanations", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("class_questions") as batch:
        batch.drop_column("explanations")
        batch.drop_column("offered")
