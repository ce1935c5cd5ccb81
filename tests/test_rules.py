"""Table rules: presets traced to the sources, and combinations a real table cannot have."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from tutor.rules import (
    PRESETS,
    BankRotation,
    DoubleOn,
    HoleCard,
    InvalidRulesError,
    Shuffle,
    Surrender,
    TableRules,
    preset_rules,
)
from tutor.rules_file import load_rules


def test_the_family_table_reads_like_its_booklet() -> None:
    family = PRESETS["family"]
    assert family.decks == 1
    assert not family.dealer_hits_soft_17
    assert family.dealer_peeks
    assert not family.double_after_split
    assert family.max_hands == 2
    assert family.split_aces_one_card
    assert family.insurance_max == Fraction(1, 2)
    assert family.shuffle is Shuffle.EVERY_ROUND
    assert family.spare_deck


def test_the_french_casino_deals_the_european_way() -> None:
    french = PRESETS["french-casino"]
    assert french.hole_card is HoleCard.EUROPEAN
    assert not french.dealer_peeks
    # 001: "constatant une carte dangereuse à la banque, un joueur peut décider d'abandonner
    # immédiatement": half the bet back at once, against any card the bank shows (an Ace too).
    assert french.surrender is Surrender.IMMEDIATE
    assert french.surrender_against_ace
    assert PRESETS["france-before-2007"].surrender_against_ace
    assert french.split_by_value  # 001: "deux cartes de même valeur"
    assert french.insure_additional_bets
    assert PRESETS["france-before-2007"].double_on is DoubleOn.NINE_TO_ELEVEN


def test_the_home_game_reads_like_source_000() -> None:
    """000 (the Vingt-et-Un played at home, of which Black-jack is the casino's version)."""
    home = PRESETS["home-game"]
    assert home.source == "000_0c2d5cbf6d108733.txt"
    assert home.decks == 2  # "Deux jeux de 52 cartes"
    # "le Banquier peut rester le même jusqu'à épuisement des cartes" (the first convention; the
    # other two are chosen by replacing it)
    assert home.bank_rotation is BankRotation.UNTIL_CARDS_RUN_OUT
    assert home.bank_rotation.is_rotating
    # "L'une des cartes est donnée face visible, l'autre face cachée", a natural shown at once,
    # to each player as to the banker
    assert home.dealer_peeks
    assert home.player_card_face_down
    assert not any(r.player_card_face_down for name, r in PRESETS.items() if name != "home-game")
    assert not home.dealer_hits_soft_17  # "Avec 17 points et plus, il reste obligatoirement"
    assert home.blackjack_pays == Fraction(3, 2)  # "Black Jack gagne 3 pour 2"
    assert home.insurance
    assert home.insurance_max == Fraction(1, 2)  # "une somme égale à la moitié de leur mise"
    assert not home.even_money  # not in 000
    assert home.double_face_down  # "une seule carte, face cachée"
    assert not home.double_after_split  # "après avoir vu leurs deux premières cartes"
    assert home.max_hands == 4  # "peut encore dissocier toute nouvelle Paire"
    assert home.split_aces_one_card  # "ne peut recevoir qu'une carte par main"
    assert not home.resplit_aces
    assert not home.split_by_value  # a pair: "deux huits"
    assert home.surrender is Surrender.NONE  # 000 has no surrender
    assert home.shuffle is Shuffle.CUT_CARD  # the cards "brûlées", dealt down to the end
    assert home.penetration == 0.95


def test_only_the_home_game_passes_the_bank_between_the_players() -> None:
    rotating = {name for name, rules in PRESETS.items() if rules.bank_rotation.is_rotating}
    assert rotating == {"home-game"}


@pytest.mark.parametrize("rotation", list(BankRotation))
def test_the_bank_convention_is_read_from_a_rules_file(
    tmp_path: Path, rotation: BankRotation
) -> None:
    path = tmp_path / "home.yaml"
    path.write_text(f"preset: home-game\nbank_rotation: {rotation.value}\n", encoding="utf-8")
    rules = load_rules(path)
    assert rules.bank_rotation is rotation
    assert rules.decks == 2


def test_no_surrender_against_an_ace_is_a_house_rule_read_from_a_rules_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "french-casino"\nsurrender_against_ace = false\n', encoding="utf-8")
    rules = load_rules(path)
    assert rules.surrender is Surrender.IMMEDIATE
    assert not rules.surrender_against_ace
    assert rules.name == "french-casino*"


def test_american_tables_differ_only_by_soft_17() -> None:
    s17, h17 = PRESETS["american-s17"], PRESETS["american-h17"]
    assert s17.replace(dealer_hits_soft_17=True, name="american-h17") == h17


def test_every_preset_says_where_it_comes_from() -> None:
    for rules in PRESETS.values():
        assert rules.source


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"decks": 0}, "1 to 8 decks"),
        ({"max_hands": 5}, "1 to 4 hands"),
        ({"max_hands": 2, "resplit_aces": True}, "at least 3 hands"),
        ({"insurance": False}, "even money is a form of insurance"),
        (
            {"insurance": False, "even_money": False, "insurance_forbids_double_split": True},
            "offers no insurance",
        ),
        ({"insure_additional_bets": True}, "without a hole card"),
        ({"penetration": 0.99}, "cut card"),
        ({"spare_deck": True}, "shuffle after every round"),
        ({"blackjack_pays": "1/2"}, "at least even money"),
        ({"insurance_max": 2}, "between 0 and 1"),
        ({"double_on": "8-11"}, "double_on is one of"),
        ({"colour": "green"}, "unknown table rule"),
        (
            {"surrender": "none", "surrender_against_ace": False},
            "surrender against an Ace is refused but this table offers no surrender",
        ),
        ({"bank_rotation": "whoever-wins"}, "bank_rotation is one of 'fixed'"),
    ],
)
def test_impossible_tables_are_refused_with_the_reason(
    changes: dict[str, object], why: str
) -> None:
    with pytest.raises(InvalidRulesError, match=why):
        PRESETS["american-s17"].replace(**changes)


