"""The catalogue of every sentence of reason, kept in docs/ and regenerated here, and the rules
every one of those reasons obeys, over every preset, every hand and every move.

The figures a reason quotes are recomputed here from the cards, not read back from the reason:
the dealer's bust chance from the dealer's distribution for the shoe that is left, the player's
chances from the counts of the cards that are left (given no natural in the hole after a peek),
the share of tens from the same counts (to a millionth: the solver counts in single precision, and
a reason shows a chance to a thousandth of a percent at most).
"""
from __future__ import annotations

from functools import cache

import pytest

from tests.marks import sampled
from tutor.decision import Action
from tutor.render import reason_catalogue
from tutor.render.reason_catalogue import Entry, catalogue, masked, path, text
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.strategy.dealer import (
    BUST,
    INFINITE,
    dealer_distribution,
    full_shoe,
    natural_partner,
    shoe_after,
)
from tutor.strategy.judge import Judgement
from tutor.strategy.solution import solve

PRESET_NAMES = tuple(sorted(PRESETS))


@cache
def entries(language: str) -> tuple[Entry, ...]:
    return tuple(catalogue(language))


@cache
def every_judgement(preset: str) -> tuple[Judgement, ...]:
    return tuple(reason_catalogue.judgements(PRESETS[preset]))


@pytest.mark.parametrize("language", reason_catalogue.LANGUAGES)
def test_the_catalogue_in_docs_is_every_sentence_the_app_says_now(language: str) -> None:
    """Regenerate with ``python -m tutor.render.reason_catalogue`` and read the diff: every
    change of wording shows there."""
    kept = path(language).read_text(encoding="utf-8")
    assert kept == text(language, list(entries(language))), (
        f"docs/reasons.{language}.txt is out of date: run python -m tutor.render.reason_catalogue"
    )


def test_both_languages_say_as_many_sentences_and_every_key_has_its_own() -> None:
    french, english = entries("fr"), entries("en")
    assert len(french) == len(english) > 500
    keys = {entry.key for entry in french} - {"*"}
    assert keys >= {"soft-hit", "soft-stand", "split-aces", "insurance-odds", "keep-playing"}


def test_masking_keeps_the_words_and_hides_every_figure() -> None:
    sentence = "Avec ces cartes, tirer vaut −0,207 mise, rester 0,000 ; 42\u202f% et 7,5 %."
    assert masked(sentence) == "Avec ces cartes, tirer vaut ±x mise, rester ±x ; n % et n %."


# -- the rules every reason obeys -----------------------------------------------------------------

#: Keys whose sentence says that no card can bust the hand.
CANNOT_BUST = frozenset({
    "cannot-bust", "soft-hit", "soft-hit-improves", "soft-stand", "double-edge",
    "double-not-stand", "double-strong", "double-strong-not-stand", "stand-not-double-soft",
})


