"""Why table rules are refused: ``InvalidRulesError``, one ``Refusal`` per mistake, and
``RuleProblem``, a mistake in a rules mapping tied to its key.

Why a module of its own: lessons, the command line and the settings page catch these without
reading the rules parser, and ``tutor.rules`` stays the rules themselves (it re-exports both).
Every code has a sentence in both languages (``Translator.refusal``).

>>> error = InvalidRulesError.of("rules-decks", "a shoe holds 1 to 8 decks, not 9", decks="9")
>>> error.code, dict(error.params), error.problems
('rules-decks', {'decks': '9'}, ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutor.refusal import Refusal, RefusedError

#: Why rules built in code do not hold together, one code per reason (``TableRules._problems``).
_CONFLICTS = (
    "rules-decks", "rules-max-hands", "rules-resplit-aces-room", "rules-natural-pays",
    "rules-insurance-max", "rules-insurance-without-insurance", "rules-insurance-both",
    "rules-insure-added-bets-hole-card", "rules-even-money-without-insurance",
    "rules-surrender-ace-without-surrender", "rules-penetration", "rules-spare-deck",
    "rules-bonus",
)

#: A mapping's mistakes (``parse_rules_mapping``, ``replace``, a preset's name) and a file's
#: (``tutor.rules_file.load_rules``).
_MAPPING_AND_FILE = (
    "rules-unknown-option", "rules-option-value", "rules-payout", "rules-preset-type",
    "rules-unknown-preset", "rules-not-bool", "rules-not-int", "rules-not-number",
    "rules-not-text", "rules-no-file", "rules-unreadable", "rules-file-too-large",
    "rules-not-utf8", "rules-not-mapping", "rules-toml-syntax", "rules-nests-too-deeply",
    "rules-yaml-alias", "rules-yaml-too-many-values", "rules-yaml-value", "rules-yaml-syntax",
)


class InvalidRulesError(RefusedError, ValueError):
    """Table rules that cannot hold together, or an unknown preset or option.

    ``refusal`` is the first mistake as a code and its parameters (``rules-decks`` with the
    deck count), ``refusals`` every mistake, for a page to say each in the learner's language.
    ``problems`` names the key of each mistake when the mistake is one of a mapping's keys or
    values (a lesson then points at that key in its file); it is empty for rules that do not
    hold together (a spare deck without a shuffle after every round).
    """

    codes = _CONFLICTS + _MAPPING_AND_FILE

    def __init__(
        self,
        refusals: Refusal | Sequence[Refusal],
        message: str,
        problems: tuple[RuleProblem, ...] = (),
    ) -> None:
        every = (refusals,) if isinstance(refusals, Refusal) else tuple(refusals)
        super().__init__(every[0], message)
        self.refusals = every
        self.problems = problems

    @classmethod
    def of(cls, code: str, message: str, **params: object) -> InvalidRulesError:
        """One mistake, not of a mapping's key: ``code`` and its parameters."""
        return cls(Refusal(code, params), message)


@dataclass(frozen=True)
class RuleProblem:
    """One mistake in a rules mapping: the key, whether the key itself or its value is at fault,
    the sentence that says why (``decks must be a whole number, not 2.5``) and the same as a
    ``Refusal`` for the interface (``rules-not-int`` with the key and the value)."""

    key: object
    message: str
    refusal: Refusal
    at_key: bool = False
