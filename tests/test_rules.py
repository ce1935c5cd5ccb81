"""Table rules: presets traced to the sources, and combinations a real table cannot have."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tutor.rules import (
    PRESETS,
    DoubleOn,
    HoleCard,
    InvalidRulesError,
    Shuffle,
    Surrender,
    TableRules,
    load_rules,
    preset_rules,
)


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
    # 001: "abandonner immédiatement", half the bet back at once; not against an Ace.
    assert french.surrender is Surrender.IMMEDIATE
    assert french.split_by_value  # 001: "deux cartes de même valeur"
    assert french.insure_additional_bets
    assert PRESETS["france-before-2007"].double_on is DoubleOn.NINE_TO_ELEVEN


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
