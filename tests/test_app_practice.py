"""The Practice table: legal actions only, a hint, mistakes flagged, narration, chips, family."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS
from tutor.rules import PRESETS
from tutor.strategy import judge
from tutor.ui.practice import PracticeTable
from tutor.ui.state import AppState


def _table(at: AppTest) -> PracticeTable:
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    assert state.practice is not None
    return state.practice


def test_a_round_is_played_with_a_hint_and_told_as_it_goes(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(rules=PRESETS["american-s17"]))
    at.button(key=next(b.key for b in at.button if b.label == "S'asseoir et distribuer"))
    next(b for b in at.button if b.label == "S'asseoir et distribuer").click().run()
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
    assert any("Classement final" in h.value for h in at.subheader)
    ranking = table.ranking()
    assert [s.name for s in ranking]
    assert (
        sum(s.chips for s in ranking) + table.session.bank - (table.session.tokens) == 3 * 20 + 200
    )
