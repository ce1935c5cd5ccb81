"""How each kind of table option is read from a rules mapping, strictly: the enum of each
option spelled as a word, and pydantic's strict type and the sentence for each plain kind
(no "2" for 2, no 0 for false, no nan for a number).

A module of its own so that ``tutor.rules`` (the table, its presets and its one parser) reads
as the rules themselves; these tables only say what a well-typed value is.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

from pydantic import Field, StrictBool, StrictInt, StrictStr

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

#: How each plain kind of field is read strictly (pydantic's strict types: no "2" for 2, no 0
#: for false, no nan for a number), and what the sentence of a wrong value says it must be.
KINDS: dict[str, tuple[Any, str]] = {
    "bool": (StrictBool, "true or false"),
    "int": (StrictInt, "a whole number"),
    "float": (Annotated[float, Field(strict=True, allow_inf_nan=False)], "a number"),
    "str": (
        Annotated[StrictStr, Field(max_length=MAX_TEXT)],
        f"a text of at most {MAX_TEXT} characters",
    ),
}


#: The code of a value of the wrong plain kind (``decks = 2.5``: ``rules-not-int``).
KIND_CODES = {
    "bool": "rules-not-bool", "int": "rules-not-int", "float": "rules-not-number",
    "str": "rules-not-text",
}
