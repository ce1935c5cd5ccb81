"""The Lessons page: the course list with progress, broken files as error cards, lessons played."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp, builtin_course
from tutor.lessons import AskStep, DealStep, DrillStep, load_course
from tutor.lessons.models import ActionAnswer, ChipsAnswer, ChoiceAnswer, LossAnswer, NumberAnswer
from tutor.strategy import advise
from tutor.visit import AppState


def _state(at: AppTest) -> AppState:
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    return state


def _click(at: AppTest, key: str) -> None:
    at.button(key=key).click().run()
    assert not at.exception


def _answer_ask(at: AppTest, index: int, step: AskStep) -> None:
    answer = step.ask.answer
    if isinstance(answer, ActionAnswer):
        _click(at, f"ask-{index}-{answer.action.value}")
    elif isinstance(answer, ChoiceAnswer):
        _click(at, f"ask-{index}-choice-{answer.choice}")
    else:
        assert isinstance(answer, NumberAnswer | ChipsAnswer | LossAnswer)
        value = (
            answer.number if isinstance(answer, NumberAnswer)
            else answer.chips if isinstance(answer, ChipsAnswer) else answer.loss
        )
        at.text_input(key=f"ask-{index}-typed").input(str(value))
        next(button for button in at.button if button.label in ("Vérifier", "Check")).click()
        at.run()
        assert not at.exception


def _play_drill(at: AppTest, index: int) -> None:
    for _ in range(60):
        run = _state(at).lesson
        assert run is not None
        quiz = run.drill()
        assert quiz is not None
        if quiz.finished:
            return
        if quiz.verdict is not None:
            _click(at, f"drill-next-{index}")
            continue
        question = quiz.question
        assert question is not None
        if question.point is not None:
            advice = advise(question.point)
            assert advice is not None
            _click(at, f"drill-{index}-{advice.best.value}")
        else:
            option = question.options.index(question.expected)  # type: ignore[arg-type]
            _click(at, f"drill-{index}-option-{option}")
        assert at.success, "a drill answered with the best play is judged right"
    raise AssertionError("the drill never finished")


def play_lesson_to_the_end(at: AppTest) -> AppState:
    """Answer every step right through the page's own buttons, then finish the lesson."""
    state = _state(at)
    run = state.lesson
    assert run is not None
    for index, step in enumerate(run.lesson.steps):
        assert run.step == index
        if isinstance(step, AskStep):
            _answer_ask(at, index, step)
            assert at.success, f"step {index}: the right answer is judged right"
        elif isinstance(step, DealStep):
            for action in step.deal.expect.decisions:
                _click(at, f"deal-{index}-{action.value}")
            play = run.deal_play()
            assert play is not None
            assert play.round.is_over
            assert all(decision.correct for decision in play.decisions)
        elif isinstance(step, DrillStep):
            _play_drill(at, index)
        if index < run.total - 1:
            _click(at, "lesson-next")
    assert run.finished
    _click(at, "lesson-finish")
    return state


def test_the_course_lists_every_lesson_with_a_start_button(open_app: OpenApp) -> None:
    at = open_app("lessons")
    assert at.title[0].value == "Leçons"
    starts = [button for button in at.button if button.label == "Commencer"]
    assert len(starts) >= 19
    assert not at.error


def test_the_first_lesson_is_played_to_its_end_and_its_progress_shown(open_app: OpenApp) -> None:
    at = open_app("lessons")
    _click(at, "open-card-values")
    state = play_lesson_to_the_end(at)
    assert not at.exception
    assert state.lesson is None
    lesson_steps = 0
    for file in [f for f in at.button if f.key == "open-card-values"]:
        assert file.label == "Revoir"
    assert state.progress["card-values"] > lesson_steps


def test_a_lesson_with_deals_and_a_drill_is_played_to_its_end(open_app: OpenApp) -> None:
    at = open_app("lessons")
    _click(at, "open-hit-or-stand")
    run = _state(at).lesson
    assert run is not None
    kinds = {step.kind for step in run.lesson.steps}
    assert {"deal", "drill"} <= kinds
    state = play_lesson_to_the_end(at)
    assert state.progress["hit-or-stand"] == len(run.lesson.steps)


