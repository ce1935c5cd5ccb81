"""Homework a teacher grades (issue 43): an assigned lesson is scored as the lesson page scores it
(right answers of the answers graded, what the mistakes gave away), only from what was done after
it was given; a mark on the group's scale; due times, late work and one student's extension; one
student on two devices merged into one, answers kept; the exports' title row, gradebook and date
cells. On SQLite and (slow lane) PostgreSQL, as the other homework tests."""

from __future__ import annotations

from datetime import timedelta
from io import BytesIO

import pytest

from tests.conftest import Clock, builtin_course, course_steps, spaced
from tutor.decision import Action
from tutor.homework import GroupTeacher, Homework, Membership, follow_up
from tutor.homework.core import Assignment
from tutor.homework.errors import MergeRefusedError
from tutor.homework.follow import mark_of
from tutor.homework.lesson_work import step_answers
from tutor.identity import new_token
from tutor.lessons import AskStep, DealStep, DrillStep
from tutor.lessons.models import ActionAnswer, ChoiceAnswer
from tutor.lessons.run import LessonRun
from tutor.quiz import judge_answer
from tutor.render.translator import translator

LESSON = "hit-or-stand"


def _play(
    homework: Homework, member: Membership | None, assignment: Assignment | None, *, best: bool
) -> LessonRun:
    """Play the whole lesson as its page does, each step's answers handed to the group as the
    page hands them (``step_answers``); ``best``: the judge's play at every decision and the
    right option of every question, else standing whenever the table allows it and the first
    option shown."""
    lesson = builtin_course().lesson(LESSON)
    run = LessonRun(lesson, seed=7)
    run.start()

    def given_to_group() -> None:
        if member is not None and assignment is not None:
            homework.record_lesson_answers(
                member, assignment, step_answers(run, run.step, homework.clock())
            )

    for index, step in enumerate(lesson.steps):
        assert run.step == index
        if isinstance(step, AskStep):
            answer = step.ask.answer
            if isinstance(answer, ChoiceAnswer):
                run.answer(answer.choice if best else (answer.choice + 1) % len(answer.options))
            else:
                assert isinstance(answer, ActionAnswer)
                wrong = Action.HIT if answer.action is Action.STAND else Action.STAND
                run.answer((answer.action if best else wrong).value)
            given_to_group()
        elif isinstance(step, DealStep):
            play = run.deal_play()
            assert play is not None
            while not play.round.is_over:
                legal = play.legal_actions()
                if best:
                    point = play.round.decision_point()
                    chosen = judge_answer_play(point, legal)
                else:
                    chosen = Action.STAND if Action.STAND in legal else sorted(legal, key=str)[0]
                play.act(chosen)
                given_to_group()
        elif isinstance(step, DrillStep):
            quiz = run.drill()
            assert quiz is not None
            while True:
                question = quiz.question
                assert question is not None
                if question.point is not None:
                    legal = sorted(question.point.legal, key=lambda a: a.value)
                    judged = judge_answer(question, legal[0]).judgement
                    assert judged is not None
                    play_it = judged.play if best else next(
                        (a for a in legal if a is not judged.play), judged.play
                    )
                    quiz.answer(play_it)
                else:
                    assert question.expected is not None
                    quiz.answer(question.expected if best else question.expected + 1)
                run.note_drill_answer()
                given_to_group()
                if quiz.finished:
                    break
                quiz.next()
        if index < run.total - 1:
            run.next()
    if member is not None and assignment is not None:
        homework.record_lesson_time(member, assignment, seconds=60, steps_done=run.completed,
                                    finished=run.finished)
    return run


def judge_answer_play(point: object, legal: frozenset[Action]) -> Action:
    """The judge's play at a lesson's decision, among the moves the lesson offers."""
    from tutor.strategy import judge

    judgement = judge(point, None)  # type: ignore[arg-type]
    return judgement.play if judgement.play in legal else sorted(legal, key=str)[0]


def _group(homework: Homework, names: tuple[str, ...]) -> tuple[GroupTeacher, dict[str, str]]:
    group, _key = homework.create_group("2nde B", new_token())
    tokens = {name: new_token() for name in names}
    for name, token in tokens.items():
        homework.join(group.code, name, token)
    return group, tokens


def _member(homework: Homework, token: str) -> Membership:
    return homework.memberships(token)[0]


