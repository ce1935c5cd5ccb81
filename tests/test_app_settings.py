"""The Settings page and the interface's languages: French by default, English a click away."""

from __future__ import annotations

from fractions import Fraction

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import PAGES, ROOT, TIMEOUT, OpenApp
from tutor.cards import Card
from tutor.decision import Action
from tutor.identity import format_code, parse_code
from tutor.render.card_pictures import card_img
from tutor.render.catalogue import LOCALE_DIR, compile_po
from tutor.render.naming import PRESET_NAMES
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.sources import SOURCES, citation
from tutor.visit import AppState


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


def test_the_french_tables_surrender_is_named_immediate_and_the_house_rule_is_an_edit(
    open_app: OpenApp,
) -> None:
    """The French casino's surrender is immediate, against any card as source 001 reads; the
    rule edit can refuse it against an Ace, a casino's house rule."""
    at = open_app("settings", AppState(rules=PRESETS["french-casino"]))
    surrender = at.selectbox(key="rule-surrender")
    assert surrender.value == "immediate"
    assert "immédiat" in surrender.options
    assert at.checkbox(key="rule-surrender-ace").value
    at.checkbox(key="rule-surrender-ace").uncheck()
    next(b for b in at.button if b.label == "Appliquer ces règles").click().run()
    assert not at.exception
    state = at.session_state["app"]
    assert state.rules.surrender_against_ace is False
    assert state.rules.name == "french-casino*"
    # No surrender at all: there is no house rule about it to keep.
    at.selectbox(key="rule-surrender").set_value("none")
    next(b for b in at.button if b.label == "Appliquer ces règles").click().run()
    assert not at.exception
    assert not at.error
    assert at.session_state["app"].rules.surrender.value == "none"


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
            f"{language}: run python -m tutor.render.catalogue to recompile the .mo file"
        )


def test_a_card_says_its_name_and_colour_and_a_hidden_card_says_so() -> None:
    fr = translator("fr")
    assert 'alt="Roi de cœur (rouge)"' in card_img(Card.parse("KH"), fr)
    assert 'alt="Carte face cachée"' in card_img(None, fr)


# -- presets by their names on screen, each with what its source is --


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_preset_has_a_name_and_a_source_cited_in_words(language: str) -> None:
    t = translator(language)
    for key, rules in PRESETS.items():
        assert key in PRESET_NAMES
        assert t.preset_name(key) != key
        cited = t.source_citation(rules)
        assert cited is not None
        assert citation(rules.source, language) in cited, f"{key}: {rules.source} is not cited"
        assert ".txt" not in cited
    shared = ROOT.parent / "shared" / "sources"  # beside the repository, where it is checked out
    if shared.exists():
        assert set(SOURCES) == {path.name for path in shared.glob("*.txt")}


def test_settings_name_the_presets_and_cite_their_sources(open_app: OpenApp) -> None:
    at = open_app("settings", AppState(language="en"))
    preset = at.selectbox(key="settings-preset")
    assert preset.options[:2] == ["Family table (rules booklet)", "French casino"]
    assert "family" not in preset.options
    captions = [caption.value for caption in at.caption]
    assert (
        "Source: a rules booklet for a family table, with worked examples and common mistakes"
        in captions
    )
    assert not any(".txt" in caption for caption in captions)
    assert at.sidebar.caption[0].value == "Table: Family table (rules booklet)"
    preset.set_value("online-six-deck").run()
    assert "Source: the rules of a single-player online game" in [c.value for c in at.caption]
    assert at.success[0].value == "The table in use: Online game, six decks"
    assert at.sidebar.caption[0].value == "Table: Online game, six decks"


def test_edited_rules_keep_the_presets_name_marked_edited(open_app: OpenApp) -> None:
    at = open_app("settings", AppState(language="en", rules=PRESETS["french-casino"]))
    at.number_input(key="rule-decks").set_value(2)
    next(b for b in at.button if b.label == "Apply these rules").click().run()
    assert at.session_state["app"].rules.name == "french-casino*"  # the id stays
    assert at.success[0].value == "The table in use: French casino (edited)"
    assert at.sidebar.caption[0].value == "Table: French casino (edited)"
    assert any("an online casino's rules page" in c.value for c in at.caption)


