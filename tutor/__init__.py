"""Blackjack Tutor: lessons, a real rules engine, exact basic strategy and a decision quiz.

A map of the house, from the floor up (imports point down it, ``tests/test_architecture.py``):

- the game: ``tutor.cards`` (``Card``, ``Shoe``, ``hand_value``), ``tutor.rules``
  (``TableRules``, ``PRESETS``), ``tutor.decision`` (``Action``, ``DecisionPoint``),
  ``tutor.cell`` (``Cell``: a hand against an up-card), ``tutor.game`` (``Round``: one round of
  play, told as events) and ``tutor.table`` (a table across rounds, ``scripted_round``);
- the strategy: ``tutor.strategy`` (``solve``, ``chart``, ``advise`` and ``judge``, the one judge
  of every page) and ``tutor.simulate`` (many rounds, fast; ``basic_strategy`` to play them with);
- the memory: ``tutor.store`` (``Store``: the database);
- the learning: ``tutor.quiz`` (``QuizSession``, ``next_question``, ``judge_answer``),
  ``tutor.lessons`` (``load_course``), ``tutor.progress`` (a learner's answers summed up) and
  ``tutor.classroom`` (``Classroom``: class mode);
- the interface, above everything: ``tutor.ui`` (Streamlit only) and ``tutor.cli``.

The names below are the ones a reader starts from (a module's own name, such as
``tutor.simulate``, stays the module's). They are loaded on first use, not by
``import tutor``: importing the package loads none of numpy, pandas, pydantic or SQLAlchemy
(``tests/test_package.py``), so a page or a command pays only for what it touches. The one BLAS
thread the strategy wants is set by the modules that load numpy (``tutor.blas``).

>>> import tutor
>>> tutor.hand_value(tutor.parse_cards("A♠ 6♥"))
HandValue(total=17, soft=True)
"""

from __future__ import annotations

import importlib

#: ``typing.TYPE_CHECKING`` without importing ``typing`` (4 ms of a cold ``import tutor``); the
#: type checkers read a name ``TYPE_CHECKING`` as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from tutor.cards import Card, Rank, Shoe, Suit, hand_value, parse_cards
    from tutor.cell import Cell
    from tutor.classroom import Classroom
    from tutor.decision import Action, DecisionPoint, Grade
    from tutor.game import Outcome, Round
    from tutor.lessons import Course, Lesson, load_course
    from tutor.quiz import QuizSession, judge_answer
    from tutor.quiz_deal import next_question
    from tutor.quiz_questions import Category, Question, Verdict
    from tutor.rules import PRESETS, TableRules
    from tutor.rules_file import load_rules
    from tutor.simulate import basic_strategy
    from tutor.store import Store
    from tutor.strategy import Advice, Judgement, advise, solve
    from tutor.strategy.chart import chart
    from tutor.strategy.judge import judge
    from tutor.table import Table, scripted_round

#: Where each public name lives: ``tutor.X`` imports that module on first use.
_HOMES: dict[str, str] = {
    "Card": "tutor.cards",
    "Rank": "tutor.cards",
    "Shoe": "tutor.cards",
    "Suit": "tutor.cards",
    "hand_value": "tutor.cards",
    "parse_cards": "tutor.cards",
    "Cell": "tutor.cell",
    "Classroom": "tutor.classroom",
    "Action": "tutor.decision",
    "DecisionPoint": "tutor.decision",
    "Grade": "tutor.decision",
    "Outcome": "tutor.game",
    "Round": "tutor.game",
    "Course": "tutor.lessons",
    "Lesson": "tutor.lessons",
    "load_course": "tutor.lessons",
    "QuizSession": "tutor.quiz",
    "judge_answer": "tutor.quiz",
    "next_question": "tutor.quiz_deal",
    "Category": "tutor.quiz_questions",
    "Question": "tutor.quiz_questions",
    "Verdict": "tutor.quiz_questions",
    "PRESETS": "tutor.rules",
    "TableRules": "tutor.rules",
    "load_rules": "tutor.rules_file",
    "basic_strategy": "tutor.simulate",
    "Store": "tutor.store",
    "Advice": "tutor.strategy",
    "Judgement": "tutor.strategy",
    "advise": "tutor.strategy",
    "chart": "tutor.strategy.chart",
    "judge": "tutor.strategy.judge",
    "solve": "tutor.strategy",
    "Table": "tutor.table",
    "scripted_round": "tutor.table",
}

__all__ = [
    "PRESETS",
    "Action",
    "Advice",
    "Card",
    "Category",
    "Cell",
    "Classroom",
    "Course",
    "DecisionPoint",
    "Grade",
    "Judgement",
    "Lesson",
    "Outcome",
    "Question",
    "QuizSession",
    "Rank",
    "Round",
    "Shoe",
    "Store",
    "Suit",
    "Table",
    "TableRules",
    "Verdict",
    "advise",
    "basic_strategy",
    "chart",
    "hand_value",
    "judge",
    "judge_answer",
    "load_course",
    "load_rules",
    "next_question",
    "parse_cards",
    "scripted_round",
    "solve",
]


def __getattr__(name: str) -> object:
    """A public name, imported from its home on first use (PEP 562), then kept here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tutor' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
