"""What checking a lesson costs: ``tutor check`` on a lesson of 120 deals each at a table of its
own (the shape that cost 51 s of CPU a save before lessons were bounded to a few tables of their
own, ``tutor.lessons.checks.MAX_OWN_TABLES``), and on a lesson within the bound (three tables of
its own, each solved), cold: a fresh process with an empty data folder, nothing saved.

- ``lesson_check_120_tables_cpu``: CPU seconds of the ``tutor check`` process (refused at its
  step, nothing solved).
- ``lesson_check_3_own_tables_cpu``: the same for a lesson of three deals at three tables of its
  own (accepted; each table solved and saved): the most a lesson's check costs now.

CPU and wall from the operating system's accounting of the child (``os.wait4``), medians of
``REPEATS`` processes; one ``name: value unit`` line per figure.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.strategy import compile_package, user_environment
from tutor.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 3

#: What each deal's table changes of its preset: 7 presets × 8 deck counts × soft 17 = 112, and
#: the first presets with double after split for the rest.
TABLES = 120


def _tables() -> list[tuple[str, int, bool, bool]]:
    every = itertools.product(PRESETS, range(1, 9), (False, True), (False, True))
    return [(preset, decks, h17, das) for preset, decks, h17, das in every][:TABLES]


def many_tables_lesson() -> str:
    """A 30 KB-scale lesson of 120 deals, each at a table of its own."""
    lines = [
        "id: many-tables",
        'title: {fr: "Cent vingt tables", en: "A hundred and twenty tables"}',
        "level: 1",
        "rules: family",
        'goals: ["Jouer à beaucoup de tables."]',
        "steps:",
    ]
    for preset, decks, h17, das in _tables():
        lines += [
            "  - deal:",
            f"      rules: {{preset: {preset}, decks: {decks},"
            f" dealer_hits_soft_17: {str(h17).lower()}, double_after_split: {str(das).lower()}}}",
            '      player: "10♠ 9♥"',
            '      dealer: "10♦ 7♣"',
            "      expect: {decisions: [stand], outcome: win, net: 2}",
        ]
    return "\n".join(lines) + "\n"



THREE_TABLES = """\
id: three-tables
title: {fr: "Trois tables", en: "Three tables"}
level: 1
rules: family
goals: ["Jouer à trois tables."]
steps:
""" + "".join(
    f"""  - deal:
      rules: {{preset: family, decks: {decks}}}
      player: "10♠ 9♥"
      dealer: "10♦ 7♣"
      expect: {{decisions: [stand], outcome: win, net: 2}}
"""
    for decks in (2, 3, 4)
)


def check_cold(text: str, name: str) -> tuple[float, float]:
    """One ``tutor check`` process on ``text`` with an empty data folder: (wall, CPU) seconds."""
    with tempfile.TemporaryDirectory() as folder:
        lesson = Path(folder) / f"{name}.yaml"
        lesson.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "tutor", "check", str(lesson)],
            cwd=ROOT,
            env=user_environment(Path(folder) / "data"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, _, usage = os.wait4(child.pid, 0)
        return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    compile_package()
    for name, text in (("120_tables", many_tables_lesson()), ("3_own_tables", THREE_TABLES)):
        runs = [check_cold(text, name.replace("_", "-")) for _ in range(REPEATS)]
        print(f"lesson_check_{name}_cpu: {statistics.median(cpu for _, cpu in runs):.2f} s")
        print(f"lesson_check_{name}_wall: {statistics.median(wall for wall, _ in runs):.2f} s")


if __name__ == "__main__":
    main()
