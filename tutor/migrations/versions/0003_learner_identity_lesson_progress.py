"""Learners found by a private token, lesson progress per learner, class seats found again.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02

- ``learners``: a learner is now found by ``token_hash`` (the SHA-256 of the random token their
  browser keeps; unique), never by nickname. ``nickname`` becomes an optional display name:
  nullable and no longer unique, since two learners may pick the same one.

  Rows made before this revision have no token. They stay in the table with their answers and
  reviews, but no token leads to them, so they are unreachable by nickname from now on (the app
  has no nickname lookup any more). Their nicknames stay unique among token-less rows (a partial
  unique index), as they were. Nothing here
  gives them a token: a nickname is not a secret, so whoever typed it could not prove to be
  their owner. The administrator may delete them (``DELETE FROM learners WHERE token_hash IS
  NULL``; their answers and reviews follow by cascade).
- ``lesson_progress`` and ``lesson_steps``: per learner and lesson, the seed of the lesson's
  deals, the step reached, the steps seen and a record per step (see ``tutor.store``).
- ``class_students``: ``learner_hash`` (the joining browser's learner token hash) so a reload
  finds the seat again, ``reconnections``, and ``folded`` (``fold_nickname`` of the nickname)
  whose unique pair with the session replaces the case-sensitive unique nickname. Existing seats
  are folded here; if two seats of one session fold alike (allowed before: "Ana" and "ana"), the
  first to join keeps the fold and the later ones get ``<fold>#<id>``, which no typed nickname
  can fold to (``#`` is not allowed in one), so nobody loses a seat or an answer.

SQLite changes constraints by copying a table: ``tutor.store.migrate`` runs this with SQLite's
foreign keys off, or dropping the old ``learners`` table would delete every answer by cascade.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# The fold as of this revision; a later change of the fold needs a migration that refolds.
from tutor.identity import fold_nickname

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

FOLDED_MAX = 24 * 18
#: Names batch mode gives SQLite's unnamed constraints, so that they can be dropped.
CONVENTION = {"uq": "uq_%(table_name)s_%(column_0_N_name)s"}


def _unique_name(table: str, columns: Sequence[str]) -> str:
    """The name of the unique constraint on ``columns``: PostgreSQL's own name for it
    (``learners_nickname_key``), or the name ``CONVENTION`` gives SQLite's unnamed one."""
    for constraint in sa.inspect(op.get_bind()).get_unique_constraints(table):
        if list(constraint["column_names"]) == list(columns):
            return constraint["name"] or f"uq_{table}_{'_'.join(columns)}"
    raise RuntimeError(f"no unique constraint on {table}({', '.join(columns)})")


def upgrade() -> None:
    with op.batch_alter_table("learners", naming_convention=CONVENTION) as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
        batch.alter_column("nickname", existing_type=sa.String(24), nullable=True)
        batch.drop_constraint(_unique_name("learners", ["nickname"]), type_="unique")
        batch.create_unique_constraint("uq_learners_token_hash", ["token_hash"])
    op.create_index(
        "ix_learners_legacy_nickname",
        "learners",
        ["nickname"],
        unique=True,
        sqlite_where=sa.text("token_hash IS NULL"),
        postgresql_where=sa.text("token_hash IS NULL"),
    )

    op.create_table(
        "lesson_progress",
        sa.Column(
            "learner_id",
            sa.Integer,
            sa.ForeignKey("learners.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("lesson_id", sa.String(64), primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("seen", sa.Text, nullable=False),
        sa.Column("completed", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "lesson_steps",
        sa.Column("learner_id", sa.Integer, primary_key=True),
        sa.Column("lesson_id", sa.String(64), primary_key=True),
        sa.Column("step_index", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("done", sa.Boolean, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["learner_id", "lesson_id"],
            ["lesson_progress.learner_id", "lesson_progress.lesson_id"],
            ondelete="CASCADE",
            name="fk_lesson_steps_progress",
        ),
    )

    with op.batch_alter_table("class_students") as batch:
        batch.add_column(sa.Column("folded", sa.String(FOLDED_MAX), nullable=True))
        batch.add_column(sa.Column("learner_hash", sa.String(64), nullable=True))
        batch.add_column(
            sa.Column("reconnections", sa.Integer, nullable=False, server_default=sa.text("0"))
        )
    _fold_existing_seats()
    with op.batch_alter_table("class_students", naming_convention=CONVENTION) as batch:
        batch.alter_column("folded", existing_type=sa.String(FOLDED_MAX), nullable=False)
        batch.drop_constraint(
            _unique_name("class_students", ["session_id", "nickname"]), type_="unique"
        )
        batch.create_unique_constraint("uq_class_students_session_folded", ["session_id", "folded"])
        batch.create_unique_constraint(
            "uq_class_students_session_learner", ["session_id", "learner_hash"]
        )


def _fold_existing_seats() -> None:
    """Fill ``folded`` for the seats taken before this revision (first joined keeps the fold)."""
    seats = sa.table(
        "class_students",
        sa.column("id", sa.Integer),
        sa.column("session_id", sa.Integer),
        sa.column("nickname", sa.String),
        sa.column("joined_at", sa.DateTime),
        sa.column("folded", sa.String),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(seats.c.id, seats.c.session_id, seats.c.nickname).order_by(
            seats.c.joined_at, seats.c.id
        )
    ).all()
    taken: set[tuple[int, str]] = set()
    for row in rows:
        folded = fold_nickname(row.nickname)
        if (row.session_id, folded) in taken:
            suffix = f"#{row.id}"
            folded = folded[: FOLDED_MAX - len(suffix)] + suffix
        taken.add((row.session_id, folded))
        bind.execute(seats.update().where(seats.c.id == row.id).values(folded=folded))


def downgrade() -> None:
    """Back to nickname-keyed learners: learners with a token (and their data) are deleted, since
    the old schema cannot tell them apart, and class seats lose their fold and learner link."""
    with op.batch_alter_table("class_students") as batch:
        batch.drop_constraint("uq_class_students_session_learner", type_="unique")
        batch.drop_constraint("uq_class_students_session_folded", type_="unique")
        batch.drop_column("reconnections")
        batch.drop_column("learner_hash")
        batch.drop_column("folded")
        batch.create_unique_constraint(
            "uq_class_students_session_nickname", ["session_id", "nickname"]
        )
    op.drop_table("lesson_steps")
    op.drop_table("lesson_progress")
    op.drop_index("ix_learners_legacy_nickname", table_name="learners")
    learners = sa.table("learners", sa.column("id", sa.Integer), sa.column("token_hash", sa.String))
    keyed = sa.select(learners.c.id).where(learners.c.token_hash.is_not(None))
    for table in ("answers", "reviews"):  # explicitly: SQLite may be migrated with cascades off
        children = sa.table(table, sa.column("learner_id", sa.Integer))
        op.execute(children.delete().where(children.c.learner_id.in_(keyed)))
    op.execute(learners.delete().where(learners.c.token_hash.is_not(None)))
    with op.batch_alter_table("learners") as batch:
        batch.drop_constraint("uq_learners_token_hash", type_="unique")
        batch.drop_column("token_hash")
        batch.alter_column("nickname", existing_type=sa.String(24), nullable=False)
        batch.create_unique_constraint("uq_learners_nickname", ["nickname"])
