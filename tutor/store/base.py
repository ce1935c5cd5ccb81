"""What every table of the store shares: the one ``MetaData`` (Alembic compares against it), the
timestamp type and the nickname bounds the class tables and the learners' tables both use.

A module of its own so that ``tutor.store.tables`` (learners, answers, lessons) and
``tutor.store.classes`` (class mode) can each define their tables beside their statements without
importing each other.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

metadata = sa.MetaData()

NICKNAME_MAX = 24
#: A folded nickname (``tutor.identity.fold_nickname``) can be longer than the nickname: NFKD
#: turns one character into at most 18 (U+FDFA), so 24 characters fold into at most 432.
FOLDED_MAX = NICKNAME_MAX * 18


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """Timestamps stored as UTC and always read back timezone-aware (SQLite forgets the zone)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
