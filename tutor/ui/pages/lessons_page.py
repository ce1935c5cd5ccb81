"""Lessons: the course list with progress, and the lesson player.

A learner is offered only the lessons that play: a broken lesson file (or one the strategy
contradicts) is left out of the list, its problems in the server's log and on the teacher's
side (``Course.broken``, ``tutor check``), and a lesson written in one language only is offered
to the learners of that language."""

from __future__ import annotations

import logging
import re

import streamlit as st

from tutor.decision import Action
from tutor.game import IllegalActionError
from tutor.lessons import (
    AskStep,
    Course,
    DealStep,
    Lesson,
    localize,
)
from tutor.lessons.fields import Translations
from tutor.lessons.lesson import StepCases
from tutor.lessons.models import ActionAnswer, Ask, ChoiceAnswer, Show
from tutor.lessons.play import MAX_TYPED, ask_actions, settle_round
from tutor.lessons.run import Decision, LessonRun, NotOfferedError
from tutor.render.markup import lesson_markdown, plain_title
from tutor.render.naming import category_name
from tutor.ui import components as ui
from tutor.ui.faults import callback_guard
from tutor.ui.homework_box import lesson_worked, todo_box
from tutor.ui.keyboard import keyboard_for, numeric_keyboard
from tutor.ui.page_words import answers_box, verdict_box
from tutor.ui.resources import course_check, shelf, store
from tutor.ui.state import app_state
from tutor.visit import AppState

_LOG = logging.getLogger(__name__)
#: A teacher's preview plays its draft under this mark before its link token (« Mes leçons »).
PREVIEW_PREFIX = "~"


def course(paths: tuple[str, ...] | None) -> Course:
    """The course as listed: checked against the strategy once that background check is done
    (``tutor.ui.resources.CourseCheck``); the built-in course when ``paths`` is None."""
    return course_check(paths).course


def _text(text: str | Translations, state: AppState) -> str:
    """A lesson's own text in the learner's language, with the Translator's typography (the
    French non-breaking spaces a YAML author need not type), and no picture fetched from any
    host (``tutor.render.markup``: a teacher's lesson is read by students)."""
    return lesson_markdown(state.t.typeset(localize(text, state.language)))


def _title(text: str | Translations, state: AppState) -> str:
    """A lesson's title as a heading shows it: as typed, on one line, bounded."""
    return plain_title(state.t.typeset(localize(text, state.language)))


def course_list(state: AppState) -> None:
    t = state.t
    _ = t.gettext
    st.title(_("Lessons"), anchor=False)
    todo_box(state)
    loaded = course(state.lesson_paths)
    for number, lesson in enumerate(loaded.lessons_for(state.language), start=1):
        _lesson_card(state, lesson, f"{number}. ")
    teachers = shelf().opened_lessons(state.progress)
    if teachers:
        st.markdown("### " + _("Your teachers' lessons"))
        st.caption(_("The lessons you opened from a teacher's link, as they are published now."))
    for token, lesson in teachers:
        _lesson_card(state, lesson, "", token=token)


def _lesson_card(state: AppState, lesson: Lesson, number: str, *, token: str | None = None) -> None:
    """One lesson of the list with its progress and its buttons; a teacher's lesson (``token``,
    its link's) can also be taken off the list."""
    t = state.t
    _ = t.gettext
    levels = {1: _("beginner"), 2: _("intermediate"), 3: _("advanced")}
    done = min(state.progress.get(lesson.id, 0), len(lesson.steps))
    total = len(lesson.steps)
    with st.container(border=True, key=f"teacher-lesson-{token}" if token else None):
        title_col, button_col = st.columns([4, 1], vertical_alignment="center")
        with title_col:
            st.markdown(f"**{number}{_title(lesson.title, state)}**")
            st.caption(
                t.format("Level: {level}", level=levels[lesson.level])
                + " · "
                + " ".join(_text(goal, state) for goal in lesson.goals[:1])
            )
            st.progress(
                done / total,
                # English counts the steps of the lesson, French the steps done.
                text=t.plural("{n} of {total} steps", "{n} of {total} steps", done,
                              total=total),
            )
        with button_col:
            label = _("Continue")
            if done == 0:
                label = _("Start")
            elif done == total:
                label = _("Review")
            st.button(
                label,
                key=f"open-{lesson.id}",
                on_click=_open if token is None else _open_teachers,
                args=(state, lesson) if token is None else (state, lesson, token),
                width="stretch",
            )
            if done > 0:
                st.button(
                    _("Start again"),
                    key=f"restart-{lesson.id}",
                    on_click=_restart,
                    args=(state, lesson),
                    type="tertiary",
                    width="stretch",
                )
            if token is not None:
                st.button(
                    _("Remove from my list"),
                    key=f"forget-{lesson.id}",
                    on_click=_forget,
                    args=(state, lesson),
                    type="tertiary",
                    icon=":material/delete:",
                    width="stretch",
                    help=_("Its progress is erased; the teacher's link opens it again."),
                )


