"""Quiz: drills by category, one decision at a time, judged with every action's EV.

Every answer is kept for the learner at this browser (``tutor.ui.cookie``; no account): each
hand is scheduled for review (``tutor.srs``), and the drill can lean towards their mistakes or ask
what is due first. The numbers come from ``tutor.progress``; this page only draws them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from tutor import progress
from tutor.cell import up_value
from tutor.quiz import QuizSession
from tutor.quiz_questions import Category, unavailable_reason
from tutor.render.naming import category_name
from tutor.ui import components as ui
from tutor.ui import learner_panel
from tutor.ui.faults import callback_guard
from tutor.ui.page_words import answers_box, verdict_box
from tutor.ui.resources import store
from tutor.ui.state import app_state
from tutor.visit import AppState, QuizMode

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
    if learner is None or state.quiz_mode is QuizMode.DEALT:
        state.start_quiz(category)
    elif state.quiz_mode is QuizMode.FOCUS:
        state.start_quiz(category, weight=progress.weights(store(), learner, _now()))
    else:
        # The items the chip counted when the learner clicked it, so that the drill deals as
        # many as the chip said (items fall due by the minute: a count taken now could differ).
        shown = state.due_shown
        items = list(shown) if shown is not None else progress.due_items(store(), learner, _now())
        state.start_quiz(category, items=items)


def _choose(state: AppState, category: object, mode: object) -> None:
    """The category and the mode the learner chose (the widgets' values, read as the page is
    drawn): a new drill when either changed, dealt where the question is drawn."""
    if isinstance(category, Category) and category is not state.quiz_category:
        state.quiz_category = category
        state.quiz = None
    if isinstance(mode, str) and mode in set(QuizMode) and mode != state.quiz_mode:
        state.quiz_mode = QuizMode(mode)
        state.quiz = None


def _restrict(state: AppState, ups: list[int], totals: list[int]) -> None:
    """The teacher's restrictions as chosen: a new drill when they changed."""
    if (tuple(ups), tuple(totals)) != (state.quiz_ups, state.quiz_totals):
        state.quiz_ups, state.quiz_totals = tuple(ups), tuple(totals)
        state.quiz = None


@callback_guard
def _answered(state: AppState) -> None:
    """After an answer: store it under this browser's learner and reschedule its hand."""
    quiz = state.quiz
    if quiz is None or quiz.verdict is None:
        return
    learner = state.ensure_learner(store())
    progress.record(store(), learner, quiz.verdict, state.rules, _now())
    if state.quiz_mode is QuizMode.FOCUS:
        quiz.weight = progress.weights(store(), learner, _now())


@callback_guard
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
    category = st.segmented_control(
        _("Category"),
        list(Category),
        default=state.quiz_category,
        format_func=lambda category: category_name(category, t),
        key="quiz-category",
        required=True,
    )
    mode: object = state.quiz_mode
    if state.learner is not None:
        due_items = progress.due_items(store(), state.learner, _now())
        # The items the chip counts: a drill of what is due deals these, as many as it said.
        state.due_shown = tuple(due_items)
        labels = {
            QuizMode.DEALT: _("As the shoe deals"),
            QuizMode.FOCUS: _("Lean towards my mistakes"),
            QuizMode.DUE: t.format("Due for review ({count})", count=len(due_items)),
        }
        mode = st.segmented_control(
            _("Which hands"),
            list(QuizMode),
            default=state.quiz_mode,
            format_func=lambda mode: labels[QuizMode(mode)],
            key="quiz-mode",
            required=True,
        )
    _choose(state, category, mode)
    # The question comes first, right under the category, so that its cards and its answers
    # fit one laptop or phone screen (issue 17); the teacher's restrictions follow it.
    question_area = st.container()
    with st.expander(_("Restrict the drill (for teachers)")):
        ups = st.multiselect(
            _("Dealer's up-card"),
            UPS,
            default=list(state.quiz_ups),
            format_func=t.up_card_name,
            key="quiz-ups",
        )
        totals = st.multiselect(
            _("Player's total"),
            TOTALS,
            default=list(state.quiz_totals),
            key="quiz-totals",
        )
    _restrict(state, ups, totals)
    with question_area:
        quiz = _question(state)
    if quiz is not None:
        ui.ev_help(t)
        if quiz.score.answered:
            report(state)


