"""One-time downloads (``tutor.downloads``, ``tutor.ui.download_route`` and
``tutor.ui.download_buttons``): a file a page offers goes to the browser that clicked, once,
within a minute, through an address that carries nothing; any other fetch is refused with a
sentence.

The rules are checked on the tickets, then through the route as the server runs it (an ASGI
call, the request's cookie and body as a browser sends them), then on the pages: no page keeps
a Streamlit download button, whose files wait at ``/media/…`` addresses anyone may fetch. The
real browser's part is in ``tests/test_browser_downloads.py``.
"""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tutor.downloads import (
    MOST_TICKETS,
    PER_BROWSER,
    TICKET_SECONDS,
    Denied,
    DownloadFile,
    Tickets,
)
from tutor.identity import new_token, token_hash
from tutor.render.translator import translator
from tutor.ui.download_route import DownloadTickets, browser_of

ROOT = Path(__file__).resolve().parents[1]
FILE = DownloadFile(b"nickname,answer\nZo\xc3\xa9,hit\n", "text/csv", "class-ABC234.csv")
OWNER = token_hash(new_token())
STRANGER = token_hash(new_token())


def test_the_browser_that_asked_takes_the_file_once() -> None:
    tickets = Tickets()
    ticket = tickets.issue(FILE, OWNER, now=0.0)
    assert tickets.take(ticket, OWNER, now=1.0) == FILE
    assert tickets.take(ticket, OWNER, now=2.0) is Denied.USED


def test_another_browser_or_none_is_refused_and_the_ticket_stays_its_owners() -> None:
    tickets = Tickets()
    ticket = tickets.issue(FILE, OWNER, now=0.0)
    assert tickets.take(ticket, STRANGER, now=1.0) is Denied.UNKNOWN
    assert tickets.take(ticket, None, now=1.0) is Denied.UNKNOWN
    assert tickets.take(ticket, OWNER, now=2.0) == FILE


def test_a_ticket_past_its_minute_is_refused_as_used_and_forgotten_later() -> None:
    tickets = Tickets()
    ticket = tickets.issue(FILE, OWNER, now=0.0)
    assert tickets.take(ticket, OWNER, now=TICKET_SECONDS + 1) is Denied.USED
    assert tickets.live() == 0
    assert tickets.take(ticket, OWNER, now=3 * TICKET_SECONDS) is Denied.UNKNOWN


def test_a_made_up_or_hostile_ticket_is_unknown() -> None:
    tickets = Tickets()
    tickets.issue(FILE, OWNER, now=0.0)
    for ticket in ["", "x" * 10, "../../etc/passwd", "A" * 5000, "é" * 32]:
        assert tickets.take(ticket, OWNER, now=1.0) is Denied.UNKNOWN


def test_tickets_are_bounded_per_browser_and_in_all() -> None:
    tickets = Tickets()
    first = tickets.issue(FILE, OWNER, now=0.0)
    for _click in range(PER_BROWSER):
        tickets.issue(FILE, OWNER, now=1.0)
    assert tickets.live() == PER_BROWSER
    assert tickets.take(first, OWNER, now=2.0) is Denied.USED  # its oldest went first
    for _click in range(MOST_TICKETS + 10):
        tickets.issue(FILE, token_hash(new_token()), now=3.0)
    assert tickets.live() == MOST_TICKETS


def test_each_ticket_is_new_and_long() -> None:
    tickets = Tickets()
    made = {tickets.issue(FILE, OWNER, now=0.0) for _click in range(50)}
    assert len(made) == 50
    assert all(len(ticket) >= 32 for ticket in made)


# -- the route, as the server runs it ------------------------------------------------------------


