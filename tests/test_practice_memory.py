"""Every hand counts: the practice table's moves are kept as answers (hand, up-card, table,
grade, cost), reach My progress, To review and My data, and "My mistakes" deals them again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp
from tutor.decision import Grade
from tutor.practice import PracticeTable
from tutor.progress import TABLE_CATEGORIES, point_item, weak_items
from tutor.rules import PRESETS
from tutor.store import Store, default_url
from tutor.strategy import judge
from tutor.visit import AppState

RULES = PRESETS["american-s17"]


def _table(at: AppTest) -> PracticeTable:
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    assert state.practice is not None
    return state.practice


def _play(at: AppTest, hands: int, mistakes: int) -> tuple[int, list[str]]:
    """Play ``hands`` rounds by clicking, the first ``mistakes`` decisions that have a wrong
    move made wrong on purpose, every other one as the hint says. The moves clicked, and the
    items of the mistakes."""
    table = _table(at)
    moves, missed = 0, []
    for number in range(hands):
        if number:
            at.button(key="deal").click().run()
        game = table.round
        assert game is not None
        while game.to_act() is not None:
            point = game.decision_point()
            wrong = [
                action
                for action in sorted(point.legal, key=lambda action: action.value)
                if judge(point, action, reference=table.reference).grade is Grade.WRONG
            ]
            if wrong and len(missed) < mistakes:
                action = wrong[0]
                missed.append(point_item(point)[1])
            else:
                advice = table.ask_hint()
                assert advice is not None
                action = advice.play
            at.button(key=f"table-{action.value}").click().run()
            assert not at.exception
            moves += 1
    return moves, missed


def test_every_move_at_the_table_is_kept_as_an_answer_and_its_mistakes_come_back(
    open_app: OpenApp,
) -> None:
    at = open_app("practice", AppState(rules=RULES, seed=7))
    next(b for b in at.button if b.label == "S’asseoir et distribuer").click().run()
    moves, missed = _play(at, 10, 3)
    assert len(missed) == 3
    state = at.session_state["app"]
    store = Store(default_url())
    assert state.learner is not None
    kept = store.answers(state.learner)
    assert len(kept) == moves
    assert {answer.origin for answer in kept} == {"table"}
    assert [answer.item for answer in kept if answer.grade is Grade.WRONG] == missed
    assert all(answer.rules == RULES.name and answer.dealer_up for answer in kept)
    wrong = [answer for answer in kept if answer.grade is Grade.WRONG]
    assert all(answer.ev_loss > 0 and answer.chosen != answer.best for answer in wrong)
    # The review boxes hold them: due in a minute, the missed items first.
    later = datetime.now(UTC) + timedelta(minutes=2)
    firsts = weak_items(store, state.learner, later, TABLE_CATEGORIES)[: len(set(missed))]
    assert set(firsts) == set(missed)

    # My data counts and lists them.
    at.switch_page("tutor/ui/pages/settings.py").run()
    assert not at.exception
    said = " ".join(block.value for block in at.markdown)
    assert f"{moves} coups à la table d’entraînement" in said
    listed = at.table[0].value
    assert len(listed) == moves
    assert (listed["Note"] == "erreur").sum() == 3

    # "My mistakes" deals the first missed hand again.
    at.switch_page("tutor/ui/pages/practice_page.py").run()
    at.button(key="leave").click().run()
    at.radio(key="practice-mode").set_value("mistakes").run()
    next(b for b in at.button if b.label == "S’asseoir et distribuer").click().run()
    assert not at.exception
    table = _table(at)
    assert table.replaying in missed
    assert any("Une de vos erreurs" in block.value for block in at.info)
    game = table.round
    assert game is not None
    if game.to_act() is not None:  # unless the dealer's hole card made a natural
        assert point_item(game.decision_point())[1] == table.replaying


def test_a_hint_alone_is_not_an_answer(open_app: OpenApp) -> None:
    at = open_app("practice", AppState(rules=RULES, seed=3))
    next(b for b in at.button if b.label == "S’asseoir et distribuer").click().run()
    table = _table(at)
    while table.round is not None and table.round.to_act() is None:
        at.button(key="deal").click().run()
    at.button(key="hint").click().run()
    assert not at.exception
    state = at.session_state["app"]
    assert state.learner is None or Store(default_url()).answers(state.learner) == []


def test_a_lessons_end_shows_the_score_and_its_deals_and_drills_count_as_answers(
    open_app: OpenApp,
) -> None:
    from tests.test_app_lessons import _answer_ask, _click, _play_drill
    from tutor.lessons import AskStep, DealStep, DrillStep

    at = open_app("lessons")
    _click(at, "open-hit-or-stand")
    state = at.session_state["app"]
    run = state.lesson
    assert run is not None
    asks = moves = drilled = 0
    for index, step in enumerate(run.lesson.steps):
        if isinstance(step, AskStep):
            _answer_ask(at, index, step)
            asks += 1
        elif isinstance(step, DealStep):
            for action in step.deal.expect.decisions:
                _click(at, f"deal-{index}-{action.value}")
            moves += len(step.deal.expect.decisions)
        elif isinstance(step, DrillStep):
            _play_drill(at, index)
            drilled += step.drill.count
        if index < run.total - 1:
            _click(at, "lesson-next")
    assert run.finished
    total = asks + moves + drilled
    assert run.score() == (total, total)
    shown = " ".join(block.value for block in at.markdown)
    assert f"Votre score\u00a0: **{total} sur {total}** réponses justes (100\u00a0%)." in shown
    kept = Store(default_url()).answers(state.learner)
    assert [answer.origin for answer in kept] == ["lesson"] * (moves + drilled)
    assert all(answer.grade is Grade.RIGHT for answer in kept)
