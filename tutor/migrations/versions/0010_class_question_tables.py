"""Class mode: a question keeps its own table and words (a class made from a lesson).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02

- ``class_questions.own_rules``: the table a question is played at when it is not the class's,
  as the rules' JSON (the same form as ``class_sessions.rules``): a lesson's deal at the French
  casino, in a class at the family table, is judged, explained and named at the French casino.
- ``class_questions.texts``: the question's own words, ``{"fr": "…", "en": "…"}`` as JSON: a
  lesson's step asks in its sentence, each student reading it in their language.

Both None on hands typed or drilled, and on every question before this revision: such a question
is played at the class's table in the quiz's words, as before. Nullable columns: SQLite adds them
in place, no batch copy.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("class_questions", sa.Column("own_rules", sa.Text, nullable=True))
    op.add_column("class_questions", sa.Column("texts", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("class_questions") as batch:
        batch.drop_column("texts")
        batch.drop_column("own_rules")