def _question(state: AppState) -> QuizSession | None:
    """The question and its answers; once answered, "Next question" where the answers were
    (in sight without scrolling), then the verdict. None when no question can be asked."""
    t = state.t
    _ = t.gettext
    category = state.quiz_category
    why = unavailable_reason(category, state.rules)
    if why is not None:
        st.info(t.refusal(why, {}) + " " + _("Choose other rules in Settings."))
        return None
    if state.quiz is None or (state.quiz.category is not category and not state.quiz.items):
        try:
            _restart(state)
        except ValueError:
            st.warning(_("No hand of this category fits these restrictions."))
            return None
    quiz = state.quiz
    if quiz is None:
        return None
    if quiz.length is not None and state.quiz_mode is QuizMode.DUE:
        # The same count as the chip: the drill deals the items the chip counted.
        answering = quiz.score.answered + (0 if quiz.verdict is not None else 1)
        st.caption(
            t.format(
                "To review: hand {n} of {total}",
                n=min(max(answering, 1), quiz.length),
                total=quiz.length,
            )
        )
    with st.container(border=True):
        ui.question_prompt(quiz, state)
        with answers_box("quiz"):
            ui.quiz_answers(quiz, state, key="quiz", on_done=lambda: _answered(state))
        if quiz.verdict is not None:
            st.button(
                _("Next question"),
                key="quiz-next",
                on_click=_next,
                args=(state,),
                type="primary",
                shortcut="Enter",
            )
            with verdict_box("quiz"):  # the focus goes there, Enter goes on
                ui.verdict_view(quiz.verdict, state)
    st.markdown(ui.score_line(quiz, t))
    st.caption(t.format("Table: {name}", name=t.table_name(state.rules)))
    with st.container(key="tutor-keys-line"):  # hidden on a touch screen (no keyboard)
        st.caption(ui.keys_line(t))
    return quiz


