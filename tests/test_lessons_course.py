"""The built-in course tells the truth: every scripted deal replays as stated, in both languages.

These tests read ``lessons/``; they grow with the course, one test case per deal and per lesson.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import builtin_lessons
from tutor.lessons import (
    BUILTIN_LESSONS,
    DealStep,
    Lesson,
    PlainText,
    Translations,
    default_strategy,
    load_course,
)
from tutor.lessons.checks_deal import replay
from tutor.lessons.fields import LOCALES
from tutor.lessons.texts import iter_texts

COURSE = builtin_lessons()
LESSONS: list[tuple[Path, Lesson]] = [
    (file.path, file.lesson) for file in COURSE.files if file.lesson is not None
]
DEALS = [
    pytest.param(lesson, index, step, id=f"{path.name}:steps[{index}]")
    for path, lesson in LESSONS
    for index, step in enumerate(lesson.steps)
    if isinstance(step, DealStep)
]


def test_the_built_in_course_loads_without_a_problem() -> None:
    assert [str(problem) for problem in COURSE.problems] == []
    assert len(COURSE.lessons) == len(COURSE.files)
    assert len(COURSE.lessons) >= 14, "the course covers at least fourteen lessons"


@pytest.mark.slow
def test_the_built_in_course_follows_basic_strategy() -> None:
    strategy = default_strategy()
    course = load_course(BUILTIN_LESSONS, strategy=strategy)
    assert [str(problem) for problem in course.problems] == []


@pytest.mark.parametrize(("lesson", "index", "step"), DEALS)
def test_every_scripted_deal_replays_as_the_lesson_states(
    lesson: Lesson, index: int, step: DealStep
) -> None:
    """The engine accepts each stated decision and finds the stated outcome and net."""
    findings = replay(step.deal, lesson.rules, ("steps", index, "deal"), None)
    assert [finding.message for finding in findings] == []


@pytest.mark.parametrize(("path", "lesson"), [pytest.param(p, le, id=p.name) for p, le in LESSONS])
def test_every_text_has_both_languages(path: Path, lesson: Lesson) -> None:
    for where, text in iter_texts(lesson):
        assert not isinstance(text, PlainText), f"{path.name} {where}: a plain string"
        assert isinstance(text, Translations)
        for locale in LOCALES:
            value = getattr(text, locale) or ""
            assert value.strip(), f"{path.name} {where}: no {locale} text"


def test_the_course_is_ordered_so_that_prerequisites_come_first() -> None:
    seen: set[str] = set()
    for lesson in COURSE.lessons:
        assert set(lesson.requires) <= seen, lesson.id
        seen.add(lesson.id)


# -- issue 13: what the engine models from the sources is taught, each by a deal or a question
# whose result the engine gives (the lesson's number is compared with the engine's here too) --

from fractions import Fraction  # noqa: E402
from random import Random  # noqa: E402

from tutor.cards import Card, Rank, Shoe  # noqa: E402
from tutor.decision import Action  # noqa: E402
from tutor.game import EventKind, Round  # noqa: E402
from tutor.lessons import AskStep, localize  # noqa: E402
from tutor.lessons.models import ChoiceAnswer, NumberAnswer  # noqa: E402
from tutor.lessons.play import table_of  # noqa: E402
from tutor.rules import PRESETS, HoleCard, Surrender, TableRules  # noqa: E402
from tutor.strategy import solve  # noqa: E402
from tutor.strategy.solver import hand_of  # noqa: E402
from tutor.table import BankRotation, FamilySession, play_at_random, scripted_round  # noqa: E402

FRENCH_TABLES = (PRESETS["french-casino"], PRESETS["france-before-2007"])
AMERICAN_TABLES = (PRESETS["american-s17"], PRESETS["american-h17"])


def _deals_of(lesson_id: str) -> list[tuple[DealStep, TableRules]]:
    lesson = COURSE.lesson(lesson_id)
    return [
        (step, table_of(step, lesson.rules)) for step in lesson.steps if isinstance(step, DealStep)
    ]


def _asks_of(lesson_id: str) -> list[AskStep]:
    return [step for step in COURSE.lesson(lesson_id).steps if isinstance(step, AskStep)]


def _play(
    step: DealStep,
    rules: TableRules,
    *,
    then: tuple[Card, ...] | None = None,
    stop: int | None = None,
) -> Round:
    """The deal's round on a strict shoe, with its stated decisions (the first ``stop`` only)."""
    deal = step.deal
    game = scripted_round(
        rules,
        [deal.player],
        deal.dealer,
        deal.then if then is None else then,
        bets=[deal.bet],
        strict=True,
    )
    for action in deal.expect.decisions[:stop]:
        game.act(Action(action))
    return game


