"""The home game (source 000) where presets are listed, Settings and the practice table's
session, and its players' cards face down on the session's one screen."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp
from tutor.cards import Card, parse_cards
from tutor.decision import Action
from tutor.practice import PracticeTable
from tutor.render.translator import translator
from tutor.rules import PRESETS, BankRotation
from tutor.table import deal_order, new_shoe
from tutor.visit import AppState

HOME = PRESETS["home-game"]


def _sit_down(at: AppTest) -> None:
    label = translator(at.session_state["app"].language).gettext("Sit down and deal")
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception


def test_settings_list_the_home_game_by_its_name_in_both_languages(open_app: OpenApp) -> None:
    for language, name in (
        ("en", "Home game (Vingt-et-Un, two decks, the bank passed round)"),
        ("fr", "Partie à la maison (Vingt-et-Un, deux jeux, banque tournante)"),
    ):
        at = open_app("settings", AppState(language=language))
        preset = at.selectbox(key="settings-preset")
        assert name in preset.options
        preset.set_value("home-game").run()
        assert not at.exception
        assert at.session_state["app"].rules is HOME


def test_the_practice_tables_session_plays_the_home_game_with_its_bank(open_app: OpenApp) -> None:
    """At the Home game table the family mode keeps the home game's rules (two decks) and starts
    from its convention for the bank: kept until the cards run out."""
    at = open_app("practice", AppState(language="en", rules=HOME, seed=3))
    assert any("**Home game (Vingt-et-Un" in block.value for block in at.markdown)
    assert "Vingt-et-Un" in at.caption[0].value  # source 000, cited in words
    at.radio(key="practice-mode").set_value("family").run()
    assert at.radio(key="practice-bank").value == BankRotation.UNTIL_CARDS_RUN_OUT.value
    assert any("**Home game (Vingt-et-Un" in block.value for block in at.markdown)
    at.text_input(key="practice-names").set_value("Alice, Bruno, Chloé").run()
    at.slider(key="practice-players-rotating").set_value(3).run()
    _sit_down(at)
    table = at.session_state["app"].practice
    session = table.session
    assert session is not None
    assert session.rules is HOME
    assert session.convention is BankRotation.UNTIL_CARDS_RUN_OUT
    assert session.table.shoe.decks == 2
    assert any("Alice holds the bank" in c.value for c in at.caption)
    assert len(table.round.seats) == 2  # the banker does not bet


def test_another_table_still_plays_the_family_session_by_the_booklet(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(language="en", rules=PRESETS["american-s17"]))
    at.radio(key="practice-mode").set_value("family").run()
    assert at.radio(key="practice-bank").value == BankRotation.FIXED.value
    assert any("**Family table (rules booklet)**" in block.value for block in at.markdown)


def _home_session_dealt(hands: list[str], dealer: str, then: str) -> PracticeTable:
    """A home-game family session of three (Ana holds the bank, Ben and Chloé bet), its first
    round dealt from these cards."""
    practice = PracticeTable(
        HOME, family=True, names=("Ana", "Ben", "Chloé"), seats=3,
        rotation=BankRotation.UNTIL_CARDS_RUN_OUT, seed=1,
    )
    script = deal_order(HOME, [parse_cards(hand) for hand in hands], parse_cards(dealer),
                        parse_cards(then))
    assert practice.session is not None
    practice.session.table.shoe = new_shoe(HOME, script=script)
    practice.deal()
    return practice


def _page(at: AppTest) -> str:
    """Every Markdown block, caption and verdict box of the page: the table, the verdicts, the
    narration."""
    blocks = [*at.markdown, *at.caption, *at.error, *at.warning, *at.success]
    return " ".join(block.value for block in blocks)


def test_each_players_card_face_down_shows_only_on_their_own_turn(open_app: OpenApp) -> None:
    """000 deals each player one card face down. On the session's one screen Ben sees his during
    his turn and Chloé's back; then Chloé sees hers and Ben's back, and Ben's verdict gives its
    grade alone: the better play and the reason, which can tell his card, wait for the showdown,
    where every card shows."""
    t = translator("fr")
    bens, chloes = Card.parse("2♥"), Card.parse("8♦")
    practice = _home_session_dealt(["10♠ 2♥", "9♣ 8♦"], "10♣ 7♦", "")
    at = open_app("practice", AppState(rules=HOME, practice=practice))
    page = _page(at)
    assert t.card_name(bens) in page
    assert t.card_name(chloes) not in page
    assert t.format(
        "The card dealt face down is for {name}'s eyes only: the other players see its back.",
        name="Ben",
    ) in page
    at.button(key="table-stand").click().run()  # Ben stands on 12 against a 10: a mistake
    assert not at.exception
    page = _page(at)
    assert t.card_name(chloes) in page
    assert t.card_name(bens) not in page
    waits = t.gettext(
        "The better play and its reason will be given once this player's cards are shown."
    )
    assert waits in page
    assert t.format("**{chosen}**: a mistake.", chosen=t.action_name(Action.STAND)) in page
    # Neither the reason nor the better play yet: "split was better" would tell a pair.
    hit = f"**{t.action_name(Action.HIT)}**"
    assert ":material/lightbulb:" not in page
    assert hit not in page
    at.button(key="table-stand").click().run()
    assert not at.exception
    assert practice.round is not None
    assert practice.round.is_over
    page = _page(at)
    assert t.card_name(bens) in page
    assert t.card_name(chloes) in page
    assert waits not in page
    assert ":material/lightbulb:" in page  # Ben's reason, now that his cards are shown
    assert hit in page
