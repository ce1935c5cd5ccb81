"""A mistake in a lesson file as the teacher reads it: a ``Problem`` (``file:line:col: message``),
placed at the key, value or card token at fault, and the schema's errors turned into sentences
(what was found, what was expected, the key the teacher probably meant).

A module of its own because this is the loader's voice, not its logic: pydantic's error records
are walked and reworded here, and ``tutor.lessons.course`` only collects the problems.
"""

from __future__ import annotations

import difflib
import os
import re
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, Tag
from pydantic_core import ErrorDetails

from tutor.lessons.findings import Code, Finding, why
from tutor.lessons.lesson import STEP_KINDS, STEP_MODELS, Lesson
from tutor.lessons.source import DataPath, Position, SourceDocument
from tutor.refusal import Refusal, RefusedError

_STEP_MODELS = tuple(STEP_MODELS.values())
_INSTANCE_OF = re.compile(r"a valid dictionary or instance of \w+")


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in one file, printed as ``file:line:col: message`` like a compiler's.

    ``message`` is English, for logs; ``reason`` is the same as data (a code and its
    parameters) and ``label`` the place in the lesson's data (``steps[2].deal.player``), from
    which ``tutor.render.lesson_problems.problem_text`` says it in the teacher's language."""

    path: Path
    line: int
    column: int
    message: str
    code: Code = field(compare=False)
    reason: Refusal | None = field(default=None, compare=False)
    label: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{_display(self.path)}:{self.line}:{self.column}: {self.message}"

    @property
    def shown_path(self) -> str:
        """The file as the problem names it: relative to the working folder when inside it."""
        return _display(self.path)


def _locate(path: Path, document: SourceDocument, finding: Finding) -> Problem:
    if finding.token is not None:
        position = document.token_position(finding.path, finding.token)
    elif finding.word is not None:
        position = document.word_position(finding.path, *finding.word)
    else:
        position = document.where(finding.path, key=finding.at_key)
    label = _label(finding.path)
    message = f"{label}: {finding.message}" if label else finding.message
    return Problem(
        path, position.line, position.column, message, finding.code, finding.reason, label
    )


# -- schema errors -> problems --------------------------------------------------------------------


def _schema_problems(
    path: Path, document: SourceDocument, errors: Sequence[ErrorDetails]
) -> list[Problem]:
    problems = []
    for error in errors:
        loc = tuple(error["loc"])
        if error["type"] == "too_short" and any(
            len(other["loc"]) > len(loc) and tuple(other["loc"][: len(loc)]) == loc
            for other in errors
        ):
            continue  # a list whose items failed is not also "too short"
        position, data_path, message, reason = _explain(document, error)
        label = _label(data_path)
        text = f"{label}: {message}" if label else message
        problems.append(
            Problem(path, position.line, position.column, text, _code(error), reason, label)
        )
    return problems


def _code(error: ErrorDetails) -> Code:
    return {
        "card_token": Code.CARD,
        "cards": Code.CARD,
        "rules": Code.RULES,
    }.get(error["type"], Code.SCHEMA)


