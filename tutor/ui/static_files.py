"""Streamlit's hashed front-end files (``/static/…``) answered from memory, compressed once.

Why: every new visitor's page loads about 90 of these files (scripts, styles, fonts: 2.9 MB),
and Streamlit answers each through Starlette's ``FileResponse``: a stat, an open and a thread hop
per 64 KiB read, all on the server's one interpreter, and never compressed. That was 0.12 s of
the server's CPU per new page, three quarters of what a phone joining a class cost it, so 40
phones joining at once queued about 5 s of work behind each other (issue 30), and a class's 40
phones fetched 117 MB over the school's wifi. The files never change while the server runs (their
names carry their content's hash), so each is read and gzipped once, in a worker thread, and then
answered from memory: 1.1 MB a page for a browser that accepts gzip (every browser does).

Why not a library: ServeStatic (WhiteNoise's ASGI fork) serves compressed files only where a
``.gz`` copy already lies beside each one on disk, which here means writing into Streamlit's
installed package, and it reads the file on every request; Starlette's ``GZipMiddleware``
compresses every response again. What is needed is small: a fixed table of files, two bodies each.

Only names found under Streamlit's ``static/static`` folder when the server starts are answered
here, and only for ``GET`` and ``HEAD``: a request's path is looked up in that fixed table, never
joined to a folder, so no path reaches another file. Everything else (the page itself, its
websocket, media, a name not in the table) goes on to Streamlit unchanged. The headers are the
ones Streamlit gives these files (cacheable for a year, immutable), with ``Vary`` and
``Content-Encoding`` for the compressed ones.
"""

from __future__ import annotations

import asyncio
import mimetypes
import threading
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: What Streamlit sends with its hashed files: a year, and no revalidation.
CACHE_CONTROL = b"public, immutable, max-age=31536000"
#: Kinds worth compressing (fonts in WOFF2 and images are compressed already).
COMPRESSIBLE = (".js", ".css", ".json", ".map", ".svg", ".txt", ".html", ".ttf", ".otf")
#: A compressed body is kept only if it saves at least this share of the bytes.
WORTH_IT = 0.9
#: The most bytes of an ``Accept-Encoding`` header read (a visitor's header is hostile).
ACCEPT_ENCODING_MAX = 256


def streamlit_static_folder() -> Path:
    """Streamlit's folder of hashed front-end files: ``static`` inside the folder its own static
    handler serves (``file_util.get_static_dir``, beside ``index.html``)."""
    from streamlit import file_util

    return Path(file_util.get_static_dir()) / "static"


def accepts_gzip(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether a request's ``Accept-Encoding`` allows gzip: named, or ``*``, and not at ``q=0``
    (a ``gzip`` named at ``q=0`` is refused even where ``*`` is accepted, as RFC 9110 says)."""
    accepted: dict[str, bool] = {}
    for name, value in headers:
        if name.lower() != b"accept-encoding":
            continue
        for item in value[:ACCEPT_ENCODING_MAX].decode("latin-1").split(","):
            coding, _, parameters = item.partition(";")
            quality = parameters.replace(" ", "").lower()
            refused = quality.startswith("q=") and quality[2:].rstrip("0").rstrip(".") in {"0", ""}
            accepted[coding.strip().lower()] = not refused
    return accepted.get("gzip", accepted.get("*", False))


class StaticFile:
    """One file's answers: its bytes and, for text, its gzipped bytes; both made on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in {"application/javascript", "application/json"}:
            kind += "; charset=utf-8"
        self.content_type = kind.encode("latin-1")
        self.compressible = path.suffix.lower() in COMPRESSIBLE
        self.body = b""
        self.gzipped: bytes | None = None
        self.loaded = False
        self._lock = threading.Lock()

    def load(self) -> None:
        """Read (and compress) the file once; other threads asking meanwhile wait for it."""
        with self._lock:
            if self.loaded:
                return
            body = self.path.read_bytes()
            if self.compressible:
                compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
                gzipped = compressor.compress(body) + compressor.flush()
                if len(gzipped) <= WORTH_IT * len(body):
                    self.gzipped = gzipped
            self.body = body
            self.loaded = True


class StaticFromMemory:
    """ASGI middleware: Streamlit's hashed files from memory, everything else to ``app``."""

    def __init__(self, app: ASGIApp, folder: Path | None = None, base: str | None = None) -> None:
        self.app = app
        self._base = base
        self._prefix: str | None = None
        root = folder or streamlit_static_folder()
        self.files = {
            path.relative_to(root).as_posix(): StaticFile(path)
            for path in sorted(root.rglob("*")) if path.is_file()
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.find(scope)
        if found is None:
            await self.app(scope, receive, send)
            return
        if not found.loaded:
            await asyncio.to_thread(found.load)  # the first visitor's read, off the event loop
        headers = [(b"content-type", found.content_type), (b"cache-control", CACHE_CONTROL)]
        body = found.body
        if found.gzipped is not None:
            headers.append((b"vary", b"Accept-Encoding"))
            if accepts_gzip(scope.get("headers", [])):
                body = found.gzipped
                headers.append((b"content-encoding", b"gzip"))
        headers.append((b"content-length", str(len(body)).encode("latin-1")))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({
            "type": "http.response.body",
            "body": b"" if scope["method"] == "HEAD" else body,
        })

    def find(self, scope: Scope) -> StaticFile | None:
        """The file a request asks for, if it is one of Streamlit's hashed files."""
        if scope["type"] != "http" or scope["method"] not in {"GET", "HEAD"}:
            return None
        path: str = scope["path"]
        prefix = self.prefix()
        if not path.startswith(prefix):
            return None
        return self.files.get(path[len(prefix):])

    def prefix(self) -> str:
        """Where the files live in a request's path: ``/static/`` under Streamlit's base URL
        path (``server.baseUrlPath``, read on the first request, once the server's settings are
        loaded)."""
        if self._prefix is None:
            base = self._base
            if base is None:
                from streamlit import config

                base = str(config.get_option("server.baseUrlPath") or "")
            base = base.strip("/")
            self._prefix = f"/{base}/static/" if base else "/static/"
        return self._prefix
