"""Simulation: play many rounds and see the house edge, the cost of mistakes and the swings.

The page only reads widgets, calls :mod:`tutor.simulate` and draws with Altair. A run goes in
chunks with a progress bar; the Stop button interrupts the script (Streamlit stops a run when a
widget changes) and the chunks done so far, kept in the session, are still drawn.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from tutor.rules import PRESETS, TableRules
from tutor.simulate import (
    NAIVE,
    SimulationResult,
    Strategy,
    bankroll_paths,
    basic_strategy,
    error_profile,
    simulate,
)
from tutor.store import Learner
from tutor.strategy import house_edge
from tutor.ui.resources import store
from tutor.ui.session import app_state

KEY = "simulation"  # st.session_state[KEY]: the last results, by chart
ROUND_CHOICES = (100_000, 1_000_000, 5_000_000)
STRATEGIES = ("basic", *NAIVE)
CHUNK = 100_000


def _results() -> dict[str, Any]:
    found = st.session_state.setdefault(KEY, {})
    assert isinstance(found, dict)
    return found


def _strategy(name: str, rules: TableRules, learner: Learner | None = None) -> Strategy:
    if name == "mine" and learner is not None:
        # Basic strategy with the learner's own mistakes, read from their stored quiz answers.
        return error_profile(rules, store().answers(learner))
    return basic_strategy(rules) if name == "basic" else NAIVE[name](rules)


def _strategy_name(name: str, _: Any) -> str:
    names = {
        "basic": _("Basic strategy"),
        "mimic-dealer": _("Mimic the dealer"),
        "never-bust": _("Never bust"),
        "always-insure": _("Always insure"),
        "mine": _("My own play (from my quiz answers)"),
    }
    return str(names.get(name, name))


def _variants(rules: TableRules) -> dict[str, TableRules]:
    """One rule changed at a time, the ones the sources disagree on."""
    changes: dict[str, dict[str, Any]] = {
        "dealer hits soft 17": {"dealer_hits_soft_17": not rules.dealer_hits_soft_17},
        "6:5 naturals": {"blackjack_pays": "6/5"},
        "1 deck": {"decks": 1},
        "8 decks": {"decks": 8},
        "no double after split": {"double_after_split": False},
        "European deal": {"hole_card": "european", "insure_additional_bets": False},
        "late surrender": {"surrender": "late"},
        "double on 9-11 only": {"double_on": "9-11"},
    }
    out = {}
    for label, change in changes.items():
        try:
            variant = rules.replace(**change)
        except ValueError:
            continue
        if variant != rules:
            out[label] = variant
    return out


def _run(rules: TableRules, strategy: Strategy, rounds: int, label: str) -> SimulationResult:
    bar = st.progress(0.0, text=label)

    def progress(partial: SimulationResult) -> None:
        _results()["running"] = partial
        bar.progress(partial.rounds / rounds, text=f"{label} — {partial.rounds:,}/{rounds:,}")

    result = simulate(rules, strategy, rounds, seed=2026, chunk=CHUNK, progress=progress)
    bar.empty()
    return result


def _running_average_chart(result: SimulationResult, edge: float | None, _: Any) -> Any:
    rounds, averages = result.running_average()
    frame = pd.DataFrame({"rounds": rounds, "edge": -averages * 100})
    line = (
        alt.Chart(frame)
        .mark_line()
        .encode(
            x=alt.X("rounds:Q", scale=alt.Scale(type="log"), title=_("Rounds played")),
            y=alt.Y("edge:Q", title=_("House edge so far (% of the bet)")),
        )
    )
    if edge is None:
        return line
    rule = (
        alt.Chart(pd.DataFrame({"edge": [edge * 100]}))
        .mark_rule(color="firebrick", strokeDash=[6, 4])
        .encode(y="edge:Q")
    )
    return line + rule


def _paths_chart(paths: Any, title: str, _: Any) -> Any:  # an Altair chart
    rows = [
        {"session": s, "round": r, "chips": float(paths[s, r])}
        for s in range(paths.shape[0])
        for r in range(paths.shape[1])
    ]
    return (
        alt.Chart(pd.DataFrame(rows), title=title)
        .mark_line(opacity=0.45)
        .encode(
            x=alt.X("round:Q", title=_("Round")),
            y=alt.Y("chips:Q", title=_("Chips")),
            color=alt.Color("session:N", legend=None),
        )
    )


def _edges_chart(rows: list[dict[str, Any]], _: Any) -> Any:  # an Altair chart
    frame = pd.DataFrame(rows)
    frame["low"] = frame["edge"] - 2 * frame["se"]
    frame["high"] = frame["edge"] + 2 * frame["se"]
    y = alt.Y("name:N", sort=None, title=None)
    bars = alt.Chart(frame).mark_bar().encode(
        x=alt.X("edge:Q", title=_("House edge (% of the bet), ± 2 standard errors")), y=y
    )
    errors = alt.Chart(frame).mark_rule(color="black").encode(x="low:Q", x2="high:Q", y=y)
    return bars + errors


def main() -> None:
    state = app_state()
    t = state.t
    _ = t.gettext
    st.title(_("Simulation"))
    st.caption(
        _(
            "Play many rounds in a second and watch the average settle on the house edge. "
            "Money is counted exactly; the cards come from a real shoe."
        )
    )
    results = _results()
    names = list(PRESETS)
    default = names.index(state.rules.name) if state.rules.name in names else 0
    c1, c2, c3 = st.columns(3)
    preset = c1.selectbox(_("Table rules"), names, index=default, key="sim-rules")
    learner = state.learner
    choices = (*STRATEGIES, "mine") if learner is not None else STRATEGIES
    strategy_name = c2.selectbox(
        _("Strategy"), choices, format_func=lambda n: _strategy_name(n, _), key="sim-strategy"
    )
    rounds = c3.select_slider(
        _("Rounds"), ROUND_CHOICES, value=ROUND_CHOICES[1], format_func=lambda n: f"{n:,}",
        key="sim-rounds",
    )
    rules = PRESETS[str(preset)]
    b1, b2, b3 = st.columns(3)
    run = b1.button(_("Run"), type="primary", key="sim-run")
    compare = b2.button(_("Compare strategies and rules"), key="sim-compare")
    b3.button(_("Stop"), key="sim-stop", help=_("Stops a long run; what is done is kept."))

    if run:
        with st.spinner(_("Computing basic strategy for these rules…")):
            strategy = _strategy(str(strategy_name), rules, learner)
            edge = house_edge(rules)
        results["main"] = (_run(rules, strategy, int(rounds), _("Playing")), edge)
        family = PRESETS["family"]
        results["family"] = bankroll_paths(
            family, _strategy(str(strategy_name), family, learner), sessions=30, rounds=10,
            stack=20,
            bet=2, seed=7,
        )
        results["evening"] = bankroll_paths(
            rules, strategy, sessions=20, rounds=300, stack=100, bet=2, seed=8
        )
    if compare:
        rows = []
        for name in choices:
            strategy = _strategy(name, rules, learner)
            result = _run(rules, strategy, 1_000_000, _strategy_name(name, _))
            rows.append({"name": _strategy_name(name, _), "edge": result.house_edge * 100,
                         "se": result.standard_error * 100})
        results["strategies"] = rows
        variant_rows = []
        base = _run(rules, basic_strategy(rules, infinite=True), 2_000_000, rules.name)
        variant_rows.append({"name": rules.name, "edge": base.house_edge * 100,
                             "se": base.standard_error * 100})
        for label, variant in _variants(rules).items():
            with st.spinner(t.format("Basic strategy for: {variant}", variant=label)):
                strategy = basic_strategy(variant, infinite=True)
            result = _run(variant, strategy, 2_000_000, label)
            variant_rows.append({"name": label, "edge": result.house_edge * 100,
                                 "se": result.standard_error * 100})
        results["variants"] = variant_rows

    main_run = results.get("main")
    if main_run is not None:
        result, edge = main_run
        st.subheader(_("The running average settles on the house edge"))
        m1, m2, m3 = st.columns(3)
        m1.metric(_("Simulated house edge"), t.percent(result.house_edge),
                  help=t.format("± {se} (one standard error)", se=t.percent(result.standard_error)))
        m2.metric(_("Exact house edge"), t.percent(edge))
        m3.metric(_("Rounds per second"), f"{result.rounds_per_second:,.0f}")
        st.altair_chart(_running_average_chart(result, edge, _), width="stretch")
        counts = result.counts
        hands = max(counts["hands"], 1)
        st.table({
            _("Result"): [_("Win"), _("Loss"), _("Push"), _("Natural"), _("Bust"), _("Double"),
                          _("Split"), _("Surrender"), _("Insurance")],
            _("Share of hands"): [
                t.percent(counts[k] / hands) for k in
                ("win", "loss", "push", "natural", "bust", "double", "split", "surrender",
                 "insurance")
            ],
        })
    if "family" in results:
        p1, p2 = st.columns(2)
        p1.altair_chart(
            _paths_chart(results["family"], _("Family table: 20 chips, bet 2, ten rounds"), _),
            width="stretch",
        )
        p2.altair_chart(
            _paths_chart(results["evening"], _("A long evening: 300 rounds, bet 2"), _),
            width="stretch",
        )
    if "strategies" in results:
        st.subheader(_("What each naive strategy costs next to basic strategy"))
        st.altair_chart(_edges_chart(results["strategies"], _), width="stretch")
        st.subheader(_("What each rule variant costs"))
        st.caption(_("Basic strategy of an infinite shoe for every variant, 2,000,000 rounds."))
        st.altair_chart(_edges_chart(results["variants"], _), width="stretch")


main()
