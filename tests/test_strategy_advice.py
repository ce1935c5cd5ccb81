"""Advice on decision points: exact EVs of exactly the legal actions, the best, a reason key."""

from __future__ import annotations

import pytest

from tutor.cards import Card, parse_cards
from tutor.decision import Action, DecisionPoint
from tutor.rules import PRESETS
from tutor.strategy import advise, best_action
from tutor.table import decision_for


def point(cards: str, up: str, preset: str = "american-s17", **kw: object) -> DecisionPoint:
    """A decision point; its legal actions are the engine's unless a test narrows them."""
    legal = kw.pop("legal", None)
    if legal is None:
        legal = decision_for(PRESETS[preset], parse_cards(cards), Card.parse(up)).legal
    return DecisionPoint(parse_cards(cards), Card.parse(up), PRESETS[preset], legal, **kw)  # type: ignore[arg-type]


def test_stiff_hand_against_six_stands_because_the_dealer_busts() -> None:
    advice = advise(point("TS 6H", "6D", legal=frozenset({Action.HIT, Action.STAND})))
    assert advice.best is Action.STAND
    assert advice.reason.key == "dealer-busts-often"
    assert advice.reason.params["bust"] == pytest.approx(0.42, abs=0.01)
    # One more card busts a hard 16 on 6, 7, 8, 9 or a ten: 30 of the 49 cards left.
    assert advice.reason.params["player_bust"] == pytest.approx(30 / 49, abs=0.02)
    assert advice.reason.params["play_ev"] == advice.evs[Action.STAND]
    assert advice.reason.params["other_ev"] == advice.evs[Action.HIT]


def test_only_legal_actions_are_valued() -> None:
    advice = advise(point("8S 8H", "TD", legal=frozenset({Action.HIT, Action.STAND})))
    assert set(advice.evs) == {Action.HIT, Action.STAND}


def test_sixteen_against_ten_surrenders_when_allowed() -> None:
    assert best_action(point("TS 6H", "TD")) is Action.SURRENDER


def test_insurance_is_declined_and_even_money_weighed() -> None:
    insurance = frozenset({Action.INSURE, Action.DECLINE_INSURANCE})
    assert best_action(point("TS 7H", "AD", legal=insurance)) is Action.DECLINE_INSURANCE
    natural = advise(point("AS KH", "AD", "french-casino",
                           legal=insurance | {Action.EVEN_MONEY}))
    assert natural.evs[Action.EVEN_MONEY] == 1.0


def test_seen_cards_change_the_shoe() -> None:
    plain = advise(point("TS 2H", "4D", legal=frozenset({Action.HIT, Action.STAND}), ))
    seen = advise(point("TS 2H", "4D", legal=frozenset({Action.HIT, Action.STAND}),
                        seen=parse_cards("2C 2D 3S 3H 4C 5S")))
    assert plain.evs != seen.evs


def test_an_action_the_strategy_cannot_value_is_refused_not_skipped() -> None:
    with pytest.raises(ValueError, match="cannot value split"):
        advise(point("TS 6H", "TD", legal=frozenset({Action.SPLIT, Action.STAND})))
