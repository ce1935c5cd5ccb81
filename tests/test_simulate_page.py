"""The Simulation page: a run draws the running average, the paths and the outcome table."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, OpenApp
from tutor.rules import PRESETS
from tutor.visit import AppState

PAGE = "tutor/ui/pages/simulation.py"


def open_simulation(open_app: OpenApp, state: AppState) -> object:
    at = open_app("lessons", state)
    at.switch_page(PAGE)
    at.run()
    return at


def test_the_page_opens_without_running_anything(open_app: OpenApp) -> None:
    at = open_simulation(open_app, AppState(rules=PRESETS["family"]))
    assert not at.exception  # type: ignore[attr-defined]
    assert (ROOT / PAGE).exists()


def test_a_run_shows_the_house_edge_the_paths_and_the_outcomes(open_app: OpenApp) -> None:
    at = open_simulation(open_app, AppState(rules=PRESETS["family"]))
    at.select_slider(key="sim-rounds").set_value(100_000).run()  # type: ignore[attr-defined]
    at.button(key="sim-run").click().run()  # type: ignore[attr-defined]
    assert not at.exception  # type: ignore[attr-defined]
    labels = [metric.label for metric in at.metric]  # type: ignore[attr-defined]
    assert len(labels) == 3
    assert "%" in at.metric[0].value  # type: ignore[attr-defined]
    # The family table's edge is negative: the page says it is the player's edge.
    captions = " ".join(c.value for c in at.caption)  # type: ignore[attr-defined]
    assert "avantage pour le joueur" in captions.replace("\u00a0", " ")
    assert len(at.table) == 1  # type: ignore[attr-defined]
    charts = [e for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    assert len(charts) == 3, "the running average and two sets of bankroll paths"


def test_a_signed_in_learner_simulates_their_own_play(open_app: OpenApp) -> None:
    """The learner's stored quiz answers become a strategy the simulator plays."""
    import random
    from datetime import UTC, datetime

    from tutor import progress
    from tutor.identity import new_token
    from tutor.quiz import QuizSession
    from tutor.quiz_questions import Category
    from tutor.store import Store, default_url
    from tutor.strategy import advise

    rules = PRESETS["family"]
    at = open_simulation(open_app, AppState(rules=rules))  # sets this test's database folder
    store = Store(default_url())
    learner = store.learner_for_token(new_token())
    assert learner is not None
    quiz = QuizSession(Category.HARD, rules, seed=random.Random(1).randrange(1000))
    for _ in range(5):
        question = quiz.question
        assert question is not None
        assert question.point is not None
        best = advise(question.point).best
        wrong = next(action for action in question.point.legal if action is not best)
        progress.record(store, learner, quiz.answer(wrong), rules, datetime.now(UTC))
        quiz.next()
    store.close()
    at = open_simulation(open_app, AppState(rules=rules, learner=learner))
    options = at.selectbox(key="sim-strategy").options  # type: ignore[attr-defined]
    assert len(options) == 5, "the learner's own play is offered beside the four others"
    at.selectbox(key="sim-strategy").set_value("mine").run()  # type: ignore[attr-defined]
    at.select_slider(key="sim-rounds").set_value(100_000).run()  # type: ignore[attr-defined]
    at.button(key="sim-run").click().run()  # type: ignore[attr-defined]
    assert not at.exception  # type: ignore[attr-defined]
    assert "%" in at.metric[0].value  # type: ignore[attr-defined]


@pytest.mark.slow
def test_every_bar_of_the_comparison_says_which_rules_and_shoe_it_is_for(
    open_app: OpenApp,
) -> None:
    """Issue 15: the variants chart mixed an infinite-shoe figure with the exact six-deck edge.
    Now each bar is a simulation of the rules it names, with that table's own chart and shoe,
    and the tick beside it is the exact edge of the same rules."""
    from tutor.render import chart_view
    from tutor.render.translator import translator
    from tutor.strategy import house_edge
    from tutor.strategy.changes import flips

    rules = PRESETS["online-six-deck"]
    at = open_simulation(open_app, AppState(rules=rules))
    at.selectbox(key="sim-rules").set_value("online-six-deck").run()  # type: ignore[attr-defined]
    at.button(key="sim-compare").click().run()  # type: ignore[attr-defined]
    assert not at.exception  # type: ignore[attr-defined]
    results = at.session_state["app"].simulation  # type: ignore[attr-defined]
    assert results.variants is not None
    compared, rows = results.variants
    assert compared == rules
    fr = translator("fr")
    names = [row["name"] for row in rows]
    assert names[0] == "Jeu en ligne à six jeux (cette table)"
    assert names[1:] == [chart_view.flip_label(flip, fr) for flip in flips(rules)]
    variants = [rules, *(flip.rules for flip in flips(rules))]
    for row, variant in zip(rows, variants, strict=True):
        assert row["exact"] == pytest.approx(house_edge(variant) * 100)
        # The same rules and shoe: the simulation lands within five standard errors of it
        # (the chart is total-dependent and dealt to the cut card; the exact edge is not).
        assert abs(row["edge"] - row["exact"]) < 5 * row["se"] + 0.05, row["name"]
    assert results.strategies is not None
    _, strategies = results.strategies
    basic = next(row for row in strategies if row["name"] == "Stratégie de base")
    assert basic["exact"] == pytest.approx(house_edge(rules) * 100)
    captions = " ".join(caption.value for caption in at.caption)  # type: ignore[attr-defined]
    assert "son propre sabot" in captions
    assert "6 jeux, battus à la carte de coupe" in captions
    assert "infini" not in captions


def test_the_simulated_edge_shows_its_margin_of_error_and_says_where_the_exact_one_lies(
    open_app: OpenApp,
) -> None:
    """Issue 29: « −0,12 % ± 0,23 % », the margin at 95 % from the run's own standard error, and
    a sentence on whether the exact value lies inside it, computed from the same figures."""
    from tutor.render import explain
    from tutor.render.translator import translator
    from tutor.simulate import basic_strategy, simulate
    from tutor.strategy import house_edge

    rules = PRESETS["family"]
    at = open_simulation(open_app, AppState(rules=rules))
    at.select_slider(key="sim-rounds").set_value(100_000).run()  # type: ignore[attr-defined]
    at.button(key="sim-run").click().run()  # type: ignore[attr-defined]
    assert not at.exception  # type: ignore[attr-defined]
    # The same run as the page's (same rules, rounds and seed), read from the simulator.
    result = simulate(rules, basic_strategy(rules), 100_000, seed=2026, chunk=100_000)
    fr = translator("fr")
    margin = explain.margin_of_error(result.standard_error)
    assert margin == pytest.approx(1.96 * result.standard_error, rel=1e-3)
    shown = at.metric[0].value  # type: ignore[attr-defined]
    assert shown == f"{fr.percent(result.house_edge)}\u00a0±\u00a0{fr.percent(margin)}"
    exact = house_edge(rules)
    inside = abs(exact - result.house_edge) <= margin
    captions = " ".join(c.value for c in at.caption)  # type: ignore[attr-defined]
    said = "est dans la marge d’erreur" if inside else "est hors de la marge d’erreur"
    assert said in captions
    assert fr.percent(exact) in captions