def test_the_french_tables_immediate_surrender_is_taught_with_its_half_and_its_ace() -> None:
    """001: the player may give up at once "constatant une carte dangereuse à la banque", the
    bank keeps half; no card is excluded, an Ace included (issue 23). Refusing it against an Ace
    is a casino's house rule no source states, taught as such at a table with that option."""
    deals = _deals_of("surrender")
    surrendered = [
        (step, rules)
        for step, rules in deals
        if rules in FRENCH_TABLES and step.deal.expect.decisions[-1:] == (Action.SURRENDER,)
    ]
    assert surrendered, "lesson 11 surrenders a hand at a French table"
    ups = set()
    for step, rules in surrendered:
        assert rules.surrender is Surrender.IMMEDIATE
        up = step.deal.dealer[0].rank
        assert up is Rank.ACE or up.is_ten_valued, "a dealer who could still make a natural"
        ups.add(up is Rank.ACE)
        game = _play(step, rules)
        assert game.is_over
        assert game.results[0].net == -Fraction(step.deal.bet, 2) == step.deal.expect.net
    assert ups == {True, False}, "surrendered against a ten and against an Ace"
    # Whatever the dealer's second card, the half is kept, where a late surrender without a hole
    # card would lose the whole bet to that natural (two seats, so the dealer does draw it).
    for up, second in (("10♣", "A♦"), ("A♣", "K♦")):
        for kind, net in (("immediate", -1), ("late", -2)):
            rules = PRESETS["french-casino"].replace(surrender=kind)
            game = scripted_round(rules, ["10♠ 6♥", "10♦ 8♣"], up, second)
            while game.to_act() is not None and not game.can_surrender():
                game.decline_insurance()
            game.surrender()
            game.stand()
            assert game.dealer_has_natural
            assert game.results[0].net == net, (up, kind)
    house = [
        (step, rules)
        for step, rules in deals
        if not rules.surrender_against_ace and step.deal.dealer[0].rank is Rank.ACE
    ]
    assert house, "lesson 11 deals a hand against an Ace at a table with the house rule"
    for step, rules in house:
        assert rules.replace(surrender_against_ace=True, name="french-casino") in FRENCH_TABLES
        insurance = sum(
            1
            for action in step.deal.expect.decisions
            if action in (Action.INSURE, Action.DECLINE_INSURANCE, Action.EVEN_MONEY)
        )
        game = _play(step, rules, stop=insurance)
        assert Action.SURRENDER not in game.legal_actions()
        refusal = game.refusal(Action.SURRENDER)
        assert refusal is not None
        assert refusal[0] == "no-surrender-ace"
    # And the question on it says the French tables offer it against an Ace.
    right = [
        localize(step.ask.answer.options[step.ask.answer.choice], "fr")
        for step in _asks_of("surrender")
        if isinstance(step.ask.answer, ChoiceAnswer)
        and re.search(r"\b[Aa]s\b", localize(step.ask.question, "fr"))
        and "abandonner" in localize(step.ask.question, "fr")
        and "français" in localize(step.ask.question, "fr")
    ]
    assert right
    assert all("l’as compris" in text for text in right)
    # The lesson's "près d'une fois sur trois": the natural under an Ace with this 16 out.
    natural = solve(PRESETS["french-casino"]).ups[1].dealer_natural(hand_of((10, 6)))
    assert 0.28 < natural < 1 / 3
    text = " ".join(
        localize(step.explain, "fr") for step in COURSE.lesson("surrender").steps
        if hasattr(step, "explain")
    )
    assert "près d’une fois sur" in text
    # And "c'est même contre un As qu'il sert le plus": what surrendering 16 saves over the best
    # way of playing on is largest against an Ace.
    assert "contre un as qu’il sert le plus" in " ".join(text.split())
    french = solve(PRESETS["french-casino"])

    def saved(up: int) -> float:
        evs = french.action_evs(up, hand_of((10, 6)))
        return evs[Action.SURRENDER] - max(ev for a, ev in evs.items() if a is not Action.SURRENDER)

    assert max(range(1, 11), key=saved) == 1


