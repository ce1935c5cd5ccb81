"""Class mode under a class: 40 students answer 20 questions; how long one answer and one refresh
of the teacher's counter take (median and 95th percentile), on SQLite (and PostgreSQL if
``TUTOR_TEST_POSTGRES_URL`` names a server).

And a lecture hall joining at once: 300 phones, each its own browser (learner token) and its own
network client (address), join one class through ``Classroom.join`` from ``JOIN_WORKERS``
threads, as the server's threads would take them; joins a second over the whole hall (median of
``JOIN_RUNS`` halls), and how many were seated (all of them, or the line says otherwise).

    python bench/classroom.py
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tutor.classroom import ClassQuestion, Classroom, TooManyJoinsError
from tutor.decision import Action
from tutor.identity import new_token
from tutor.rules import PRESETS
from tutor.store import Store

STUDENTS = 40
QUESTIONS = 20
HALL = 300
JOIN_WORKERS = 8
JOIN_RUNS = 3


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


def hall(url: str, label: str) -> None:
    """``HALL`` phones from ``HALL`` addresses join one class at once: joins a second."""
    store = Store(url)
    room = Classroom(store)
    hands = [ClassQuestion.parse("10♠ 6♥", "10♣")]
    rates: list[float] = []
    seated: list[int] = []
    for run_index in range(JOIN_RUNS):
        info, _ = room.create(f"hall {run_index}", PRESETS["family"], hands)
        phones = [(new_token(), f"10.{run_index}.{i // 250}.{i % 250 + 1}") for i in range(HALL)]

        def join(index: int, code: str = info.code, phones: list[tuple[str, str]] = phones) -> bool:
            token, address = phones[index]
            try:
                room.join(code, f"Student {index}", learner_token=token, client=address)
            except TooManyJoinsError:
                return False  # counted below: a hall that is not all seated says so
            return True

        start = time.perf_counter()
        with ThreadPoolExecutor(JOIN_WORKERS) as pool:
            outcomes = list(pool.map(join, range(HALL)))
        rates.append(HALL / (time.perf_counter() - start))
        seated.append(sum(outcomes))
    store.close()
    rate = statistics.median(rates)
    print(f"classroom_{label}_hall_{HALL}_clients_joins_per_second: {rate:.0f} joins/s")
    print(f"classroom_{label}_hall_{HALL}_clients_seated: {min(seated)} students")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        run(url, "sqlite")
        hall(url, "sqlite")
    postgres = os.environ.get("TUTOR_TEST_POSTGRES_URL")
    if postgres:
        run(postgres, "postgresql")
        hall(postgres, "postgresql")


if __name__ == "__main__":
    main()