@callback_guard
def _open(state: AppState, lesson: Lesson) -> None:
    """Open a lesson where this learner left it; its id in the address survives a reload."""
    state.open_lesson(lesson, store())
    st.query_params["lesson"] = lesson.id


@callback_guard
def _open_teachers(state: AppState, lesson: Lesson, token: str) -> None:
    """A teacher's lesson opened again from the list: by its link in the address, as the
    teacher gave it, so that a reload reopens it."""
    state.open_lesson(lesson, store())
    st.query_params["l"] = token


@callback_guard
def _forget(state: AppState, lesson: Lesson) -> None:
    """A teacher's lesson taken off the list: its progress erased (the link opens it again)."""
    if state.learner is not None:
        store().reset_lesson(state.learner, lesson.id)
    state.progress.pop(lesson.id, None)


@callback_guard
def _restart(state: AppState, lesson: Lesson) -> None:
    state.restart_lesson(lesson, store())
    st.query_params["lesson"] = lesson.id


@callback_guard
def _close(state: AppState) -> None:
    state.close_lesson(store())
    st.query_params.pop("lesson", None)
    st.query_params.pop("l", None)


def _record(state: AppState) -> None:
    """Store what was just done on the step on screen, and where the learner is."""
    if state.lesson is not None:
        state.record_progress(store(), state.lesson.step)
        lesson_worked(state)


def _action_answer_buttons(run: LessonRun, state: AppState, actions: tuple[Action, ...]) -> None:
    columns = st.columns(len(actions))
    for column, action in zip(columns, actions, strict=True):
        column.button(
            state.t.action_name(action),
            key=f"ask-{run.step}-{action.value}",
            on_click=_answer,
            args=(state, action.value),
            shortcut=ui.shortcut(action, state.t),
            width="stretch",
        )


@callback_guard
def _answer(state: AppState, given: str | int) -> None:
    if state.lesson is not None:
        state.lesson.answer(given)
        _record(state)


def explain_step(text: str | Translations, state: AppState) -> None:
    st.markdown(_text(text, state))


def show_step(show: Show, state: AppState) -> None:
    """Cards laid on the table, the dealer's above, and the caption under them."""
    if show.dealer:
        ui.show_cards(show.dealer, state, label=state.t.gettext("Dealer"))
    ui.show_cards(show.cards, state)
    if show.caption is not None:
        st.markdown(_text(show.caption, state))


def ask_step(run: LessonRun, step: AskStep, state: AppState) -> None:
    t = state.t
    ask = step.ask
    st.markdown("### " + _text(ask.question, state))
    if ask.dealer:
        ui.show_cards(ask.dealer, state, label=t.gettext("Dealer"))
    if ask.cards:
        ui.show_cards(ask.cards, state, label=t.gettext("Cards"))
    if ask.settle is not None and not ask.cards:
        # The round the question is about, as the engine settled it for the checker.
        game = settle_round(ask.settle, run.lesson.rules)
        ui.show_cards(game.dealer, state, label=t.gettext("Dealer"))
        for hand in game.seats[0].hands:
            ui.show_cards(hand.cards, state, label=t.gettext("Your hand"))
    result = run.answers.get(run.step)
    if result is None:
        with answers_box(f"ask-{run.step}"):  # the focus comes here after a verdict
            answer = ask.answer
            if isinstance(answer, ActionAnswer):
                # Only the moves the table allows on this hand, among those the lesson offers.
                moves = ask_actions(ask, run.lesson.rules, run.lesson.offered)
                _action_answer_buttons(run, state, moves)
            elif isinstance(answer, ChoiceAnswer):
                # Shown in the run's order (``LessonRun.choice_order``); each button answers with
                # the option's index in the lesson, whatever its place on screen.
                for place, index in enumerate(run.choice_order(run.step)):
                    st.button(
                        _text(answer.options[index], state),
                        key=f"ask-{run.step}-choice-{index}",
                        on_click=_answer,
                        args=(state, index),
                        shortcut=str(place + 1) if place < 9 else None,
                    )
            else:
                key = f"ask-{run.step}-typed"
                with st.form(f"form-{run.step}", border=False):
                    typed = st.text_input(t.gettext("Your answer"), key=key, max_chars=MAX_TYPED)
                    sent = st.form_submit_button(t.gettext("Check"))
                    # The phone's numeric keyboard for a number (issue 23: it opened the letters).
                    numeric_keyboard(key, keyboard_for(answer))
                if sent:  # the answer as sent; the page is drawn again with its verdict
                    _answer(state, typed)
                    st.rerun()
        return
    # The answer stays in sight with its verdict (issue 23: the typed one vanished).
    with verdict_box(f"ask-{run.step}"):  # the focus goes there, Enter goes on
        st.markdown(
            t.format("Your answer: **{answer}**", answer=_given_text(ask, result.given, state))
        )
        if result.correct:
            st.success(t.gettext("Right!"), icon=":material/check_circle:")
        else:
            st.error(t.gettext("Not quite."), icon=":material/cancel:")
        st.markdown(_text(ask.explanation, state))