def test_next_waits_until_the_question_is_answered_and_back_returns(open_app: OpenApp) -> None:
    at = open_app("lessons")
    _click(at, "open-card-values")
    run = _state(at).lesson
    assert run is not None
    while not isinstance(run.lesson.steps[run.step], AskStep):
        _click(at, "lesson-next")
    assert at.button(key="lesson-next").disabled
    at.text_input(key=f"ask-{run.step}-typed").input("3")
    next(button for button in at.button if button.label == "Vérifier").click()
    at.run()
    assert at.error
    assert "Pas tout à fait" in at.error[0].value
    assert not at.button(key="lesson-next").disabled
    _click(at, "lesson-back")
    assert run.step >= 0
    assert not at.exception


def test_a_broken_lesson_file_is_left_out_of_a_learners_list(open_app: OpenApp) -> None:
    """Issue 27: a learner sees the lessons that play, never an error card; the teacher finds
    the file and its problems in the course (``Course.broken``) and from ``tutor check``."""
    state = AppState(lesson_paths=("lessons", "tests/lessons_bad/bad-card-token.yaml"))
    at = open_app("lessons", state)
    assert not at.error, "no error card for a learner"
    assert not at.code
    assert len([b for b in at.button if b.label == "Commencer"]) == 19
    broken = load_course(list(state.lesson_paths or ()), strategy=None).broken
    assert [file.path.name for file in broken] == ["bad-card-token.yaml"]
    assert "is not a card" in str(broken[0].problems[0])


def test_the_lesson_list_speaks_english_when_asked(open_app: OpenApp) -> None:
    at = open_app("lessons", AppState(language="en"))
    assert at.title[0].value == "Lessons"
    assert any(button.label == "Start" for button in at.button)


def _at_deal(open_app: OpenApp, lesson_id: str, wanted: object) -> tuple[AppTest, int]:
    """The lessons page opened on the first deal step of a built-in lesson matching ``wanted``."""
    from tutor.lessons.run import LessonRun

    lesson = next(
        f.lesson for f in builtin_course().files if f.lesson and f.lesson.id == lesson_id
    )
    assert lesson is not None
    index = next(
        i for i, step in enumerate(lesson.steps)
        if isinstance(step, DealStep) and wanted(step)  # type: ignore[operator]
    )
    run = LessonRun(lesson, step=index, seen=set(range(index + 1)))
    run.start()
    at = open_app("lessons", AppState(lesson=run))
    return at, index


def test_a_deal_that_shows_a_mistake_on_purpose_calls_it_a_mistake(open_app: OpenApp) -> None:
    at, index = _at_deal(
        open_app, "insurance",
        lambda step: not step.deal.follows_strategy and step.deal.expect.decisions[0].value
        == "insure",
    )
    _click(at, f"deal-{index}-insure")
    shown = " ".join(block.value for block in [*at.warning, *at.markdown])
    assert "exprès" in shown, "the lesson's scripted mistake is called a mistake"
    assert "bien joué" not in shown
    assert "Ne pas s’assurer" in shown or "Pas d’assurance" in shown, "the right play is named"


def test_leaving_a_lessons_script_tells_what_really_happened(open_app: OpenApp) -> None:
    at, index = _at_deal(
        open_app, "splitting", lambda step: str(step.deal.player[0])[0] == "8"
    )
    run = _state(at).lesson
    assert run is not None
    _click(at, f"deal-{index}-split")
    _click(at, f"deal-{index}-stand")  # the lesson hits this 11
    play = run.deal_play()
    assert play is not None
    assert play.left_script
    while not play.round.is_over:
        _click(at, f"deal-{index}-stand")
    text = " ".join(block.value for block in at.markdown)
    assert "vous quittez le scénario" in text
    assert "à votre façon" in text, "the scripted commentary is replaced by what happened"
    assert "Deux victoires" not in text
    assert "Résultat" in " ".join(block.value for block in at.info)
    # The deviation is judged as anywhere else: a verdict with its cost and its reason.
    judged = [*at.error, *at.warning, *at.success]
    assert any("Rester" in block.value for block in judged)
    assert ":material/lightbulb:" in text, "the reason of the verdict is shown"