def _hard(judgement: Judgement) -> int:
    return sum(card.points for card in judgement.point.cards)


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, ["french-casino", "american-h17"]))
def test_the_move_set_against_the_play_is_the_learners_own_whenever_they_moved(
    preset: str,
) -> None:
    for judgement in every_judgement(preset):
        params = judgement.reason.params
        if judgement.chosen is not None and judgement.chosen is not judgement.play:
            assert params.get("other") == judgement.chosen.value, judgement
            assert params.get("chosen") is True, judgement
        else:
            assert "chosen" not in params, judgement


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, ["french-casino", "american-h17"]))
@pytest.mark.parametrize("language", reason_catalogue.LANGUAGES)
def test_a_sentence_names_both_moves_and_calls_the_learners_their_choice(
    preset: str, language: str
) -> None:
    t = translator(language)
    choice = {"fr": "{other} (votre choix)", "en": "{other}, your choice"}[language]
    for judgement in every_judgement(preset):
        params = judgement.reason.params
        if "other" not in params:
            continue
        said = t.reason(judgement.reason.key, params) or ""
        even_money = judgement.reason.key.startswith("even-money")
        play = t.action_phrase(Action(str(params["play"])), even_money=even_money)
        other = t.action_phrase(Action(str(params["other"])), even_money=even_money)
        lowered = said.lower()
        assert play.lower() in lowered, said
        assert other.lower() in lowered, said
        if params.get("chosen"):
            assert choice.format(other=other).lower() in lowered, said


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, ["french-casino", "american-h17"]))
def test_a_bust_argument_only_where_one_card_can_bust_the_hand(preset: str) -> None:
    for judgement in every_judgement(preset):
        key, params = judgement.reason.key, judgement.reason.params
        if judgement.point.is_insurance_decision:
            continue
        if "player_bust" in params:
            assert _hard(judgement) >= 12, judgement
            assert float(str(params["player_bust"])) > 0, judgement
        if key in CANNOT_BUST:
            assert _hard(judgement) <= 11, (key, judgement.point)


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, ["french-casino", "american-h17"]))
def test_a_sentence_that_says_the_play_wins_or_loses_says_so_of_its_own_values(
    preset: str,
) -> None:
    """"wins more than it loses", "loses either way", "loses more than it wins": each is a claim
    about a sign, checked against the values compared."""
    for judgement in every_judgement(preset):
        key, params = judgement.reason.key, judgement.reason.params
        play_ev = float(str(params["play_ev"]))
        other_ev = float(str(params.get("other_ev", "nan")))
        if key in ("split-edge", "stand-not-split", "double-edge", "double-not-stand",
                   "double-strong", "double-strong-not-stand", "double-busts"):
            assert play_ev > 0, (key, judgement.point)
        if key in ("split-stiff", "split-less-loss"):
            assert play_ev <= 0, (key, judgement.point)
            assert other_ev < play_ev, (key, judgement.point)
        if key in ("hit-not-split", "stand-not-split-less"):
            assert other_ev < 0, (key, judgement.point)  # the split hands lose
        if key == "soft-hit" and params.get("other") == "stand":
            assert other_ev < 0, (key, judgement.point)
        if key in ("surrender-saves", "split-not-surrender", "keep-playing"):
            surrender = play_ev if key == "surrender-saves" else other_ev
            assert surrender == pytest.approx(-0.5), (key, judgement.point)


def _draws(shoe: tuple[int, ...] | None, up: int, peeked: bool) -> list[float]:
    """The chance of each value for the player's next card, from the counts of the cards left,
    given (after a peek) that the hole card gave the dealer no natural."""
    if shoe is None:
        return list(INFINITE)
    cards = sum(shoe)
    partner = natural_partner(up)
    if not peeked or partner is None:
        return [count / cards for count in shoe]
    chances = [0.0] * 10
    kept = 0.0
    for hole in range(1, 11):
        if hole == partner or shoe[hole - 1] == 0:
            continue
        p_hole = shoe[hole - 1] / cards
        kept += p_hole
        for value in range(1, 11):
            left = shoe[value - 1] - (value == hole)
            chances[value - 1] += p_hole * left / (cards - 1)
    return [chance / kept for chance in chances]


def _recomputed(judgement: Judgement) -> dict[str, float]:
    """The chances a reason may quote, recomputed from the cards of its decision point."""
    point = judgement.point
    rules = point.rules
    params = judgement.reason.params
    up = point.dealer_up.points
    solver = solve(rules).ups[up]
    if solver.infinite:
        shoe = None
    elif params.get("scope") == "chart":
        shoe = shoe_after(full_shoe(rules.decks), [up])
    else:
        shoe = shoe_after(full_shoe(rules.decks), [up, *(c.points for c in point.cards)])
    hard = sum(card.points for card in point.cards)
    total = point.value.total
    draws = _draws(shoe, up, solver.conditioned)
    dealer = dealer_distribution(
        shoe, up, hits_soft_17=rules.dealer_hits_soft_17, peek=True,
        after_peek=solver.conditioned,
    )
    found = {
        "bust": dealer[BUST],
        "player_bust": sum(p for value, p in enumerate(draws, 1) if hard + value > 21),
        "improve": sum(p for value, p in enumerate(draws, 1) if total + value <= 21),
    }
    if point.is_insurance_decision and shoe is not None:
        found["tens"] = shoe[9] / sum(shoe)
    return found


@pytest.mark.parametrize("preset", sampled(PRESET_NAMES, ["french-casino", "family"]))
def test_every_chance_a_reason_quotes_is_the_one_the_cards_give(preset: str) -> None:
    checked = 0
    for judgement in every_judgement(preset):
        params = judgement.reason.params
        if judgement.reason.key == "composition":
            continue  # quotes no chance
        recomputed = _recomputed(judgement)
        for name, value in recomputed.items():
            if name in params:
                assert float(str(params[name])) == pytest.approx(value, abs=1e-6), (
                    name, judgement.reason.key, judgement.point,
                )
                checked += 1
    assert checked > 1000
