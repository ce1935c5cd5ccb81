"""One-time download tickets: a file a page offers, handed to the browser that asked for it, once.

Why not Streamlit's own download button: it stores the file under a ``/media/<hash>`` address
that any request fetches, with no cookie, for as long as Streamlit keeps it (about 140 s were
measured), and that address is written in the proxy's log (``deploy/haproxy.cfg.in`` logs each
request's path). A class's results (nicknames, every answer) or a learner's « Mes données »
export could be fetched again by whoever reads that log or the browser's history in time.

Here the page, when its button is clicked, asks for a ticket: 192 random bits naming the file's
bytes kept in this process's memory for ``TICKET_SECONDS``, bound to the browser that asked (the
hash of the learner token its cookie holds, ``tutor.ui.cookie``). The page's own script then
sends the ticket in the body of a ``POST`` (``tutor.ui.download_buttons``) to
``tutor.ui.download_route``: the address is always the same and carries nothing, so no log holds
anything reusable. The first fetch by that browser takes the file and ends the ticket; any other
fetch (another browser, a browser with no cookie, the same ticket again, a ticket past its time)
is refused with a sentence.

Why memory, not the database, even for the school's several processes: the proxy's cookie sends
every request of a browser to the process that served it first (``deploy/haproxy.cfg.in``), and
the ticket is fetched by that browser within a second of being made, by that process's page. If
the process dies in between, the browser's page reconnects elsewhere and a click makes a new
ticket there. Kept in memory, the file never reaches a disk.

Everything here is bounded: ``PER_BROWSER`` live tickets per browser (its oldest goes first),
``MOST_TICKETS`` in all, and a used or expired ticket is remembered (to say "used", not
"unknown") for ``TICKET_SECONDS`` more, within the same bound.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
import time
import urllib.parse
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum

#: How long a ticket waits for its fetch (the page's script asks for it at once).
TICKET_SECONDS = 60.0
#: Random bytes of a ticket (``secrets.token_urlsafe``: 32 characters).
TICKET_BYTES = 24
#: The most characters of a ticket read from a request (a visitor's body is hostile).
TICKET_MAX_CHARS = 64
#: Live tickets per browser, and in all; remembered used ones in all.
PER_BROWSER = 8
MOST_TICKETS = 2048
#: What a ticket is made of (``token_urlsafe``'s alphabet).
_TICKET_CHARS = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True)
class DownloadFile:
    """A file as the browser receives it: its bytes, its type and its name."""

    body: bytes
    mime: str
    file_name: str


class Denied(Enum):
    """Why a fetch gets no file. ``UNKNOWN`` also answers a ticket of another browser: that
    browser is not told the ticket exists."""

    UNKNOWN = 404
    USED = 410


@dataclass
class _Ticket:
    file: DownloadFile
    owner: str
    expires: float


class Tickets:
    """The process's live tickets and the ones used lately; safe across threads (the pages'
    script threads issue, the server's event loop takes)."""

    def __init__(self, seconds: float = TICKET_SECONDS) -> None:
        self.seconds = seconds
        self._live: OrderedDict[str, _Ticket] = OrderedDict()
        self._used: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def issue(self, file: DownloadFile, owner: str, now: float | None = None) -> str:
        """A new ticket for ``file``, which only ``owner`` (a browser's token hash) may take,
        once, before ``seconds`` have passed."""
        now = time.monotonic() if now is None else now
        ticket = secrets.token_urlsafe(TICKET_BYTES)
        with self._lock:
            self._forget_old(now)
            mine = [name for name, held in self._live.items() if held.owner == owner]
            for name in mine[: max(0, len(mine) - PER_BROWSER + 1)]:
                self._retire(name, now)
            while len(self._live) >= MOST_TICKETS:
                self._retire(next(iter(self._live)), now)
            self._live[ticket] = _Ticket(file, owner, now + self.seconds)
        return ticket

    def take(
        self, ticket: str, owner: str | None, now: float | None = None
    ) -> DownloadFile | Denied:
        """The file of ``ticket`` if ``owner`` is the browser it was issued to and it is neither
        used nor expired; the ticket is then used. A fetch by another browser leaves the ticket
        to its owner."""
        now = time.monotonic() if now is None else now
        ticket = ticket[:TICKET_MAX_CHARS]
        if not _TICKET_CHARS.fullmatch(ticket):
            return Denied.UNKNOWN
        with self._lock:
            self._forget_old(now)
            held = self._live.get(ticket)
            if held is None:
                return Denied.USED if ticket in self._used else Denied.UNKNOWN
            if owner is None or not hmac.compare_digest(held.owner, owner):
                return Denied.UNKNOWN
            self._retire(ticket, now)
            return held.file

    def live(self) -> int:
        """How many tickets wait for their fetch."""
        with self._lock:
            return len(self._live)

    def _retire(self, ticket: str, now: float) -> None:
        self._live.pop(ticket, None)
        self._used[ticket] = now + self.seconds
        while len(self._used) > MOST_TICKETS:
            self._used.popitem(last=False)

    def _forget_old(self, now: float) -> None:
        """Expired live tickets become used ones; used ones are forgotten after their time."""
        for name in [name for name, held in self._live.items() if held.expires < now]:
            self._retire(name, now)
        while self._used and next(iter(self._used.values())) < now:
            self._used.popitem(last=False)


def content_disposition(file_name: str) -> str:
    """The ``Content-Disposition`` of an attachment named ``file_name``: an ASCII name for old
    clients and the exact one in RFC 5987's ``filename*`` (quotes, control characters and path
    separators never reach the header).

    >>> content_disposition("devoirs-ABC.xlsx")
    'attachment; filename="devoirs-ABC.xlsx"; filename*=UTF-8\\'\\'devoirs-ABC.xlsx'
    >>> content_disposition('é"\\r\\n/x.csv')
    'attachment; filename="_____x.csv"; filename*=UTF-8\\'\\'%C3%A9____x.csv'
    """
    name = re.sub(r'[\x00-\x1f\x7f"\\/]', "_", file_name)[:200] or "download"
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{urllib.parse.quote(name)}"
