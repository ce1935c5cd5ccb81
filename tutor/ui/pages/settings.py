"""Settings: the language, the presentation mode and the table rules (a preset, maybe edited)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import streamlit as st

from tutor.render.catalogue import LANGUAGES
from tutor.rules import PRESETS, DoubleOn, HoleCard, InvalidRulesError, Surrender
from tutor.strategy import Reference
from tutor.ui import components as ui
from tutor.ui import learner_panel
from tutor.ui.state import RULE_WIDGETS, app_state, settings_changed
from tutor.visit import AppState

#: Where a refused table is explained: under the rules' form.
RULES_FORM = "rules-form"


def _language(state: AppState, chosen: object) -> None:
    """The language the radio shows, when the learner picked another: kept, and the page drawn
    again in it (the navigation and the sidebar above are already drawn)."""
    if chosen in LANGUAGES and chosen != state.language:
        state.language = str(chosen)
        settings_changed(state, widgets=("sidebar_language",))
        st.rerun()


def _reference(state: AppState, exact: bool) -> None:
    if exact is not (state.reference is Reference.EXACT):
        state.set_reference(Reference.EXACT if exact else Reference.CHART)
        settings_changed(state)


def _preset(state: AppState, name: object) -> None:
    """Another preset picked: the table changes, and the page draws it (the sidebar names it)."""
    if isinstance(name, str) and name in PRESETS and name != state.rules.preset:
        state.set_rules(PRESETS[name])
        ui.clear_refusal(state, RULES_FORM)
        settings_changed(state, widgets=RULE_WIDGETS)
        st.rerun()


@dataclass(frozen=True)
class RuleEdits:
    """What the rules form held when it was sent (the widgets' values)."""

    decks: int
    h17: bool
    hole: str
    bj: str
    double_on: str
    das: bool
    hands: int
    surrender: str
    surrender_ace: bool


def _apply_edits(state: AppState, edits: RuleEdits) -> None:
    """Build the edited rules from the form; the engine refuses impossible combinations."""
    base = PRESETS.get(state.rules.preset, state.rules)
    try:
        surrender = Surrender(edits.surrender)
        rules = base.edited(
            decks=int(edits.decks),
            dealer_hits_soft_17=bool(edits.h17),
            hole_card=HoleCard(edits.hole),
            blackjack_pays=Fraction(edits.bj),
            double_on=DoubleOn(edits.double_on),
            double_after_split=bool(edits.das),
            max_hands=int(edits.hands),
            surrender=surrender,
            # Refusing surrender against an Ace is a house rule of a table that offers it.
            surrender_against_ace=surrender is Surrender.NONE or bool(edits.surrender_ace),
        )
    except InvalidRulesError as error:
        ui.refuse(state, RULES_FORM, error)
        return
    ui.clear_refusal(state, RULES_FORM)
    state.set_rules(rules)
    settings_changed(state)
    st.rerun()  # the sidebar and the source above name the new table


def main() -> None:
    state = app_state()
    t = state.t
    _ = t.gettext
    st.title(_("Settings"), anchor=False)
    language = st.radio(
        _("Language"),
        LANGUAGES,
        index=LANGUAGES.index(state.language),
        format_func=lambda code: {"fr": "Français", "en": "English"}[code],
        key="settings-language",
        horizontal=True,
    )
    _language(state, language)
    st.header(_("My data"), anchor=False)
    learner_panel.my_data(state)
    st.header(_("Grading"), anchor=False)
    exact = st.toggle(
        _("Grade my moves against the exact play for the cards dealt (advanced)"),
        value=state.reference is Reference.EXACT,
        key="settings-exact",
    )
    _reference(state, exact)
    st.caption(
        _(
            "By default every move is graded against the strategy chart of the table's rules,"
            " the one the lessons teach: one play per total. With a few exact hands another play"
            " is worth slightly more; the verdict always says so. Graded against the exact play,"
            " following the chart there counts as a close call or a mistake."
        )
    )
    st.header(_("Table rules"), anchor=False)
    presets = list(PRESETS)
    current = state.rules.preset
    preset = st.selectbox(
        _("Preset"),
        presets,
        index=presets.index(current) if current in presets else 0,
        format_func=t.preset_name,
        key="settings-preset",
    )
    _preset(state, preset)
    rules = state.rules
    cited = t.source_citation(rules)
    if cited:
        st.caption(cited)
    with st.form("rules-form"):
        st.markdown(_("Edit the rules"))
        c1, c2 = st.columns(2)
        decks = c1.number_input(_("Decks"), 1, 8, rules.decks, key="rule-decks")
        h17 = c1.checkbox(_("Dealer hits soft 17"), rules.dealer_hits_soft_17, key="rule-h17")
        hole = c1.selectbox(
            _("Hole card"),
            [hole.value for hole in HoleCard],
            index=list(HoleCard).index(rules.hole_card),
            format_func=lambda v: (
                _("American (hole card, dealer peeks)")
                if v == "american"
                else _("European (no hole card)")
            ),
            key="rule-hole",
        )
        bj = c1.selectbox(
            _("A natural pays"),
            ["3/2", "6/5", "1"],
            index=["3/2", "6/5", "1"].index(str(rules.blackjack_pays))
            if str(rules.blackjack_pays) in ("3/2", "6/5", "1")
            else 0,
            format_func=lambda v: t.ratio(Fraction(v)),
            key="rule-bj",
        )
        double_on = c2.selectbox(
            _("Double on"),
            [d.value for d in DoubleOn],
            index=list(DoubleOn).index(rules.double_on),
            format_func=lambda v: {
                "any": _("any two cards"),
                "9-11": _("9, 10 or 11"),
                "10-11": _("10 or 11"),
            }[v],
            key="rule-double-on",
        )
        das = c2.checkbox(_("Double after a split"), rules.double_after_split, key="rule-das")
        hands = c2.number_input(
            _("Most hands after splitting"), 1, 4, rules.max_hands, key="rule-hands"
        )
        surrender = c2.selectbox(
            _("Surrender"),
            [s.value for s in Surrender],
            index=list(Surrender).index(rules.surrender),
            format_func=lambda v: {
                "none": _("none"),
                "late": _("late"),
                "immediate": _("immediate"),
            }[v],
            key="rule-surrender",
        )
        surrender_ace = c2.checkbox(
            _("Surrender against an Ace too (refusing it is a casino's house rule)"),
            rules.surrender_against_ace,
            key="rule-surrender-ace",
        )
        sent = st.form_submit_button(_("Apply these rules"))
    if sent:  # the form's values as sent, read where they are drawn
        _apply_edits(
            state,
            RuleEdits(
                int(decks), h17, str(hole), str(bj), str(double_on), das, int(hands),
                str(surrender), surrender_ace,
            ),
        )
    ui.refusal_note(state, RULES_FORM)
    st.success(t.format("The table in use: {name}", name=t.table_name(state.rules)))


main()