def test_fractions_are_exact_whatever_their_spelling() -> None:
    assert TableRules(blackjack_pays="6/5").blackjack_pays == Fraction(6, 5)  # type: ignore[arg-type]
    assert TableRules(blackjack_pays=1.5).blackjack_pays == Fraction(3, 2)  # type: ignore[arg-type]


def test_rules_are_hashable_values() -> None:
    assert hash(PRESETS["family"]) == hash(PRESETS["family"].replace())
    assert len({PRESETS["family"], PRESETS["family"].replace()}) == 1


def test_rules_load_from_a_preset_name_or_a_file(tmp_path: Path) -> None:
    assert load_rules("family") is PRESETS["family"]
    toml = tmp_path / "table.toml"
    toml.write_text('preset = "family"\ndealer_hits_soft_17 = true\n', encoding="utf-8")
    rules = load_rules(toml)
    assert rules.dealer_hits_soft_17
    assert rules.decks == 1
    yaml_file = tmp_path / "table.yaml"
    yaml_file.write_text("preset: american-s17\ndecks: 2\nsurrender: none\n", encoding="utf-8")
    assert load_rules(yaml_file).surrender is Surrender.NONE


def test_a_bad_rules_file_names_itself(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("decks = 12\n", encoding="utf-8")
    with pytest.raises(InvalidRulesError, match=r"bad\.toml: a shoe holds 1 to 8 decks, not 12"):
        load_rules(bad)
    with pytest.raises(InvalidRulesError, match="unknown preset 'vegas'"):
        preset_rules("vegas")
    with pytest.raises(InvalidRulesError, match="neither a preset"):
        load_rules("nowhere.toml")


def test_rules_round_trip_through_plain_values() -> None:
    for rules in PRESETS.values():
        data = rules.as_dict()
        assert TableRules.from_mapping(data) == rules


# -- strict types (issue 14): a lenient reading changed the game silently -------------------------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"dealer_hits_soft_17": "no"}, "dealer_hits_soft_17 must be true or false, not 'no'"),
        ({"dealer_hits_soft_17": 0}, "dealer_hits_soft_17 must be true or false, not 0"),
        ({"decks": 2.5}, "decks must be a whole number, not 2.5"),
        ({"decks": "2"}, "decks must be a whole number, not '2'"),
        ({"decks": True}, "decks must be a whole number, not True"),
        ({"max_hands": 2.5}, "max_hands must be a whole number, not 2.5"),
        ({"decks": 10**5000}, "a shoe holds 1 to 8 decks, not a huge number"),
        ({"blackjack_pays": "17/0"}, "'17/0' divides by 0"),
        ({"blackjack_pays": "1e9999999"}, "no exponent"),
        ({"blackjack_pays": True}, "yes/no value"),
        ({"insurance_max": [1]}, "insurance_max must be a number or a ratio"),
        ({"penetration": float("nan")}, "penetration must be a number, not nan"),
        ({"surrender": 1}, "surrender is one of 'none', 'late', 'immediate', not 1"),
        ({"surrender_against_ace": "no"}, "surrender_against_ace must be true or false, not 'no'"),
        ({"bank_rotation": 2}, "bank_rotation is one of 'fixed', 'each-round', 'until-loss'"),
        ({"name": "x" * 500}, "name must be a text of at most 200 characters"),
        ({"preset": 3}, "preset must be a preset's name, not 3"),
        ({"bogus": 1}, "unknown table rule 'bogus'"),
    ],
)
def test_a_rules_mapping_is_read_with_strict_types(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidRulesError, match=re.escape(message)):
        TableRules.from_mapping({"preset": "family", **overrides})


