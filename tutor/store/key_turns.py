"""A teacher key's tries counted per owner (a class, a study group) and per guesser, before the
key is weighed: the one statement class mode and homework share (``claim_key_turn``).

Why a module of its own: both kinds of key are guessed alike, and the race this guards against
(thirty tries sent at once, each costing a slow hash) is subtle enough to be written once. The
tables differ only by the column naming their owner (``class_key_attempts.session_id``,
``group_key_attempts.group_id``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine


def claim_key_turn(
    engine: Engine,
    attempts: sa.Table,
    owner: sa.ColumnElement[bool],
    key_hash: sa.Select[tuple[str]],
    values: dict[str, object],
    now: datetime,
    locked_until: Callable[[int], datetime],
) -> tuple[int, datetime | None, str]:
    """Take a guesser's turn to try a key, before the key is weighed.

    ``attempts`` is the table of tries, ``owner`` the condition naming the guesser's row in it
    (the owner and the guesser), ``values`` that row's key columns for its first insert, and
    ``key_hash`` the select of the owner's stored hash.

    The try is counted as a failure at once, with the lock that failure earns (``locked_until``
    of the count), if and only if the guesser is not locked now: one ``UPDATE ... WHERE
    locked_until <= now RETURNING failed``. So thirty tries sent together take one turn between
    them, and the other twenty-nine are refused before any of them costs a slow hash; a right
    key then forgets the failures (the caller deletes the row).

    Returns (the failures counted with this one, or 0 when refused; until when the guesser is
    locked, when refused; the owner's key hash)."""
    for attempt in range(3):
        try:
            with engine.begin() as db:
                stored = db.execute(key_hash).scalar_one()
                failures = db.execute(
                    attempts.update()
                    .where(
                        owner
                        & (
                            attempts.c.locked_until.is_(None)
                            | (attempts.c.locked_until <= now)
                        )
                    )
                    .values(failed=attempts.c.failed + 1)
                    .returning(attempts.c.failed)
                ).scalar_one_or_none()
                if failures is None:
                    until = db.execute(
                        sa.select(attempts.c.locked_until).where(owner)
                    ).scalar_one_or_none()
                    if until is not None:
                        return 0, until, str(stored)
                    failures = 1  # the guesser's first try on this owner
                    db.execute(attempts.insert().values(**values, failed=1))
                db.execute(
                    attempts.update()
                    .where(owner)
                    .values(locked_until=locked_until(int(failures)))
                )
                return int(failures), None, str(stored)
        except sa.exc.IntegrityError:
            # A racing first try inserted the row between our two statements: try again, and
            # this time find its lock.
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