def test_a_lessons_homework_is_scored_as_its_page_scores_it_and_marked_out_of_20(
    homework: Homework, clock: Clock
) -> None:
    group, tokens = _group(homework, ("Inès", "Jules"))
    lesson = homework.give_lesson(group, LESSON, clock.now + timedelta(days=1))
    good = _play(homework, _member(homework, tokens["Inès"]), lesson, best=True)
    poor = _play(homework, _member(homework, tokens["Jules"]), lesson, best=False)
    seen = follow_up(homework, group, course_steps)
    ines, jules = seen.work[("Inès", lesson.id)], seen.work[("Jules", lesson.id)]
    for work, run in ((ines, good), (jules, poor)):
        right, answered = run.score()
        assert (work.status, work.right, work.answered) == ("done", right, answered)
        assert work.mark == mark_of(right, answered, 20)
        assert work.share == pytest.approx(right / answered)
    assert jules.right is not None
    assert ines.right is not None
    assert jules.right < ines.right  # « fait 3 / 3 » for both, no more
    assert ines.mark is not None
    assert jules.mark is not None
    assert jules.mark < ines.mark
    assert jules.cost > 0
    # The gradebook: one row per student, the lesson's mark as a number.
    from tutor.render.homework_reports import gradebook_columns

    columns = gradebook_columns(seen, translator("fr"), lambda _id: "Tirer ou rester")
    assert columns[0][1] == ["Inès", "Jules"]
    assert spaced(columns[1][0]) == "Leçon : Tirer ou rester (sur 20)"
    assert columns[1][1] == [ines.mark, jules.mark]


def test_a_lesson_done_before_it_was_given_is_shown_as_such_with_no_mark(
    homework: Homework, clock: Clock
) -> None:
    group, tokens = _group(homework, ("Inès",))
    learner = homework.store.learner_for_token(tokens["Inès"])
    assert learner is not None
    total = course_steps(LESSON)
    assert total is not None
    homework.store.save_lesson(learner, LESSON, seed=1, step=total - 1, seen=range(total),
                               completed=total)
    clock.now += timedelta(days=1)
    lesson = homework.give_lesson(group, LESSON, clock.now + timedelta(days=1))
    work = follow_up(homework, group, course_steps).work[("Inès", lesson.id)]
    assert (work.status, work.mark, work.answered) == ("earlier", None, 0)
    (todo,) = homework.todo(tokens["Inès"], course_steps)
    assert todo.earlier
    assert not todo.finished
    # Done again for the group, it is done and marked.
    run = _play(homework, _member(homework, tokens["Inès"]), lesson, best=True)
    work = follow_up(homework, group, course_steps).work[("Inès", lesson.id)]
    assert (work.status, work.answered) == ("done", run.score()[1])


def test_starting_a_lesson_again_scores_nothing_twice(homework: Homework, clock: Clock) -> None:
    group, tokens = _group(homework, ("Inès",))
    lesson = homework.give_lesson(group, LESSON, clock.now + timedelta(days=1))
    member = _member(homework, tokens["Inès"])
    first = _play(homework, member, lesson, best=False)
    _play(homework, member, lesson, best=True)
    work = follow_up(homework, group, course_steps).work[("Inès", lesson.id)]
    assert (work.right, work.answered) == first.score()


def test_due_times_late_work_and_one_students_extension(homework: Homework, clock: Clock) -> None:
    group, tokens = _group(homework, ("Inès", "Jules", "Léa"))
    due = clock.now + timedelta(hours=20)
    lesson = homework.give_lesson(group, LESSON, due)
    _play(homework, _member(homework, tokens["Inès"]), lesson, best=True)  # on time
    homework.extend(group, lesson, "Léa", due + timedelta(days=2))
    clock.now = due + timedelta(hours=1)
    _play(homework, _member(homework, tokens["Jules"]), lesson, best=True)  # an hour late
    seen = follow_up(homework, group, course_steps)
    ines, jules, lea = (seen.work[(name, lesson.id)] for name in ("Inès", "Jules", "Léa"))
    assert (ines.late, jules.late, lea.late) == (False, True, False)
    assert (lea.extended, lea.due_at) == (True, due + timedelta(days=2))
    assert jules.mark is not None  # late work is marked; the teacher reads « en retard » beside
    (todo,) = homework.todo(tokens["Jules"], course_steps)
    assert todo.late
    assert todo.finished
    (todo,) = homework.todo(tokens["Léa"], course_steps)
    assert not todo.overdue(clock.now)
    assert todo.due == due + timedelta(days=2)
    clock.now = due + timedelta(days=3)
    assert follow_up(homework, group, course_steps).work[("Léa", lesson.id)].late  # overdue now
    homework.extend(group, lesson, "Léa", None)  # the group's date again
    assert not follow_up(homework, group, course_steps).work[("Léa", lesson.id)].extended
    with pytest.raises(Exception, match="after the due date"):
        homework.extend(group, lesson, "Léa", due - timedelta(hours=1))