def test_splitting_by_value_at_the_french_tables_is_taught_with_a_king_ten() -> None:
    """001: two cards "de même valeur" may be split; 004 and 003 split the same rank only."""
    by_value = [
        (step, rules)
        for step, rules in _deals_of("splitting")
        if rules in FRENCH_TABLES
        and step.deal.expect.decisions[:1] == (Action.SPLIT,)
        and step.deal.player[0].rank is not step.deal.player[1].rank
    ]
    assert by_value, "lesson 9 splits two cards of one value and two ranks at a French table"
    for step, rules in by_value:
        assert rules.split_by_value
        game = _play(step, rules)
        assert game.is_over
        assert game.results[0].net == step.deal.expect.net
        assert len(game.results[0].hands) == 2
        for rank_table in (PRESETS["family"], PRESETS["online-six-deck"]):
            # The same two cards where pairs go by rank (with a hole card: the American deal).
            hole = Card.parse("2♣")
            same = scripted_round(rank_table, [step.deal.player], (step.deal.dealer[0], hole))
            assert Action.SPLIT not in same.legal_actions(), rank_table.name


def test_the_spare_deck_serving_one_round_is_taught_with_the_engines_count() -> None:
    """004: a spare deck is opened for the round that runs the pack dry, that round only."""
    rules = PRESETS["family"]
    shoe = Shoe(rules.decks, seed=13, spare_deck=rules.spare_deck)
    for _ in range(52 * rules.decks + 1):  # the round runs the pack dry
        shoe.draw()
    assert shoe.spare_decks_opened == 1
    shoe.end_round(shuffle=True)
    next_round = len(shoe)
    asks = [
        step
        for step in _asks_of("family-session")
        if "secours" in localize(step.ask.question, "fr")
    ]
    assert asks, "lesson 13 asks about the spare deck"
    for step in asks:
        assert isinstance(step.ask.answer, NumberAnswer)
        assert step.ask.answer.number == next_round == 52


def test_the_american_double_face_down_is_taught_with_a_deal_at_an_american_table() -> None:
    """001: at American blackjack the double card is dealt face down, seen once the dealer has
    played; 003's online game deals it face up."""
    doubled = [
        (step, rules)
        for step, rules in _deals_of("doubling")
        if rules in AMERICAN_TABLES and Action.DOUBLE in step.deal.expect.decisions
    ]
    assert doubled, "lesson 8 doubles at an American table"
    for step, rules in doubled:
        assert rules.double_face_down
        assert rules.hole_card is HoleCard.AMERICAN
        game = _play(step, rules)
        assert game.is_over
        assert game.results[0].net == step.deal.expect.net
        kinds = [event.kind for event in game.events]
        after_double = kinds.index(EventKind.DOUBLED) + 1
        card = game.events[after_double]
        assert card.kind is EventKind.CARD_DEALT
        assert card.face_down is True
        shown = next(
            i
            for i, event in enumerate(game.events)
            if event.kind is EventKind.HOLE_CARD_REVEALED and event.seat is not None
        )
        dealer_done = max(
            i
            for i, event in enumerate(game.events)
            if event.kind in (EventKind.DEALER_STOOD, EventKind.DEALER_BUSTED)
        )
        assert shown > dealer_done, "the double card is shown once the dealer has played"
        online = _play(step, PRESETS["online-six-deck"])
        face_up = online.events[[e.kind for e in online.events].index(EventKind.DOUBLED) + 1]
        assert face_up.face_down is False


def test_the_vingt_et_un_bank_kept_until_the_cards_run_out_is_taught_with_the_engines_rule() -> (
    None
):
    """000: the banker may keep the bank until the cards run out; the app plays it."""
    asks = [
        step
        for step in _asks_of("history")
        if "épuisement" in localize(step.ask.question, "fr")
        and "Quatre personnes" in localize(step.ask.question, "fr")
        and isinstance(step.ask.answer, NumberAnswer)
    ]
    assert asks, "lesson 19 asks how the bank kept until the cards run out passes"
    for step in asks:
        assert "Quatre personnes" in localize(step.ask.question, "fr")
        names = ["Ana", "Ben", "Chloé", "Dan"]
        session = FamilySession(
            names, seed=19, rotation=BankRotation.UNTIL_CARDS_RUN_OUT, rounds=60
        )
        threshold = step.ask.answer.number  # type: ignore[union-attr]
        assert session.cards_for_a_deal() == threshold
        # Played out: the bank stays while at least that many cards are left, and passes when
        # fewer are (or a round ran the pack dry), as the lesson says.
        rng = Random(19)
        passed = kept = 0
        while not session.is_over:
            banker = session.banker
            shuffles = session.table.shoe.shuffles
            play_at_random(session.start_round(), rng)
            left = len(session.table.shoe)
            ran_dry = session.table.shoe.shuffles > shuffles
            session.finish_round()
            passes = ran_dry or left < threshold
            assert (session.banker != banker) is passes
            passed += passes
            kept += not passes
        assert passed
        assert kept
    explained = " ".join(
        localize(step.explain, "fr")
        for step in COURSE.lesson("history").steps
        if hasattr(step, "explain")
    )
    assert "Qui tient la banque" in explained
