"""The Practice table: legal actions only, a hint, mistakes flagged, narration, chips, family."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action
from tutor.practice import PracticeTable, SeatingError, seat_family
from tutor.render.reasons import seating_message
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.strategy import judge
from tutor.table import BankRotation, FamilySession
from tutor.visit import AppState


def _table(at: AppTest) -> PracticeTable:
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    assert state.practice is not None
    return state.practice


def test_a_round_is_played_with_a_hint_and_told_as_it_goes(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(rules=PRESETS["american-s17"]))
    at.button(key=next(b.key for b in at.button if b.label == "S’asseoir et distribuer"))
    next(b for b in at.button if b.label == "S’asseoir et distribuer").click().run()
    assert not at.exception
    table = _table(at)
    for _ in range(40):
        game = table.round
        assert game is not None
        if game.is_over:
            table.deal()
            at.run()
            continue
        break
    game = table.round
    assert game is not None
    assert game.to_act() is not None
    before = table.chips[0]  # after any round a natural settled at once
    legal = game.legal_actions()
    actions = INSURANCE_ACTIONS if game.phase.value == "insurance" else HAND_ACTIONS
    for action in actions:
        assert at.button(key=f"table-{action.value}").disabled is (action not in legal)
    at.button(key="hint").click().run()
    assert not at.exception
    assert table.hint is not None
    assert any("Conseil" in block.value for block in at.markdown)
    while game.to_act() is not None:
        advice = table.ask_hint()
        assert advice is not None
        at.button(key=f"table-{advice.play.value}").click().run()
        assert not at.exception
    assert game.is_over
    assert not table.mistakes, "playing the hints makes no mistake"
    narration = " ".join(block.value for block in at.markdown)
    assert "Le croupier" in narration
    assert table.chips[0] == before + game.results[0].net
    assert at.button(key="deal") is not None


def test_a_mistake_is_flagged_after_the_move_with_its_cost(open_app: OpenApp) -> None:
    state = AppState(rules=PRESETS["american-s17"])
    for seed in range(200):
        table = PracticeTable(state.rules, seed=seed)
        game = table.deal()
        if game.to_act() is not None and game.phase.value == "players":
            point = game.decision_point()
            mistakes = [a for a in game.legal_actions() if judge(point, a).is_mistake]
            if not mistakes:
                continue
            wrong = mistakes[0]
            break
    state.practice = table
    at = open_app("practice", state)
    at.button(key=f"table-{wrong.value}").click().run()
    assert not at.exception
    assert at.error
    assert "erreur" in at.error[0].value
    assert table.mistakes
    assert table.mistakes[0].cost > 0
    # The reason is on screen without asking for a hint first.
    assert table.hint is None
    assert any(":material/lightbulb:" in block.value for block in at.markdown)


def test_seven_seats_are_dealt_and_each_shows_its_chips(open_app: OpenApp) -> None:
    state = AppState(rules=PRESETS["american-s17"])
    state.practice = PracticeTable(state.rules, seats=7, seed=5)
    state.practice.deal()
    at = open_app("practice", state)
    assert len([c for c in at.caption if "jetons" in c.value]) == 7


@pytest.mark.slow  # ten whole rounds through the page, a script run per click
def test_the_family_session_plays_ten_rounds_then_ranks_the_players(open_app: OpenApp) -> None:
    state = AppState()
    table = PracticeTable(
        PRESETS["family"], seats=3, family=True, names=("Ana", "Ben", "Cy"), seed=1
    )
    state.practice = table
    table.deal()
    at = open_app("practice", state)
    for _ in range(200):
        game = table.round
        assert game is not None
        if table.is_over:
            break
        if game.is_over:
            at.button(key="deal").click().run()
        else:
            advice = table.ask_hint()
            assert advice is not None
            at.button(key=f"table-{advice.play.value}").click().run()
        assert not at.exception
    assert table.is_over
    assert table.session is not None
    assert table.session.round_number == 10
    assert any("Classement final" in h.value for h in at.header)
    ranking = table.ranking()
    assert [s.name for s in ranking]
    assert (
        sum(s.chips for s in ranking) + table.session.bank - (table.session.tokens) == 3 * 20 + 200
    )


# -- the family form: seats a family table can hold, every typed name seated or refused --



def _sit_down(at: AppTest) -> None:
    label = translator(at.session_state["app"].language).gettext("Sit down and deal")
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception


@pytest.mark.parametrize(
    ("bank", "key", "bounds"),
    [
        # 004: "table de deux à sept personnes au total, une personne tient la banque".
        ("fixed", "practice-players", (1, 6)),
        # 000: the players hold the bank in turn, so all seven people are players.
        ("each-round", "practice-players-rotating", (2, 7)),
        ("until-loss", "practice-players-rotating", (2, 7)),
        ("until-cards-run-out", "practice-players-rotating", (2, 7)),
    ],
)
def test_the_family_slider_offers_only_the_counts_a_family_table_seats(
    open_app: OpenApp, bank: str, key: str, bounds: tuple[int, int]
) -> None:
    at = open_app("practice", AppState(language="en"))
    assert (at.slider(key="practice-seats").min, at.slider(key="practice-seats").max) == (1, 7)
    assert FamilySession.player_bounds(BankRotation(bank)) == bounds
    # Both ends of the slider make a table (the form starts afresh after leaving the table).
    for players in bounds:
        at.radio(key="practice-mode").set_value("family").run()
        at.radio(key="practice-bank").set_value(bank).run()
        assert not at.exception
        sliders = list(at.slider)
        assert [slider.key for slider in sliders] == [key]
        assert (sliders[0].min, sliders[0].max) == bounds
        at.slider(key=key).set_value(players).run()
        _sit_down(at)
        assert not at.error
        table = _table(at)
        assert len(table.names) == players
        at.button(key="leave").click().run()


def test_two_names_for_one_player_are_refused_saying_why(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(language="en"))
    at.radio(key="practice-mode").set_value("family").run()
    at.text_input(key="practice-names").set_value("Alice, Bruno").run()
    _sit_down(at)
    assert at.session_state["app"].practice is None, "Bruno is never dropped silently"
    assert at.error[0].value == (
        "You typed 2 names for 1 player: move the Players slider to 2, or remove names."
    )
    at.slider(key="practice-players").set_value(2).run()
    _sit_down(at)
    assert not at.error
    assert _table(at).names == ("Alice", "Bruno")
    assert [p.name for p in _table(at).session.players] == ["Alice", "Bruno"]  # type: ignore[union-attr]


def test_seven_names_beside_the_bank_are_refused_in_a_sentence(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(language="en"))
    at.radio(key="practice-mode").set_value("family").run()
    at.slider(key="practice-players").set_value(6).run()
    at.text_input(key="practice-names").set_value("A, B, C, D, E, F, G").run()
    _sit_down(at)
    assert at.session_state["app"].practice is None
    message = at.error[0].value
    assert message == (
        "The family table seats 7 people at most, the bank included: 6 players besides the"
        " bank, and you typed 7 names."
    )
    # With the rotating bank there is no separate bank: the same seven are seated.
    at.radio(key="practice-bank").set_value("each-round").run()
    at.slider(key="practice-players-rotating").set_value(7).run()
    _sit_down(at)
    assert not at.error
    assert _table(at).names == tuple("ABCDEFG")


def test_a_name_typed_twice_is_refused_and_missing_names_are_numbered(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(language="en"))
    at.radio(key="practice-mode").set_value("family").run()
    at.slider(key="practice-players").set_value(3).run()
    at.text_input(key="practice-names").set_value("Ana, ana").run()
    _sit_down(at)
    assert at.error[0].value == "Two players are called ana: give each a different name."
    at.text_input(key="practice-names").set_value("Ana").run()
    _sit_down(at)
    assert _table(at).names == ("Ana", "Player 2", "Player 3")


def test_every_seating_refusal_is_a_sentence_in_both_languages() -> None:
    cases = [
        (["Alice", "Bruno"], 1, BankRotation.FIXED),
        (list("ABCDEFG"), 6, BankRotation.FIXED),
        (list("ABCDEFGH"), 7, BankRotation.UNTIL_LOSS),
        (["Ana", "ANA"], 2, BankRotation.FIXED),
        ([], 1, BankRotation.EACH_ROUND),
    ]
    for typed, players, rotation in cases:
        with pytest.raises(SeatingError) as raised:
            seat_family(typed, players, rotation)
        for language in ("fr", "en"):
            sentence = seating_message(raised.value, translator(language))
            assert sentence.endswith("."), sentence
            assert "{" not in sentence
            assert str(raised.value) not in sentence


def test_the_practice_table_names_its_rules_and_cites_their_source(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(language="en", rules=PRESETS["french-casino"]))
    assert any("**French casino**" in block.value for block in at.markdown)
    assert "Source: an online casino's rules page" in at.caption[0].value
    at.radio(key="practice-mode").set_value("family").run()
    # The family session is played at the family table, and says so.
    assert any("**Family table (rules booklet)**" in block.value for block in at.markdown)
    assert "a rules booklet for a family table" in at.caption[0].value
    assert all(".txt" not in caption.value for caption in at.caption)
    fr = open_app("practice", AppState(rules=PRESETS["french-casino"]))
    assert "Source\u00a0: la page de règles d’un casino en ligne" in fr.caption[0].value


def test_the_practice_table_names_its_rules_in_french(open_app: OpenApp) -> None:
    at = open_app("practice", AppState())
    assert any("**Table familiale (livret de règles)**" in b.value for b in at.markdown)


def test_the_rotating_bank_until_the_cards_run_out_is_played_in_the_app(
    open_app: OpenApp,
) -> None:
    # 000: "le Banquier peut rester le même jusqu'à épuisement des cartes".
    at = open_app("practice", AppState(language="en", seed=7))
    at.radio(key="practice-mode").set_value("family").run()
    at.radio(key="practice-bank").set_value("until-cards-run-out").run()
    assert "keeps the bank while the cards last" in " ".join(c.value for c in at.caption)
    assert "the older Vingt-et-Un" in " ".join(c.value for c in at.caption)
    at.text_input(key="practice-names").set_value("Alice, Bruno, Chloé").run()
    at.slider(key="practice-players-rotating").set_value(3).run()
    _sit_down(at)
    table = _table(at)
    session = table.session
    assert session is not None
    assert session.rotation is BankRotation.UNTIL_CARDS_RUN_OUT
    assert any("Alice holds the bank" in c.value for c in at.caption)
    assert len(table.round.seats) == 2  # type: ignore[union-attr]  # the banker does not bet
    told: list[str] = []
    while session.banker == 0 and not table.is_over:
        game = table.round
        assert game is not None
        if game.is_over:
            told.append(next(c.value for c in at.caption if "holds the bank" in c.value))
            at.button(key="deal").click().run()
        else:
            advice = table.ask_hint()
            assert advice is not None
            at.button(key=f"table-{advice.play.value}").click().run()
        assert not at.exception
    assert session.banker == 1
    assert any("Alice keeps the bank" in line for line in told), "the cards last a few rounds"
    assert "the bank passes to Bruno" in next(
        c.value for c in at.caption if "holds the bank" in c.value
    )
    assert len(session.table.shoe) == 52, "the cards are gathered for the next banker"



def test_a_click_the_table_refuses_is_explained_in_french_where_it_was_made(
    open_app: OpenApp,
) -> None:
    """A button drawn before the hand changed (the same table played on in another tab) is
    still clicked: the table refuses the move, and the page says why in its language, under
    the buttons, rather than doing nothing."""
    at = open_app("practice")
    next(b for b in at.button if b.label == "S’asseoir et distribuer").click().run()
    table = _table(at)
    for _ in range(40):  # past naturals and insurance offers, to a hand to play
        game = table.round
        assert game is not None
        if game.is_over:
            table.deal()
        elif game.phase.value == "insurance":
            table.act(Action.DECLINE_INSURANCE)
        else:
            break
    at.run()
    assert not at.button(key="table-stand").disabled
    table.act(Action.STAND)  # the other tab: the round is over, this page does not know yet
    game = table.round
    assert game is not None
    refusal = game.refusal(Action.STAND)
    assert refusal is not None
    at.button(key="table-stand").click().run()
    assert not at.exception
    sentence = translator("fr").refusal(*refusal)
    assert sentence.startswith("Le coup est terminé")
    assert sentence in [block.value for block in at.error]
