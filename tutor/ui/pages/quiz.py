"""Quiz: drills by category, one decision at a time, judged with every action's EV.

Every answer is kept for the learner at this browser (``tutor.ui.identity``; no account): each
hand is scheduled for review (``tutor.srs``), and the drill can lean towards their mistakes or ask
what is due first. The numbers come from ``tutor.progress``; this page only draws them.
"""

from __future__ import annotations

from datetime import UTC, datetime

import altair as alt
import streamlit as st

from tutor import progress
from tutor.quiz import Category, unavailable_reason
from tutor.ui import components as ui
from tutor.ui import learner_panel
from tutor.ui.resources import store
from tutor.ui.session import app_state
from tutor.ui.state import AppState

MODES = ("dealt", "focus", "due")
UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
TOTALS = tuple(range(4, 22))


def _now() -> datetime:
    return datetime.now(UTC)


def _restart(state: AppState) -> None:
    """Start the drill again with the chosen mode, restrictions and the learner's schedule."""
    category = state.quiz_category
    if unavailable_reason(category, state.rules) is not None:
        state.quiz = None
        return
    learner = state.learner
    if learner is None or state.quiz_mode == "dealt":
        state.start_quiz(category)
    elif state.quiz_mode == "focus":
        state.start_quiz(category, weight=progress.weights(store(), learner, _now()))
    else:
        items = progress.due_items(store(), learner, _now())
        state.start_quiz(category, items=items)


def _choose(state: AppState) -> None:
    chosen = st.session_state.get("quiz-category")
    if isinstance(chosen, Category):
        state.quiz_category = chosen
        _restart(state)


def _choose_mode(state: AppState) -> None:
    mode = st.session_state.get("quiz-mode")
    if mode in MODES:
        state.quiz_mode = str(mode)
        _restart(state)


def _restrict(state: AppState) -> None:
    state.quiz_ups = tuple(st.session_state.get("quiz-ups") or ())
    state.quiz_totals = tuple(st.session_state.get("quiz-totals") or ())
    _restart(state)


def _answered(state: AppState) -> None:
    """After an answer: store it under this browser's learner and reschedule its hand."""
    quiz = state.quiz
    if quiz is None or quiz.verdict is None:
        return
    learner = state.ensure_learner(store())
    progress.record(store(), learner, quiz.verdict, state.rules, _now())
    if state.quiz_mode == "focus":
        quiz.weight = progress.weights(store(), learner, _now())


def _next(state: AppState) -> None:
    if state.quiz is not None and not state.quiz.finished:
        state.quiz.next()
    elif state.quiz is not None:
        _restart(state)


def learner_bar(state: AppState) -> None:
    """Whose progress this is: kept for this browser, with a name if the learner gave one."""
    t = state.t
    learner = state.learner
    if learner is not None and learner.nickname:
        line = t.format("Progress kept for **{name}** on this browser.", name=learner.nickname)
    else:
        line = t.gettext("Your answers are kept for this browser, with no account.")
    st.caption(
        ":material/person: " + line + " " + t.gettext("See My data to continue on another device.")
    )


def drill_tab(state: AppState) -> None:
    t = state.t
    _ = t.gettext
    st.segmented_control(
        _("Category"),
        list(Category),
        default=state.quiz_category,
        format_func=lambda category: ui.category_name(category, t),
        key="quiz-category",
        on_change=_choose,
        args=(state,),
        required=True,
    )
    if state.learner is not None:
        due = len(progress.due_items(store(), state.learner, _now()))
        labels = {
            "dealt": _("As the shoe deals"),
            "focus": _("Lean towards my mistakes"),
            "due": t.format("Due for review ({count})", count=due),
        }
        st.segmented_control(
            _("Which hands"),
            MODES,
            default=state.quiz_mode,
            format_func=labels.__getitem__,
            key="quiz-mode",
            on_change=_choose_mode,
            args=(state,),
            required=True,
        )
    with st.expander(_("Restrict the drill (for teachers)")):
        st.multiselect(
            _("Dealer's up-card"),
            UPS,
            default=list(state.quiz_ups),
            format_func=t.up_card_name,
            key="quiz-ups",
            on_change=_restrict,
            args=(state,),
        )
        st.multiselect(
            _("Player's total"),
            TOTALS,
            default=list(state.quiz_totals),
            key="quiz-totals",
            on_change=_restrict,
            args=(state,),
        )
    category = state.quiz_category
    why = unavailable_reason(category, state.rules)
    if why is not None:
        st.info(t.refusal(why, {}) + " " + _("Choose other rules in Settings."))
        return
    if state.quiz is None or (state.quiz.category is not category and not state.quiz.items):
        try:
            _restart(state)
        except ValueError:
            st.warning(_("No hand of this category fits these restrictions."))
            return
    quiz = state.quiz
    if quiz is None:
        return
    st.caption(
        t.format("Table: {name}", name=state.rules.name)
        + " · "
        + _("Keys: H hit, S stand, D double, P split, U surrender, 1–4 numbers, Enter next")
    )
    with st.container(border=True):
        ui.question_prompt(quiz, state)
        ui.quiz_answers(quiz, state, key="quiz", on_done=lambda: _answered(state))
        if quiz.verdict is not None:
            ui.verdict_view(quiz.verdict, state)
            st.button(
                _("Next question"),
                key="quiz-next",
                on_click=_next,
                args=(state,),
                type="primary",
                shortcut="Enter",
            )
    st.markdown(ui.score_line(quiz, t))
    ui.ev_help(t)
    if quiz.score.answered:
        report(state)


