"""Homework at a school's scale: a teacher's follow-up of a group of 300 students with three
assignments (a lesson and two 10-hand drills), every student having done part of the work, and
one student's « À faire ».

Prints one ``name: value unit`` line per figure: the median of several reads (the page runs one
per visit), on SQLite by default or on the database named by ``TUTOR_DATABASE_URL`` (PostgreSQL
for a school's server).

    python bench/homework.py [--students 300] [--repeats 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.homework import Homework, follow_up  # noqa: E402
from tutor.identity import new_token  # noqa: E402
from tutor.quiz_questions import Category  # noqa: E402
from tutor.rules import PRESETS  # noqa: E402
from tutor.srs import Grade  # noqa: E402
from tutor.store import Answer, Store  # noqa: E402

LESSON_STEPS = 12


def _fill(homework: Homework, students: int) -> tuple[object, str]:
    teacher = new_token()
    group, _key = homework.create_group("Amphi", teacher)
    now = datetime.now(UTC)
    due = now + timedelta(days=3)
    lesson = homework.give_lesson(group, "splitting", due)
    drills = [
        homework.give_drill(group, category, 10, PRESETS["family"], due)
        for category in (Category.PAIRS, Category.SOFT)
    ]
    last = ""
    for number in range(students):
        token = new_token()
        member = homework.join(group.code, f"Élève {number}", token)
        learner = homework.store.learner_for_token(token)
        assert learner is not None
        done = number % (LESSON_STEPS + 1)
        homework.store.save_lesson(
            learner, "splitting", seed=number, step=done, seen=range(done), completed=done
        )
        homework.record_lesson_time(
            member, lesson, seconds=60, steps_done=done, finished=done == LESSON_STEPS
        )
        for drill in drills:
            for position in range(number % 11):
                right = (number + position) % 3 != 0
                answer = Answer(
                    category=drill.category.value if drill.category else "pairs",
                    item=f"pairs:{position % 10 + 1}-{position % 10 + 1}:{position % 9 + 2}",
                    cards="8S 8H",
                    dealer_up="TD",
                    rules="family",
                    chosen="split" if right else "stand",
                    best="split",
                    grade=Grade.RIGHT if right else Grade.WRONG,
                    ev_loss=0.0 if right else 0.4,
                    answered_at=now,
                )
                homework.record_drill_answer(member, drill, position, answer, seconds=15)
        last = token
    return group, last


def _median_ms(run: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    url = os.environ.get("TUTOR_DATABASE_URL")
    folder = tempfile.mkdtemp()
    store = Store(url or f"sqlite:///{Path(folder) / 'homework.sqlite3'}")
    homework = Homework(store)
    start = time.perf_counter()
    group, student = _fill(homework, args.students)
    print(f"fill_{args.students}_students: {time.perf_counter() - start:.1f} s")

    def steps(_lesson: str) -> int:
        return LESSON_STEPS

    follow = _median_ms(lambda: follow_up(homework, group, steps), args.repeats)  # type: ignore[arg-type]
    print(f"follow_up_{args.students}_students_3_assignments: {follow:.0f} ms")
    todo = _median_ms(lambda: homework.todo(student, steps), args.repeats)
    print(f"student_todo: {todo:.1f} ms")
    store.close()


if __name__ == "__main__":
    main()
