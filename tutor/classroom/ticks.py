"""One read of the database per tick, shared by every phone a process serves.

Why: each phone's page polls every few seconds (``st.fragment(run_every=…)``; the class's steps
are pushed to it, ``tutor.ui.class_mode.push``), and each poll asks
where the class stands, which hand is on screen and whether this student has answered. Read per
phone, forty phones cost the database forty reads of the same session row at every poll, and
a school's classes multiply that. Read once per tick and shared, a process costs the database a
few reads per class per second, however many phones it serves: O(processes), not O(phones).

Staleness is bounded and never wrong for the phone that acted: a value is at most ``seconds``
old, and every change made through this process (an answer, the teacher's next step) forgets the
values it touches at once, so the student who answered sees their answer on the next run. A
change made by another process (a teacher on another app server) reaches this one within a tick,
well inside the seconds a phone waits between polls anyway.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


class TickCache:
    """Values keyed by what they read, each kept ``seconds``; one reader per key at a time, so
    forty threads polling at the same instant make one read, not forty."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._values: dict[Hashable, tuple[float, object]] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: Hashable, read: Callable[[], T]) -> T:
        if self.seconds <= 0:
            return read()
        kept = self._values.get(key)
        if kept is not None and self.clock() - kept[0] < self.seconds:
            return kept[1]  # type: ignore[return-value]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            kept = self._values.get(key)  # another thread may have read it while we waited
            if kept is not None and self.clock() - kept[0] < self.seconds:
                return kept[1]  # type: ignore[return-value]
            value = read()
            self._values[key] = (self.clock(), value)
            self._prune()
            return value

    def forget(self, match: Callable[[Hashable], bool]) -> None:
        """Drop the values whose key ``match``es (what a change just made stale)."""
        with self._guard:
            for key in [key for key in self._values if match(key)]:
                self._values.pop(key, None)

    def _prune(self) -> None:
        """Drop values long past their tick, so a server running for weeks stays small."""
        if len(self._values) < 4096:
            return
        now = self.clock()
        with self._guard:
            for key, (at, _value) in list(self._values.items()):
                if now - at >= self.seconds:
                    self._values.pop(key, None)
                    self._locks.pop(key, None)
