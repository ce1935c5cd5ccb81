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

from tutor.render import chart_view, explain
from tutor.render.translator import Translator
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
from tutor.strategy.changes import flips
from tutor.ui.resources import store
from tutor.ui.state import app_state

ROUND_CHOICES = (100_000, 1_000_000, 5_000_000)
STRATEGIES = ("basic", *NAIVE)
CHUNK = 100_000
#: Rounds per bar of the comparison charts.
STRATEGY_ROUNDS = 1_000_000
VARIANT_ROUNDS = 2_000_000


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


def _variants(rules: TableRules, t: Translator) -> dict[str, TableRules]:
    """One rule changed at a time: the same single-option changes the Strategy page offers
    (``tutor.strategy.changes.flips``), named in the learner's language."""
    return {chart_view.flip_label(flip, t): flip.rules for flip in flips(rules)}


def _shoe_text(rules: TableRules, t: Translator) -> str:
    """The shoe a simulation deals from, in words: ``6 jeux, battus au jeton de coupe``."""
    decks = t.ngettext("{n} deck", "{n} decks", rules.decks).format(n=rules.decks)
    if rules.shuffles_every_round:
        return t.format("{decks}, shuffled after every round", decks=decks)
    return t.format("{decks}, shuffled at the cut card", decks=decks)


def _exact_help(rules: TableRules, t: Translator) -> str:
    return t.format(
        "The same rules and shoe ({shoe}), computed exactly: the first round from a full shoe,"
        " each hand played at its best for its exact cards. The simulation plays the chart"
        " through the shoe, so the two may differ by a few hundredths of a percent.",
        shoe=_shoe_text(rules, t),
    )


def _run(
    rules: TableRules, strategy: Strategy, rounds: int, label: str, t: Translator
) -> SimulationResult:
    bar = st.progress(0.0, text=label)

    def progress(partial: SimulationResult) -> None:
        app_state().simulation.running = partial
        done = f"{t.number(partial.rounds, digits=0)}/{t.number(rounds, digits=0)}"
        bar.progress(partial.rounds / rounds, text=f"{label} — {done}")

    result = simulate(rules, strategy, rounds, seed=2026, chunk=CHUNK, progress=progress)
    bar.empty()
    return result


def _running_average_chart(result: SimulationResult, edge: float | None, t: Translator) -> Any:
    _ = t.gettext
    locale = t.chart_locale()  # axes in the learner's number format (Vega's config.locale)
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
        return line.configure(locale=locale)
    rule = (
        alt.Chart(pd.DataFrame({"edge": [edge * 100]}))
        .mark_rule(color="firebrick", strokeDash=[6, 4])
        .encode(y="edge:Q")
    )
    return (line + rule).configure(locale=locale)


def _paths_chart(paths: Any, title: str, t: Translator) -> Any:  # an Altair chart
    _ = t.gettext
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
        .configure(locale=t.chart_locale())
    )


