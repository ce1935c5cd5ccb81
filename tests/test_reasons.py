"""Reasons speak of the move the learner made, with the judgement's own figures.

Over every chart cell of every preset (every two-card hand against every up-card, and every
insurance decision) and every legal move, in both languages: the sentence names the play graded
against and the learner's move, it gives both their values, every number in it is one of the
judgement's figures, the template is chosen by the pair (play, move), a weak or strong dealer is
spoken of only for the up-cards that are weak or strong, and at a table without a hole card a
double or a split facing an Ace or a ten says that a natural would take the bet it adds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache

import pytest

from tests.marks import sampled
from tutor.cards import Card, Rank, Suit
from tutor.decision import Action, DecisionPoint
from tutor.render.reason_catalogue import decision_points
from tutor.render.translator import Translator, translator
from tutor.rules import PRESETS
from tutor.strategy.advice import CLOSE, WEAK_UPS
from tutor.strategy.judge import Judgement, judge
from tutor.table import decision_for


def points_of(preset: str) -> Iterator[DecisionPoint]:
    """The decision points the catalogue of reasons enumerates (``reason_catalogue``)."""
    return decision_points(PRESETS[preset])


@cache
def judgements(preset: str) -> tuple[Judgement, ...]:
    return tuple(
        judge(point, move) for point in points_of(preset) for move in sorted(
            point.legal, key=lambda a: a.value
        )
    )


#: The keys a reason may take for the play graded against (rows) and the learner's move
#: (columns), when the two differ: the rule the test reads, written out once.
ALLOWED: dict[tuple[Action, Action], frozenset[str]] = {
    (Action.STAND, Action.HIT): frozenset({
        "twenty-one", "soft-stand", "dealer-busts-often", "stiff-stand", "stand-hard",
        "composition",
    }),
    (Action.STAND, Action.DOUBLE): frozenset({"stand-not-double", "stand-not-double-soft"}),
    (Action.STAND, Action.SPLIT): frozenset({"stand-not-split", "stand-not-split-less"}),
    (Action.HIT, Action.STAND): frozenset({
        "cannot-bust", "soft-hit", "soft-hit-improves", "dealer-strong", "stiff-hit",
        "hit-hard-high", "composition",
    }),
    (Action.HIT, Action.DOUBLE): frozenset({"hit-not-double"}),
    (Action.HIT, Action.SPLIT): frozenset({"hit-not-split", "hit-not-split-weak"}),
    (Action.SPLIT, Action.SURRENDER): frozenset({"split-not-surrender"}),
    (Action.DOUBLE, Action.HIT): frozenset({"double-edge", "double-strong", "double-busts"}),
    (Action.DOUBLE, Action.STAND): frozenset(
        {"double-not-stand", "double-strong-not-stand", "double-busts"}
    ),
    (Action.DOUBLE, Action.SPLIT): frozenset({"double-not-split"}),
}
for _play in (Action.HIT, Action.STAND, Action.DOUBLE):
    ALLOWED[(_play, Action.SURRENDER)] = frozenset({"keep-playing"})
for _move in (Action.HIT, Action.STAND, Action.DOUBLE):
    ALLOWED[(Action.SPLIT, _move)] = frozenset(
        {"split-aces", "split-edge", "split-stiff", "split-less-loss"}
    )
    ALLOWED[(Action.SURRENDER, _move)] = frozenset({"surrender-saves"})
ALLOWED[(Action.SURRENDER, Action.SPLIT)] = frozenset({"surrender-saves"})
for _play, _move in (
    (Action.DECLINE_INSURANCE, Action.INSURE),
    (Action.DECLINE_INSURANCE, Action.EVEN_MONEY),
    (Action.INSURE, Action.DECLINE_INSURANCE),
    (Action.EVEN_MONEY, Action.DECLINE_INSURANCE),
):
    ALLOWED[(_play, _move)] = frozenset(
        {"insurance-odds", "insurance-pays", "even-money-declined", "even-money-sure"}
    )


_NUMBER = re.compile(r"([−+-]?)(\d+(?:[.,]\d+)?)(\s?%)?")


def numbers(sentence: str) -> list[tuple[float, int, bool, bool]]:
    """Each number of a sentence: its value, its decimals, whether signed, whether a percent."""
    found = []
    for sign, digits, percent in _NUMBER.findall(sentence.replace("\u202f", " ").replace(
        "\u00a0", " "
    )):
        value = float(digits.replace(",", "."))
        decimals = len(digits.split(",")[-1]) if "," in digits else (
            len(digits.split(".")[-1]) if "." in digits else 0
        )
        if sign in ("−", "-"):
            value = -value
        found.append((value, decimals, bool(sign), bool(percent)))
    return found


def _near(value: float, figure: float, decimals: int) -> bool:
    return abs(value - figure) <= 0.5 * 10 ** -decimals + 1e-12


def figures(judgement: Judgement) -> tuple[list[float], list[float], set[int]]:
    """What a reason may quote: the EVs of the two moves it compares (for these cards or the
    chart cell, as its scope says), the chances it cites, and the facts of the hand."""
    params = judgement.reason.params
    scope = params.get("scope")
    source: Mapping[Action, float] = judgement.chart_evs if scope == "chart" else judgement.evs
    evs = [source[Action(params["play"])]]
    if "other" in params:
        evs.append(source[Action(params["other"])])
    chances = [float(params[name]) for name in (
        "bust", "player_bust", "tens", "break_even", "improve")
               if name in params]
    point = judgement.point
    pays = point.rules.blackjack_pays
    whole = {
        point.value.total, sum(card.points for card in point.cards), point.dealer_up.points,
        point.cards[0].points, 2, 1, 21, pays.numerator, pays.denominator,
    }
    return evs, chances, whole


def check_sentence(judgement: Judgement, t: Translator) -> list[str]:
    """What is wrong with the sentence of this judgement in this language (empty: nothing)."""
    problems: list[str] = []
    sentence = t.reason(judgement.reason.key, judgement.reason.params)
    if sentence is None:
        return [f"no sentence for {judgement.reason.key}"]
    lowered = sentence.lower()
    play, move = judgement.play, judgement.chosen
    assert move is not None
    even_money = judgement.reason.key.startswith("even-money")
    for action in {play, move}:
        if t.action_phrase(action, even_money=even_money).lower() not in lowered:
            problems.append(f"{action.value} is not named")
    if float(judgement.reason.params["play_ev"]) >= 0 and re.search(
        "perd moins|loses less", sentence
    ):
        problems.append("a play worth a gain is said to lose less")
    evs, chances, whole = figures(judgement)
    quoted_evs = []
    for value, decimals, signed, percent in numbers(sentence):
        if percent:
            if not any(_near(value / 100, chance, decimals + 2) for chance in chances):
                problems.append(f"{value} % is none of the reason's chances {chances}")
        elif signed or decimals:
            if not signed and _near(value, CLOSE, decimals):
                continue  # the closeness policy
            if not any(_near(value, ev, decimals) for ev in evs):
                problems.append(f"{value} is none of the EVs compared {evs}")
            quoted_evs.append(value)
        elif int(value) not in whole:
            problems.append(f"{int(value)} is none of the hand's facts {sorted(whole)}")
    scope_evs = judgement.chart_evs if judgement.reason.params.get("scope") == "chart" else (
        judgement.evs
    )
    if move is not play:
        for action in (play, move):
            if not any(_near(q, scope_evs[action], 3) or _near(q, scope_evs[action], 6)
                       for q in quoted_evs):
                problems.append(f"the value of {action.value} is not quoted")
    return problems


PRESET_NAMES = sorted(PRESETS)
#: The presets ``make check``'s fast lane judges here (``tests.marks.sampled``; ``make test`` runs
#: all seven): between them a dealer who hits soft 17 and one who stands, with and without a hole
#: card, late, immediate and no surrender, one deck and six, even money offered and not. Judging
#: a preset's every cell and move is most of this module's time.
SAMPLE = ["american-h17", "family", "french-casino"]


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, SAMPLE))
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_reason_names_the_move_made_and_the_best_with_their_own_figures(
    preset: str, language: str
) -> None:
    t = translator(language)
    failures = []
    for judgement in judgements(preset):
        problems = check_sentence(judgement, t)
        if problems:
            point = judgement.point
            failures.append(
                f"{' '.join(map(str, point.cards))} v {point.dealer_up}, chose"
                f" {judgement.chosen.value if judgement.chosen else None}: {problems}\n  "
                f"{t.reason(judgement.reason.key, judgement.reason.params)}"
            )
    assert not failures, f"{len(failures)} sentences:\n" + "\n".join(failures[:10])


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, SAMPLE))
def test_the_template_is_chosen_by_the_play_and_the_move_made(preset: str) -> None:
    wrong = []
    for judgement in judgements(preset):
        play, move = judgement.play, judgement.chosen
        assert move is not None
        if move is play:
            continue
        allowed = ALLOWED.get((play, move))
        if allowed is None and play.is_insurance_decision:
            allowed = ALLOWED[(Action.DECLINE_INSURANCE, Action.INSURE)]
        if allowed is None or judgement.reason.key not in allowed:
            wrong.append((str(judgement.point.cards), play.value, move.value,
                          judgement.reason.key))
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, SAMPLE))
def test_weak_and_strong_dealer_reasons_only_for_their_up_cards(preset: str) -> None:
    for judgement in judgements(preset):
        up = judgement.point.dealer_up.points
        if judgement.reason.key == "dealer-busts-often":
            assert up in WEAK_UPS, judgement.point
        if judgement.reason.key == "dealer-strong":
            assert up not in WEAK_UPS, judgement.point


@pytest.mark.parametrize(
    "preset", sampled([p for p in PRESET_NAMES if not PRESETS[p].dealer_peeks], ["french-casino"])
)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_without_a_hole_card_a_double_or_split_hears_that_a_natural_takes_its_bet(
    preset: str, language: str
) -> None:
    t = translator(language)
    note = t.gettext(
        "At this table the dealer has no hole card: if the second card makes a natural, it"
        " takes the bet you added too."
    )
    seen = 0
    for judgement in judgements(preset):
        point, move = judgement.point, judgement.chosen
        if (
            move in (Action.DOUBLE, Action.SPLIT)
            and judgement.play is not move
            and point.dealer_up.points in (1, 10)
        ):
            sentence = t.reason(judgement.reason.key, judgement.reason.params) or ""
            assert note in sentence, (point, move, sentence)
            seen += 1
    assert seen > 0


@pytest.mark.parametrize(
    ("preset", "cards", "up", "move", "words"),
    [
        # The cases that were filed, as a learner read them.
        ("french-casino", "10♠ 4♦", "8♣", Action.STAND, ("rester (votre choix)", "tirer vaut")),
        ("french-casino", "10♠ 9♦", "4♣", Action.HIT, ("tirer (votre choix)", "rester vaut")),
        ("french-casino", "K♠ 10♦", "6♣", Action.SPLIT,
         ("séparer (votre choix)", "Jouée en une seule main")),
        ("family", "4♠ 8♦", "2♣", Action.STAND, ("contre un 2", "ne gagne que si")),
        ("french-casino", "6♠ 5♦", "K♣", Action.DOUBLE, ("pas de carte cachée", "contre un roi")),
    ],
)
def test_filed_cases_now_speak_of_the_move(
    preset: str, cards: str, up: str, move: Action, words: tuple[str, ...]
) -> None:
    judgement = judge(decision_for(PRESETS[preset], cards, up), move)
    sentence = translator("fr").reason(judgement.reason.key, judgement.reason.params) or ""
    for word in words:
        assert word in sentence, sentence


@pytest.mark.parametrize(
    "preset",
    sampled([p for p in PRESET_NAMES if PRESETS[p].even_money], ["american-h17", "french-casino"]),
)
def test_advice_on_a_natural_names_even_money_never_insuring_it(preset: str) -> None:
    """Insuring a natural for half the bet is even money: the advice sets the play against
    even money, the name a natural is offered, never against "insure" worth the same."""
    point = decision_for(PRESETS[preset], "A♠ K♦", "A♣", insurance=True)
    params = judge(point).reason.params
    assert Action.EVEN_MONEY.value in (params["play"], params["other"])
    assert Action.INSURE.value not in (params["play"], params["other"])


# -- French written by the catalogue: every up-card named with its article, as the card shown --

#: What concatenation used to write: a bare up-card after "montre" or "contre".
_BARE_UP = re.compile(r"\b(montre|contre) (As|Valet|Dame|Roi|\d+)\b")


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, SAMPLE))
def test_french_reasons_name_the_up_card_with_its_article(preset: str) -> None:
    fr = translator("fr")
    for judgement in judgements(preset):
        sentence = fr.reason(judgement.reason.key, judgement.reason.params) or ""
        assert not _BARE_UP.search(sentence), sentence
        up = judgement.point.dealer_up
        named = {"un as", "une dame", "un roi", "un valet", *(f"un {n}" for n in range(2, 11))}
        if up.rank.is_face:
            # A reason names the card that shows, never "un 10" for a King, whatever figures
            # (these cards' or the chart cell's) it quotes.
            for phrase in named - {fr.up_card_phrase(10, up.rank.symbol)}:
                assert f"contre {phrase} " not in sentence, sentence
                assert f"montre {phrase} " not in sentence, sentence


@pytest.mark.parametrize("rank", list(Rank))
def test_every_up_card_reads_with_its_article_in_both_languages(rank: Rank) -> None:
    fr, en = translator("fr"), translator("en")
    feminine = {Rank.QUEEN}
    phrase = fr.up_card_phrase(rank.points, rank.symbol)
    assert phrase.startswith("une " if rank in feminine else "un "), phrase
    assert en.up_card_phrase(rank.points, rank.symbol).split()[0] in ("a", "an")
    # A chart's column has a value, not a rank: its ten is "un 10", its Ace "un as".
    column = "un as" if rank is Rank.ACE else f"un {rank.points}"
    assert fr.up_card_phrase(rank.points) == column


@pytest.mark.parametrize("preset", ["american-s17", "french-casino"])
@pytest.mark.parametrize("rank", list(Rank))
def test_a_round_told_in_french_names_every_card_with_its_article(preset: str, rank: Rank) -> None:
    from tutor.decision import Action as Move
    from tutor.table import scripted_round

    up = Card(rank, Suit.CLUBS)
    hole = "7♦" if rank.points != 1 else "9♦"
    rules = PRESETS[preset]
    dealer = [up, Card.parse(hole)] if rules.dealer_peeks else [up]
    then = "5♠ 9♥ 8♣ 7♥" if rules.dealer_peeks else f"{hole} 5♠ 9♥ 8♣ 7♥"
    game = scripted_round(rules, ["10♠ 6♥"], dealer, then, strict=False)
    while game.to_act() is not None:
        legal = game.decision_point().legal
        game.act(Move.DECLINE_INSURANCE if Move.DECLINE_INSURANCE in legal else Move.STAND)
    lines = translator("fr").narrate_events(game.events, lambda _seat: "Vous")
    assert lines
    for line in lines:
        assert not _BARE_UP.search(line), line


@pytest.mark.parametrize("preset", ["family", "french-casino"])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_before_values_are_taught_a_reason_names_both_moves_without_a_value(
    preset: str, language: str
) -> None:
    """A lesson before the one that teaches expected values (lesson 1's deal, lesson 9's): the
    reason still sets the play against the move made, in words, and quotes no value."""
    t = translator(language)
    for judgement in judgements(preset):
        sentence = t.reason(judgement.reason.key, judgement.reason.params, figures=False)
        assert sentence is not None
        lowered = sentence.lower()
        assert judgement.chosen is not None
        even_money = judgement.reason.key.startswith("even-money")
        for action in {judgement.play, judgement.chosen}:
            assert t.action_phrase(action, even_money=even_money).lower() in lowered, sentence
        for _value, decimals, signed, percent in numbers(sentence):
            assert percent or not (signed or decimals), sentence
        if float(judgement.reason.params["play_ev"]) >= 0:
            assert not re.search("perd moins|loses less", sentence), sentence
