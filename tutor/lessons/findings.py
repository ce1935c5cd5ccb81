"""What a check of a lesson hands back: a ``Finding`` (a data path, a sentence, a ``Code``, the
sentence as data: its ``reason``, code and parameters, ``why(code, **params)``), the
plays and engine figures put aside for the strategy (``ForStrategy``), and both together
(``Checked``).

A module of its own because every check module (``tutor.lessons.checks``, ``checks_ask``,
``checks_deal``) and the loader (``tutor.lessons.course``) speak these types, and none of them
should have to import another to name them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from tutor.decision import Action, DecisionPoint
from tutor.lessons.models import Claim, EngineFigure
from tutor.lessons.source import DataPath
from tutor.refusal import Refusal
from tutor.rules import TableRules

#: The strategy's answer to a decision point: the chart's play (``course.chart_play``).
StrategyFn = Callable[[DecisionPoint], Action]


class Code(Enum):
    """The kind of a problem, so the app and the tests can tell problems apart without parsing."""

    YAML = "yaml"
    SCHEMA = "schema"
    CARD = "card"
    COPIES = "copies"
    RULES = "rules"
    DEAL = "deal"
    STRATEGY = "strategy"
    TRANSLATION = "translation"
    DUPLICATE_ID = "duplicate-id"
    PREREQUISITE = "prerequisite"
    CYCLE = "cycle"
    FILE = "file"
    CONTENT = "content"
    #: A claim about the right play that a table's chart contradicts.
    CLAIM = "claim"
    #: Free text that states a rule no claim backs, or gives away a question's answer.
    WORDING = "wording"
    #: A number key that the cards shown or the engine's figure contradict.
    NUMBER = "number"


@dataclass(frozen=True)
class Play:
    """A play the lesson teaches at a decision point, for the strategy pass to judge."""

    point: DecisionPoint
    chosen: Action
    path: DataPath


@dataclass(frozen=True)
class Figure:
    """A key the lesson says is an engine's figure (a house edge), for the strategy pass."""

    figure: EngineFigure
    key: Fraction
    path: DataPath


@dataclass
class ForStrategy:
    """What the structural pass leaves to the strategy pass, in the order it met them."""

    plays: list[Play] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    #: The claims about the right play, each with its data path (a lesson whose schema passed).
    claims: list[tuple[DataPath, Claim]] = field(default_factory=list)
    #: Every table the lesson plays at or names, where each claim is checked.
    tables: Sequence[TableRules] = ()


@dataclass(frozen=True)
class Checked:
    """The structural pass's result: its findings, and what it leaves for the strategy."""

    findings: list[Finding]
    pending: ForStrategy


@dataclass(frozen=True)
class Finding:
    """A problem at a data path; ``token`` picks one card in a cards value, ``at_key`` the key."""

    path: DataPath
    message: str
    code: Code
    token: int | None = None
    at_key: bool = False
    #: A word of the text at ``path``: the word and how many times it comes before (from 0).
    word: tuple[str, int] | None = None
    #: The problem as data, a code and its parameters (``tutor.render.lesson_problems`` says it
    #: in the teacher's language; ``message`` is the English sentence, for logs).
    reason: Refusal | None = None


def why(code: str, **params: object) -> Refusal:
    """A lesson problem's reason: ``why("lesson-cycle", cycle="a → b → a")``. A parameter may
    itself be a ``Refusal`` (a part of the sentence with words of its own: a round's story, the
    engine's refusal of a move), a sequence of them, or None (a part left out)."""
    return Refusal(code, params)