def _run(call: Coroutine[Any, Any, None]) -> None:
    """Run an ASGI call in a thread of its own: a browser test earlier in the same process may
    leave an event loop running in this one (Playwright's synchronous API)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, call).result()


class Answer:
    def __init__(self, messages: list[dict[str, Any]]) -> None:
        start = messages[0]
        self.status: int = start["status"]
        self.headers = {key.decode(): value.decode("latin-1") for key, value in start["headers"]}
        self.body: bytes = b"".join(m.get("body", b"") for m in messages[1:])


def _fetch(
    route: DownloadTickets,
    body: bytes,
    *,
    token: str | None = None,
    method: str = "POST",
    path: str = "/_tutor/download",
    language: str = "fr-FR",
    chunks: int = 1,
) -> Answer:
    headers = [(b"accept-language", language.encode())]
    if token is not None:
        headers.append((b"cookie", f"_streamlit_xsrf=2|x; tutor_learner={token}".encode()))
    scope = {"type": "http", "method": method, "path": path, "headers": headers}
    size = max(1, len(body) // chunks)
    parts = [body[i : i + size] for i in range(0, len(body), size)] or [b""]
    messages = [
        {"type": "http.request", "body": part, "more_body": i < len(parts) - 1}
        for i, part in enumerate(parts)
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    _run(route(scope, receive, send))
    return Answer(sent)


@pytest.fixture
def passed_on() -> list[str]:
    return []


@pytest.fixture
def route(passed_on: list[str]) -> DownloadTickets:
    async def streamlit(scope: Any, receive: Any, send: Any) -> None:
        passed_on.append(scope["path"])

    return DownloadTickets(streamlit, Tickets(), base="")


def test_the_route_answers_the_file_as_an_attachment_never_cached(route: DownloadTickets) -> None:
    token = new_token()
    ticket = route.tickets.issue(FILE, token_hash(token))
    answer = _fetch(route, ticket.encode(), token=token, chunks=3)
    assert answer.status == 200
    assert answer.body == FILE.body
    assert answer.headers["content-type"] == "text/csv"
    assert answer.headers["content-disposition"].startswith('attachment; filename="class-ABC234')
    assert answer.headers["cache-control"] == "no-store"


def test_the_route_refuses_a_fresh_browser_another_browser_and_a_second_fetch(
    route: DownloadTickets,
) -> None:
    token = new_token()
    ticket = route.tickets.issue(FILE, token_hash(token))
    fresh = _fetch(route, ticket.encode())  # no cookie at all
    other = _fetch(route, ticket.encode(), token=new_token())
    assert (fresh.status, other.status) == (404, 404)
    assert FILE.body not in fresh.body + other.body
    french = translator("fr").gettext(
        "This download is not for this browser. Go back to the page and click its button again."
    )
    assert fresh.body.decode() == french
    assert _fetch(route, ticket.encode(), token=token).status == 200
    again = _fetch(route, ticket.encode(), token=token, language="en-GB")
    assert again.status == 410
    assert again.body.decode().startswith("This download was used already")


def test_the_route_reads_only_a_short_body_and_only_a_post(route: DownloadTickets) -> None:
    token = new_token()
    ticket = route.tickets.issue(FILE, token_hash(token))
    assert _fetch(route, ticket.encode() + b" " * 300, token=token).status == 404
    got = _fetch(route, b"", token=token, method="GET")
    assert got.status == 405
    assert got.headers["allow"] == "POST"
    assert _fetch(route, ticket.encode(), token=token).status == 200  # neither spent it


def test_every_other_address_goes_on_to_streamlit(
    route: DownloadTickets, passed_on: list[str]
) -> None:
    for path in ["/", "/media/abc.csv", "/_tutor/download/x", "/_tutor"]:
        route_scope = {"type": "http", "method": "POST", "path": path, "headers": []}

        async def nothing(*_args: Any) -> None:
            return None

        _run(route(route_scope, nothing, nothing))  # type: ignore[arg-type]
    assert passed_on == ["/", "/media/abc.csv", "/_tutor/download/x", "/_tutor"]


def test_the_browser_is_its_learner_cookie_read_as_the_pages_read_it() -> None:
    token = new_token()
    assert browser_of(f"a=1; tutor_learner={token}; b=2") == token_hash(token)
    assert browser_of(f"tutor_learner={token.lower()}") == token_hash(token)  # parse_code's
    assert browser_of("tutor_learner=") is None
    assert browser_of("tutor_learner=" + "A" * 5000) is None
    assert browser_of("") is None


# -- the pages ------------------------------------------------------------------------------------


def test_no_page_offers_a_file_through_streamlits_download_button() -> None:
    """``st.download_button`` serves its file at a ``/media`` address: every export goes through
    ``tutor.ui.download_buttons`` instead."""
    found = []
    for path in [*sorted((ROOT / "tutor").rglob("*.py")), ROOT / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "download_button":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_a_database_fault_while_my_data_is_made_is_the_faults_sentence(
    open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """« Mes données » is read from the store when clicked: with the database gone, the click
    shows the fault's sentence in place of the buttons' fragment, no traceback, no ticket."""
    from serving import free_port
    from tutor.store import Store, default_url
    from tutor.ui.download_route import TICKETS
    from tutor.visit import AppState

    token = new_token()
    learner = Store(default_url()).learner_for_token(token)
    at = open_app("settings", AppState(learner_token=token, learner=learner))
    live = TICKETS.live()
    monkeypatch.setenv(
        "TUTOR_DATABASE_URL", f"postgresql+psycopg://tutor:hunter2@127.0.0.1:{free_port()}/db"
    )
    at.button(key="data-export").click().run()
    assert not at.exception
    sentence = translator("fr").gettext(
        "The server cannot use its database right now. The answers you gave before this message"
        " are saved; try again in a moment."
    )
    assert sentence in [e.value for e in at.error]
    assert TICKETS.live() == live
    assert not [h for h in at.get("html") if "_tutor/download" in h.proto.body]