def _given_text(ask: Ask, given: str, state: AppState) -> str:
    """The answer as the learner gave it, for Markdown: the option's or the action's words, or
    the typed text with Markdown's characters escaped (it comes from a keyboard)."""
    answer = ask.answer
    if isinstance(answer, ChoiceAnswer) and given.isdigit() and int(given) < len(answer.options):
        return _text(answer.options[int(given)], state)
    if isinstance(answer, ActionAnswer):
        try:
            return state.t.action_name(Action.parse(given))
        except ValueError:
            pass
    return _MARKDOWN.sub(r"\\\1", given.strip()[:MAX_TYPED]) or "—"


#: The characters Markdown (and Streamlit's $…$ formulas) would read in a typed answer.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


@callback_guard
def _deal_act(state: AppState, action: Action) -> None:
    run = state.lesson
    play = run.deal_play() if run is not None else None
    if play is None or run is None:
        return
    place = f"deal-{run.step}"
    ui.clear_refusal(state, place)
    try:
        decision = play.act(action)
    except IllegalActionError as error:  # a button drawn before the hand changed
        ui.refuse(state, place, error)
        return
    except NotOfferedError:  # no button offers it: nothing was clicked that the page drew
        return
    _record(state)
    if not decision.scripted_mistake:  # every hand counts, but a mistake on purpose is the lesson's
        state.keep_judgement(store(), decision.judgement, play.round.rules, "lesson")


def deal_step(run: LessonRun, step: DealStep, state: AppState) -> None:
    t = state.t
    deal = step.deal
    if deal.intro is not None:
        st.markdown(_text(deal.intro, state))
    play = run.deal_play()
    if play is None:
        return
    game = play.round
    ui.round_view(game, state, lambda _seat: t.gettext("You"))
    if game.to_act() is not None:
        ui.action_buttons(
            play.legal_actions(),
            state,
            lambda action: _deal_act(state, action),
            key=f"deal-{run.step}",
            insurance=ui.is_insurance_phase(game),
            # A lesson that restricts its moves shows only those it offers that are legal now.
            show_all=run.lesson.actions is None,
        )
    ui.refusal_note(state, f"deal-{run.step}")
    for decision in play.decisions:
        deal_decision(decision, state, values=run.shows_values)
    if game.is_over:
        with st.expander(t.gettext("What happened"), expanded=True):
            ui.narration(game.events, t, lambda _seat: t.gettext("The player"))
        # One account of the hand: the engine's net, insurance included, with what made it.
        st.info(t.seat_result(game.results[0]))
        if play.left_script:
            # The lesson's commentary tells its own hand: it no longer fits this one.
            st.markdown(
                ":material/alt_route: "
                + t.gettext(
                    "You played this hand your own way, so the lesson's commentary, written for"
                    " its own line of play, does not apply. Above is what really happened, move"
                    " by move, and each of your moves is judged as anywhere else in the app."
                )
            )
        elif deal.explanation is not None:
            st.markdown(_text(deal.explanation, state))
        if run.shows_values:
            ui.ev_help(t)


