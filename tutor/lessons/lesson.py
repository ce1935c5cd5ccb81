"""A lesson and its steps as strict models: the five step wrappers (explain, show, ask, deal,
drill), ``StepCases`` (the one place a step's kind is switched on), ``Lesson`` and
``validate_lesson``, which collects every problem of a lesson rather than the first.

A module of its own because this is the shape of the file a teacher writes, where
``tutor.lessons.models`` holds what a step contains.

>>> lesson = Lesson.model_validate({
...     "id": "demo", "title": "Demo", "level": 1, "goals": ["count"],
...     "steps": [{"ask": {"question": "Total?", "cards": "A♠ 6♥",
...                        "answer": {"number": 17}, "explanation": "soft 17"}}],
... })
>>> lesson.steps[0].kind, lesson.steps[0].ask.cards
('ask', (Card.parse('A♠'), Card.parse('6♥')))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import (
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    field_validator,
)
from pydantic_core import ErrorDetails

from tutor.decision import Action
from tutor.lessons.fields import (
    ActionName,
    LessonId,
    PlainText,
    Rules,
    Text,
    _Strict,
)
from tutor.lessons.models import Ask, Claims, Deal, Drill, Show
from tutor.rules import PRESETS, TableRules


class ExplainStep(_Strict):
    explain: Text
    claims: Claims = ()

    kind: ClassVar[Literal["explain"]] = "explain"
    practises: ClassVar[bool] = False


class ShowStep(_Strict):
    show: Show
    claims: Claims = ()

    kind: ClassVar[Literal["show"]] = "show"
    practises: ClassVar[bool] = False


class AskStep(_Strict):
    ask: Ask
    claims: Claims = ()

    kind: ClassVar[Literal["ask"]] = "ask"
    practises: ClassVar[bool] = True


class DealStep(_Strict):
    deal: Deal
    claims: Claims = ()

    kind: ClassVar[Literal["deal"]] = "deal"
    practises: ClassVar[bool] = True


class DrillStep(_Strict):
    drill: Drill
    claims: Claims = ()

    kind: ClassVar[Literal["drill"]] = "drill"
    practises: ClassVar[bool] = True


#: Any one step of a lesson.
AnyStep = ExplainStep | ShowStep | AskStep | DealStep | DrillStep

#: Every kind of step, by its name (the step's YAML key), in the order the format lists them:
#: the one list of step kinds, which the schema, its messages and ``StepCases`` read.
STEP_MODELS: dict[str, type[AnyStep]] = {
    model.kind: model for model in (ExplainStep, ShowStep, AskStep, DealStep, DrillStep)
}
STEP_KINDS: tuple[str, ...] = tuple(STEP_MODELS)
_STEP_TYPES = tuple(STEP_MODELS.values())

T = TypeVar("T")


@dataclasses.dataclass(frozen=True, kw_only=True)
class StepCases(Generic[T]):
    """What to do with each kind of step: the one place a step's kind is switched on.

    ``cases(step)`` calls the handler named after the step's kind, or ``otherwise`` for a kind
    given none. A ``StepCases`` without ``otherwise`` must name every kind: adding a kind to the
    format then fails at once, in every place that has not said what to do with it, rather than
    being skipped in silence by an ``if``/``elif`` chain.

    >>> worth = StepCases[int](ask=lambda step: 1, deal=lambda step: 2, otherwise=lambda step: 0)
    >>> [worth(step) for step in Lesson.model_validate({"id": "d", "title": "D", "level": 1,
    ...     "goals": ["g"], "steps": [{"explain": "hi"}, {"ask": {"question": "Total?",
    ...     "answer": {"number": 3}, "explanation": "3"}}]}).steps]
    [0, 1]
    >>> StepCases[int](ask=lambda step: 1)
    Traceback (most recent call last):
    ...
    TypeError: no case for the step kind(s) explain, show, deal, drill, and no 'otherwise'
    """

    explain: Callable[[ExplainStep], T] | None = None
    show: Callable[[ShowStep], T] | None = None
    ask: Callable[[AskStep], T] | None = None
    deal: Callable[[DealStep], T] | None = None
    drill: Callable[[DrillStep], T] | None = None
    #: For every kind without a case of its own.
    otherwise: Callable[[AnyStep], T] | None = None

    def __post_init__(self) -> None:
        missing = [kind for kind in STEP_KINDS if getattr(self, kind) is None]
        if missing and self.otherwise is None:
            raise TypeError(
                f"no case for the step kind(s) {', '.join(missing)}, and no 'otherwise'"
            )

    def __call__(self, step: AnyStep) -> T:
        case: Callable[[Any], T] | None = getattr(self, step.kind)
        if case is None:
            assert self.otherwise is not None  # checked when built
            return self.otherwise(step)
        return case(step)


def nothing(step: AnyStep) -> None:
    """The case of the kinds a ``StepCases`` has nothing to do with."""
    return None


#: The question a step asks, if it is an ask step.
ask_of: StepCases[Ask | None] = StepCases(ask=lambda step: step.ask, otherwise=nothing)
#: The cards a step shows, if it is a show step.
show_of: StepCases[Show | None] = StepCases(show=lambda step: step.show, otherwise=nothing)
#: The table a step names for itself (a deal's or a settled question's ``rules``), if any.
own_table_of: StepCases[TableRules | None] = StepCases(
    deal=lambda step: step.deal.rules,
    ask=lambda step: step.ask.settle.rules if step.ask.settle is not None else None,
    otherwise=nothing,
)


def _step_kind(value: Any) -> str | None:
    if isinstance(value, _STEP_TYPES):
        return value.kind
    if isinstance(value, dict):
        return next((key for key in value if key in STEP_KINDS), None)
    return None


#: A step is a mapping with one key, its kind: ``- explain: …``, ``- deal: {…}``.
Step = Annotated[
    Annotated[ExplainStep, Tag("explain")]
    | Annotated[ShowStep, Tag("show")]
    | Annotated[AskStep, Tag("ask")]
    | Annotated[DealStep, Tag("deal")]
    | Annotated[DrillStep, Tag("drill")],
    Discriminator(
        _step_kind,
        custom_error_type="step_kind",
        custom_error_message=f"a step is one of {', '.join(STEP_KINDS)}",
    ),
]


class Lesson(_Strict):
    """One lesson file, validated; see LESSON_FORMAT.md for the format as teachers read it."""

    id: LessonId
    title: Text
    level: Annotated[int, Field(strict=True, ge=1, le=3)]
    #: The one language a lesson is written in (its texts then plain strings), offered only to
    #: learners of that language; None (absent) for a lesson given in every language.
    language: Literal["fr", "en"] | None = None
    #: The table the lesson assumes; the family table when absent.
    rules: Rules = PRESETS["family"]
    goals: Annotated[tuple[Text, ...], Field(min_length=1)]
    requires: tuple[LessonId, ...] = ()
    #: The only actions the lesson offers (its deals' buttons), so nothing is offered before it
    #: is taught; every action when absent.
    actions: tuple[ActionName, ...] | None = None
    #: General statements about the right play made in the goals or anywhere in the lesson.
    claims: Claims = ()
    #: Whether verdicts in this lesson show the expected value of every move (the table under a
    #: verdict): only in the lesson that teaches them and the lessons after it, so a beginner is
    #: never shown figures no lesson has explained. Off when absent.
    expected_values: Annotated[bool, Field(strict=True)] = False
    steps: Annotated[tuple[Step, ...], Field(min_length=1)]

    def speaks(self, language: str) -> bool:
        """Whether a learner of ``language`` is offered this lesson: every lesson but one written
        in another language only."""
        return self.language is None or self.language == language

    @property
    def offered(self) -> frozenset[Action]:
        """The actions this lesson's deals offer: its ``actions``, or every action."""
        return frozenset(Action) if self.actions is None else frozenset(self.actions)

    @field_validator("requires", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


# -- the schema pass --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Validated:
    """A lesson file's data through the schema: the lesson when every part passed, otherwise
    pydantic's errors (located as in the file: ``("steps", 3, "deal", …)``) and the parts that
    passed, so that the checks that can still run on a broken lesson run on those."""

    lesson: Lesson | None
    errors: list[ErrorDetails]
    #: The lesson's table, when it passed (the family table when the file names none).
    rules: TableRules | None
    #: The steps that passed, by their index in the file.
    steps: dict[int, AnyStep]


_RULES_ADAPTER: TypeAdapter[TableRules] = TypeAdapter(Rules)
_STEP_ADAPTER: TypeAdapter[AnyStep] = TypeAdapter(Step)
#: Stands in the lesson for a step that failed on its own, whose errors are already known.
_PASSED_OVER = ExplainStep(explain=PlainText("-"))


def validate_lesson(data: dict[str, Any]) -> Validated:
    """The schema of one lesson file, each part validated once: the table, then every step on
    its own (so the steps that pass are known even when another fails), then the lesson around
    them, given the parts already validated, which pydantic keeps as they are.

    >>> broken = validate_lesson({"id": "d", "title": "D", "level": 1, "goals": ["g"],
    ...     "steps": [{"explain": "hi"}, {"explian": "typo"}]})
    >>> broken.lesson, sorted(broken.steps), [error["loc"][:2] for error in broken.errors]
    (None, [0], [('steps', 1)])
    """
    errors: list[ErrorDetails] = []
    merged = dict(data)
    rules: TableRules | None = PRESETS["family"]
    if "rules" in data:
        rules, found = _validated(_RULES_ADAPTER, data["rules"], ("rules",))
        errors += found
        merged["rules"] = rules if rules is not None else PRESETS["family"]
    steps: dict[int, AnyStep] = {}
    raw_steps = data.get("steps")
    if isinstance(raw_steps, list):
        parts: list[Any] = []
        for index, raw in enumerate(raw_steps):
            step, found = _validated(_STEP_ADAPTER, raw, ("steps", index))
            errors += found
            if step is not None:
                steps[index] = step
            parts.append(step if step is not None else _PASSED_OVER)
        merged["steps"] = parts
    try:
        lesson: Lesson | None = Lesson.model_validate(merged)
    except ValidationError as error:
        lesson = None
        errors = error.errors() + errors
    return Validated(None if errors else lesson, errors, rules, steps)


def _validated(
    adapter: TypeAdapter[Any], raw: Any, where: tuple[str | int, ...]
) -> tuple[Any, list[ErrorDetails]]:
    """``raw`` validated, or None with its errors located at ``where`` in the lesson."""
    try:
        return adapter.validate_python(raw), []
    except ValidationError as error:
        found = [
            ErrorDetails(**{**details, "loc": (*where, *details["loc"])})
            for details in error.errors()
        ]
        return None, found
