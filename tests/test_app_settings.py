"""The Settings page and the interface's languages: French by default, English a click away."""

from __future__ import annotations

from fractions import Fraction

from tests.conftest import OpenApp
from tutor.cards import Card
from tutor.decision import Action
from tutor.i18n import LOCALE_DIR, compile_po, translator
from tutor.rules import PRESETS
from tutor.ui.cards import card_img
from tutor.ui.state import AppState


def test_switching_to_english_translates_the_page(open_app: OpenApp) -> None:
    at = open_app("settings")
    assert at.title[0].value == "Réglages"
    at.radio(key="settings-language").set_value("en").run()
    assert not at.exception
    assert at.title[0].value == "Settings"


def test_choosing_a_preset_changes_the_table_everywhere(open_app: OpenApp) -> None:
    at = open_app("settings")
    at.selectbox(key="settings-preset").set_value("french-casino").run()
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    assert state.rules.name == "french-casino"


def test_edited_rules_are_checked_by_the_engine(open_app: OpenApp) -> None:
    at = open_app("settings", AppState(rules=PRESETS["family"]))
    at.checkbox(key="rule-h17").check()
    at.number_input(key="rule-decks").set_value(2)
    next(b for b in at.button if b.label == "Appliquer ces règles").click().run()
    state = at.session_state["app"]
    assert state.rules.dealer_hits_soft_17
    assert state.rules.decks == 2
    assert state.rules.name == "family*"


def test_numbers_follow_the_locale() -> None:
    assert translator("fr").percent(0.004) == "0,40\u00a0%"
    assert translator("en").percent(0.004) == "0.40%"
    assert translator("fr").chips(Fraction(15, 2)) == "7,5"
    assert translator("fr").ev(-0.4748) == "−0,475"


def test_engine_words_become_sentences_in_both_languages() -> None:
    fr, en = translator("fr"), translator("en")
    assert fr.action_name(Action.SURRENDER) == "Abandonner"
    assert en.card_alt(Card.parse("Q♥")) == "Queen of hearts (red)"
    assert fr.refusal("max-hands", {"max_hands": 2}) == (
        "Cette table autorise au plus 2 mains par place."
    )
    sentence = fr.reason(
        "dealer-busts-often", {"up": 6, "bust": 0.42, "total": 13, "player_bust": 0.39}
    )
    assert sentence is not None
    assert "42" in sentence
    assert "13" in sentence
    assert "39" in sentence


def test_every_message_is_translated_and_the_mo_files_match_the_po_files() -> None:
    for language in ("fr", "en"):
        folder = LOCALE_DIR / language / "LC_MESSAGES"
        po = (folder / "messages.po").read_text(encoding="utf-8")
        assert 'msgstr ""\n\n' not in po.split("\n\n", 1)[1], f"{language}: an empty msgstr"
        assert compile_po(folder / "messages.po") == (folder / "messages.mo").read_bytes(), (
            f"{language}: run python -m tutor.i18n to recompile the .mo file"
        )


def test_a_card_says_its_name_and_colour_and_a_hidden_card_says_so() -> None:
    fr = translator("fr")
    assert 'alt="Roi de cœur (rouge)"' in card_img(Card.parse("KH"), fr)
    assert 'alt="Carte face cachée"' in card_img(None, fr)