def report(state: AppState) -> None:
    """This sitting's report: accuracy by category, EV lost per 100 decisions, worst hands."""
    quiz = state.quiz
    assert quiz is not None
    t = state.t
    score = quiz.score
    parts = [
        f"{ui.category_name(category, t)} {t.percent(accuracy, digits=0)}"
        for category, accuracy in score.accuracy_by_category().items()
    ]
    st.caption(
        " · ".join(parts)
        + " · "
        + t.format(
            "{lost} bets given away per 100 decisions",
            lost=t.number(score.ev_lost_per_100, digits=2),
        )
        + (
            " · " + t.format("close calls: {count}", count=score.acceptable)
            if score.acceptable
            else ""
        )
    )
    worst = score.worst(3)
    if worst:
        st.caption(
            t.gettext("Costliest hands:") + " " + ", ".join(f"`{item}`" for item, _ in worst)
        )


def stats_tab(state: AppState) -> None:
    t = state.t
    _ = t.gettext
    if state.learner is None:
        st.info(_("No answer stored yet: your statistics appear after your first answers."))
        return
    frame = progress.history(store(), state.learner)
    if frame.empty:
        st.info(_("No answer stored yet: your statistics appear after your first answers."))
        return
    decisions = frame[frame["item"].str.count(":") == 2]
    columns = st.columns(3)
    columns[0].metric(_("Answers"), len(frame))
    columns[1].metric(_("Right"), t.percent(float(frame["right"].mean()), digits=0))
    per_100 = 100 * float(decisions["ev_loss"].sum()) / len(decisions) if len(decisions) else 0.0
    columns[2].metric(_("Bets lost per 100 decisions"), t.number(per_100, digits=2))
    names = {category.value: ui.category_name(category, t) for category in Category}
    frame = frame.assign(category=frame["category"].map(lambda value: names.get(value, value)))
    over_time = progress.accuracy_over_time(frame)
    st.subheader(_("Accuracy over time"))
    st.altair_chart(
        alt.Chart(over_time)
        .mark_line(point=True)
        .encode(
            x=alt.X("day:T", title=_("Day")),
            y=alt.Y(
                "accuracy:Q",
                title=_("Right"),
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color("category:N", title=_("Category")),
            tooltip=["day", "category", "answers", alt.Tooltip("accuracy:Q", format=".0%")],
        ),
        width="stretch",
    )
    heat = progress.mistakes_by_hand(frame)
    if not heat.empty:
        st.subheader(_("Mistakes by hand and dealer's card"))
        st.altair_chart(
            alt.Chart(heat)
            .mark_rect()
            .encode(
                x=alt.X(
                    "up:O",
                    title=_("Dealer's up-card"),
                    sort=["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"],
                ),
                y=alt.Y("hand:O", title=_("Hand")),
                color=alt.Color(
                    "share:Q", title=_("Mistakes"), scale=alt.Scale(scheme="reds", domain=[0, 1])
                ),
                tooltip=["hand", "up", "answers", "mistakes"],
            ),
            width="stretch",
        )
    lost = progress.ev_lost_by_category(frame)
    st.subheader(_("EV given away per category"))
    st.altair_chart(
        alt.Chart(lost)
        .mark_bar()
        .encode(
            x=alt.X("category:N", title=_("Category")),
            y=alt.Y("per_100:Q", title=_("Bets lost per 100 decisions")),
            tooltip=["category", "answers", alt.Tooltip("ev_lost:Q", format=".3f")],
        ),
        width="stretch",
    )


def data_tab(state: AppState) -> None:
    learner_panel.my_data(state)


def main() -> None:
    state = app_state()
    _ = state.t.gettext
    st.title(_("Quiz"))
    learner_bar(state)
    drill, stats, data = st.tabs([_("Drill"), _("My progress"), _("My data")])
    with drill:
        drill_tab(state)
    with stats:
        stats_tab(state)
    with data:
        data_tab(state)


main()