def deal_decision(decision: Decision, state: AppState, *, values: bool = True) -> None:
    """One move of a lesson's deal, judged as every page judges it; the lesson's script only adds
    whether the move left it, or was a mistake the lesson makes on purpose. ``values``: the
    table of every move's expected value under a wrong move, from the lesson that teaches them
    (``LessonRun.shows_values``)."""
    t = state.t
    judgement = decision.judgement
    if decision.leaves_script:
        assert decision.expected is not None
        st.markdown(
            ":material/alt_route: "
            + t.format(
                "Here you left the lesson's script: it plays **{expected}**. The hand goes on with"
                " your move and the real cards.",
                expected=t.action_name(decision.expected),
            )
        )
    if decision.scripted_mistake and not values:
        st.warning(
            t.format(
                "**{action}**: a mistake, made here on purpose because the lesson shows what it"
                " costs; the right play is **{play}**.",
                action=t.move_name(decision.action, judgement.point),
                play=t.move_name(judgement.play, judgement.point),
            ),
            icon=":material/school:",
        )
        sentence = t.reason(judgement.reason.key, judgement.reason.params, figures=False)
        if sentence:
            st.markdown(":material/lightbulb: " + sentence)
        return
    if decision.scripted_mistake:
        st.warning(
            t.format(
                "**{action}**: a mistake, made here on purpose because the lesson shows what it"
                " costs. It gives up {loss} of a bet on average ({cost}); the right play is"
                " **{play}**.",
                action=t.move_name(decision.action, judgement.point),
                loss=t.small(judgement.loss),
                cost=t.plural("{n} chip", "{n} chips", judgement.cost,
                              shown=t.small(judgement.cost)),
                play=t.move_name(judgement.play, judgement.point),
            ),
            icon=":material/school:",
        )
        sentence = t.reason(judgement.reason.key, judgement.reason.params)
        if sentence:
            st.markdown(":material/lightbulb: " + sentence)
        return
    if decision.correct and not decision.leaves_script:
        st.markdown(
            ":material/check_circle: "
            + t.format(
                "{action}: well played.", action=t.move_name(decision.action, judgement.point)
            )
        )
        note = ui.finesse_note(judgement, t, figures=values)
        if note:
            st.markdown(":material/grid_on: " + note)
        return
    with st.container(border=True):
        ui.judgement_view(judgement, t, table=not decision.correct, figures=values)


def drill_step(run: LessonRun, state: AppState) -> None:
    t = state.t
    quiz = run.drill()
    if quiz is None:
        return
    st.markdown(
        "### "
        + t.format(
            "Drill: {category}, question {n} of {count}",
            category=category_name(quiz.category, t),
            n=min(quiz.score.answered + (0 if quiz.verdict else 1), quiz.length or 0),
            count=quiz.length,
        )
    )
    ui.question_prompt(quiz, state)
    with answers_box(f"drill-{run.step}"):
        ui.quiz_answers(
            quiz, state, key=f"drill-{run.step}", on_done=lambda: _drill_answered(state)
        )
    if quiz.verdict is not None:
        with verdict_box(f"drill-{run.step}"):
            if quiz.verdict.judgement is not None and not run.shows_values:
                # The verdict, its reason and its cost, without the values no lesson taught yet.
                ui.judgement_view(quiz.verdict.judgement, t, table=False, figures=False)
            else:
                ui.verdict_view(quiz.verdict, state)
        if not quiz.finished:
            st.button(
                t.gettext("Next question"),
                key=f"drill-next-{run.step}",
                on_click=_drill_next,
                args=(state,),
                shortcut="Enter",
            )
    st.caption(ui.score_line(quiz, t, values=run.shows_values))


@callback_guard
def _drill_answered(state: AppState) -> None:
    run = state.lesson
    if run is not None:
        before = len(run.drill_answers.get(run.step, []))
        run.note_drill_answer()
        _record(state)
        quiz = run.drill()
        if quiz is not None and quiz.verdict is not None and (
            len(run.drill_answers.get(run.step, [])) > before
        ):
            state.keep_verdict(store(), quiz.verdict, run.lesson.rules, "lesson")


@callback_guard
def _drill_next(state: AppState) -> None:
    quiz = state.lesson.drill() if state.lesson is not None else None
    if quiz is not None and not quiz.finished:
        quiz.next()
        _record(state)


@callback_guard
def _next(state: AppState) -> None:
    if state.lesson is not None:
        state.lesson.next()
        _record(state)


