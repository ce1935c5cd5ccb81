"""The family session of the booklet (004) and the Vingt-et-Un rotating bank (000)."""

from __future__ import annotations

import random

import pytest

from tutor.rules import PRESETS
from tutor.table import BankRotation, FamilySession, Table, play_at_random


def test_a_family_session_starts_with_20_chips_a_player_and_200_for_the_bank() -> None:
    session = FamilySession(["Ana", "Ben", "Chloé"], seed=1)
    assert [p.chips for p in session.players] == [20, 20, 20]
    assert session.bank == 200
    game = session.start_round()
    assert [seat.bet for seat in game.seats] == [2, 2, 2]


def test_a_session_lasts_ten_rounds_then_ranks_the_players() -> None:
    session = FamilySession(["Ana", "Ben"], seed=4)
    rng = random.Random(4)
    while not session.is_over:
        play_at_random(session.start_round(), rng)
        session.finish_round()
    assert session.round_number == 10
    ranking = session.ranking()
    assert {s.name for s in ranking} == {"Ana", "Ben"}
    assert ranking[0].chips >= ranking[1].chips


def test_equal_chips_share_a_rank() -> None:
    session = FamilySession(["Ana", "Ben", "Chloé"], seed=1)
    session.players[0].chips = 24
    session.players[1].chips = 24
    session.players[2].chips = 10
    assert [(s.rank, s.chips) for s in session.ranking()] == [(1, 24), (1, 24), (3, 10)]


def test_a_player_who_cannot_bet_sits_out() -> None:
    session = FamilySession(["Ana", "Ben"], seed=2)
    session.players[1].chips = 1
    game = session.start_round()
    assert len(game.seats) == 1
    assert session.seated == [0]
    assert session.players[1].sat_out == 1


def test_the_bank_is_topped_up_with_tokens_before_a_deal_it_could_not_pay() -> None:
    session = FamilySession(["Ana", "Ben"], seed=3)
    session.bank = 1
    session.start_round()
    needed = session.worst_case_payout(2)
    assert session.bank == needed
    assert session.tokens == needed - 1


def test_two_to_seven_people_in_all() -> None:
    FamilySession(["Ana"])  # one player and the bank: two people
    FamilySession([f"p{i}" for i in range(6)])  # six players and the bank: seven
    with pytest.raises(ValueError, match="2 to 7 people"):
        FamilySession([f"p{i}" for i in range(7)])
    with pytest.raises(ValueError, match="different name"):
        FamilySession(["Ana", "Ana"])


def test_the_vingt_et_un_bank_passes_from_player_to_player() -> None:
    session = FamilySession(["Ana", "Ben", "Chloé"], seed=5, rotation=BankRotation.EACH_ROUND)
    rng = random.Random(5)
    bankers = []
    for _ in range(4):
        bankers.append(session.banker)
        game = session.start_round()
        assert len(game.seats) == 2  # the banker does not bet against himself
        play_at_random(game, rng)
        session.finish_round()
    assert bankers == [0, 1, 2, 0]


def test_a_table_shuffles_after_every_round_when_the_rules_say_so() -> None:
    table = Table(PRESETS["family"], seed=1)
    rng = random.Random(1)
    for _ in range(3):
        play_at_random(table.new_round([2, 2]), rng)
    table.close_round()
    assert len(table.shoe) == 52
    assert table.shoe.shuffles == 4  # the first shuffle, then one after each round


def test_a_shoe_game_deals_to_the_cut_card_before_shuffling() -> None:
    table = Table(PRESETS["american-s17"], seed=1)
    rng = random.Random(1)
    play_at_random(table.new_round([2]), rng)
    table.close_round()
    assert len(table.shoe) < 312  # not shuffled back after one round
    assert table.shoe.shuffles == 1
    while table.shoe.shuffles == 1:
        play_at_random(table.new_round([2] * 7), rng)
        table.close_round()
    assert len(table.shoe) == 312


# -- the Vingt-et-Un's three conventions for the bank (source 000) --
#
# 000_0c2d5cbf6d108733.txt: "Suivant les conventions adoptées en début de partie, le Banquier peut
# rester le même jusqu'à épuisement des cartes, céder la banque dès qu'il a perdu son coup, ou ne
# rester Banquier qu'un seul coup."


