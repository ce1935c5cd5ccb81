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

from tutor.lessons.findings import Code, Finding
from tutor.lessons.lesson import STEP_KINDS, STEP_MODELS, Lesson
from tutor.lessons.source import DataPath, Position, SourceDocument

_STEP_MODELS = tuple(STEP_MODELS.values())
_INSTANCE_OF = re.compile(r"a valid dictionary or instance of \w+")


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in one file, printed as ``file:line:col: message`` like a compiler's."""

    path: Path
    line: int
    column: int
    message: str
    code: Code = field(compare=False)

    def __str__(self) -> str:
        return f"{_display(self.path)}:{self.line}:{self.column}: {self.message}"


def _locate(path: Path, document: SourceDocument, finding: Finding) -> Problem:
    if finding.token is not None:
        position = document.token_position(finding.path, finding.token)
    elif finding.word is not None:
        position = document.word_position(finding.path, *finding.word)
    else:
        position = document.where(finding.path, key=finding.at_key)
    message = f"{_label(finding.path)}: {finding.message}" if finding.path else finding.message
    return Problem(path, position.line, position.column, message, finding.code)


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
        position, data_path, message = _explain(document, error)
        label = _label(data_path)
        text = f"{label}: {message}" if label else message
        problems.append(Problem(path, position.line, position.column, text, _code(error)))
    return problems


def _code(error: ErrorDetails) -> Code:
    return {
        "card_token": Code.CARD,
        "cards": Code.CARD,
        "rules": Code.RULES,
    }.get(error["type"], Code.SCHEMA)


def _explain(document: SourceDocument, error: ErrorDetails) -> tuple[Position, DataPath, str]:
    """Where an error is, the data path it concerns, and a sentence a teacher can act on."""
    loc = tuple(error["loc"])
    kind = error["type"]
    given = error["input"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    path = document.resolve(_walk_loc(loc)[0])
    message = error["msg"].removeprefix("Value error, ").replace("Input should be ", "expected ")
    message = _INSTANCE_OF.sub("a mapping of keys", message)
    if kind == "extra_forbidden":
        key = str(loc[-1])
        return document.where(path, key=True), path, _unknown_key(key, loc[:-1])
    if kind == "missing":
        parent = path[:-1] if path and path[-1] == loc[-1] else path
        return document.where(parent), parent, f"missing required key {loc[-1]!r}"
    if kind == "step_kind":
        if isinstance(given, dict) and given:
            first = str(next(iter(given)))
            return (
                document.where((*path, first), key=True),
                path,
                f"unknown step kind {first!r}{_did_you_mean(first, STEP_KINDS)}; a step is "
                f"one of {', '.join(STEP_KINDS)}",
            )
        message = f"{message}, written '- explain: …'; found {_found(given)}"
        return document.where(path), path, message
    if kind == "card_token":
        return document.token_position(path, int(ctx["index"])), path, message
    if kind == "rules" and "key" in ctx:
        key_path = path if ctx["key"] == "self" else (*path, str(ctx["key"]))
        return document.where(key_path, key=ctx.get("at") == "key"), path, message
    if kind == "too_short":
        message = f"expected at least {ctx.get('min_length', 1)} item(s), found none"
    elif kind in ("value_error", "outcome", "up_card", "action", "rules", "step_kind", "number"):
        pass  # these messages already quote what was found
    elif kind in ("int_type", "string_type") and isinstance(given, bool):
        message += (
            f", found {_found(given)} (YAML reads yes, no, on, off, true and false as booleans: "
            "put the text in quotes)"
        )
    else:
        message += f", found {_found(given)}"
    return document.where(path), path, message


def _unknown_key(key: str, loc: tuple[str | int, ...]) -> str:
    _path, model = _walk_loc(loc)
    if model is None:
        return f"unknown key {key!r}"
    allowed = list(model.model_fields)
    if model in _STEP_MODELS:
        return (
            f"unknown key {key!r} in this {allowed[0]} step: each step is its own list item "
            f"with one kind ({', '.join(STEP_KINDS)}) and, beside it, its 'claims' if any; "
            "check the indentation"
        )
    hint = _did_you_mean(key, allowed)
    return f"unknown key {key!r}{hint}; expected one of: {', '.join(allowed)}"


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


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