def player(run: LessonRun, state: AppState) -> None:
    t = state.t
    lesson: Lesson = run.lesson
    previewing = state.authoring.previewing and lesson.id.startswith(PREVIEW_PREFIX)
    if previewing:
        # A teacher's draft played as a student meets it: said at every step, and left at any.
        with st.container(key="preview-banner"):
            st.info(
                t.gettext(
                    "Preview of your lesson: you play it as a student will. Nothing here reaches"
                    " your students until you publish it."
                ),
                icon=":material/visibility:",
            )
            st.button(
                "← " + t.gettext("Back to the editor"),
                on_click=_close,
                args=(state,),
                key="preview-back",
                type="primary",
            )
    else:
        st.button(
            "← " + t.gettext("All lessons"), on_click=_close, args=(state,), key="close-lesson"
        )
    with st.spinner(t.gettext("Checking the lesson…")):
        problems = course_check(state.lesson_paths).lesson_problems(lesson.id)
    if problems:  # the strategy contradicts what the lesson teaches: never play it
        _LOG.warning("lesson %s not played: %s", lesson.id, "; ".join(map(str, problems)))
        st.info(
            t.gettext("This lesson is not available for now: its author is correcting it."),
            icon=":material/construction:",
        )
        return
    st.title(_title(lesson.title, state), anchor=False)
    st.progress(
        (run.step + 1) / run.total,
        text=t.format("Step {n} of {total}", n=run.step + 1, total=run.total),
    )
    draw: StepCases[None] = StepCases(
        explain=lambda step: explain_step(step.explain, state),
        show=lambda step: show_step(step.show, state),
        ask=lambda step: ask_step(run, step, state),
        deal=lambda step: deal_step(run, step, state),
        drill=lambda step: drill_step(run, state),
    )
    with st.container(border=True):
        draw(lesson.steps[run.step])
    back_col, next_col = st.columns(2)
    back_col.button(
        "← " + t.gettext("Back"),
        key="lesson-back",
        on_click=run.back,
        disabled=run.step == 0,
        width="stretch",
    )
    if run.at_end:
        if run.finished:
            st.success(t.gettext("Lesson finished! Well done."), icon=":material/celebration:")
            right, given = run.score()
            if given:
                st.markdown(
                    ":material/scoreboard: "
                    + t.format(
                        "Your score: **{right} of {given}** answers right ({share}).",
                        right=right,
                        given=given,
                        share=t.percent(right / given, digits=0),
                    )
                )
        next_col.button(
            t.gettext("Finish the lesson") + " ✓",
            key="lesson-finish",
            on_click=_close,
            args=(state,),
            disabled=not run.finished,
            type="primary",
            width="stretch",
        )
    else:
        next_col.button(
            t.gettext("Next") + " →",
            key="lesson-next",
            on_click=_next,
            args=(state,),
            disabled=not run.can_go_next(),
            type="primary",
            width="stretch",
        )


def _open_link(state: AppState) -> bool:
    """A teacher's lesson opened by its link (``?l=TOKEN``, « Mes leçons »): its published
    version, where this learner left it. A link that opens nothing says so, in a sentence, and
    shows the course: a draft or a broken lesson never reaches a learner."""
    token = st.query_params.get("l")
    if not token:
        return False
    from tutor.authoring import link_token, progress_key  # the database's side: links only

    if state.lesson is not None and state.lesson.lesson.id == progress_key(link_token(token)):
        return True  # already open: this run goes on
    lesson = shelf().published_lesson(str(token))
    if lesson is None:
        st.info(
            state.t.gettext("This link opens no lesson: ask your teacher for the link again."),
            icon=":material/link_off:",
        )
        st.query_params.pop("l", None)
        return False
    state.open_lesson(lesson, store())
    return True


def _reopen(state: AppState) -> None:
    """After a reload the address still names the open lesson: reopen it where it was left."""
    if _open_link(state):
        return
    wanted = st.query_params.get("lesson")
    if not wanted or state.lesson is not None:
        return
    loaded = course(state.lesson_paths)
    lesson = next((le for le in loaded.lessons_for(state.language) if le.id == wanted), None)
    if lesson is None or state.learner is None:
        st.query_params.pop("lesson", None)  # unknown, or nothing kept to resume
        return
    state.open_lesson(lesson, store())


def main() -> None:
    state = app_state()
    _reopen(state)
    if state.lesson is None and state.authoring.previewing:  # a preview closed: back to its editor
        state.authoring.previewing = False
        st.switch_page("tutor/ui/pages/my_lessons.py")
    if state.lesson is None:
        course_list(state)
        # The list is on screen: now check the course against the strategy, in the background.
        course_check(state.lesson_paths).start()
    else:
        player(state.lesson, state)


main()
