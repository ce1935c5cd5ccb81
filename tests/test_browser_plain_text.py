"""Titles and nicknames are plain text on every screen of a class (issue 25): a title or a name
that reads as an address (``www.…``, ``http://…``, an e-mail address) is never made a link on the
projector, the phones or the results, where one tap would take a whole class elsewhere.

Through the real server and Debian's chromium: the class is created, joined, played, revealed and
finished by clicks, and every screen's links are listed. Screenshots
``plain-text-projector-laptop``, ``plain-text-phone`` and ``plain-text-results-laptop``.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from serving import LAPTOP, PHONE, create_typed_class, projected_code
from serving import button as _button
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER

pytestmark = BROWSER

TITLE = "www.evil.example http://x.example ana@x.example"
NICKNAME = "www.evil.example"


def _as_shown(text: str, *, prefix: str = "") -> re.Pattern[str]:
    """``text`` as the page shows it: an invisible word joiner may stand before each dot, colon
    and at sign (what keeps the autolinks off)."""
    parts = [("\u2060?" if char in ".:@" else "") + re.escape(char) for char in text]
    return re.compile(prefix + "".join(parts))


def _links_to_the_names(page: object) -> list[str]:
    """Every link of the page's main area that leads to an address typed by a person."""
    hrefs: list[str] = page.evaluate(  # type: ignore[attr-defined]
        "Array.from(document.querySelectorAll('section.stMain a[href], [data-testid=stMain]"
        " a[href]')).map(a => a.href)"
    )
    return [href for href in hrefs if "evil.example" in href or "x.example" in href]


def test_titles_and_nicknames_are_never_links(server: str, chromium_browser: object) -> None:
    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    create_typed_class(teacher, TITLE, "10 6 / 10")
    code = projected_code(teacher)
    assert _links_to_the_names(teacher) == []

    phone = _page(chromium_browser, PHONE)
    phone.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
    expect(phone.get_by_role("textbox", name="Code de la classe")).to_have_value(code)  # type: ignore[attr-defined]
    phone.get_by_role("textbox", name="Votre pseudo").fill(NICKNAME)  # type: ignore[attr-defined]
    _button(phone, "Rejoindre").click()  # type: ignore[attr-defined]
    phone.get_by_text("Attendez que l’enseignant").wait_for()  # type: ignore[attr-defined]
    phone.get_by_text(_as_shown(f"Vous êtes {NICKNAME}")).wait_for()  # type: ignore[attr-defined]
    assert _links_to_the_names(phone) == []
    teacher.get_by_text(_as_shown(NICKNAME, prefix="^")).first.wait_for()  # type: ignore[attr-defined]
    assert _links_to_the_names(teacher) == []  # the lobby's names

    _button(teacher, "Montrer la première main").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    phone.get_by_text("Question 1 sur 1").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text(_as_shown(TITLE)).first.wait_for()  # type: ignore[attr-defined]  # the header
    assert _links_to_the_names(teacher) == []
    assert _links_to_the_names(phone) == []
    _shot(teacher, "plain-text-projector-laptop")
    _shot(phone, "plain-text-phone")
    _button(phone, "Tirer").click()  # type: ignore[attr-defined]
    phone.get_by_text("Votre réponse").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _button(teacher, "Terminer et voir les résultats").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_role("row", name=re.compile("^www")).first.wait_for()  # type: ignore[attr-defined]
    assert _links_to_the_names(teacher) == []  # the results' tables, the title
    teacher.locator("h1").first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    _shot(teacher, "plain-text-results-laptop")
    for page in (teacher, phone):
        page.context.close()  # type: ignore[attr-defined]