def report(state: AppState) -> None:
    """This sitting's report: accuracy by category, EV lost per 100 decisions, worst hands."""
    quiz = state.quiz
    assert quiz is not None
    t = state.t
    score = quiz.score
    parts = [
        f"{category_name(category, t)} {t.percent(accuracy, digits=0)}"
        for category, accuracy in score.accuracy_by_category().items()
    ]
    st.caption(
        " · ".join(parts)
        + " · "
        + t.plural(
            "{n} bet given away per 100 decisions",
            "{n} bets given away per 100 decisions",
            score.ev_lost_per_100,
            shown=t.number(score.ev_lost_per_100, digits=2),
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
            t.format(
                "Costliest hands: {hands}", hands=", ".join(t.item_name(item) for item, _ in worst)
            )
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
    columns[0].metric(_("Answers"), t.number(len(frame), digits=0))
    columns[1].metric(_("Right"), t.percent(float(frame["right"].mean()), digits=0))
    per_100 = 100 * float(decisions["ev_loss"].sum()) / len(decisions) if len(decisions) else 0.0
    columns[2].metric(_("Bets lost per 100 decisions"), t.number(per_100, digits=2))
    names = {category.value: category_name(category, t) for category in Category}
    frame = frame.assign(category=frame["category"].map(lambda value: names.get(value, value)))
    # Vega's number and time locales from Babel: axes, legends and tooltips in the learner's
    # language (``décembre``, ``50 %``).
    locale = t.chart_locale()
    over_time = progress.accuracy_over_time(frame)
    over_time = over_time.assign(
        date=over_time["day"].map(lambda day: t.date(date.fromisoformat(str(day))))
    )
    st.header(_("Accuracy over time"), anchor=False)
    st.altair_chart(
        alt.Chart(over_time)
        .mark_line(point=True)
        .encode(
            x=alt.X("day:T", title=_("Day"), axis=alt.Axis(format="%-d %b", tickCount="day")),
            y=alt.Y(
                "accuracy:Q",
                title=_("Right"),
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color("category:N", title=_("Category"), legend=alt.Legend(orient="bottom")),
            tooltip=[
                alt.Tooltip("date:N", title=_("Day")),
                alt.Tooltip("category:N", title=_("Category")),
                alt.Tooltip("answers:Q", title=_("Answers")),
                alt.Tooltip("accuracy:Q", title=_("Right"), format=".0%"),
            ],
        )
        .configure(locale=locale),
        width="stretch",
    )
    heat = progress.mistakes_by_hand(frame)
    if not heat.empty:
        mistakes_heatmap(heat, state, locale)
    lost = progress.ev_lost_by_category(frame)
    st.header(_("EV given away per category"), anchor=False)
    st.altair_chart(
        alt.Chart(lost)
        .mark_bar()
        .encode(
            x=alt.X("category:N", title=_("Category"), axis=alt.Axis(labelAngle=0)),
            y=alt.Y("per_100:Q", title=_("Bets lost per 100 decisions")),
            tooltip=[
                alt.Tooltip("category:N", title=_("Category")),
                alt.Tooltip("answers:Q", title=_("Answers")),
                alt.Tooltip("ev_lost:Q", title=_("EV given away"), format=".3f"),
            ],
        )
        .configure(locale=locale),
        width="stretch",
    )


def mistakes_heatmap(heat: pd.DataFrame, state: AppState, locale: dict[str, Any]) -> None:
    """Mistakes by hand and up-card: rows in the chart's order (hard, soft, pairs by rank), each
    hand named as a learner reads it, a cell with no mistake drawn pale green (never the red of
    an error), the count written in each cell, and the same figures as a table beside it."""
    t = state.t
    _ = t.gettext
    heat = heat.assign(
        hand_name=heat["hand"].map(t.hand_label),
        up_name=heat["up"].map(lambda up: t.up_card_name(up_value(str(up)))),
    )
    heat = heat.assign(
        cell=[
            t.format("{mistakes}/{answers}", mistakes=m, answers=a)
            for m, a in zip(heat["mistakes"], heat["answers"], strict=True)
        ]
    )
    rows = list(dict.fromkeys(heat["hand_name"]))
    ups = [t.up_card_name(up_value(up)) for up in progress.UP_ORDER]
    st.header(_("Mistakes by hand and dealer's card"), anchor=False)
    base = alt.Chart(heat).encode(
        x=alt.X("up_name:O", title=_("Dealer's up-card"), sort=ups,
                axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y("hand_name:O", title=_("Hand"), sort=rows),
    )
    cells = base.mark_rect(stroke="#ffffff").encode(
        color=alt.Color(
            "share:Q",
            title=_("Share of mistakes"),
            scale=alt.Scale(domain=[0, 0.5, 1], range=["#e3f1e4", "#f6b26b", "#a61b1b"]),
            legend=alt.Legend(format="%", values=[0, 0.5, 1], orient="bottom",
                              direction="horizontal", gradientLength=160),
        ),
        tooltip=[
            alt.Tooltip("hand_name:N", title=_("Hand")),
            alt.Tooltip("up_name:N", title=_("Dealer's up-card")),
            alt.Tooltip("answers:Q", title=_("Answers")),
            alt.Tooltip("mistakes:Q", title=_("Mistakes")),
        ],
    )
    text = base.mark_text(fontSize=12).encode(
        text="cell:N",
        color=alt.condition("datum.share > 0.6", alt.value("#ffffff"), alt.value("#1b1b1b")),
    )
    st.altair_chart(
        (cells + text).properties(height=alt.Step(28)).configure(locale=locale),
        width="stretch",
    )
    missed = heat[heat["mistakes"] > 0]
    if missed.empty:
        st.caption(_("No mistake yet on these hands: every cell is green."))
    with st.expander(_("The same figures as a table")):
        st.table(
            {
                _("Hand"): list(heat["hand_name"]),
                _("Dealer's up-card"): list(heat["up_name"]),
                _("Answers"): [t.number(int(n), digits=0) for n in heat["answers"]],
                _("Mistakes"): [t.number(int(n), digits=0) for n in heat["mistakes"]],
            }
        )


def data_tab(state: AppState) -> None:
    learner_panel.my_data(state, heading_level=2)


def main() -> None:
    state = app_state()
    _ = state.t.gettext
    st.title(_("Quiz"), anchor=False)
    drill, stats, data = st.tabs([_("Drill"), _("My progress"), _("My data")])
    with drill:
        drill_tab(state)
    with stats:
        stats_tab(state)
    with data:
        data_tab(state)
    learner_bar(state)  # whose answers these are, under the question rather than above it


main()
