"""Failed tries, counted per guesser: what bounds guessing a class's or a group's code and a
class's second join step, without ever counting the joins that succeed.

Why failures and not joins: a school reaches the app through one network address (its NAT, the
guest Wi-Fi), so a budget of joins per address is one that a hall of students spends on its own
and that one student with a script spends for everybody behind the address. What only a guesser
does is fail: a made-up code, a wrong pattern. So those are what is counted, per minute, in the
database (every server process agrees):

- wrong codes (``WRONG_CODES_PER_MINUTE``), per browser and per network client. A browser past
  its own count is refused before the code is looked up. A client past its count is refused only
  for a browser that has itself failed this minute (or names none): a student's first try from
  a flooded school address is still looked up, so a right code still seats them, while a script
  needs a new browser (a new page, a new session on the server) for every guess past the count;
- wrong patterns of a class's second join step (``WRONG_PATTERNS_PER_MINUTE``, in
  ``tutor.classroom.joinstep`` with the odds it leaves), per class and per network client (its
  browser, when the request names no client). The try is claimed before the pattern is weighed
  and given back when it was right, so patterns sent together cannot all slip in under the
  count, and a right pattern never counts.

The same counts serve the other bounds a visitor could spend for others, per browser and per
network client, never per server: creations a minute (``count``: groups, teachers' lessons), a
teacher lesson's wrong keys (``claim``), and the checking CPU a minute (``spent``, ``spend``:
``tutor.authoring.Shelf.check``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

from tutor.classroom.access import ANONYMOUS
from tutor.classroom.errors import TooManyJoinsError
from tutor.classroom.joinstep import WRONG_PATTERNS_PER_MINUTE
from tutor.store.class_records import ClassRecords

#: Wrong codes a minute: from one browser (a typo or two, a code misread from the back of the
#: room), and from one network client (a school behind one address: a hall of 200 whose every
#: tenth student mistypes, five times over).
WRONG_CODES_PER_MINUTE: Mapping[str, int] = MappingProxyType({"browser": 10, "client": 100})


@dataclass(frozen=True)
class Guesser:
    """Who tries: the browser's learner token hash and the network client's key
    (``tutor.classroom.access.client_key``), either None when the request does not name it."""

    browser: str | None
    client: str | None

    def in_class(self, session_id: int) -> str:
        """The guesser's name in one class's pattern count: its client, else a hash of its
        browser with the class (a bucket named by the learner hash itself would be one more
        place an erased learner's hash stays: ``tutor.store.tables.RATE_KINDS``)."""
        if self.client is not None:
            return self.client
        seed = f"{session_id}:{self.browser or ANONYMOUS}".encode()
        return hashlib.sha256(seed).hexdigest()[:40]


class Tries:
    """The failure counts of one store's rate table (``class_rate``), on one clock."""

    def __init__(self, records: ClassRecords, clock: Callable[[], datetime]) -> None:
        self.records = records
        self.clock = clock

    def _window(self) -> tuple[datetime, datetime]:
        now = self.clock()
        return now, now.replace(second=0, microsecond=0)

    def _refuse(self, now: datetime, error: Callable[..., Exception]) -> Exception:
        return error("too many tries this minute: wait", seconds=60 - now.second)

    def before_code(
        self, scope: str, guesser: Guesser, error: Callable[..., Exception] = TooManyJoinsError
    ) -> None:
        """Refuse to look a code up for a guesser past its wrong codes of the minute (``scope``:
        ``class`` or ``group``, whose codes are counted apart; ``error``: the refusal to raise,
        given the message and ``seconds`` to wait)."""
        now, window = self._window()
        limits = WRONG_CODES_PER_MINUTE
        browser_failures = 0
        if guesser.browser is not None:
            browser_failures = self.records.hits(f"{scope}-code-b:{guesser.browser}", window)
            if browser_failures >= limits["browser"]:
                raise self._refuse(now, error)
        suspect = guesser.browser is None or browser_failures > 0
        if (
            guesser.client is not None
            and suspect
            and self.records.hits(f"{scope}-code-c:{guesser.client}", window) >= limits["client"]
        ):
            raise self._refuse(now, error)

    def wrong_code(self, scope: str, guesser: Guesser) -> None:
        """Count a code that named nothing, for the guesser's browser and client."""
        now, window = self._window()
        for kind, name in (("b", guesser.browser), ("c", guesser.client)):
            if name is not None:
                self._count(f"{scope}-code-{kind}:{name}", now, window)

    def claim_pattern_try(self, session_id: int, guesser: Guesser) -> Callable[[], None]:
        """Claim one try of the class's pattern, before it is weighed; the function that gives it
        back (call it when the pattern was right). ``TooManyJoinsError`` past
        ``WRONG_PATTERNS_PER_MINUTE``: the pattern is then not weighed at all."""
        bucket = f"pat-c:{session_id}:{guesser.in_class(session_id)}"
        return self.claim(bucket, WRONG_PATTERNS_PER_MINUTE, TooManyJoinsError)

    def claim(
        self, bucket: str, limit: int, error: Callable[..., Exception]
    ) -> Callable[[], None]:
        """Claim one try of ``bucket`` this minute before the try is weighed; the function that
        gives it back when the try was right, so only failures stay counted. ``error`` (with
        the seconds to wait) past ``limit``: the try is then not weighed at all. Tries sent
        together each take a hit, so none slips in under the count."""
        now, window = self._window()
        if self._count(bucket, now, window) > limit:
            self.records.uncount_hit(bucket, window)  # refused unweighed: no failure
            raise self._refuse(now, error)
        return lambda: self.records.uncount_hit(bucket, window)

    def count(self, buckets: Sequence[tuple[str, int]], error: Callable[..., Exception]) -> None:
        """One more hit of each bucket this minute; ``error`` (with the seconds to wait) past a
        bucket's limit: creations a minute, per browser and per network client."""
        now, window = self._window()
        for bucket, limit in buckets:
            if self._count(bucket, now, window) > limit:
                raise self._refuse(now, error)

    def spent(self, bucket: str) -> int:
        """What ``bucket`` spent this minute (milliseconds of CPU, for a budget)."""
        return self.records.hits(bucket, self._window()[1])

    def spend(self, bucket: str, amount: int) -> None:
        """Add ``amount`` to ``bucket``'s spending this minute."""
        now, window = self._window()
        if self.records.count_hit(bucket, window, amount) == amount:
            self.records.purge_counts(counted_before=now - timedelta(hours=1))

    def wait(self) -> int:
        """Seconds to the next minute, when every count starts again."""
        return 60 - self.clock().second

    def _count(self, bucket: str, now: datetime, window: datetime) -> int:
        """One more hit of ``bucket`` this minute; a bucket's first hit of a minute also deletes
        the counts older than an hour, so the table stays small."""
        hits = self.records.count_hit(bucket, window)
        if hits == 1:
            self.records.purge_counts(counted_before=now - timedelta(hours=1))
        return hits

