"""The home game's cards face down in a real browser (source 000: each player is dealt one card
face up and one face down). At a family session of three on one screen (Ana holds the bank, Ben
and Chloé bet), a player's card face down shows its face during that player's turn only, and its
back otherwise, in the picture and in what a screen reader hears; at the showdown every card
shows. Screenshots ``home-game-ben-turn``, ``home-game-chloe-turn`` and ``home-game-showdown``
under ``artifacts/screenshots/``."""

from __future__ import annotations

import re

from serving import choose_option, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER
from tutor.cards import Card
from tutor.practice import PracticeTable
from tutor.render.translator import translator
from tutor.rules import PRESETS, BankRotation

pytestmark = BROWSER

HOME = PRESETS["home-game"]
NAMES = ("Ana", "Ben", "Chloé")
#: A laptop's width, tall enough for the banker's cards, both hands and the verdicts in one shot.
TALL = {"width": 1366, "height": 1200}


def _mirror(seed: int) -> PracticeTable:
    """The session the page builds for ``?seed=<seed>`` (its first table takes the next seed)."""
    table = PracticeTable(
        HOME, seats=len(NAMES), family=True, names=NAMES,
        rotation=BankRotation.UNTIL_CARDS_RUN_OUT, seed=seed + 1,
    )
    table.deal()
    return table


def _a_deal_with_two_hands_to_play() -> tuple[int, Card, Card]:
    """The first seed whose first round gives Ben and Chloé a hand each to play, no insurance
    offer, and two cards face down that no other card of the table repeats (so that a card's
    name on the page can only be that card)."""
    for seed in range(1, 200):
        game = _mirror(seed).round
        assert game is not None
        bens, chloes = (seat.hands[0].cards for seat in game.seats)
        shown = [bens[0], chloes[0], *game.dealer]
        if (
            game.to_act() == (0, 0)
            and game.dealer_up.rank.symbol != "A"
            and not game.seats[1].hands[0].is_natural
            and bens[1] != chloes[1]
            and bens[1] not in shown
            and chloes[1] not in shown
        ):
            return seed, bens[1], chloes[1]
    raise AssertionError("no such deal in 200 seeds")


def _alts(page: object) -> list[str]:
    """What each card picture of the page says (its ``alt``), as a screen reader reads it."""
    return page.locator("main img.bj-card").evaluate_all(  # type: ignore[attr-defined]
        "(cards) => cards.map((card) => card.alt)"
    )


def test_each_players_card_face_down_shows_only_on_their_own_turn(
    server: str, chromium_browser: object
) -> None:
    t = translator("fr")
    back = t.gettext("Card face down")
    seed, bens, chloes = _a_deal_with_two_hands_to_play()
    page = new_page(chromium_browser, TALL)
    page.goto(f"{server}/settings")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Réglages").wait_for()  # type: ignore[attr-defined]
    choose_option(page, page.locator(".st-key-settings-preset"), t.preset_name("home-game"))  # type: ignore[attr-defined]
    page.goto(f"{server}/table?seed={seed}")  # type: ignore[attr-defined]
    page.get_by_text(t.gettext("Family session: 20 chips each, 10 rounds, then a ranking")).click()  # type: ignore[attr-defined]
    wait_idle(page)
    page.get_by_role("slider").focus()  # type: ignore[attr-defined]
    page.keyboard.press("ArrowRight")  # type: ignore[attr-defined]  # three players
    wait_idle(page)
    label = t.gettext("Players' names, separated by commas (each holds the bank in turn)")
    names = page.get_by_role("textbox", name=label)  # type: ignore[attr-defined]
    names.fill(", ".join(NAMES))
    names.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name=t.gettext("Sit down and deal")).click()  # type: ignore[attr-defined]
    keyed_button(page, "table-stand").wait_for()
    wait_idle(page)

    # Ben's turn: his card face down shows, Chloé's and the banker's are backs.
    alts = _alts(page)
    assert t.card_alt(bens) in alts, alts
    assert t.card_alt(chloes) not in alts, alts
    assert alts.count(back) == 2, alts
    text = page.locator("main").text_content()  # type: ignore[attr-defined]
    assert t.card_name(chloes) not in text
    screenshot(page, "home-game-ben-turn")

    keyed_button(page, "table-stand").click()  # type: ignore[attr-defined]
    wait_idle(page)
    page.get_by_text(re.compile("▶ Chloé")).wait_for()  # type: ignore[attr-defined]
    alts = _alts(page)
    assert t.card_alt(chloes) in alts, alts
    assert t.card_alt(bens) not in alts, alts
    text = page.locator("main").text_content()  # type: ignore[attr-defined]
    assert t.card_name(bens) not in text
    screenshot(page, "home-game-chloe-turn")

    keyed_button(page, "table-stand").click()  # type: ignore[attr-defined]
    keyed_button(page, "deal").wait_for()
    wait_idle(page)
    alts = _alts(page)
    assert t.card_alt(bens) in alts, alts
    assert t.card_alt(chloes) in alts, alts
    assert back not in alts, alts
    screenshot(page, "home-game-showdown")
    page.context.close()  # type: ignore[attr-defined]