def test_the_french_page_cites_the_sources_in_french(open_app: OpenApp) -> None:
    at = open_app("settings")
    assert (
        "Source\u00a0: un livret de règles pour une table familiale, avec des exemples commentés et"
        " les erreurs courantes" in [caption.value for caption in at.caption]
    )


def test_the_french_page_names_the_presets_in_french(open_app: OpenApp) -> None:
    at = open_app("settings", AppState(rules=PRESETS["family"].replace(name="family*")))
    assert at.selectbox(key="settings-preset").options[0] == "Table familiale (livret de règles)"
    assert at.sidebar.caption[0].value == (
        "Table\u00a0: Table familiale (livret de règles) (règles modifiées)"
    )


# -- the settings belong to the learner: kept with their code, found again at every visit --


def _new_visit(
    monkeypatch: pytest.MonkeyPatch, token: str | None, page: str = "settings"
) -> AppTest:
    """A new browser session (a reload, a new visit, a restarted server): no state seeded, the
    browser's cookie holding ``token`` (None: a first visit)."""
    monkeypatch.setattr("tutor.ui.state.token_from_browser", lambda: token)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    if page != "lessons":
        at.switch_page(PAGES[page])
        at.run()
    assert not at.exception
    return at


def test_the_table_language_and_grading_chosen_come_back_at_the_next_visit(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app("settings")
    at.selectbox(key="settings-preset").set_value("french-casino").run()
    at.radio(key="settings-language").set_value("en").run()
    at.toggle(key="settings-exact").set_value(True).run()
    assert not at.exception
    token = at.session_state["app"].learner_token

    again = _new_visit(monkeypatch, token, "practice")
    state = again.session_state["app"]
    assert (state.rules, state.language, state.reference.value) == (
        PRESETS["french-casino"],
        "en",
        "exact",
    )
    assert again.sidebar.caption[0].value.startswith("Table: ")
    assert again.segmented_control(key="sidebar_language").value == "en"


def test_an_edited_table_comes_back_as_edited(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app("settings", AppState(rules=PRESETS["family"]))
    at.checkbox(key="rule-h17").check()
    at.number_input(key="rule-decks").set_value(2)
    next(b for b in at.button if b.label == "Appliquer ces règles").click().run()
    edited = at.session_state["app"].rules
    again = _new_visit(monkeypatch, at.session_state["app"].learner_token)
    assert again.session_state["app"].rules == edited
    assert again.number_input(key="rule-decks").value == 2


def test_the_sidebars_language_is_kept_too_and_the_settings_page_follows_it(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app("settings")
    at.segmented_control(key="sidebar_language").set_value("en").run()
    assert at.radio(key="settings-language").value == "en"
    assert at.title[0].value == "Settings"
    again = _new_visit(monkeypatch, at.session_state["app"].learner_token)
    assert again.title[0].value == "Settings"


@pytest.mark.parametrize(
    ("header", "title"),
    [
        ("en-US,en;q=0.9", "Settings"),
        ("fr-FR,fr;q=0.9,en;q=0.5", "Réglages"),
        (None, "Réglages"),
        ("de-DE,de;q=0.9", "Réglages"),
    ],
)
def test_a_first_visit_speaks_the_browsers_language_or_french(
    monkeypatch: pytest.MonkeyPatch, header: str | None, title: str
) -> None:
    monkeypatch.setattr("tutor.ui.state._accept_language", lambda: header)
    at = _new_visit(monkeypatch, None)
    assert at.title[0].value == title


def test_a_learners_saved_language_wins_over_the_browsers(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app("settings")
    at.radio(key="settings-language").set_value("en").run()
    at.radio(key="settings-language").set_value("fr").run()
    monkeypatch.setattr("tutor.ui.state._accept_language", lambda: "en-US")
    again = _new_visit(monkeypatch, at.session_state["app"].learner_token)
    assert again.title[0].value == "Réglages"


def test_a_recovery_code_typed_here_brings_the_learners_settings(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app("settings")
    at.selectbox(key="settings-preset").set_value("french-casino").run()
    at.radio(key="settings-language").set_value("en").run()
    token = at.session_state["app"].learner_token

    other = open_app("settings")  # another device, French and the family table
    other.text_input(key="data-code").input(token)
    next(b for b in other.button if b.label == "Continuer avec ce code").click().run()
    assert not other.exception
    assert other.title[0].value == "Settings"
    assert other.radio(key="settings-language").value == "en"
    assert other.selectbox(key="settings-preset").value == "french-casino"


def test_the_recovery_qr_code_holds_the_code_in_the_fragment_never_the_query(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[str] = []

    def capture(url: str) -> str:
        encoded.append(url)
        return "data:image/png;base64,"

    monkeypatch.setattr("tutor.ui.learner_panel.qr_data_uri", capture)
    state = AppState()
    at = open_app("settings", state)
    assert not at.exception
    address = encoded[-1]
    path, _, fragment = address.partition("#")
    assert fragment == f"restore={format_code(state.learner_token)}"
    assert "?" not in path
    assert parse_code(fragment.removeprefix("restore=")) not in path


def test_a_code_in_the_query_string_opens_nothing(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An old QR code's ``?restore=`` is no way in any more: codes do not belong in addresses."""
    from tutor.store import Store, default_url

    at = open_app("settings")
    token = at.session_state["app"].learner_token
    assert Store(default_url()).learner_for_token(token) is not None  # a learner to steal

    other = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    other.query_params["restore"] = token
    other.session_state["app"] = AppState()
    other.run()
    assert not other.exception
    assert other.session_state["app"].learner_token != token
    assert other.session_state["app"].data_notice is None  # not even tried


def test_a_code_handed_over_by_the_qr_pages_cookie_continues_as_that_learner(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app("settings")
    token = at.session_state["app"].learner_token
    at.radio(key="settings-language").set_value("en").run()

    monkeypatch.setattr("tutor.ui.state.restore_code_from_browser", lambda: format_code(token))
    again = _new_visit(monkeypatch, None)
    state = again.session_state["app"]
    assert state.learner_token == token
    assert again.title[0].value == "Settings"
    assert state.restore_handed  # the page deletes the handed-over cookie
    assert any("tutor_restore=" in block.value for block in again.sidebar.get("html"))


def test_a_setting_kept_after_the_learner_was_erased_in_another_tab_starts_afresh(
    tmp_path: object,
) -> None:
    """Erased in another tab, then a setting chosen here: this browser gets new rows and the
    setting is kept with them (not lost, not an error)."""
    from tutor.store import Store

    store = Store(f"sqlite:///{tmp_path}/t.sqlite3")
    try:
        state = AppState(language="en")
        erased = state.ensure_learner(store)
        store.delete_learner(erased)  # the other tab's "erase my data"
        state.save_settings(store)
        assert state.learner is not None
        kept = store.settings(state.learner)
        assert kept is not None
        assert kept.language == "en"
    finally:
        store.close()


def test_the_payout_is_named_as_the_lessons_name_it(open_app: OpenApp) -> None:
    """« 3 pour 2 » in Settings, as in the lessons and the Strategy page (issue 29), not 3:2."""
    at = open_app("settings", AppState(rules=PRESETS["family"]))
    box = at.selectbox(key="rule-bj")
    assert box.options == ["3 pour 2", "6 pour 5", "1 pour 1"]
    assert box.value == "3/2"
    english = open_app("settings", AppState(rules=PRESETS["family"], language="en"))
    assert english.selectbox(key="rule-bj").options == ["3:2", "6:5", "1:1"]
