"""Class mode under a class: 40 students answer 20 questions; how long one answer and one refresh
of the teacher's counter take (median and 95th percentile), on SQLite (and PostgreSQL if
``TUTOR_TEST_POSTGRES_URL`` names a server).

    python bench/classroom.py
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from tutor.classroom import ClassQuestion, Classroom
from tutor.decision import Action
from tutor.rules import PRESETS
from tutor.store import Store

STUDENTS = 40
QUESTIONS = 20


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(url: str, label: str) -> None:
    store = Store(url)
    room = Classroom(store)
    hands = [ClassQuestion.parse("10♠ 6♥", "10♣"), ClassQuestion.parse("A♠ 7♥", "9♣")]
    info, key = room.create("bench", PRESETS["family"], [hands[i % 2] for i in range(QUESTIONS)])
    teacher = room.open_as_teacher(info.code, key)
    students = [room.join(info.code, f"Student {i}") for i in range(STUDENTS)]
    answer_times: list[float] = []
    refresh_times: list[float] = []
    lock = threading.Lock()
    for _ in range(QUESTIONS):
        room.next_question(teacher)
        stop = threading.Event()

        def poll(stop: threading.Event = stop) -> None:
            # The teacher's page refreshing its counter while answers arrive.
            while not stop.is_set():
                start = time.perf_counter()
                room.counts(teacher)
                with lock:
                    refresh_times.append(time.perf_counter() - start)
                time.sleep(0.01)

        def answer(index: int) -> None:
            start = time.perf_counter()
            room.answer(students[index], Action.HIT if index % 2 else Action.STAND)
            with lock:
                answer_times.append(time.perf_counter() - start)

        poller = threading.Thread(target=poll)
        poller.start()
        threads = [threading.Thread(target=answer, args=(i,)) for i in range(STUDENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stop.set()
        poller.join()
        if room.counts(teacher) != (STUDENTS, STUDENTS):
            raise AssertionError("an answer was lost")
        room.reveal(teacher)
    store.close()
    for name, values in (("answer", answer_times), ("teacher_refresh", refresh_times)):
        ms = [v * 1000 for v in values]
        print(f"classroom_{label}_{name}_median: {statistics.median(ms):.1f} ms")
        print(f"classroom_{label}_{name}_p95: {percentile(ms, 0.95):.1f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", "sqlite")
    postgres = os.environ.get("TUTOR_TEST_POSTGRES_URL")
    if postgres:
        run(postgres, "postgresql")


if __name__ == "__main__":
    main()