def _edges_chart(rows: list[dict[str, Any]], t: Translator) -> Any:  # an Altair chart
    """Simulated house edges as bars with ± 2 standard errors; where a row has the exact edge
    of the same rules (``exact``), a black tick marks it, so no bar is read against a figure
    for other rules or another shoe."""
    _ = t.gettext
    frame = pd.DataFrame(rows)
    frame["low"] = frame["edge"] - 2 * frame["se"]
    frame["high"] = frame["edge"] + 2 * frame["se"]
    y = alt.Y("name:N", sort=None, title=None, axis=alt.Axis(labelLimit=320))
    bars = alt.Chart(frame).mark_bar(color="#4c78a8").encode(
        x=alt.X("edge:Q", title=_("House edge (% of the bet), ± 2 standard errors")), y=y
    )
    errors = alt.Chart(frame).mark_rule(color="#555555").encode(x="low:Q", x2="high:Q", y=y)
    layers = bars + errors
    if "exact" in frame:
        exact = frame.dropna(subset=["exact"])
        ticks = alt.Chart(exact).mark_tick(color="black", thickness=3, size=18).encode(
            x="exact:Q", y=y
        )
        layers = layers + ticks
    return layers.configure(locale=t.chart_locale())


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
    results = state.simulation
    names = list(PRESETS)
    default = names.index(state.rules.name) if state.rules.name in names else 0
    c1, c2, c3 = st.columns(3)
    preset = c1.selectbox(
        _("Table rules"), names, index=default, format_func=t.preset_name, key="sim-rules"
    )
    learner = state.learner
    choices = (*STRATEGIES, "mine") if learner is not None else STRATEGIES
    strategy_name = c2.selectbox(
        _("Strategy"), choices, format_func=lambda n: _strategy_name(n, _), key="sim-strategy"
    )
    rounds = c3.select_slider(
        _("Rounds"), ROUND_CHOICES, value=ROUND_CHOICES[1],
        format_func=lambda n: t.number(n, digits=0), key="sim-rounds",
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
        results.main = (_run(rules, strategy, int(rounds), _("Playing"), t), edge)
        family = PRESETS["family"]
        results.family = bankroll_paths(
            family, _strategy(str(strategy_name), family, learner), sessions=30, rounds=10,
            stack=20,
            bet=2, seed=7,
        )
        results.evening = bankroll_paths(
            rules, strategy, sessions=20, rounds=300, stack=100, bet=2, seed=8
        )
    if compare:
        # Every bar is a simulation of the rules it names, dealt from that table's own shoe,
        # with that table's own basic strategy; the tick beside it is the exact edge of the same
        # rules. No figure for other rules or another shoe (an infinite one) is mixed in.
        rows = []
        exact = house_edge(rules)
        for name in choices:
            strategy = _strategy(name, rules, learner)
            result = _run(rules, strategy, STRATEGY_ROUNDS, _strategy_name(name, _), t)
            rows.append({"name": _strategy_name(name, _), "edge": result.house_edge * 100,
                         "se": result.standard_error * 100,
                         "exact": exact * 100 if name == "basic" else None})
        results.strategies = (rules, rows)
        variant_rows = []
        tables = {t.format("{name} (this table)", name=t.table_name(rules)): rules}
        tables.update(_variants(rules, t))
        for label, variant in tables.items():
            with st.spinner(t.format("Basic strategy for: {variant}", variant=label)):
                strategy = basic_strategy(variant)
                variant_edge = house_edge(variant)
            result = _run(variant, strategy, VARIANT_ROUNDS, label, t)
            variant_rows.append({"name": label, "edge": result.house_edge * 100,
                                 "se": result.standard_error * 100, "exact": variant_edge * 100})
        results.variants = (rules, variant_rows)

    main_run = results.main
    if main_run is not None:
        result, edge = main_run
        st.header(_("The running average settles on the house edge"))
        m1, m2, m3 = st.columns(3)
        se = result.standard_error
        m1.metric(
            _("Simulated house edge"),
            explain.simulated_edge_text(result.house_edge, se, t),
            help=t.format(
                "± {margin}: the margin of error at 95%, from this simulation's own standard"
                " error ({se}).",
                margin=t.percent(explain.margin_of_error(se)),
                se=t.percent(se),
            ),
        )
        m2.metric(_("Exact house edge"), t.percent(edge), help=_exact_help(result.rules, t))
        m3.metric(_("Rounds per second"), t.number(result.rounds_per_second, digits=0))
        if edge is not None:  # what the exact figure means (a negative one is the player's edge)
            st.caption(explain.simulation_agreement_sentence(result.house_edge, se, edge, t))
            st.caption(explain.house_edge_sentence(edge, t))
        st.altair_chart(_running_average_chart(result, edge, t), width="stretch")
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
    if results.family is not None and results.evening is not None:
        p1, p2 = st.columns(2)
        p1.altair_chart(
            _paths_chart(results.family, _("Family table: 20 chips, bet 2, ten rounds"), t),
            width="stretch",
        )
        p2.altair_chart(
            _paths_chart(results.evening, _("A long evening: 300 rounds, bet 2"), t),
            width="stretch",
        )
    if results.strategies is not None and results.variants is not None:
        compared, rows = results.strategies
        st.header(_("What each naive strategy costs next to basic strategy"))
        st.caption(
            t.format(
                "Each bar: {rounds} simulated rounds at {table}, {shoe}. The black tick: the exact"
                " house edge of the same rules (basic strategy only).",
                rounds=t.number(STRATEGY_ROUNDS, digits=0), table=t.table_name(compared),
                shoe=_shoe_text(compared, t),
            )
        )
        st.altair_chart(_edges_chart(rows, t), width="stretch")
        compared, rows = results.variants
        st.header(_("What each rule variant costs"))
        st.caption(
            t.format(
                "One rule of {table} changed at a time. Each bar: {rounds} simulated rounds of"
                " that table's own basic strategy, dealt from its own shoe. The black tick: the"
                " exact house edge of the same rules and shoe.",
                table=t.table_name(compared), rounds=t.number(VARIANT_ROUNDS, digits=0),
            )
        )
        st.altair_chart(_edges_chart(rows, t), width="stretch")


main()
