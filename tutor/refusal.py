"""Why the tutor refuses something: one value, ``Refusal(code, params)``, for every domain error.

Why one value: the engine refuses a double, class mode a join, the store a nickname, the rules a
deck count, a card parser a token. Each used to say why its own way (a class-level code, a code
argument, an English sentence alone), so the interface needed one reader per error and some
refusals reached a French page in English. Now every domain error derives from ``RefusedError`` and
carries a ``Refusal``: a short stable ``code`` naming the reason and the ``params`` its sentence
needs (the total a hand makes, the seconds to wait). The interface turns it into a sentence in
the learner's language (``Translator.refusal(code, params)``); ``str(error)`` stays an English
sentence for logs and the command line.

This module is the lowest floor: it imports nothing of the tutor, so every module may raise.

>>> error = RefusedError(Refusal("decks", {"decks": 9}), "a shoe holds 1 to 8 decks, not 9")
>>> error.code, dict(error.params), str(error)
('decks', {'decks': 9}, 'a shoe holds 1 to 8 decks, not 9')
>>> error.refusal == Refusal("decks", {"decks": 9})
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar


def _no_params() -> Mapping[str, object]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Refusal:
    """A reason for refusing: a stable ``code`` and the values its sentence needs.

    ``params`` is copied and read-only, so a refusal kept in an exception or a page's state
    cannot be changed behind the sentence that shows it.
    """

    code: str
    params: Mapping[str, object] = field(default_factory=_no_params)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items(), key=lambda item: item[0]))))

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {dict(self.params)!r})"


class RefusedError(Exception):
    """A domain error that says why as data: ``refusal`` (with ``code`` and ``params`` read
    through it), and an English ``str()`` for logs.

    Each subclass lists in ``codes`` every code it may carry, so a test can check that each has
    a sentence in both languages (and that every raise site passes one of them).
    """

    #: Every code this kind of error may carry.
    codes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, refusal: Refusal, message: str) -> None:
        super().__init__(message)
        self.refusal = refusal

    @property
    def code(self) -> str:
        """The refusal's code (``refusal.code``)."""
        return self.refusal.code

    @property
    def params(self) -> Mapping[str, object]:
        """The refusal's parameters (``refusal.params``)."""
        return self.refusal.params
