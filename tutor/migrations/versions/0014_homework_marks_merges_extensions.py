"""Homework a teacher grades: a mark's scale per group, a member merged into another (one student
on two devices), and a later due date for one student.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07

- ``study_groups.mark_scale``: what a mark is out of (20 by default, the French school's scale;
  10 and 100 are offered too); a percentage is shown beside it whatever the scale.
- ``group_members.merged_into``: the member this one was merged into by the teacher (the same
  student, joined again from another device under another nickname); its rows stay its own and
  are counted as the other's, so a merge loses no answer. None for every member before this
  revision.
- ``assignment_extensions``: a due date and time for one member of one assignment, later than
  the group's.

Nullable or defaulted columns: SQLite adds them in place, no batch copy.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column(
        "study_groups",
        sa.Column("mark_scale", sa.Integer, nullable=False, server_default=sa.text("20")),
    )
    op.add_column("group_members", sa.Column("merged_into", sa.Integer, nullable=True))
    op.create_table(
        "assignment_extensions",
        sa.Column(
            "assignment_id",
            sa.Integer,
            sa.ForeignKey("assignments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "member_id",
            sa.Integer,
            sa.ForeignKey("group_members.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("due_at", _WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("assignment_extensions")
    with op.batch_alter_table("group_members") as batch:
        batch.drop_column("merged_into")
    with op.batch_alter_table("study_groups") as batch:
        batch.drop_column("mark_scale")
