"""The simulator plays rounds as the engine does, counts every hand and keeps every chip."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
import pytest

from tutor.cards import Card, Rank, Shoe, Suit
from tutor.decision import Action, Grade
from tutor.game import Round
from tutor.rules import PRESETS
from tutor.simulate import (
    Simulation,
    SimulationResult,
    Strategy,
    always_insure,
    bankroll_paths,
    chip_unit,
    error_profile,
    mimic_dealer,
    never_bust,
    simulate,
)
from tutor.simulate_codes import (
    A_DOUBLE,
    A_SPLIT,
    A_STAND,
    C_H,
    C_S,
    CODES,
    HARD,
    PAIRS,
    S_LEFT,
    S_SIZE,
    S_SPARES,
)

RANKS = list(Rank)
SUITS = list(Suit)


def card_of(card_id: int) -> Card:
    return Card(RANKS[card_id >> 2], SUITS[card_id & 3])


def chaos(seed: int) -> Strategy:
    """Random codes in every cell and a random other action 30 % of the time: every action the
    table allows gets played, in every situation, which is what an agreement test needs."""
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, len(CODES), size=(3, 22, 11)).astype(np.int8)
    action = rng.integers(0, 5, size=(3, 22, 11)).astype(np.int8)
    probability = np.full((3, 22, 11), 0.3)
    return Strategy("chaos", tables, action, probability, insure=0.5)


RULES = {
    **PRESETS,
    "resplit-aces": PRESETS["american-s17"].replace(resplit_aces=True),
    "aces-play-on-6to5-bonus": PRESETS["family"].replace(
        split_aces_one_card=False, blackjack_pays="6/5", ace_of_spades_black_jack_pays=10
    ),
    "one-deck-10-11-by-value": PRESETS["american-h17"].replace(
        double_on="10-11", split_by_value=True, decks=1, penetration=0.95
    ),
}


@pytest.mark.parametrize("name", list(RULES))
def test_every_traced_round_settles_to_the_chip_as_the_engine_settles_it(name: str) -> None:
    rules = RULES[name]
    for strategy in (chaos(1), chaos(2), mimic_dealer(rules)):
        rounds = 600
        sim = Simulation(rules, strategy, seed=5, trace_rounds=rounds, record_nets=rounds)
        sim.run(rounds)
        replayed = 0
        for index in range(rounds):
            cards, actions = sim.traced_round(index)
            try:
                shoe = Shoe(rules.decks, script=[card_of(c) for c in cards], strict=True)
            except ValueError:
                continue  # a spare deck was opened: more copies of a card than the shoe holds
            game = Round(rules, shoe, bets=[sim.unit])
            for action in actions:
                game.act(Action.parse(action))
            assert game.is_over, (cards, actions)
            assert shoe.scripted_left == 0, (cards, actions)
            assert game.results[0].net == sim.nets[index], ([str(card_of(c)) for c in cards],
                                                            actions)
            replayed += 1
        assert replayed > rounds * 0.95


def test_a_spare_deck_serves_one_round_and_the_next_is_dealt_from_the_table_s_decks() -> None:
    """004: the spare pack is for the round that ran dry; the simulator, like the engine's shoe,
    puts it away at the next shuffle."""
    rules = PRESETS["family"]
    sim = Simulation(rules, mimic_dealer(rules), seed=3)
    sim.state[S_LEFT] = 2  # earlier play left two cards: the deal needs three or more
    sim.run(1)
    assert sim.state[S_SPARES] == 1
    assert sim.state[S_SIZE] == 52
    assert sorted(sim.shoe[:52].tolist()) == list(range(52))
    sim.run(1000)
    assert sim.state[S_SPARES] == 1  # one seat never runs a full pack dry


@pytest.mark.parametrize("against_ace", [True, False])
def test_immediate_surrender_keeps_half_and_meets_an_ace_only_where_the_table_allows_it(
    against_ace: bool,
) -> None:
    """001's immediate surrender is offered against any up-card, an Ace included, and keeps half
    the bet even when the dealer's second card then makes a natural; a casino's house rule
    (``surrender_against_ace=False``) takes it away against an Ace alone."""
    rules = PRESETS["french-casino"].replace(surrender_against_ace=against_ace)
    always = np.full((3, 22, 11), CODES["Rh"], np.int8)
    strategy = Strategy("surrender", always, np.full((3, 22, 11), -1, np.int8),
                        np.zeros((3, 22, 11)))
    sim = Simulation(rules, strategy, seed=8, trace_rounds=3000, record_nets=3000)
    sim.run(3000)
    aces = 0
    for index in range(3000):
        cards, actions = sim.traced_round(index)
        if "surrender" in actions:
            aces += card_of(cards[1]).rank is Rank.ACE
            assert sim.nets[index] == -sim.unit // 2
    assert (aces > 100) is against_ace
    assert sim.result().counts["surrender"] > 2000


def test_every_hand_has_one_outcome_and_the_money_adds_up() -> None:
    rules = PRESETS["french-casino"]
    result = simulate(rules, chaos(3), 200_000, seed=2)
    counts = result.counts
    outcomes = ("win", "loss", "push", "natural", "bonus", "bust", "surrender", "even_money")
    assert sum(counts[o] for o in outcomes) == counts["hands"]
    assert counts["hands"] == counts["rounds"] + counts["split"]
    assert sum(result.money.values()) == result.net
    unit = result.unit
    assert result.money["surrender"] == -counts["surrender"] * unit // 2
    assert result.money["even_money"] == counts["even_money"] * unit
    assert result.money["natural"] == counts["natural"] * unit * 3 // 2
    assert result.exact_net == result.net / unit


def test_the_per_round_nets_sum_to_the_total_and_no_chip_is_lost() -> None:
    rules = PRESETS["online-six-deck"]
    sim = Simulation(rules, always_insure(rules, infinite=True), seed=4, record_nets=50_000)
    sim.run(50_000)
    result = sim.result()
    assert int(sim.nets.sum()) == result.net
    assert int((sim.nets.astype(np.int64) ** 2).sum()) == result.sum_squares
    # What the player loses the bank wins: one seat, so the bank's net is minus the player's.
    assert result.net + (-result.net) == 0


def test_a_run_in_chunks_is_the_same_run_as_in_one_go() -> None:
    rules = PRESETS["american-h17"]
    strategy = never_bust(rules)
    whole = simulate(rules, strategy, 100_000, seed=9, chunk=100_000)
    chunked = simulate(rules, strategy, 100_000, seed=9, chunk=7_000)
    assert (whole.net, whole.sum_squares, dict(whole.counts)) == (
        chunked.net, chunked.sum_squares, dict(chunked.counts)
    )
    other_seed = simulate(rules, strategy, 100_000, seed=10)
    assert other_seed.net != whole.net


def test_a_run_can_be_stopped_from_the_progress_callback() -> None:
    seen: list[int] = []

    def progress(partial: SimulationResult) -> bool:
        seen.append(partial.rounds)
        return partial.rounds >= 30_000

    rules = PRESETS["family"]
    result = simulate(rules, mimic_dealer(rules), 1_000_000, chunk=10_000, progress=progress)
    assert result.stopped
    assert result.rounds == 30_000
    assert seen == [10_000, 20_000, 30_000]


def test_the_running_average_ends_on_the_mean() -> None:
    rules = PRESETS["family"]
    result = simulate(rules, mimic_dealer(rules), 50_000, seed=1)
    rounds, averages = result.running_average()
    assert rounds[-1] == 50_000
    assert averages[-1] == pytest.approx(result.mean)
    assert np.all(np.diff(rounds) > 0)


def test_the_chip_unit_makes_every_payout_whole() -> None:
    assert chip_unit(PRESETS["family"]) == 2
    assert chip_unit(PRESETS["family"].replace(blackjack_pays="6/5")) == 10
    assert chip_unit(PRESETS["family"].replace(insurance_max="1/3")) == 6


def test_a_family_session_starts_with_twenty_chips_and_moves_by_whole_chips() -> None:
    rules = PRESETS["family"]
    paths = bankroll_paths(rules, mimic_dealer(rules), sessions=200, rounds=10, stack=20, bet=2)
    assert paths.shape == (200, 11)
    assert np.all(paths[:, 0] == 20)
    assert np.all(paths == np.round(paths))  # bet 2: a 3:2 natural is 3 chips
    assert np.all(paths >= 0)  # nobody bets chips they do not have
    assert len(np.unique(paths[:, -1])) > 5


def test_a_broke_player_sits_out() -> None:
    rules = PRESETS["family"]
    paths = bankroll_paths(rules, mimic_dealer(rules), sessions=100, rounds=200, stack=4, bet=2)
    broke = paths[:, -1] < 2
    assert broke.any()
    for path in paths[broke]:
        first_broke = int(np.argmax(path < 2))
        assert np.all(path[first_broke:] == path[first_broke])


@dataclass(frozen=True)
class FakeAnswer:
    category: str
    cards: str
    dealer_up: str
    chosen: str
    best: str
    item: str = ""
    rules: str = "family"
    #: The judge's grade as stored with the answer: right when the learner chose the play
    #: graded against (``best``), else wrong (the tests below give no close calls).
    grade: Grade = Grade.WRONG

    def __post_init__(self) -> None:
        if self.chosen == self.best:
            object.__setattr__(self, "grade", Grade.RIGHT)
    ev_loss: float = 0.0
    answered_at: datetime = datetime(2026, 1, 1, tzinfo=UTC)


def basic_like() -> Strategy:
    tables = np.full((3, 22, 11), C_S, np.int8)
    tables[:, :12] = C_H
    return Strategy("book", tables, np.full((3, 22, 11), -1, np.int8), np.zeros((3, 22, 11)))


def test_the_learners_mistakes_become_the_chance_of_their_wrong_play() -> None:
    answers = [
        FakeAnswer("hard", "10♠ 6♥", "10♣", "stand", "hit"),
        FakeAnswer("hard", "9♠ 7♥", "K♣", "stand", "hit"),
        FakeAnswer("hard", "10♦ 6♣", "Q♣", "hit", "hit"),
        FakeAnswer("hard", "8♦ 8♣", "6♣", "double", "split"),  # a pair: the pairs table
        FakeAnswer("insurance", "10♠ 9♥", "A♣", "insure", "decline-insurance"),
        FakeAnswer("insurance", "10♠ 8♥", "A♣", "decline-insurance", "decline-insurance"),
        FakeAnswer("hard", "garbage", "Z", "hit", "stand"),  # skipped, not fatal
    ]
    profile = error_profile(PRESETS["family"], answers, base=basic_like())
    assert profile.name == "learner"
    assert profile.deviation_probability[HARD, 16, 10] == pytest.approx(2 / 3)
    assert profile.deviation_action[HARD, 16, 10] == A_STAND
    assert profile.deviation_probability[PAIRS, 8, 6] == 1.0
    assert profile.deviation_action[PAIRS, 8, 6] == A_DOUBLE
    assert profile.deviation_action[PAIRS, 8, 6] != A_SPLIT
    assert profile.insure == 0.5
    assert profile.deviation_probability.sum() == pytest.approx(2 / 3 + 1)


def test_a_learner_who_stands_on_11_loses_more_than_the_book() -> None:
    rules = PRESETS["family"]
    book = basic_like()
    ups = ("A", *range(2, 11))
    answers = [FakeAnswer("hard", "6♠ 5♥", f"{up}♣", "stand", "hit") for up in ups]
    learner = error_profile(rules, answers, base=book)
    a = simulate(rules, book, 400_000, seed=3)
    b = simulate(rules, learner, 400_000, seed=3)
    assert b.mean < a.mean
