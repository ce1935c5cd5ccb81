"""The French learner's path in a real browser (issue 17): French card indices on the drawn cards,
French action keys, the progress charts' axes in French (month names, decimal commas), none of
Streamlit's own English in sight, and screenshots at laptop and phone sizes under
``artifacts/screenshots/`` (``fr-*-laptop.png``, ``fr-*-phone.png``) for a person to look at.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest
from babel.dates import format_date

from serving import LAPTOP, PHONE, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER

pytestmark = BROWSER

SIZES = {"laptop": LAPTOP, "phone": PHONE}
#: Streamlit's English that a French learner must not meet.
STREAMLIT_ENGLISH = re.compile(r"Press Enter|Running\.\.\.|\bStop\b")


def _drill(page: object, times: int) -> None:
    for _ in range(times):
        keyed_button(page, "quiz-stand").click()  # type: ignore[attr-defined]
        keyed_button(page, "quiz-next").wait_for()  # type: ignore[attr-defined]
        keyed_button(page, "quiz-next").click()  # type: ignore[attr-defined]
        wait_idle(page)


def _visible_text(page: object) -> str:
    return str(page.locator("body").inner_text())  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_quiz_and_my_progress_speak_french(
    server: str, chromium_browser: object, size: str
) -> None:
    page = new_page(chromium_browser, SIZES[size])
    page.goto(f"{server}/quiz")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Quiz").wait_for()  # type: ignore[attr-defined]
    keyed_button(page, "quiz-stand").wait_for()  # type: ignore[attr-defined]
    # The French keys on the buttons: Tirer T, Rester E (never H and S).
    stand = str(keyed_button(page, "quiz-stand").inner_text())  # type: ignore[attr-defined]
    assert stand.startswith("Rester")
    assert "E" in stand.replace("Rester", "")
    text = _visible_text(page)
    assert "Touches" in text
    assert "T tirer" in text
    screenshot(page, f"fr-quiz-{size}")
    # The Enter key on "Question suivante" is named in French (Streamlit writes "Enter").
    keyed_button(page, "quiz-stand").click()  # type: ignore[attr-defined]
    enter = page.locator(".st-key-quiz-next kbd")  # type: ignore[attr-defined]
    enter.wait_for()
    shown = enter.evaluate("e => getComputedStyle(e, '::after').content")
    assert shown == '"Entrée"', shown
    keyed_button(page, "quiz-next").click()  # type: ignore[attr-defined]
    wait_idle(page)
    _drill(page, 5)
    page.get_by_role("tab", name="Mes progrès").click()  # type: ignore[attr-defined]
    charts = page.locator('[data-testid="stVegaLiteChart"] svg')  # type: ignore[attr-defined]
    charts.first.wait_for()
    page.wait_for_timeout(1500)  # type: ignore[attr-defined]
    axis = " ".join(charts.first.locator("text").all_text_contents())
    month = format_date(datetime.now(UTC), "MMM", locale="fr")
    assert month in axis, axis  # "déc." on the time axis, not "Dec"
    assert re.search(r"\d+\u202f?%|\d+\s%", axis), axis  # the percent axis, French style
    text = _visible_text(page)
    assert not STREAMLIT_ENGLISH.search(text), STREAMLIT_ENGLISH.search(text)
    assert not re.search(r"\b(?:hard|soft|pairs):", text)
    screenshot(page, f"fr-progress-{size}")
    heading = page.get_by_role("heading", name="Erreurs par main")  # type: ignore[attr-defined]
    heading.scroll_into_view_if_needed()
    page.locator('[data-testid="stVegaLiteChart"] svg').nth(1).wait_for()  # type: ignore[attr-defined]
    heat = " ".join(page.locator('[data-testid="stVegaLiteChart"] svg').nth(1)  # type: ignore[attr-defined]
                    .locator("text").all_text_contents())
    assert " dur" in heat, heat  # rows named 13 dur, never 13 or hard:13
    assert "100 %" in heat.replace("\u202f", " ").replace("\xa0", " "), heat  # the legend
    screenshot(page, f"fr-progress-heatmap-{size}")
    page.context.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_practice_table_draws_french_cards_and_tells_the_round(
    server: str, chromium_browser: object, size: str
) -> None:
    page = new_page(chromium_browser, SIZES[size])
    page.goto(f"{server}/table")  # type: ignore[attr-defined]
    page.get_by_role("button", name="S’asseoir et distribuer").click()  # type: ignore[attr-defined]
    wait_idle(page)
    # Stand until the round ends (the next deal's button is there), then the narration is open.
    # Looked for until a deadline, not a number of turns: on a busy machine the buttons of a
    # rerun can take seconds to come, and twenty half-second looks ended one round early in CI.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if keyed_button(page, "deal").count():  # type: ignore[attr-defined]
            break
        stand = keyed_button(page, "table-stand")
        decline = keyed_button(page, "table-decline-insurance")
        if stand.count() and stand.is_enabled():  # type: ignore[attr-defined]
            stand.click()  # type: ignore[attr-defined]
        elif decline.count():  # type: ignore[attr-defined]
            decline.click()  # type: ignore[attr-defined]
        else:  # a rerun still drawing the buttons on a busy machine: look again
            page.wait_for_timeout(500)  # type: ignore[attr-defined]
            continue
        wait_idle(page)
    text = _visible_text(page)
    assert "Ce qui s’est passé" in text
    assert re.search(r"Le joueur (gagne|perd|fait égalité|a sauté)", text), text
    assert not STREAMLIT_ENGLISH.search(text)
    # Face cards carry French indices: the alt text says Roi/Dame/Valet, the image never J/Q/K.
    sources = page.locator("img.bj-card").evaluate_all(  # type: ignore[attr-defined]
        "els => els.map(e => atob(e.src.split(',')[1]))"
    )
    assert sources
    assert not any(re.search(r">[JQK]</text>", svg) for svg in sources)
    screenshot(page, f"fr-practice-{size}")
    page.context.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_lessons_and_settings_in_french(server: str, chromium_browser: object, size: str) -> None:
    page = new_page(chromium_browser, SIZES[size])
    page.goto(server)  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Leçons").wait_for()  # type: ignore[attr-defined]
    page.get_by_role("button", name="Commencer").first.wait_for()  # type: ignore[attr-defined]
    screenshot(page, f"fr-lessons-{size}")
    page.get_by_role("button", name="Commencer").first.click()  # type: ignore[attr-defined]
    wait_idle(page)
    screenshot(page, f"fr-lesson-step-{size}")
    page.goto(f"{server}/settings")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Réglages").wait_for()  # type: ignore[attr-defined]
    # Typing in a text input: Streamlit's "Press Enter to submit form" stays hidden.
    page.get_by_label("Votre nom, si vous le souhaitez").fill("Zoé")  # type: ignore[attr-defined]
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    instructions = page.locator("[data-testid='InputInstructions']")  # type: ignore[attr-defined]
    assert instructions.count() >= 1  # Streamlit drew it ...
    assert instructions.first.is_hidden()  # ... and the learner does not see it
    text = _visible_text(page)
    assert not STREAMLIT_ENGLISH.search(text), STREAMLIT_ENGLISH.search(text)
    screenshot(page, f"fr-settings-{size}")
    page.context.close()  # type: ignore[attr-defined]
