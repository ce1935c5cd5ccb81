"""Streamlit's front-end files answered from memory (``tutor.ui.static_files``): the same bytes as
on disk, gzipped for a browser that accepts it, with Streamlit's own cache headers, and nothing
but the files of its fixed table (every other request goes on to Streamlit untouched)."""

from __future__ import annotations

import asyncio
import gzip
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from serving import app_server
from tutor.ui.static_files import (
    CACHE_CONTROL,
    StaticFromMemory,
    accepts_gzip,
    streamlit_static_folder,
)

SCRIPT = "console.log('a hand of blackjack');\n" * 200
PASSED_ON = b"passed on to Streamlit"


def page_scripts(page: str) -> list[str]:
    """The scripts Streamlit's ``index.html`` loads, as names under its ``static/`` folder."""
    return re.findall(r'src="\./static/([^"]+\.js)"', page)


def folder_of_files(root: Path) -> Path:
    (root / "js").mkdir(parents=True)
    (root / "js" / "main.abc123.js").write_text(SCRIPT)
    (root / "media").mkdir()
    (root / "media" / "font.woff2").write_bytes(bytes(range(256)) * 8)
    (root / "tiny.css").write_text("a{}")
    (root.parent / "secret.txt").write_text("not a static file")
    return root


async def streamlit(scope: Any, receive: Any, send: Any) -> None:
    """Stands for Streamlit's own server: says that the request reached it."""
    await send({"type": "http.response.start", "status": 299, "headers": []})
    await send({"type": "http.response.body", "body": PASSED_ON})


def ask(
    app: StaticFromMemory, path: str, *, method: str = "GET", encoding: str | None = "gzip, br",
    kind: str = "http",
) -> tuple[int, dict[str, str], bytes]:
    """One request through the middleware: the status, the headers and the body it answers."""
    headers = [] if encoding is None else [(b"accept-encoding", encoding.encode())]
    scope = {"type": kind, "method": method, "path": path, "headers": headers}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    # In a thread of its own: a browser test earlier in the same process may leave an event loop
    # running in this one (Playwright's synchronous API), where ``asyncio.run`` refuses to start.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    start, *bodies = sent
    answered = {name.decode(): value.decode() for name, value in start["headers"]}
    return start["status"], answered, b"".join(body["body"] for body in bodies)


@pytest.fixture
def files(tmp_path: Path) -> StaticFromMemory:
    return StaticFromMemory(streamlit, folder_of_files(tmp_path / "static"), base="")


def test_a_script_is_its_bytes_gzipped_for_a_browser_that_accepts_gzip(
    files: StaticFromMemory,
) -> None:
    status, headers, body = ask(files, "/static/js/main.abc123.js")
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == SCRIPT.encode()
    assert len(body) < len(SCRIPT) / 10
    assert headers["content-length"] == str(len(body))
    assert headers["vary"] == "Accept-Encoding"
    assert headers["cache-control"] == CACHE_CONTROL.decode()
    assert headers["content-type"] == "text/javascript; charset=utf-8"


@pytest.mark.parametrize("encoding", [None, "br", "identity", "gzip;q=0", "gzip; q=0.000, br"])
def test_a_browser_that_refuses_gzip_gets_the_plain_bytes(
    files: StaticFromMemory, encoding: str | None
) -> None:
    status, headers, body = ask(files, "/static/js/main.abc123.js", encoding=encoding)
    assert (status, body) == (200, SCRIPT.encode())
    assert "content-encoding" not in headers
    assert headers["vary"] == "Accept-Encoding"


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("deflate, gzip;q=1.0, *;q=0.5", True),
        ("GZIP", True),
        ("*", True),
        ("gzip;q=0.001", True),
        ("br, zstd", False),
        ("gzip;q=0", False),
        ("gzip;q=0.0", False),
        ("x-gzip", False),
        ("gzip;q=0, *", False),
        ("*;q=0, gzip", True),
        ("br, *;q=0", False),
        ("", False),
    ],
)
def test_accept_encoding_is_read_as_the_http_rules_say(header: str, accepted: bool) -> None:
    assert accepts_gzip([(b"Accept-Encoding", header.encode())]) is accepted