def _explain(
    document: SourceDocument, error: ErrorDetails
) -> tuple[Position, DataPath, str, Refusal]:
    """Where an error is, the data path it concerns, and a sentence a teacher can act on, with
    the same as data (its reason: a code and parameters)."""
    loc = tuple(error["loc"])
    kind = error["type"]
    given = error["input"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    path = document.resolve(_walk_loc(loc)[0])
    message = error["msg"].removeprefix("Value error, ").replace("Input should be ", "expected ")
    message = _INSTANCE_OF.sub("a mapping of keys", message)
    if kind == "extra_forbidden":
        key = str(loc[-1])
        text, reason = _unknown_key(key, loc[:-1])
        return document.where(path, key=True), path, text, reason
    if kind == "missing":
        parent = path[:-1] if path and path[-1] == loc[-1] else path
        key = str(loc[-1])
        reason = why("lesson-missing-key", key=key)
        return document.where(parent), parent, f"missing required key {key!r}", reason
    if kind == "step_kind":
        kinds = ", ".join(STEP_KINDS)
        if isinstance(given, dict) and given:
            first = str(next(iter(given)))
            return (
                document.where((*path, first), key=True),
                path,
                f"unknown step kind {first!r}{_did_you_mean(first, STEP_KINDS)}; a step is "
                f"one of {kinds}",
                why("lesson-step-kind", kind=first, hint=_hint(first, STEP_KINDS), kinds=kinds),
            )
        message = f"{message}, written '- explain: …'; found {_found(given)}"
        reason = why("lesson-not-a-step", kinds=kinds, found=_found_reason(given))
        return document.where(path), path, message, reason
    if kind == "card_token":
        reason = why("lesson-card", card=ctx.get("refusal"))
        return document.token_position(path, int(ctx["index"])), path, message, reason
    if kind == "rules" and "key" in ctx:
        key_path = path if ctx["key"] == "self" else (*path, str(ctx["key"]))
        reason = _ctx_reason(ctx, message)
        return document.where(key_path, key=ctx.get("at") == "key"), path, message, reason
    if kind == "too_short":
        least = ctx.get("min_length", 1)
        message = f"expected at least {least} item(s), found none"
        reason = why("lesson-too-short", least=least)
    elif kind == "value_error":
        found_error = ctx.get("error")
        if isinstance(found_error, RefusedError):
            reason = found_error.refusal
        else:
            reason = why("lesson-schema", detail=message)
    elif kind in ("outcome", "up_card", "action", "rules", "number"):
        reason = _ctx_reason(ctx, message)  # these messages already quote what was found
    elif kind in ("int_type", "string_type") and isinstance(given, bool):
        message += (
            f", found {_found(given)} (YAML reads yes, no, on, off, true and false as booleans: "
            "put the text in quotes)"
        )
        reason = why("lesson-boolean", expected=_expected(kind, ctx), found=_found_reason(given))
    else:
        carried = ctx.get("refusal")
        expected = carried if isinstance(carried, Refusal) else _expected(kind, ctx, message)
        message += f", found {_found(given)}"
        reason = why("lesson-expected", expected=expected, found=_found_reason(given))
    return document.where(path), path, message, reason


def _ctx_reason(ctx: dict[str, Any], message: str) -> Refusal:
    """The reason a custom error of the schema carries in its context, or its message."""
    carried = ctx.get("refusal")
    return carried if isinstance(carried, Refusal) else why("lesson-schema", detail=message)


#: What pydantic expected, by its error type, as a code of its own (the parameters from ``ctx``).
_EXPECTED: dict[str, str] = {
    "int_type": "lesson-want-int",
    "int_parsing": "lesson-want-int",
    "int_from_float": "lesson-want-int",
    "string_type": "lesson-want-text",
    "bool_type": "lesson-want-bool",
    "bool_parsing": "lesson-want-bool",
    "dict_type": "lesson-want-mapping",
    "model_type": "lesson-want-mapping",
    "model_attributes_type": "lesson-want-mapping",
    "tuple_type": "lesson-want-list",
    "list_type": "lesson-want-list",
    "greater_than_equal": "lesson-want-at-least",
    "greater_than": "lesson-want-more-than",
    "less_than_equal": "lesson-want-at-most",
    "less_than": "lesson-want-less-than",
    "too_long": "lesson-want-at-most-items",
    "string_too_short": "lesson-want-text",
    "literal_error": "lesson-want-one-of",
    "enum": "lesson-want-one-of",
    "text": "lesson-want-a-text",
    "answer_kind": "lesson-want-answer",
}


def _expected(kind: str, ctx: dict[str, Any], message: str = "") -> Refusal:
    code = _EXPECTED.get(kind)
    if code is None:
        return why("lesson-schema", detail=message)
    values = {
        name: str(ctx[name])
        for name in ("ge", "gt", "le", "lt", "max_length", "expected")
        if name in ctx
    }
    if "expected" in values:  # pydantic's "'fr' or 'en'": the values, without its English
        values["expected"] = values["expected"].replace(" or ", ", ")
    return why(code, **values)


def _unknown_key(key: str, loc: tuple[str | int, ...]) -> tuple[str, Refusal]:
    _path, model = _walk_loc(loc)
    if model is None:
        return f"unknown key {key!r}", why("lesson-unknown-key", key=key, hint=None, allowed=None)
    allowed = list(model.model_fields)
    if model in _STEP_MODELS:
        kinds = ", ".join(STEP_KINDS)
        return (
            f"unknown key {key!r} in this {allowed[0]} step: each step is its own list item "
            f"with one kind ({kinds}) and, beside it, its 'claims' if any; "
            "check the indentation",
            why("lesson-unknown-step-key", key=key, kind=allowed[0], kinds=kinds),
        )
    hint = _did_you_mean(key, allowed)
    names = ", ".join(allowed)
    return (
        f"unknown key {key!r}{hint}; expected one of: {names}",
        why("lesson-unknown-key", key=key, hint=_hint(key, allowed), allowed=names),
    )


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _hint(word: str, choices: Sequence[str]) -> Refusal | None:
    """``_did_you_mean`` as data: the nearest choice, or None when none is near."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return why("lesson-did-you-mean", word=close[0]) if close else None


def _walk_loc(loc: Sequence[str | int]) -> tuple[DataPath, type[BaseModel] | None]:
    """Split a validation error's location into its data path and the model found there.

    Pydantic inserts the tag of a discriminated union into the location (``"deal"`` in
    ``("steps", 3, "deal", "deal", "bet")``), and a step's tag is also its only key, so the tags
    are recognised from the models' ``Tag`` annotations and dropped from the data path. The
    model at the end lists the keys it accepts, for an unknown key's message.
    """
    candidates: list[tuple[Any, str | None]] = _flatten([Lesson])
    path: list[str | int] = []
    for part in loc:
        tagged: list[tuple[Any, str | None]] = [
            (tp, tag) for tp, tag in candidates if tag is not None and tag == part
        ]
        if len(candidates) > 1 and tagged:
            candidates = tagged  # a union tag: choose the member, no data key
            continue
        following: list[Any] = []
        for candidate, _tag in candidates:
            if isinstance(part, int) and get_origin(candidate) in (tuple, list):
                following.append(get_args(candidate)[0])
            elif _is_model(candidate) and part in candidate.model_fields:
                following.append(candidate.model_fields[part].annotation)
        path.append(part)
        candidates = _flatten(following)
    models = [candidate for candidate, _tag in candidates if _is_model(candidate)]
    return tuple(path), (models[0] if len(models) == 1 else None)


def _is_model(candidate: Any) -> bool:
    return isinstance(candidate, type) and issubclass(candidate, BaseModel)


def _flatten(types_: Sequence[Any], tag: str | None = None) -> list[tuple[Any, str | None]]:
    """The concrete types behind unions and ``Annotated``, each with its union tag if any."""
    out: list[tuple[Any, str | None]] = []
    for candidate in types_:
        origin = get_origin(candidate)
        if origin is Annotated:
            inner, *metadata = get_args(candidate)
            found = next((m.tag for m in metadata if isinstance(m, Tag)), tag)
            out += _flatten([inner], found)
        elif origin is Union or origin is types.UnionType:
            out += _flatten(list(get_args(candidate)))
        else:
            out.append((candidate, tag))
    return out


def _found_reason(value: Any) -> Refusal:
    """``_found`` as data."""
    if value is None:
        return why("lesson-found-nothing")
    if isinstance(value, dict):
        if not value:
            return why("lesson-found-empty-mapping")
        return why("lesson-found-mapping", keys=", ".join(str(key) for key in value))
    if isinstance(value, list):
        return why("lesson-found-list", count=len(value))
    return why("lesson-found-value", value=_found(value))


def _found(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, dict):
        keys = ", ".join(str(key) for key in value) or "no keys"
        return f"a mapping with {keys}"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _label(path: DataPath) -> str:
    """``steps[3].deal.player`` for ``("steps", 3, "deal", "player")``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _display(path: Path) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if not relative.startswith("..") else str(path)


# -- the course ---------------------------------------------------------------------------------
