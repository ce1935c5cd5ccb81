"""How each kind of table option is read from a rules mapping, strictly: the enum of each
option spelled as a word, and pydantic's strict type and the sentence for each plain kind
(no "2" for 2, no 0 for false, no nan for a number).

A module of its own so that ``tutor.rules`` (the table, its presets and its one parser) reads
as the rules themselves; these tables only say what a well-typed value is.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

from tutor.options import BankRotation, DoubleOn, HoleCard, Shuffle, Surrender

#: The longest table name or source a rules file may give.
MAX_TEXT = 200

ENUM_FIELDS: dict[str, type[Enum]] = {
    "hole_card": HoleCard,
    "double_on": DoubleOn,
    "surrender": Surrender,
    "shuffle": Shuffle,
    "bank_rotation": BankRotation,
}

#: What the sentence of a value of the wrong plain kind says it must be.
KIND_SENTENCES: dict[str, str] = {
    "bool": "true or false",
    "int": "a whole number",
    "float": "a number",
    "str": f"a text of at most {MAX_TEXT} characters",
}


def strict_kind(kind: str) -> Any:
    """How a plain kind of field is read strictly (pydantic's strict types: no "2" for 2, no 0
    for false, no nan for a number). Pydantic is imported here, when a rules mapping is first
    read, not with the rules: a solve or a preset never needs it (40 ms of a cold start)."""
    from pydantic import Field, StrictBool, StrictInt, StrictStr

    kinds: dict[str, Any] = {
        "bool": StrictBool,
        "int": StrictInt,
        "float": Annotated[float, Field(strict=True, allow_inf_nan=False)],
        "str": Annotated[StrictStr, Field(max_length=MAX_TEXT)],
    }
    return kinds[kind]


#: The code of a value of the wrong plain kind (``decks = 2.5``: ``rules-not-int``).
KIND_CODES = {
    "bool": "rules-not-bool", "int": "rules-not-int", "float": "rules-not-number",
    "str": "rules-not-text",
}
