"""A laptop screen at 200 % zoom (issue 29): 1280x800 at 200 % is a 640x400 CSS-pixel viewport.
In the quiz and at the practice table, a hand and its action buttons fit one screen: once the
question is scrolled to (as the focus does, landing on its first answer), the dealer's card, the
player's cards and every action button are all inside the viewport, below Streamlit's top bar.
Screenshots ``zoom-200-quiz`` and ``zoom-200-table`` under ``artifacts/screenshots/``.
"""

from __future__ import annotations

from serving import SHOTS, keyed_button, new_page, wait_idle
from tests.marks import BROWSER
from tutor.render.translator import translator

pytestmark = BROWSER

#: 1280x800 CSS pixels at 200 % zoom.
ZOOMED = {"width": 640, "height": 400}

#: The top and bottom (in the viewport) of the cards and of the action buttons, after the first
#: card is scrolled to the top of the visible area, under the top bar.
SPAN = """(keys) => {
  const header = document.querySelector("[data-testid='stHeader']");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const cards = [...document.querySelectorAll('main img.bj-card')]
    .filter((c) => c.getClientRects().length);
  const buttons = keys.flatMap((k) => [...document.querySelectorAll(`.st-key-${k} button`)])
    .filter((b) => b.getClientRects().length);
  const main = document.querySelector("[data-testid='stMain']") || document.scrollingElement;
  const label = cards[0].closest("[data-testid='stVerticalBlock'] [role=group]") || cards[0];
  const shift = label.getBoundingClientRect().top - top - 4;
  main.scrollBy(0, shift);
  const rects = [...cards, ...buttons].map((e) => e.getBoundingClientRect());
  return {top, height: window.innerHeight, cards: cards.length, buttons: buttons.length,
          first: Math.min(...rects.map((r) => r.top)),
          last: Math.max(...rects.map((r) => r.bottom))};
}"""


def _fits(page: object, keys: list[str], name: str) -> dict[str, float]:
    wait_idle(page)
    page.wait_for_function(  # type: ignore[attr-defined]
        "!document.querySelector('[data-stale=\"true\"]')"
    )
    page.wait_for_timeout(800)  # type: ignore[attr-defined]
    span: dict[str, float] = page.evaluate(SPAN, keys)  # type: ignore[attr-defined]
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))  # type: ignore[attr-defined]
    assert span["cards"] >= 2, span
    assert span["buttons"] >= 2, span
    assert span["first"] >= span["top"] - 1, span
    assert span["last"] <= span["height"], f"{name}: the actions end below the screen: {span}"
    return span


def _until_a_hand_is_to_play(page: object) -> None:
    """Past what the random deal can put first: a round already over (a natural on either side
    settles it at once, with no action to show) is dealt again, an insurance offer declined."""
    for _ in range(40):
        wait_idle(page)
        if keyed_button(page, "table-stand").count():  # type: ignore[attr-defined]
            return
        for key in ("deal", "table-decline-insurance"):
            if keyed_button(page, key).count():  # type: ignore[attr-defined]
                keyed_button(page, key).click()  # type: ignore[attr-defined]
                break
        else:  # a rerun still drawing its buttons on a busy machine: look again
            page.wait_for_timeout(500)  # type: ignore[attr-defined]
    raise AssertionError("no hand to play after forty looks")


def test_a_quiz_hand_and_its_answers_fit_a_laptop_screen_at_200_percent(
    server: str, chromium_browser: object
) -> None:
    page = new_page(chromium_browser, ZOOMED)
    page.goto(f"{server}/quiz")  # type: ignore[attr-defined]
    keyed_button(page, "quiz-stand").wait_for()
    _fits(page, ["quiz-hit", "quiz-stand", "quiz-double", "quiz-split", "quiz-surrender"],
          "zoom-200-quiz")
    page.context.close()  # type: ignore[attr-defined]


def test_a_table_hand_and_its_actions_fit_a_laptop_screen_at_200_percent(
    server: str, chromium_browser: object
) -> None:
    page = new_page(chromium_browser, ZOOMED)
    page.goto(f"{server}/table")  # type: ignore[attr-defined]
    deal = translator("fr").gettext("Sit down and deal")
    page.get_by_role("button", name=deal).click()  # type: ignore[attr-defined]
    keyed_button(page, "leave").wait_for()
    _until_a_hand_is_to_play(page)
    _fits(
        page,
        ["table-hit", "table-stand", "table-double", "table-split", "table-surrender"],
        "zoom-200-table",
    )
    page.context.close()  # type: ignore[attr-defined]