def _at_step(open_app: OpenApp, lesson_id: str, wanted: object) -> tuple[AppTest, int]:
    """The lessons page opened on the first step of a built-in lesson matching ``wanted``."""
    from tutor.lessons.run import LessonRun

    lesson = next(
        f.lesson for f in builtin_course().files if f.lesson and f.lesson.id == lesson_id
    )
    assert lesson is not None
    index = next(i for i, step in enumerate(lesson.steps) if wanted(step))  # type: ignore[operator]
    run = LessonRun(lesson, step=index, seen=set(range(index + 1)))
    run.start()
    return open_app("lessons", AppState(lesson=run)), index


def test_how_much_do_you_lose_takes_the_amount_lost_and_shows_the_round(open_app: OpenApp) -> None:
    at, index = _at_step(
        open_app,
        "surrender",
        lambda step: isinstance(step, AskStep) and step.ask.settle is not None,
    )
    assert len(at.get("html")) + len(at.get("image")) + len(at.markdown) > 0
    at.text_input(key=f"ask-{index}-typed").input("2")
    next(button for button in at.button if button.label in ("Vérifier", "Check")).click()
    at.run()
    assert not at.exception
    assert at.success, "2 chips lost is the right answer to 'how much do you lose?'"


def test_lesson_ones_deal_shows_no_double_button(open_app: OpenApp) -> None:
    at, index = _at_deal(open_app, "card-values", lambda step: True)
    keys = {button.key for button in at.button}
    assert f"deal-{index}-hit" in keys
    assert f"deal-{index}-stand" in keys
    assert f"deal-{index}-double" not in keys
    assert f"deal-{index}-split" not in keys


# -- typed answers: the numeric keyboard, the noun, the answer kept in sight (issue 23) ---------


def _buches(step: object) -> bool:
    return isinstance(step, AskStep) and "bûches" in str(step.ask.question.fr)  # type: ignore[union-attr]


def _check(at: AppTest, index: int, typed: str) -> None:
    at.text_input(key=f"ask-{index}-typed").input(typed)
    next(button for button in at.button if button.label in ("Vérifier", "Check")).click()
    at.run()
    assert not at.exception


def test_sixteen_buches_is_right_and_stays_on_screen_with_the_verdict(open_app: OpenApp) -> None:
    at, index = _at_step(open_app, "card-values", _buches)
    _check(at, index, "16 bûches")
    assert at.success, "« 16 bûches » answers « combien … de bûches ? »"
    shown = " ".join(block.value for block in at.markdown)
    assert "Votre réponse\u00a0: **16 bûches**" in shown


def test_a_wrong_typed_answer_is_shown_too_with_its_markdown_escaped(open_app: OpenApp) -> None:
    at, index = _at_step(open_app, "card-values", _buches)
    _check(at, index, "**15** [x](y)")
    assert at.error
    shown = " ".join(block.value for block in at.markdown)
    assert "Votre réponse\u00a0: **" + r"\*\*15\*\* \[x\]\(y\)" + "**" in shown, "not Markdown"


def test_the_typed_answer_asks_for_the_numeric_keyboard(open_app: OpenApp) -> None:
    at, index = _at_step(open_app, "card-values", _buches)
    scripts = [str(element.value) for element in at.get("html")]
    assert any(
        f".st-key-ask-{index}-typed input" in body and '"decimal"' in body for body in scripts
    ), "the page sets inputmode on its answer field"


def test_a_choice_answer_is_named_with_its_verdict(open_app: OpenApp) -> None:
    at, index = _at_step(
        open_app, "card-values",
        lambda step: isinstance(step, AskStep) and isinstance(step.ask.answer, ChoiceAnswer),
    )
    run = _state(at).lesson
    assert run is not None
    step = run.lesson.steps[index]
    assert isinstance(step, AskStep)
    assert isinstance(step.ask.answer, ChoiceAnswer)
    _click(at, f"ask-{index}-choice-{step.ask.answer.choice}")
    right = step.ask.answer.options[step.ask.answer.choice]
    shown = " ".join(block.value for block in at.markdown)
    assert f"Votre réponse\u00a0: **{right.fr}**" in shown  # type: ignore[union-attr]


# -- values only once taught, and only of the moves offered (issue 23, point 7) ---------------


