"""What a projected screen and a teacher's text may show, in Debian's chromium (French):

- every screen with a join QR or a join code (a class's lobby, a homework group's page, a
  published lesson's link) holds no teacher key: the key has a screen of its own, before;
- a teacher's lesson whose title and text hold an image address on another host makes no
  student's browser fetch anything from that host, and its ten-thousand-character title is not
  the page's heading whole.

Screenshots ``screens-*`` under ``artifacts/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from serving import LAPTOP, PHONE, create_typed_class
from serving import button as _button
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER

pytestmark = BROWSER

#: A teacher key as the app writes it (three groups of five Crockford characters).
KEY = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}\b")
#: An address of a host that is not the app's (TEST-NET-2: nothing answers there).
TRACKER = "http://198.51.100.7/track.png"


def _key_then_qr(page: object, shot: str) -> None:
    """The key's own screen: a key, and neither a QR nor a code; noted, then the join screen:
    a QR, and no key anywhere on it."""
    page.locator("code").first.wait_for()  # type: ignore[attr-defined]
    body = str(page.locator("code").first.inner_text())  # type: ignore[attr-defined]
    key = KEY.search(body)
    assert key is not None, body
    assert page.locator('img[src^="data:image/svg+xml"]').count() == 0  # type: ignore[attr-defined]
    _shot(page, f"{shot}-key")
    _button(page, "Je l’ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    page.locator('img[src^="data:image/svg+xml"]').first.wait_for()  # type: ignore[attr-defined]
    # The run drawn to its end: the key screen's elements, stale while the run goes, are gone.
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => document.querySelectorAll('[data-stale=\"true\"]').length === 0"
    )
    _wait_idle(page)
    html = str(page.content())  # type: ignore[attr-defined]
    where = html.find(key.group(0))
    assert key.group(0) not in html, html[max(0, where - 600) : where + 100]
    assert key.group(0).replace("-", "") not in html
    assert KEY.search(str(page.locator("body").inner_text())) is None  # type: ignore[attr-defined]
    _shot(page, shot)


def test_no_screen_with_a_join_qr_shows_a_teacher_key(
    server: str, chromium_browser: object
) -> None:
    teacher = _page(chromium_browser, LAPTOP)
    # A class: its lobby projects the code and the QR.
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    create_typed_class(teacher, "Lundi, 2nde B", "10 6 / 10")
    _key_then_qr(teacher, "screens-class-lobby-laptop")
    # A homework group: its page shows the students' code and QR.
    teacher.goto(f"{server}/groups")  # type: ignore[attr-defined]
    teacher.get_by_label("Nom du groupe").fill("2nde B")  # type: ignore[attr-defined]
    _button(teacher, "Créer le groupe").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _key_then_qr(teacher, "screens-group-laptop")
    # A teacher's lesson: its key at its creation, its QR once published.
    teacher.goto(f"{server}/my-lessons")  # type: ignore[attr-defined]
    _button(teacher, "Nouvelle leçon").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Notez cette clé de leçon").wait_for()  # type: ignore[attr-defined]
    # The key's box, read from the page's text once drawn (the format's guide, beside the
    # editor, holds code of its own, folded, which the page draws too).
    key = None
    for _wait in range(40):
        key = KEY.search(str(teacher.locator("body").inner_text()))  # type: ignore[attr-defined]
        if key is not None:
            break
        teacher.wait_for_timeout(250)  # type: ignore[attr-defined]
    assert key is not None
    _button(teacher, "Je l’ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _button(teacher, "Publier").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Pour vos élèves").wait_for()  # type: ignore[attr-defined]
    teacher.locator('img[src^="data:image/svg+xml"]').first.wait_for()  # type: ignore[attr-defined]
    assert key.group(0) not in str(teacher.content())  # type: ignore[attr-defined]
    _shot(teacher, "screens-lesson-published-laptop")


def _lesson_with_images() -> str:
    long_title = "Le pixel espion " + "x" * 10_000
    return f"""\
id: pixel
title: "{long_title} ![t]({TRACKER}?title)"
level: 1
language: fr
rules: family
goals: ["Lire sans rien charger ![g]({TRACKER}?goal)."]
steps:
  - explain: |
      ## Une image d'ailleurs

      Voici ![une image]({TRACKER}?explain) et [un lien]({TRACKER}?link).
  - ask:
      question: "Combien vaut cette main ? ![q]({TRACKER}?question)"
      cards: "K♠ 6♥"
      answer: {{total: 16}}
      explanation: "Une bûche et un 6 font 16. ![e]({TRACKER}?explanation)"
"""


def test_a_lessons_image_addresses_are_never_fetched_by_a_students_browser(
    server: str, chromium_browser: object
) -> None:
    app_host = urlsplit(server).netloc
    teacher = _page(chromium_browser, LAPTOP)
    elsewhere: list[str] = []
    teacher.on(  # type: ignore[attr-defined]
        "request",
        lambda request: elsewhere.append(request.url)
        if urlsplit(request.url).scheme in ("http", "https", "ws", "wss")
        and urlsplit(request.url).netloc != app_host
        else None,
    )
    teacher.goto(f"{server}/my-lessons")  # type: ignore[attr-defined]
    _button(teacher, "Nouvelle leçon").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _button(teacher, "Je l’ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    editor = teacher.get_by_role("textbox", name="La leçon (YAML)")  # type: ignore[attr-defined]
    editor.fill(_lesson_with_images())
    editor.blur()
    _wait_idle(teacher)
    _button(teacher, "Enregistrer et vérifier").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Le vérificateur ne trouve aucun problème").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Publier").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    qr = teacher.locator('img[src^="data:image/svg+xml"][alt*="?l="]')  # type: ignore[attr-defined]
    qr.first.wait_for()
    token = str(qr.first.get_attribute("alt")).rsplit("?l=", 1)[1]

    student = _page(chromium_browser, PHONE)
    student.on(  # type: ignore[attr-defined]
        "request",
        lambda request: elsewhere.append(request.url)
        if urlsplit(request.url).netloc not in (app_host, "")
        else None,
    )
    student.goto(f"{server}/?l={token}")  # type: ignore[attr-defined]
    student.get_by_text("Une image d'ailleurs").wait_for()  # type: ignore[attr-defined]
    heading = student.get_by_role("heading", level=1).first  # type: ignore[attr-defined]
    assert len(str(heading.inner_text())) <= 110  # bounded, not ten thousand characters
    student.get_by_text("une image").first.wait_for()  # the image's words, as text
    _shot(student, "screens-lesson-no-remote-image-phone")
    _button(student, "Suivant").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_label("Votre réponse").fill("16")  # type: ignore[attr-defined]
    _button(student, "Vérifier").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Une bûche et un 6 font 16").wait_for()  # type: ignore[attr-defined]
    student.wait_for_timeout(500)  # type: ignore[attr-defined]
    assert student.locator(f'img[src^="{TRACKER}"]').count() == 0  # type: ignore[attr-defined]
    assert elsewhere == []
