"""The server's end of a one-time download (``tutor.downloads``): ``POST /_tutor/download`` with
the ticket as the request's body answers the file to the browser it was issued to, once.

An ASGI middleware in front of Streamlit (``serve.py``), as ``tutor.ui.static_files`` is. Only
that one path is answered here; everything else goes on to Streamlit unchanged. The request is
read with bounds (a body of at most ``BODY_MAX_BYTES``, a ``Cookie`` header of at most
``COOKIE_MAX_CHARS``): what a visitor sends is hostile. The browser is named by its learner
cookie (``tutor.ui.cookie.COOKIE``), read as ``tutor.ui.cookie.token_from_browser`` reads it and
compared by its hash. A refusal is ``404`` (no such ticket for this browser) or ``410`` (used or
out of time), with one sentence in the browser's language; the answer is never cached.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from tutor.downloads import TICKET_MAX_CHARS, Denied, DownloadFile, Tickets, content_disposition
from tutor.identity import InvalidRecoveryCodeError, parse_code, token_hash
from tutor.render.catalogue import language_from_browser
from tutor.render.translator import translator
from tutor.ui.cookie import COOKIE

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Where the page's script sends a ticket, under Streamlit's base URL path.
ROUTE = "_tutor/download"
#: The most bytes of a request body read (a ticket is 32 characters).
BODY_MAX_BYTES = 256
#: The most characters of the request's ``Cookie`` headers read, and of ``Accept-Language``.
COOKIE_MAX_CHARS = 4096
LANGUAGE_MAX_CHARS = 256

#: One process's tickets: the pages issue them (``tutor.ui.download_buttons``), this route
#: takes them.
TICKETS = Tickets()


def route_path(base: str) -> str:
    """The route's path under a base URL path (``server.baseUrlPath``).

    >>> route_path(""), route_path("/tutor/")
    ('/_tutor/download', '/tutor/_tutor/download')
    """
    base = base.strip("/")
    return f"/{base}/{ROUTE}" if base else f"/{ROUTE}"


def base_url_path() -> str:
    """Streamlit's ``server.baseUrlPath`` (its settings are loaded once the server runs)."""
    from streamlit import config

    return str(config.get_option("server.baseUrlPath") or "")


def _header(scope: Scope, name: bytes, most: int) -> str:
    """A request header's values joined with ``;`` (how cookies are joined), cut at ``most``."""
    values = [value for key, value in scope.get("headers", []) if key.lower() == name]
    return b"; ".join(values)[:most].decode("latin-1")


def browser_of(cookie_header: str) -> str | None:
    """The hash of the learner token a ``Cookie`` header holds, if it holds a valid one.

    >>> browser_of("other=1; tutor_learner=not a token") is None
    True
    """
    for part in cookie_header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and 0 < len(value) <= 64:
            try:
                return token_hash(parse_code(value))
            except InvalidRecoveryCodeError:
                return None
    return None


def refusal_sentence(refusal: Denied, language: str) -> str:
    """What a refused fetch says, in ``language``."""
    _ = translator(language).gettext
    if refusal is Denied.USED:
        return _(
            "This download was used already or has expired. Go back to the page and click its"
            " button again."
        )
    return _(
        "This download is not for this browser. Go back to the page and click its button again."
    )


class DownloadTickets:
    """ASGI middleware: ``POST`` to the route takes a ticket; everything else goes to ``app``."""

    def __init__(
        self, app: ASGIApp, tickets: Tickets | None = None, base: str | None = None
    ) -> None:
        self.app = app
        self.tickets = TICKETS if tickets is None else tickets
        self._base = base
        self._path: str | None = None

    def path(self) -> str:
        """The route's path, read on the first request (the server's settings are loaded)."""
        if self._path is None:
            self._path = route_path(base_url_path() if self._base is None else self._base)
        return self._path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path():
            await self.app(scope, receive, send)
            return
        language = language_from_browser(
            _header(scope, b"accept-language", LANGUAGE_MAX_CHARS) or None
        )
        if scope["method"] != "POST":
            await _answer(send, 405, b"text/plain; charset=utf-8",
                          refusal_sentence(Denied.UNKNOWN, language).encode(),
                          [(b"allow", b"POST")])
            return
        body = await _body(receive)
        ticket = "" if body is None else body.decode("ascii", "replace").strip()
        owner = browser_of(_header(scope, b"cookie", COOKIE_MAX_CHARS))
        found = self.tickets.take(ticket[:TICKET_MAX_CHARS], owner)
        if isinstance(found, Denied):
            await _answer(send, found.value, b"text/plain; charset=utf-8",
                          refusal_sentence(found, language).encode())
            return
        await _file(send, found)


async def _body(receive: Receive) -> bytes | None:
    """The request's body, or None once it is longer than ``BODY_MAX_BYTES``."""
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += bytes(message.get("body", b""))
        if len(body) > BODY_MAX_BYTES:
            return None
        if not message.get("more_body", False):
            return body


async def _file(send: Send, file: DownloadFile) -> None:
    await _answer(send, 200, file.mime.encode("latin-1", "replace"), file.body, [
        (b"content-disposition", content_disposition(file.file_name).encode("latin-1")),
    ])


async def _answer(
    send: Send,
    status: int,
    content_type: bytes,
    body: bytes,
    extra: list[tuple[bytes, bytes]] | None = None,
) -> None:
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode("latin-1")),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
