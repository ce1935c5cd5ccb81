"""The Simulation page: a run draws the running average, the paths and the outcome table."""

from __future__ import annotations

from tests.conftest import ROOT, OpenApp
from tutor.rules import PRESETS
from tutor.ui.state import AppState

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
    assert len(at.table) == 1  # type: ignore[attr-defined]
    charts = [e for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    assert len(charts) == 3, "the running average and two sets of bankroll paths"