def test_one_student_on_two_devices_is_merged_and_every_answer_kept(
    homework: Homework, clock: Clock
) -> None:
    group, tokens = _group(homework, ("Inès", "Inès B", "Jules"))
    lesson = homework.give_lesson(group, LESSON, clock.now + timedelta(days=1))
    laptop = _member(homework, tokens["Inès B"])
    run = _play(homework, laptop, lesson, best=True)  # done on the second device
    homework.merge(group, "Inès B", "Inès")
    seen = follow_up(homework, group, course_steps)
    assert seen.members == ("Inès", "Jules")
    work = seen.work[("Inès", lesson.id)]
    assert (work.status, work.right, work.answered) == ("done", *run.score())
    # The laptop finds the group under her name, and her answers there go on counting.
    assert _member(homework, tokens["Inès B"]).nickname == "Inès"
    assert homework.members(group) == ["Inès", "Jules"]
    for member, into in (("Inès", "Inès"), ("Inès B", "Jules"), ("Nobody", "Inès")):
        with pytest.raises(MergeRefusedError):
            homework.merge(group, member, into)


def test_the_workbook_has_a_title_row_date_cells_marks_and_a_gradebook(
    homework: Homework, clock: Clock
) -> None:
    from openpyxl import load_workbook

    from tutor.render.homework_reports import follow_up_xlsx, gradebook_csv

    group, tokens = _group(homework, ("Inès", "Jules"))
    lesson = homework.give_lesson(group, LESSON, clock.now + timedelta(days=1))
    _play(homework, _member(homework, tokens["Inès"]), lesson, best=False)
    seen = follow_up(homework, group, course_steps)
    fr = translator("fr")
    book = load_workbook(BytesIO(follow_up_xlsx(seen, fr, lambda _id: "Tirer ou rester")))
    sheet = book["Par élève"]
    assert str(sheet["A1"].value).startswith("Devoirs de 2nde B · code ")
    header = [cell.value for cell in sheet[2]]
    rows = {row[0].value: row for row in sheet.iter_rows(min_row=3)}
    due = rows["Inès"][header.index("À rendre le")]
    assert due.is_date
    assert due.value == (clock.now + timedelta(days=1)).replace(tzinfo=None)
    mark = rows["Inès"][header.index("Note (sur 20)")]
    assert mark.value == seen.work[("Inès", lesson.id)].mark
    assert mark.data_type == "n"
    assert rows["Jules"][header.index("Note (sur 20)")].value is None  # not started: no mark
    grades = book["Carnet de notes"]
    assert [spaced(c.value) for c in grades[2]] == ["Élève", "Leçon : Tirer ou rester (sur 20)"]
    csv = spaced(gradebook_csv(seen, fr, lambda _id: "Tirer ou rester").decode("utf-8-sig"))
    assert csv.splitlines()[0] == "Élève;Leçon : Tirer ou rester (sur 20)"
    assert csv.splitlines()[1].startswith("Inès;")


def test_the_mark_scale_is_the_teachers_pick(homework: Homework, clock: Clock) -> None:
    group, tokens = _group(homework, ("Inès",))
    lesson = homework.give_lesson(group, LESSON, clock.now + timedelta(days=1))
    run = _play(homework, _member(homework, tokens["Inès"]), lesson, best=False)
    homework.set_mark_scale(group, 100)
    work = follow_up(homework, group, course_steps).work[("Inès", lesson.id)]
    assert work.mark == mark_of(*run.score(), 100)
    with pytest.raises(Exception, match="a mark is out of"):
        homework.set_mark_scale(group, 7)
