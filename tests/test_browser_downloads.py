"""A learner's « Mes données » export in a real browser, served by ``streamlit run serve.py``: the
click downloads the file through a one-time ticket (``tutor.downloads``), no request of the page
goes to a ``/media`` address, and the ticket the page sent is refused to a fresh browser (no
cookie), to another browser (its own cookie), and to the same browser once it was used.

How the ticket is seen: the page's first fetch is caught on its way (Playwright's ``route``) and
held back, so the ticket is still unused when the other browsers try it; the learner's own
browser then takes it, once. Screenshots ``download-refused`` (the page's sentence when its fetch
fails) and ``download-done`` (after a download) under ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import LAPTOP, app_server, new_page, screenshot
from tests.marks import BROWSER
from tutor.identity import new_token
from tutor.render.translator import translator
from tutor.store import Store

pytestmark = BROWSER

EXPORT = "Télécharger mes données (JSON)"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("downloads")
    with app_server(folder / "data") as url:
        yield url, folder / "data"


def _learner_page(browser: object, url: str, data: Path, nickname: str) -> object:
    """A browser whose cookie holds a learner that the store knows (with a nickname, so that
    the export is theirs to recognise), on Settings."""
    token = new_token()
    store = Store(f"sqlite:///{data / 'tutor.sqlite3'}")
    learner = store.learner_for_token(token)
    assert learner is not None
    store.set_nickname(learner, nickname)
    store.close()
    page = new_page(browser, LAPTOP)
    page.context.add_cookies(  # type: ignore[attr-defined]
        [{"name": "tutor_learner", "value": token, "url": url}]
    )
    page.goto(f"{url}/settings")  # type: ignore[attr-defined]
    page.get_by_role("button", name=EXPORT).wait_for()  # type: ignore[attr-defined]
    return page


def test_an_export_is_refused_to_a_fresh_browser_another_browser_and_after_its_first_use(
    served: tuple[str, Path], chromium_browser: object
) -> None:
    url, data = served
    page = _learner_page(chromium_browser, url, data, "Zoé")
    addresses: list[str] = []
    page.on("request", lambda request: addresses.append(request.url))  # type: ignore[attr-defined]
    held: list[str] = []

    def hold(route: object) -> None:
        held.append(route.request.post_data or "")  # type: ignore[attr-defined]
        route.abort()  # type: ignore[attr-defined]

    page.route(re.compile(r".*/_tutor/download$"), hold)  # type: ignore[attr-defined]
    page.get_by_role("button", name=EXPORT).click()  # type: ignore[attr-defined]
    refused = translator("fr").gettext(
        "The download did not start: this browser keeps no cookie of this site, or another one."
        " Reload the page and try again."
    )
    page.get_by_text(refused).wait_for()  # type: ignore[attr-defined]
    screenshot(page, "download-refused")
    assert len(held) == 1
    ticket = held[0]
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", ticket), ticket
    address = f"{url}/_tutor/download"

    fresh = chromium_browser.new_context()  # type: ignore[attr-defined]  # no cookie at all
    other = _learner_page(chromium_browser, url, data, "Intrus")
    for stranger in (fresh.request, other.context.request):  # type: ignore[attr-defined]
        answer = stranger.post(address, data=ticket)
        assert answer.status == 404
        assert "Zoé" not in answer.text()
        assert "Ce téléchargement n’est pas destiné à ce navigateur" in answer.text()
    fresh.close()
    other.context.close()  # type: ignore[attr-defined]

    mine = page.context.request  # type: ignore[attr-defined]  # the learner's own cookie
    first = mine.post(address, data=ticket)
    assert first.status == 200
    assert json.loads(first.body())["nickname"] == "Zoé"
    assert first.headers["cache-control"] == "no-store"
    again = mine.post(address, data=ticket)
    assert again.status == 410
    assert "Zoé" not in again.text()

    # Let the page fetch by itself: a click downloads the file, each click with a new ticket.
    page.unroute(re.compile(r".*/_tutor/download$"))  # type: ignore[attr-defined]
    for _click in range(2):
        with page.expect_download() as started:  # type: ignore[attr-defined]
            page.get_by_role("button", name=EXPORT).click()  # type: ignore[attr-defined]
        download = started.value
        assert download.suggested_filename == "blackjack-tutor-my-data.json"
        assert json.loads(Path(download.path()).read_text(encoding="utf-8"))["nickname"] == "Zoé"
    screenshot(page, "download-done")
    assert not [address for address in addresses if "/media/" in address]
    assert sum(1 for address in addresses if address.endswith("/_tutor/download")) == 3
    page.context.close()  # type: ignore[attr-defined]