def _shown(at: AppTest) -> str:
    return " ".join(
        block.value for block in [*at.markdown, *at.error, *at.warning, *at.success, *at.caption]
    )


def test_lesson_ones_deal_shows_no_expected_values_after_a_mistake(open_app: OpenApp) -> None:
    """Before: « Doubler −1,397 » under « Espérance (par mise) », in the very first deal."""
    at, index = _at_deal(open_app, "card-values", lambda step: True)
    _click(at, f"deal-{index}-hit")  # 19 against a 7: a mistake
    shown = _shown(at)
    assert "une erreur" in shown, "the verdict is still given, with its cost"
    assert "Espérance" not in shown
    assert "Doubler" not in shown, "a move the lesson does not offer is never named"
    assert not [e for e in at.expander if "Que veulent dire ces nombres" in e.label]


def test_the_strategy_lesson_shows_the_values_it_teaches(open_app: OpenApp) -> None:
    at, index = _at_deal(open_app, "strategy-hard", lambda step: True)
    _click(at, f"deal-{index}-stand")  # 12 against a 3: the lesson hits
    shown = _shown(at)
    assert "Espérance (par mise)" in shown
    assert "Tirer" in shown
    assert "Rester" in shown


def test_a_lesson_that_teaches_values_lists_only_the_moves_it_offers(
    open_app: OpenApp, tmp_path: Path
) -> None:
    """The casino français table allows surrender; a lesson that offers four moves values four
    (before: « Abandonner −0,500 » in lesson 9's list with no Abandonner button)."""
    from tutor.lessons import load_course
    from tutor.lessons.run import LessonRun

    path = tmp_path / "01-values-offered.yaml"
    path.write_text(
        "id: values-offered\ntitle: Values offered\nlevel: 2\nrules: french-casino\n"
        "goals: [split]\nactions: [hit, stand, double, split]\nexpected_values: true\n"
        "steps:\n  - deal:\n      player: 8♠ 8♦\n      dealer: 6♣\n"
        "      then: 10♥ 10♣ 10♦ 7♣\n      expect: {decisions: [split, stand, stand],"
        " outcome: [win, win], net: 4}\n",
        encoding="utf-8",
    )
    loaded = load_course([path], strategy=None).files[0]
    assert loaded.lesson is not None, loaded.problems
    run = LessonRun(loaded.lesson)
    run.start()
    at = open_app("lessons", AppState(lesson=run, lesson_paths=(str(path),)))
    _click(at, "deal-0-stand")  # 16 against a 6 at this table: the lesson splits
    shown = _shown(at)
    assert "Espérance (par mise)" in shown
    assert "Séparer" in shown
    assert "Abandonner" not in shown


def test_lesson_ones_drill_scores_without_the_ev_given_away(open_app: OpenApp) -> None:
    """The score line of a drill before expected values are taught counts answers only."""
    at, index = _at_step(open_app, "card-values", lambda step: isinstance(step, DrillStep))
    _click(at, f"drill-{index}-option-0")
    captions = " ".join(block.value for block in at.caption)
    assert "Score" in captions
    assert "espérance" not in captions.lower()
    strategy, _ = _at_step(open_app, "strategy-hard", lambda step: isinstance(step, DrillStep))
    assert "espérance perdue" in " ".join(block.value for block in strategy.caption)



def test_a_click_the_lessons_table_refuses_is_explained_in_french(open_app: OpenApp) -> None:
    """As at the practice table: a button drawn before the hand changed is refused with the
    table's reason, in the page's language, under the deal's buttons."""
    from tutor.decision import Action
    from tutor.render.translator import translator

    at, index = _at_deal(
        open_app, "splitting", lambda step: str(step.deal.player[0])[0] == "8"
    )
    run = _state(at).lesson
    assert run is not None
    play = run.deal_play()
    assert play is not None
    assert not at.button(key=f"deal-{index}-stand").disabled
    play.act(Action.STAND)  # another tab of the same lesson: the hand is over
    refusal = play.round.refusal(Action.STAND)
    assert refusal is not None
    _click(at, f"deal-{index}-stand")
    assert translator("fr").refusal(*refusal) in [block.value for block in at.error]
