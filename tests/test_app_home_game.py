"""The home game (source 000) where presets are listed: Settings, the practice table's session."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp
from tutor.render.translator import translator
from tutor.rules import PRESETS, BankRotation
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
