"""The game played at home of source 000: two decks, the bank held by the players in turn.

000_0c2d5cbf6d108733.txt: "Deux jeux de 52 cartes", two players at least, and "Suivant les
conventions adoptées en début de partie, le Banquier peut rester le même jusqu'à épuisement des
cartes, céder la banque dès qu'il a perdu son coup, ou ne rester Banquier qu'un seul coup." The
``home-game`` rules name the convention; ``FamilySession`` plays the passing, round by round.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin_lessons
from tests.marks import examples
from tutor.lessons import AskStep, ExplainStep, localize
from tutor.lessons.models import NumberAnswer
from tutor.rules import PRESETS, BankRotation
from tutor.table import FamilySession, play_at_random

HOME = PRESETS["home-game"]
ROTATING = [rotation for rotation in BankRotation if rotation.is_rotating]


def test_a_home_game_session_takes_its_bank_convention_from_the_rules() -> None:
    session = FamilySession(["Ana", "Ben", "Chloé"], rules=HOME, seed=1)
    assert session.convention is BankRotation.UNTIL_CARDS_RUN_OUT
    assert session.banker == 0
    assert session.bank == 0  # no separate bank: the banker's own chips
    assert len(session.table.shoe) == 104  # two decks
    game = session.start_round()
    assert len(game.seats) == 2  # the banker does not bet against himself


def test_a_session_may_agree_on_another_of_the_three_conventions() -> None:
    for rotation in BankRotation:
        session = FamilySession(["Ana", "Ben"], rules=HOME, rotation=rotation, seed=1)
        assert session.convention is rotation
        assert (session.banker is None) is (rotation is BankRotation.FIXED)


def test_with_two_decks_the_first_banker_deals_them_down_before_the_bank_passes() -> None:
    """Until the cards run out: the cards of each round are burnt, the pack of 104 shrinks round
    after round, and the bank passes only when too few are left for a deal."""
    session = FamilySession(["Ana", "Ben", "Chloé"], rules=HOME, seed=3, rounds=60)
    rng = random.Random(3)
    left: list[int] = []
    while session.banker == 0:
        play_at_random(session.start_round(), rng)
        session.finish_round()
        left.append(len(session.table.shoe))
    assert len(left) >= 5  # a pack of 104 cards lasts several rounds
    assert left[:-1] == sorted(left[:-1], reverse=True)
    assert all(cards >= session.cards_for_a_deal() for cards in left[:-1])
    assert left[-1] == 104
    assert session.banker == 1


def _passes(rotation: BankRotation, *, lost: bool, cards_ran_out: bool) -> bool:
    """Source 000's three conventions, written out apart from the engine."""
    if rotation is BankRotation.EACH_ROUND:  # "ne rester Banquier qu'un seul coup"
        return True
    if rotation is BankRotation.UNTIL_LOSS:  # "céder la banque dès qu'il a perdu son coup"
        return lost
    return cards_ran_out  # "rester le même jusqu'à épuisement des cartes"


@settings(max_examples=examples(30), deadline=None)
@given(
    rotation=st.sampled_from(ROTATING),
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_chips_are_conserved_across_every_change_of_bank(
    rotation: BankRotation, players: int, seed: int
) -> None:
    """Whatever the convention, the number of players and the cards: what the bettors lose the
    banker wins, to the chip, in the rounds where the bank passes as in the others; tokens are
    added only for a banker who could not pay, and counted apart. The bank passes by the
    convention and to the next player."""
    names = [f"p{i}" for i in range(players)]
    session = FamilySession(names, rules=HOME, rotation=rotation, seed=seed, rounds=25)
    start = session.total_chips
    rng = random.Random(seed)
    while not session.is_over:
        banker = session.banker
        assert banker is not None
        before = [player.chips for player in session.players]
        tokens = session.tokens
        shuffles = session.table.shoe.shuffles
        game = session.start_round()
        assert banker not in session.seated
        play_at_random(game, rng)
        session.finish_round()
        after = [player.chips for player in session.players]
        bettors = sum(after[i] - before[i] for i in range(players) if i != banker)
        added = session.tokens - tokens
        # The banker's gain is the bettors' loss, plus any tokens that covered a shortfall.
        assert after[banker] - before[banker] == -bettors + added
        assert session.total_chips - session.tokens == start
        lost = sum(result.net for result in game.results) > 0
        ran_out = session.table.shoe.shuffles > shuffles
        passed = session.banker != banker
        assert passed is _passes(rotation, lost=lost, cards_ran_out=ran_out)
        if passed:
            assert session.banker == (banker + 1) % players
    assert session.total_chips - session.tokens == start
    assert all(player.chips >= 0 for player in session.players)


@pytest.mark.parametrize("rotation", ROTATING)
def test_the_bank_changes_hands_in_a_long_home_game(rotation: BankRotation) -> None:
    """Each convention does pass the bank in forty rounds of three players (so the conservation
    test above does cross bank changes)."""
    session = FamilySession(["Ana", "Ben", "Chloé"], rules=HOME, rotation=rotation, seed=7,
                            rounds=40)
    rng = random.Random(7)
    bankers = set()
    while not session.is_over:
        bankers.add(session.banker)
        play_at_random(session.start_round(), rng)
        session.finish_round()
    assert len(bankers) >= 2


# -- as the history lesson teaches it --------------------------------------------------------------


def _history_texts() -> tuple[str, list[AskStep]]:
    lesson = builtin_lessons().lesson("history")
    explained = " ".join(
        localize(step.explain, "fr") for step in lesson.steps if isinstance(step, ExplainStep)
    )
    return explained, [step for step in lesson.steps if isinstance(step, AskStep)]


def test_the_history_lesson_counts_the_home_games_pack_as_the_engine_deals_it() -> None:
    explained, asks = _history_texts()
    assert "Partie à la maison" in explained
    assert "au moins deux joueurs" in explained
    assert FamilySession.player_bounds(HOME.bank_rotation) == (2, 7)
    pack = [
        step for step in asks
        if "Partie à la maison" in localize(step.ask.question, "fr")
        and isinstance(step.ask.answer, NumberAnswer)
    ]
    assert pack, "lesson 19 asks how many cards the home game's pack holds"
    session = FamilySession(["Ana", "Ben"], rules=HOME, seed=19, rounds=80)
    rng = random.Random(19)
    while session.banker == 0:
        play_at_random(session.start_round(), rng)
        session.finish_round()
    for step in pack:
        assert isinstance(step.ask.answer, NumberAnswer)
        assert step.ask.answer.number == len(session.table.shoe) == HOME.decks * 52


def test_the_history_lesson_names_the_three_conventions_the_engine_plays() -> None:
    explained, _ = _history_texts()
    for words in ("jusqu’à épuisement des cartes", "dès qu’il perd un coup", "qu’un seul coup"):
        assert words in explained
    # One convention of the engine for each of the three the lesson names.
    assert [rotation.value for rotation in ROTATING] == [
        "each-round", "until-loss", "until-cards-run-out"
    ]
