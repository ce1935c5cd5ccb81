"""What an assigned lesson's step gives its group: the answers graded on it, as the lesson's page
graded them, to be kept as the group's copy (``Homework.record_lesson_answers``).

A lesson is graded as a drill is, so that a teacher reads one score, one cost and one mark for
either: each question asked, each move of a deal (a mistake the lesson scripts on purpose is the
lesson's, not counted, as ``LessonRun.score`` does) and each hand of a drill step is one answer.
Positions keep them apart, a step's answers from ``step × LESSON_POSITIONS``: the first answer
at each position is the one kept (``GroupRecords.insert_answer``), so a lesson started again
after it was assigned cannot be replayed into a better score, and answers given before the work
was assigned are never copied — they were not given for it.
"""

from __future__ import annotations

from datetime import datetime

from tutor.decision import Grade
from tutor.lessons.run import LessonRun
from tutor.progress import answer_of, judgement_answer
from tutor.store import Answer

#: How many answers one step may give (a deal's moves, a drill's hands): far above either.
LESSON_POSITIONS = 1000
#: The category of a lesson's question (a choice, a number, a move asked with no deal): no hand.
QUESTION = "lesson"


def step_answers(run: LessonRun, index: int, now: datetime) -> list[tuple[int, Answer]]:
    """Step ``index``'s graded answers so far, each with its position: a question's one answer,
    every counted move of a deal, a drill's latest hand (its earlier hands were given to the
    group when they were answered)."""
    base = index * LESSON_POSITIONS
    if (result := run.answers.get(index)) is not None:
        return [
            (
                base,
                Answer(
                    category=QUESTION,
                    item=f"{run.lesson.id[:56]}:{index + 1}",
                    cards="",
                    dealer_up="",
                    rules="",
                    chosen=result.given[:24],
                    best="",
                    grade=Grade.RIGHT if result.correct else Grade.WRONG,
                    ev_loss=0.0,
                    answered_at=now,
                    origin="lesson",
                ),
            )
        ]
    if (play := run.deals.get(index)) is not None:
        given: list[tuple[int, Answer]] = []
        for place, decision in enumerate(play.decisions[: LESSON_POSITIONS - 1]):
            if decision.scripted_mistake:
                continue
            judgement = decision.judgement
            answer = judgement_answer(judgement, judgement.point.rules, now, "lesson")
            if answer is not None:
                given.append((base + place, answer))
        return given
    quiz = run.drills.get(index)
    if quiz is not None and quiz.verdict is not None and quiz.score.answered > 0:
        place = min(quiz.score.answered - 1, LESSON_POSITIONS - 1)
        return [(base + place, answer_of(quiz.verdict, quiz.rules, now, "lesson"))]
    return []