def _bank_passes(rotation: BankRotation, *, lost: bool, cards_ran_out: bool) -> bool:
    """What the source's convention says about one round, written out apart from the engine."""
    if rotation is BankRotation.EACH_ROUND:
        return True
    if rotation is BankRotation.UNTIL_LOSS:
        return lost
    return cards_ran_out


@pytest.mark.parametrize(
    ("rotation", "source_words"),
    [
        (BankRotation.UNTIL_CARDS_RUN_OUT, "rester le même jusqu'à épuisement des cartes"),
        (BankRotation.UNTIL_LOSS, "céder la banque dès qu'il a perdu son coup"),
        (BankRotation.EACH_ROUND, "ne rester Banquier qu'un seul coup"),
    ],
)
def test_the_vingt_et_un_bank_passes_by_the_convention_chosen(
    rotation: BankRotation, source_words: str
) -> None:
    session = FamilySession(["Ana", "Ben", "Chloé"], seed=11, rotation=rotation, rounds=40)
    rng = random.Random(11)
    passes = 0
    while not session.is_over:
        banker = session.banker
        assert banker is not None
        chips_before = session.players[banker].chips
        shuffles_before = session.table.shoe.shuffles
        play_at_random(session.start_round(), rng)
        session.finish_round()
        lost = session.players[banker].chips < chips_before
        ran_out = session.table.shoe.shuffles > shuffles_before
        expected = _bank_passes(rotation, lost=lost, cards_ran_out=ran_out)
        assert (session.banker != banker) is expected, (source_words, session.round_number)
        passes += expected
    assert passes >= 2, f"{source_words}: the bank should have passed in forty rounds"


def test_until_the_cards_run_out_the_cards_of_each_round_are_burnt() -> None:
    # 000: "Les cartes utilisées sont « brûlées » et ne servent plus", until they run out.
    session = FamilySession(
        ["Ana", "Ben"], seed=3, rotation=BankRotation.UNTIL_CARDS_RUN_OUT, rounds=40
    )
    rng = random.Random(3)
    seen: list[int] = []
    while session.banker == 0:
        play_at_random(session.start_round(), rng)
        session.finish_round()
        seen.append(len(session.table.shoe))
    # One deck dealt down, round after round, never shuffled back...
    assert seen[:-1] == sorted(seen[:-1], reverse=True)
    assert all(left >= session.cards_for_a_deal() for left in seen[:-1])
    # ...until too few cards were left: then all 52 are gathered for the next banker.
    assert seen[-1] == 52
    assert session.table.shoe.shuffles == 2


def test_the_family_booklets_fixed_bank_still_shuffles_after_every_round() -> None:
    # 004: the bank is a stack of its own (200 chips) and the cards are shuffled every round.
    session = FamilySession(["Ana", "Ben"], seed=2)
    rng = random.Random(2)
    for _ in range(3):
        play_at_random(session.start_round(), rng)
        session.finish_round()
        assert len(session.table.shoe) == 52
    assert session.banker is None


@pytest.mark.parametrize(
    ("rotation", "bounds"),
    [
        # 004: "table de deux à sept personnes au total, une personne tient la banque";
        # when the players hold the bank in turn (000), every person is a named player.
        (BankRotation.FIXED, (1, 6)),
        (BankRotation.EACH_ROUND, (2, 7)),
        (BankRotation.UNTIL_LOSS, (2, 7)),
        (BankRotation.UNTIL_CARDS_RUN_OUT, (2, 7)),
    ],
)
def test_a_family_table_names_as_many_players_as_it_seats(
    rotation: BankRotation, bounds: tuple[int, int]
) -> None:
    assert FamilySession.player_bounds(rotation) == bounds
    low, high = bounds
    FamilySession([f"p{i}" for i in range(low)], rotation=rotation)
    FamilySession([f"p{i}" for i in range(high)], rotation=rotation)
    for wrong in (low - 1, high + 1):
        with pytest.raises(ValueError, match="2 to 7 people"):
            FamilySession([f"p{i}" for i in range(wrong)], rotation=rotation)