def test_an_endless_accept_encoding_is_read_only_so_far() -> None:
    assert not accepts_gzip([(b"accept-encoding", b"br, " * 10_000 + b"gzip")])


def test_a_font_already_compressed_is_sent_as_it_is(files: StaticFromMemory) -> None:
    status, headers, body = ask(files, "/static/media/font.woff2")
    assert (status, body) == (200, bytes(range(256)) * 8)
    assert "content-encoding" not in headers
    assert "vary" not in headers
    assert headers["content-type"] == "font/woff2"


def test_a_file_that_gzip_would_not_shrink_is_sent_as_it_is(files: StaticFromMemory) -> None:
    status, headers, body = ask(files, "/static/tiny.css")
    assert (status, body, "content-encoding" in headers) == (200, b"a{}", False)


def test_head_answers_the_headers_without_the_body(files: StaticFromMemory) -> None:
    _, full, body = ask(files, "/static/js/main.abc123.js")
    status, headers, nothing = ask(files, "/static/js/main.abc123.js", method="HEAD")
    assert (status, nothing) == (200, b"")
    assert headers == full
    assert int(headers["content-length"]) == len(body)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/class",
        "/static/js/missing.js",
        "/static/js/../../secret.txt",
        "/static/../secret.txt",
        "/static//js/main.abc123.js",
        "/static/js",
        "/class/static/js/main.abc123.js",
        "/_stcore/stream",
    ],
)
def test_anything_but_a_file_of_the_table_goes_on_to_streamlit(
    files: StaticFromMemory, path: str
) -> None:
    assert ask(files, path) == (299, {}, PASSED_ON)


@pytest.mark.parametrize(
    ("method", "kind"), [("POST", "http"), ("PUT", "http"), ("GET", "websocket")]
)
def test_only_a_get_or_a_head_is_answered_here(
    files: StaticFromMemory, method: str, kind: str
) -> None:
    assert ask(files, "/static/js/main.abc123.js", method=method, kind=kind)[0] == 299


def test_under_a_base_url_path_the_files_are_found_under_it(tmp_path: Path) -> None:
    files = StaticFromMemory(streamlit, folder_of_files(tmp_path / "static"), base="/tutor/")
    assert ask(files, "/tutor/static/js/main.abc123.js")[0] == 200
    assert ask(files, "/static/js/main.abc123.js")[0] == 299


def test_a_file_is_read_once_and_then_answered_from_memory(
    files: StaticFromMemory, tmp_path: Path
) -> None:
    first = ask(files, "/static/js/main.abc123.js")
    (tmp_path / "static" / "js" / "main.abc123.js").unlink()
    assert ask(files, "/static/js/main.abc123.js") == first


def test_the_table_holds_streamlits_own_front_end() -> None:
    """The page's main script, named in Streamlit's ``index.html``, is one of the table's."""
    folder = streamlit_static_folder()
    page = (folder.parent / "index.html").read_text()
    scripts = page_scripts(page)
    assert scripts
    files = StaticFromMemory(streamlit, folder, base="")
    for script in scripts:
        status, headers, body = ask(files, f"/static/{script}")
        assert (status, headers["content-encoding"]) == (200, "gzip")
        assert gzip.decompress(body) == (folder / script).read_bytes()


@pytest.mark.slow
def test_the_served_app_answers_its_scripts_gzipped_from_serve_py(tmp_path: Path) -> None:
    """``streamlit run serve.py``, as ``make serve`` runs it: the page, then its main script
    gzipped with Streamlit's cache headers."""
    with app_server(tmp_path) as url:
        with urllib.request.urlopen(url + "/") as answer:
            page = answer.read().decode()
        script = page_scripts(page)[0]
        asked = urllib.request.Request(
            f"{url}/static/{script}", headers={"Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(asked) as answer:
            assert answer.headers["Content-Encoding"] == "gzip"
            assert answer.headers["Cache-Control"] == CACHE_CONTROL.decode()
            body = gzip.decompress(answer.read())
    assert body == (streamlit_static_folder() / script).read_bytes()