def test_the_constructor_refuses_a_fractional_deck_count_too() -> None:
    with pytest.raises(InvalidRulesError, match=r"decks must be a whole number, not 2\.5"):
        TableRules(decks=2.5)  # type: ignore[arg-type]


def test_strict_types_still_take_what_a_rules_file_means() -> None:
    rules = TableRules.from_mapping(
        {"preset": "family", "dealer_hits_soft_17": True, "decks": 2, "blackjack_pays": 1.2,
         "insurance_max": "1/2", "penetration": 0.5, "surrender": "late"}
    )
    assert rules.dealer_hits_soft_17 is True
    assert (rules.decks, rules.blackjack_pays, rules.penetration) == (2, Fraction(6, 5), 0.5)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("no.toml", 'preset = "family"\ndealer_hits_soft_17 = "no"\n', "must be true or false"),
        ("half.yaml", "decks: 2.5\n", "decks must be a whole number"),
        ("syntax.toml", "preset = \n", "the TOML does not parse"),
        ("syntax.yaml", "x: [\n", "the YAML does not parse at line 2"),
        ("bomb.yaml", "a: &a [1, 1]\nb: [*a, *a]\n", "aliases and anchors are not allowed"),
        ("ff.yaml", "decks: \x0c\n", "the YAML does not parse"),
        ("deep.toml", "a = " + "[" * 3000 + "]" * 3000 + "\n", "nests too deeply"),
        ("deep.yaml", "a: " + "[" * 3000 + "]" * 3000 + "\n", "nests too deeply"),
        ("date.yaml", "decks: 2024-02-30\n", "cannot read a value"),
        ("list.yaml", "- 1\n", "a rules file is a mapping"),
        ("big.toml", "# x\n" * 20_000, "not more than 64 KB"),
    ],
)
def test_a_bad_rules_file_is_an_invalid_rules_error_naming_it(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidRulesError, match=re.escape(message)) as caught:
        load_rules(path)
    assert str(caught.value).startswith(str(path))


def test_a_rules_file_that_is_not_utf8_or_a_folder_is_refused(tmp_path: Path) -> None:
    binary = tmp_path / "junk.yaml"
    binary.write_bytes(b"decks: \xff\xfe\n")
    with pytest.raises(InvalidRulesError, match="not UTF-8"):
        load_rules(binary)
    with pytest.raises(InvalidRulesError, match="neither a preset"):
        load_rules(tmp_path)


@pytest.mark.parametrize(
    "mapping",
    [
        {"preset": "family", "decks": 2.5},
        {"dealer_hits_soft_17": "no"},
        {"surrender": "early"},
        {"penetration": float("nan")},
        {"blackjack_pays": "17/0"},
        {"preset": "famly"},
        {"colour": "green"},
    ],
)
def test_a_lessons_table_is_read_by_the_same_parser_with_the_same_words(
    mapping: dict[str, object],
) -> None:
    """One parser of a rules mapping: a lesson's ``rules:`` says what a rules file would say."""
    from pydantic import TypeAdapter, ValidationError

    from tutor.lessons.fields import Rules

    with pytest.raises(InvalidRulesError) as from_file:
        TableRules.from_mapping(mapping, source=False)
    with pytest.raises(ValidationError) as from_lesson:
        TypeAdapter(Rules).validate_python(mapping)
    (error,) = from_lesson.value.errors()
    assert error["msg"] == from_file.value.problems[0].message
    assert error["ctx"]["key"] == from_file.value.problems[0].key


def test_a_lesson_may_not_trace_its_table_with_source_but_a_rules_file_may() -> None:
    assert TableRules.from_mapping({"source": "my notes"}).source == "my notes"
    with pytest.raises(InvalidRulesError, match="unknown table rule 'source'"):
        TableRules.from_mapping({"source": "my notes"}, source=False)
