"""Basic-strategy charts derived from the EVs agree with published basic strategy."""

from __future__ import annotations

import pytest

from tutor.rules import PRESETS, TableRules
from tutor.strategy import chart

RULE_SETS = {
    f"{decks}d-{'h17' if h17 else 's17'}-{'das' if das else 'nodas'}": TableRules(
        decks=decks, dealer_hits_soft_17=h17, double_after_split=das
    )
    for decks in (1, 2, 6, 8)
    for h17 in (False, True)
    for das in (False, True)
}
SOME = ["1d-s17-nodas", "2d-h17-das", "6d-s17-das", "8d-h17-nodas"]


@pytest.mark.parametrize("name", SOME)
def test_hard_12_stands_against_4_to_6(name: str) -> None:
    hard = chart(RULE_SETS[name]).hard
    assert [hard.loc["12", up] for up in ("4", "5", "6")] == ["S", "S", "S"]
    assert hard.loc["12", "2"] == "H"
    assert hard.loc["12", "7"] == "H"


@pytest.mark.parametrize("name", SOME)
def test_9_9_stands_against_7_and_8_8_aces_split(name: str) -> None:
    pairs = chart(RULE_SETS[name]).pairs
    assert pairs.loc["9,9", "7"] == "S"
    assert set(pairs.loc["8,8"]) <= {"P", "Ph"}
    assert set(pairs.loc["A,A"]) == {"P"}


@pytest.mark.parametrize("decks", [2, 6, 8])
def test_soft_18_stands_against_2_under_s17_with_many_decks(decks: int) -> None:
    assert chart(RULE_SETS[f"{decks}d-s17-das"]).soft.loc["18", "2"] == "S"


@pytest.mark.parametrize("decks", [2, 6, 8])
def test_soft_18_doubles_against_2_under_h17(decks: int) -> None:
    # Published H17 multi-deck charts: soft 18 against 2 is Ds.
    assert chart(RULE_SETS[f"{decks}d-h17-das"]).soft.loc["18", "2"] == "Ds"


def test_11_against_ace_hits_under_s17_six_decks_and_doubles_under_h17() -> None:
    assert chart(RULE_SETS["6d-s17-das"]).hard.loc["11", "A"] == "H"
    assert chart(RULE_SETS["6d-h17-das"]).hard.loc["11", "A"] == "D"


def test_european_deal_hits_8_8_against_ten_and_ace_and_aces_against_ace() -> None:
    pairs = chart(TableRules(decks=6).replace(hole_card="european")).pairs
    assert pairs.loc["8,8", "10"] == "H"
    assert pairs.loc["8,8", "A"] == "H"
    assert pairs.loc["A,A", "A"] == "H"
    assert pairs.loc["A,A", "10"] == "P"


def test_surrender_16_against_ten_and_15_against_ace_only_under_h17() -> None:
    s17 = chart(TableRules(decks=6).replace(surrender="late"))
    h17 = chart(TableRules(decks=6, dealer_hits_soft_17=True).replace(surrender="late"))
    assert s17.hard.loc["16", "10"] == "Rh"
    assert h17.hard.loc["16", "10"] == "Rh"
    assert s17.hard.loc["15", "A"] == "H"
    assert h17.hard.loc["15", "A"] == "Rh"
    assert "16" in s17.surrender.index


def test_without_surrender_the_surrender_table_is_empty() -> None:
    assert chart(PRESETS["family"]).surrender.empty


def test_ph_appears_only_with_double_after_split() -> None:
    das = chart(RULE_SETS["6d-s17-das"]).pairs
    nodas = chart(RULE_SETS["6d-s17-nodas"]).pairs
    assert das.loc["2,2", "2"] == "Ph"
    assert nodas.loc["2,2", "2"] == "H"
    assert "Ph" not in set(nodas.to_numpy().ravel())


def test_explain_gives_the_evs_behind_a_cell() -> None:
    evs = chart(RULE_SETS["6d-s17-das"]).explain("hard", 16, "10")
    assert {action.value for action in evs} == {"hit", "stand", "double"}
