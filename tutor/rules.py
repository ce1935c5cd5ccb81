"""Table rules: every convention on which the rule sources disagree, as one immutable value.

The sources (``shared/sources``) describe the same game with different conventions: one deck or a
six-deck shoe, a hole card or none, doubling on any two cards or on 9-11 only, one split or three
hands, insurance that forbids doubling or not... Each disagreement is a field here, so the engine,
the strategy and the lessons read the table from one place, and a lesson can teach which
convention a table uses and what it costs.

A combination that cannot happen at a real table is refused at construction, with a sentence
saying why:

>>> TableRules(decks=9)
Traceback (most recent call last):
...
tutor.rules_errors.InvalidRulesError: a shoe holds 1 to 8 decks, not 9
>>> PRESETS["family"].double_after_split
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Annotated, Any

from tutor.exact import NumberError, parse_exact
from tutor.options import BankRotation as BankRotation
from tutor.options import DoubleOn as DoubleOn
from tutor.options import HoleCard as HoleCard
from tutor.options import Shuffle as Shuffle
from tutor.options import Surrender as Surrender
from tutor.refusal import Refusal
from tutor.rules_errors import InvalidRulesError as InvalidRulesError
from tutor.rules_errors import RuleProblem as RuleProblem
from tutor.rules_kinds import ENUM_FIELDS, KIND_CODES, KIND_SENTENCES, MAX_TEXT, strict_kind

if TYPE_CHECKING:  # pydantic is imported when a rules mapping is first read (``_model``)
    from pydantic import BaseModel, ValidationError
    from pydantic_core import PydanticCustomError

#: What an edited preset's name ends with (``family*``): a name only, for the learner's eye and
#: for tables saved before ``TableRules.edits`` said which preset they edit.
EDITED_MARK = "*"


def edited_preset(name: str) -> str:
    """The preset a table's name says it edits, "" when it says none: the one reading of the
    mark, for names saved before ``TableRules.edits``.

    >>> edited_preset("family*"), edited_preset("family")
    ('family', '')
    """
    return name.removesuffix(EDITED_MARK) if name.endswith(EDITED_MARK) else ""


@dataclass(frozen=True, kw_only=True)
class TableRules:
    """The conventions of one table. Build with keywords; ``replace`` derives a variant."""

    #: Shown to the learner; presets carry their own name.
    name: str = "custom"
    #: The preset these rules are an edit of (``"family"`` for the family table with two decks),
    #: set where the edited table is made (Settings, ``from_mapping``); empty for a preset itself
    #: or a table of its own. Pages ask it, never the name, which preset a table starts from.
    #: Not compared, as ``source``: what a table is comes from its options and its name.
    edits: str = field(default="", compare=False)
    decks: int = 6
    #: Whether the dealer draws on a soft 17 (Ace-6). All sources stand; hitting is a variant.
    dealer_hits_soft_17: bool = False
    hole_card: HoleCard = HoleCard.AMERICAN
    #: What a natural wins per unit bet: 3:2 normally, 6:5 at some modern tables.
    blackjack_pays: Fraction = Fraction(3, 2)
    double_on: DoubleOn = DoubleOn.ANY_TWO
    double_after_split: bool = True
    #: The card dealt on a double stays face down until the dealer has played.
    double_face_down: bool = False
    #: Each player's second card of the deal comes face down, as the banker's does (the game at
    #: home of ``000``): its player looks at it, the other seats see it only when it is shown
    #: (a natural once the banker has none, a pair to split) or at the showdown.
    player_card_face_down: bool = False
    #: Split two cards of the same value (K and 10) rather than only the same rank.
    split_by_value: bool = False
    #: Most hands one seat may hold by splitting: 1 forbids splitting, 2 allows one split.
    max_hands: int = 4
    #: Split Aces receive exactly one card each and stand.
    split_aces_one_card: bool = True
    resplit_aces: bool = False
    surrender: Surrender = Surrender.NONE
    #: Whether surrender is offered against a dealer Ace too. No source of the course refuses it
    #: (``001`` lets a player give up "constatant une carte dangereuse à la banque", any card);
    #: ``False`` is a casino's house rule, for a table that publishes one.
    surrender_against_ace: bool = True
    insurance: bool = True
    #: The largest insurance bet, as a fraction of the hand's bet.
    insurance_max: Fraction = Fraction(1, 2)
    #: A player who took insurance may no longer double or split (the six-deck online game).
    insurance_forbids_double_split: bool = False
    #: A player who took insurance and then doubles or splits insures the new bet too (French
    #: casinos with the European deal, where a dealer natural would take those bets).
    insure_additional_bets: bool = False
    #: A player with a natural facing an Ace may take 1:1 at once instead of risking a push.
    even_money: bool = True
    shuffle: Shuffle = Shuffle.CUT_CARD
    #: Share of the shoe dealt before the cut card comes out (``shuffle`` = cut card).
    penetration: float = 0.75
    #: When a round exhausts the cards with a shuffle after every round, open a spare deck
    #: (announced before play) rather than shuffling earlier discards.
    spare_deck: bool = False
    #: The historical bonus that named the game: Ace of spades with a black Jack, paid 10:1.
    ace_of_spades_black_jack_pays: Fraction | None = None
    #: Who holds the bank from round to round: one bank all session (a casino, the family
    #: booklet), or the players in turn by one of the home game's conventions (``000``).
    bank_rotation: BankRotation = BankRotation.FIXED
    #: Where each convention comes from, for the learner (a source file or a description).
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # The typed fields go through the one rules parser (``parse_rule_values``): a count must
        # be a whole number, a yes/no a boolean (2.5 decks passes ``1 <= decks <= 8``, and "no"
        # is a true text), and options spelled as text (``surrender="late"``) become their enum
        # members, payouts exact fractions, so a test such as ``rules.surrender is
        # Surrender.LATE`` means what it says however the rules were built.
        # Most tables are derived from typed ones (``replace``), so only the values that are not
        # already of their field's type are given to the parser.
        raw = {name: getattr(self, name) for name in _CHECKED_ON_BUILD}
        untyped = {name: value for name, value in raw.items() if not _is_typed(name, value)}
        if untyped:
            for name, value in parse_rule_values(untyped).items():
                object.__setattr__(self, name, value)
        starts_from = edited_preset(self.name)
        if not self.edits and starts_from:
            # A name from before ``edits`` (a learner's table saved as ``family*``).
            object.__setattr__(self, "edits", starts_from)
        problems = self._problems()
        if problems:
            raise InvalidRulesError(
                [refusal for refusal, _ in problems], "; ".join(message for _, message in problems)
            )

    @property
    def preset(self) -> str:
        """The preset these rules are or edit (their own name for a table of its own)."""
        return self.edits or self.name

    def edited(self, **changes: Any) -> TableRules:
        """These rules with ``changes``, as an edit of the preset they are or edit (named
        ``family*``, ``edits="family"``): how Settings makes a learner's own table."""
        return self.replace(name=self.preset + EDITED_MARK, edits=self.preset, **changes)

    def _problems(self) -> list[tuple[Refusal, str]]:
        """Each way these rules do not hold together, as a refusal and its English sentence."""
        out: list[tuple[Refusal, str]] = []

        def add(code: str, message: str, **params: object) -> None:
            out.append((Refusal(code, params), message))

        if not 1 <= self.decks <= 8:
            decks = _shown(self.decks)
            add("rules-decks", f"a shoe holds 1 to 8 decks, not {decks}", decks=decks)
        if not 1 <= self.max_hands <= 4:
            hands = _shown(self.max_hands)
            add("rules-max-hands", f"a seat holds 1 to 4 hands after splitting, not {hands}",
                hands=hands)
        if self.resplit_aces and self.max_hands < 3:
            add("rules-resplit-aces-room",
                "resplitting Aces needs room for at least 3 hands (max_hands >= 3)")
        if self.blackjack_pays < 1:
            pays = str(self.blackjack_pays)
            add("rules-natural-pays", f"a natural pays at least even money, not {pays}", pays=pays)
        if not 0 < self.insurance_max <= 1:
            most = str(self.insurance_max)
            add("rules-insurance-max",
                f"insurance is a part of the bet, between 0 and 1, not {most}", most=most)
        if not self.insurance and (
            self.insurance_forbids_double_split or self.insure_additional_bets
        ):
            add("rules-insurance-without-insurance",
                "insurance rules are set but this table offers no insurance")
        if self.insurance_forbids_double_split and self.insure_additional_bets:
            add("rules-insurance-both",
                "insurance cannot both forbid doubling and splitting and insure the bets they add")
        if self.insure_additional_bets and self.hole_card is HoleCard.AMERICAN:
            add("rules-insure-added-bets-hole-card",
                "insuring the bets added by a double or split only makes sense without a hole card:"
                " with the American deal the dealer has already checked for a natural")
        if self.even_money and not self.insurance:
            add("rules-even-money-without-insurance",
                "even money is a form of insurance, and this table offers no insurance")
        if not self.surrender_against_ace and not self.offers_surrender:
            add("rules-surrender-ace-without-surrender",
                "surrender against an Ace is refused but this table offers no surrender at all")
        if not 0.1 <= self.penetration <= 0.95:
            add("rules-penetration",
                f"the cut card goes between 10% and 95% of the shoe, not {self.penetration}",
                penetration=self.penetration)
        if self.spare_deck and self.shuffle is not Shuffle.EVERY_ROUND:
            add("rules-spare-deck", "a spare deck is for tables that shuffle after every round")
        bonus = self.ace_of_spades_black_jack_pays
        if bonus is not None and bonus < self.blackjack_pays:
            add("rules-bonus", "the Ace of spades with a black Jack bonus pays more than a natural")
        return out

    # -- queries (cached: the engine asks them at every turn, and the rules never change) --
    @cached_property
    def dealer_peeks(self) -> bool:
        """The dealer checks the hole card for a natural under an Ace or a ten."""
        return self.hole_card is HoleCard.AMERICAN

    @cached_property
    def offers_surrender(self) -> bool:
        return self.surrender is not Surrender.NONE

    @cached_property
    def can_split(self) -> bool:
        return self.max_hands >= 2

    @cached_property
    def shuffles_every_round(self) -> bool:
        return self.shuffle is Shuffle.EVERY_ROUND

    def replace(self, **changes: Any) -> TableRules:
        """A variant of these rules; unknown options are refused by name."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            names = ", ".join(sorted(unknown))
            options = ", ".join(f.name for f in dataclasses.fields(self) if f.name != "edits")
            raise InvalidRulesError.of(
                "rules-unknown-option",
                f"unknown table rule(s): {names}",
                option=names[:200],
                options=options,
            )
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Plain values (strings for enums and fractions), the form files and JSON use."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, Fraction):
                value = str(value)
            out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: bool = True) -> TableRules:
        """Rules from a mapping: an optional ``preset`` name plus overrides of any field.

        Types are strict, because a rules file is written by hand and a lenient reading changes
        the game silently: ``dealer_hits_soft_17 = "no"`` is a non-empty text, which Python
        calls true, and ``decks = 2.5`` passes a range check. So a yes/no rule takes only a
        boolean, a count only a whole number (never a boolean), a payout a number or a ratio
        text (``"3/2"``, through ``tutor.exact``'s bounds), an option one of its names: see
        ``parse_rules_mapping``, which lessons read their tables with too. ``source`` says whether
        the mapping may give ``source`` (a rules file may; a lesson's table is traced by the
        lesson itself).

        >>> TableRules.from_mapping({"preset": "family", "dealer_hits_soft_17": "no"})
        Traceback (most recent call last):
        ...
        tutor.rules_errors.InvalidRulesError: dealer_hits_soft_17 must be true or false, not 'no'
        """
        choice = parse_rules_mapping(data, source=source)
        preset, values = choice.preset, dict(choice.values)
        base = preset_rules(preset) if preset is not None else cls()
        if preset is not None and "name" not in values and values:
            values["name"] = f"{base.name}{EDITED_MARK}"
            values.setdefault("edits", base.name)
        return base.replace(**values)


# -- the one parser of a rules mapping ------------------------------------------------------------

@dataclass(frozen=True)
class RulesChoice:
    """A rules mapping read: the preset it starts from (None: the defaults) and the options it
    overrides, already of their types (enum members, exact fractions)."""

    preset: str | None
    values: Mapping[str, Any]


def _option(name: str, enum: type[Enum]) -> Any:
    from pydantic import PlainValidator

    def read(raw: object) -> Enum:
        if isinstance(raw, enum):
            return raw
        if isinstance(raw, str):
            try:
                return enum(raw.lower())
            except ValueError:
                pass
        choices = ", ".join(repr(member.value) for member in enum)
        message = f"{name} is one of {choices}, not {_shown(raw)}"
        raise _refused("rules-option-value", message, key=name, choices=choices, value=_shown(raw))

    return PlainValidator(read)


def _payout(name: str, *, optional: bool) -> Any:
    from pydantic import PlainValidator

    def read(raw: object) -> Fraction | None:
        if isinstance(raw, Fraction) or (raw is None and optional):
            return raw
        try:
            return parse_exact(raw)
        except NumberError as error:
            message = f"{name} must be a number or a ratio like 3/2: {error}"
            raise _refused("rules-payout", message, key=name, value=_shown(raw)) from None

    return PlainValidator(read)


def _preset(raw: object) -> str:
    if not isinstance(raw, str):
        message = f"preset must be a preset's name, not {_shown(raw)}"
        raise _refused("rules-preset-type", message, value=_shown(raw))
    if raw not in PRESETS:
        message = f"unknown preset {raw!r}; presets are: {', '.join(PRESETS)}"
        raise _refused("rules-unknown-preset", message, preset=raw[:40], presets=_PRESET_NAMES)
    return raw


def _refused(code: str, message: str, **params: object) -> PydanticCustomError:
    """A validator's refusal, carried through pydantic to ``_problems_of``: the English sentence,
    and the code and parameters of its ``Refusal``."""
    from pydantic_core import PydanticCustomError

    context = {"message": message, "refusal": Refusal(code, params)}
    return PydanticCustomError("rule", "{message}", context)


def _field_type(f: dataclasses.Field[Any]) -> Any:
    kind = str(f.type)
    if f.name in ENUM_FIELDS:
        return Annotated[Any, _option(f.name, ENUM_FIELDS[f.name])]
    if "Fraction" in kind:
        return Annotated[Any, _payout(f.name, optional="None" in kind)]
    return strict_kind(kind)


@lru_cache(maxsize=2)
def _model(*, source: bool) -> type[BaseModel]:
    """The pydantic model of a rules mapping: every field of ``TableRules`` optional (a mapping
    overrides some), strict, unknown keys refused; ``source`` only where a file may trace
    itself. Built when a mapping is first read, and kept."""
    from pydantic import ConfigDict, PlainValidator, create_model

    fields: dict[str, Any] = {
        f.name: (_field_type(f), None)
        for f in dataclasses.fields(TableRules)
        if source or f.name != "source"
    }
    fields["preset"] = (Annotated[Any, PlainValidator(_preset)], None)
    config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    return create_model("RulesMapping", __config__=config, **fields)


#: The fields a ``TableRules`` built in code checks itself (a file's texts and numbers are checked
#: by ``from_mapping``; code may name a table as it likes).
_CHECKED_ON_BUILD = tuple(
    f.name for f in dataclasses.fields(TableRules) if str(f.type) not in ("str", "float")
)


def _is_typed(name: str, value: object) -> bool:
    """Whether ``value`` is already what the parser would make of it for field ``name``."""
    kind = _FIELDKINDS[name]
    if name in ENUM_FIELDS:
        return isinstance(value, ENUM_FIELDS[name])
    if "Fraction" in kind:
        return isinstance(value, Fraction) or (value is None and "None" in kind)
    if kind == "bool":
        return value is True or value is False
    return kind == "int" and type(value) is int


def parse_rules_mapping(data: Mapping[Any, Any], *, source: bool = True) -> RulesChoice:
    """Read a rules mapping strictly: the one parser of rules files, lessons' tables and
    ``TableRules`` built in code. Every mistake is a ``RuleProblem`` naming its key, all of them
    in the ``InvalidRulesError`` (in the mapping's order); a preset that cannot be read is
    reported alone, since nothing else can be judged without it.

    >>> parse_rules_mapping({"preset": "family", "surrender": "LATE"}).values
    {'surrender': <Surrender.LATE: 'late'>}
    >>> try:
    ...     parse_rules_mapping({"decks": 2.5, "colour": "green"}, source=False)
    ... except InvalidRulesError as error:
    ...     [(problem.key, problem.message[:30]) for problem in error.problems]
    [('decks', 'decks must be a whole number, '), ('colour', "unknown table rule 'colour'; r")]
    """
    from pydantic import ValidationError

    model = _model(source=source)
    try:
        parsed = model.model_validate(dict(data))
    except ValidationError as error:
        problems = _problems_of(error, list(data), model)
        preset = [problem for problem in problems if problem.key == "preset"]
        problems = preset[:1] or problems
        raise InvalidRulesError(
            [p.refusal for p in problems], "; ".join(p.message for p in problems), tuple(problems)
        ) from None
    values = {name: getattr(parsed, name) for name in parsed.model_fields_set}
    preset = values.pop("preset", None)
    return RulesChoice(preset, {key: values[key] for key in data if key in values})


def parse_rule_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The typed values of some fields of ``TableRules`` (enum members, exact fractions)."""
    return dict(parse_rules_mapping(values).values)


def _problems_of(
    error: ValidationError, order: list[Any], model: type[BaseModel]
) -> list[RuleProblem]:
    """Pydantic's errors as sentences, one per key, in the mapping's order. The rules listed
    for an unknown one are those a person writes: not ``preset`` (said apart) nor ``edits``
    (which preset an edited table edits: the app sets it, from the table's name)."""
    names = ", ".join(name for name in model.model_fields if name not in ("preset", "edits"))
    problems: list[tuple[int, RuleProblem]] = []
    for details in error.errors():
        key = details["loc"][0] if details["loc"] else ""
        place = order.index(key) if key in order else len(order)
        if details["type"] == "extra_forbidden":
            message = f"unknown table rule {_shown(key)}; rules are: {names}"
            refusal = Refusal("rules-unknown-option", {"option": str(key)[:40], "options": names})
            problems.append((place, RuleProblem(key, message, refusal, at_key=True)))
            continue
        if details["type"] == "rule":
            message, refusal = details["msg"], details["ctx"]["refusal"]
        else:
            kind = _FIELDKINDS[str(key)]
            value = _shown(details["input"])
            message = f"{key} must be {KIND_SENTENCES[kind]}, not {value}"
            params = {"key": key, "value": value, "most": MAX_TEXT}
            refusal = Refusal(KIND_CODES[kind], params)
        problems.append((place, RuleProblem(key, message, refusal)))
    problems.sort(key=lambda item: item[0])
    return [problem for _place, problem in problems]


_FIELDKINDS = {f.name: str(f.type) for f in dataclasses.fields(TableRules)}


def _shown(raw: object) -> str:
    """``raw`` quoted for a message, short (a huge integer is never turned into text)."""
    if isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) > 10**12:
        return "a huge number"
    text = repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."


# -- presets -------------------------------------------------------------------------------------

PRESETS: dict[str, TableRules] = {
    # shared/sources/004_85fc10a6bbbb7bbc.txt, a family rules booklet: one deck without jokers,
    # dealer stands on every 17 including Ace-6, dealer checks for a natural under an Ace or a ten,
    # double on the first two cards only and never after a split, one split only, split Aces one
    # card each, insurance up to half the bet, shuffle after every round and a spare deck if a round
    # exhausts the pack. No surrender is mentioned. It splits two cards of "le même rang" (by rank).
    "family": TableRules(
        name="family",
        decks=1,
        double_after_split=False,
        max_hands=2,
        shuffle=Shuffle.EVERY_ROUND,
        spare_deck=True,
        even_money=False,
        source="004_85fc10a6bbbb7bbc.txt",
    ),
    # shared/sources/001_c05efaf0daf1676d.txt, French casino rules: European deal (the dealer's
    # second card after the players), double on any two cards since 2007, double after split,
    # split up to three hands, split Aces one card, insurance that must be extended to the second
    # bet after a split or double. Shoe size from 000_0c2d5cbf6d108733.txt (six or seven decks in
    # a French shoe).
    # Surrender, 001: after two cards, "constatant une carte dangereuse à la banque, un joueur
    # peut décider d'abandonner immédiatement. La banque récupère alors la moitié de sa mise":
    # settled at once, half back (IMMEDIATE), against whatever card the bank shows, an Ace
    # included (001 names no card it excludes; refusing it against an Ace is a casino's house
    # rule that no source of the course states, ``surrender_against_ace=False``).
    # Splitting, 001: "deux cartes de même valeur" may be split, so K-10 is a pair here.
    "french-casino": TableRules(
        name="french-casino",
        decks=6,
        hole_card=HoleCard.EUROPEAN,
        split_by_value=True,
        max_hands=3,
        surrender=Surrender.IMMEDIATE,
        insure_additional_bets=True,
        source="001_c05efaf0daf1676d.txt",
    ),
    # shared/sources/001_c05efaf0daf1676d.txt: until 2007 French casinos let players double only on
    # 9, 10 or 11; otherwise as the French casino above (immediate surrender against any card,
    # split by value).
    "france-before-2007": TableRules(
        name="france-before-2007",
        decks=6,
        hole_card=HoleCard.EUROPEAN,
        double_on=DoubleOn.NINE_TO_ELEVEN,
        split_by_value=True,
        max_hands=3,
        surrender=Surrender.IMMEDIATE,
        insure_additional_bets=True,
        source="001_c05efaf0daf1676d.txt",
    ),
    # shared/sources/000_0c2d5cbf6d108733.txt, the game played at home (Vingt-et-Un, of which
    # Black-jack is "la version de casino"): "Deux jeux de 52 cartes", two players at least, and
    # the bank held by the players themselves, not by a croupier, passing between them by the
    # convention agreed at the start ("jusqu'à épuisement des cartes", "dès qu'il a perdu son
    # coup", "qu'un seul coup"; here the first, which the others replace as an option). The banker
    # deals himself a card face up and one face down and shows a natural at once: a hole card.
    # He deals every player the same way ("L'une des cartes est donnée face visible, l'autre face
    # cachée"): each player looks at his own card face down; a natural is shown as soon as the
    # banker has none ("ce joueur le montre et se fait payer"), the cards drawn are dealt face up,
    # and the rest is seen when "tout le monde montre son jeu", once the banker has played. A
    # bust is announced ("Crevé"), not shown. A pair is shown to be split.
    # The cards played are "brûlées" and not dealt again: the cards are dealt down to the end
    # (the cut card as deep as a shoe allows; a bank kept until the cards run out deals them all).
    # 000's part on the game at home pays winning hands "à égalité" and names no double, split,
    # insurance or natural payout; what it says of casino Black-jack is taken for those (the
    # app's choice, which lesson 19 says): the bank draws to 16 and stands on 17 (the only drawing
    # rule 000 gives; its Vingt-et-Un banker draws as he judges, which an engine cannot play), a
    # natural pays 3 to 2, insurance of half the bet pays 2 to 1 against an Ace, the double on
    # the first two cards takes one card "face cachée", any new pair may be split again, split
    # Aces take one card each. 000 names no double after a split, no even money and no surrender:
    # none is offered.
    "home-game": TableRules(
        name="home-game",
        decks=2,
        double_after_split=False,
        double_face_down=True,
        player_card_face_down=True,
        max_hands=4,
        even_money=False,
        penetration=0.95,
        bank_rotation=BankRotation.UNTIL_CARDS_RUN_OUT,
        source="000_0c2d5cbf6d108733.txt",
    ),
    # shared/sources/003_3e906d12f813f817.txt, a single-player online game: six decks, a hole card,
    # double on two cards or after a split, surrender for half, insurance forbids doubling and
    # splitting. It names one split (two hands). It splits "la même dénomination" (the same rank,
    # not the same value), and deals the double "face découverte".
    "online-six-deck": TableRules(
        name="online-six-deck",
        decks=6,
        max_hands=2,
        surrender=Surrender.LATE,
        insurance_forbids_double_split=True,
        source="003_3e906d12f813f817.txt",
    ),
    # Common American shoe games, for comparison (the usual Las Vegas Strip rules): six decks,
    # peek, double any two, double after split, resplit to four hands, no resplit of Aces, late
    # surrender; dealer stands on or hits soft 17.
    # The double face down is how 001 describes the American deal ("Au Blackjack américain, le
    # joueur double face cachée", the card seen once the dealer has played; 000 says the same):
    # these are the only presets with the American deal whose sources do not say otherwise (003's
    # online game deals it "face découverte", 004 does not say, and 001's French tables deal the
    # European way).
    "american-s17": TableRules(
        name="american-s17",
        decks=6,
        double_face_down=True,
        max_hands=4,
        surrender=Surrender.LATE,
        source="common six-deck American table, dealer stands on soft 17",
    ),
    "american-h17": TableRules(
        name="american-h17",
        decks=6,
        dealer_hits_soft_17=True,
        double_face_down=True,
        max_hands=4,
        surrender=Surrender.LATE,
        source="common six-deck American table, dealer hits soft 17",
    ),
}


#: The presets' names, as a sentence lists them.
_PRESET_NAMES = ", ".join(PRESETS)


def preset_rules(name: str) -> TableRules:
    try:
        return PRESETS[name]
    except KeyError:
        message = f"unknown preset {name!r}; presets are: {_PRESET_NAMES}"
        raise InvalidRulesError.of(
            "rules-unknown-preset", message, preset=name[:40], presets=_PRESET_NAMES
        ) from None
