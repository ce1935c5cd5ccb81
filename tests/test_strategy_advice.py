"""Advice on decision points: EVs of legal actions, best, loss and a reason key."""

from __future__ import annotations

import time

import pytest

from tutor.cards import Card, parse_cards
from tutor.decision import Action, DecisionPoint
from tutor.rules import PRESETS
from tutor.strategy import advise, best_action

HAND = frozenset({Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER})


def point(cards: str, up: str, preset: str = "american-s17", **kw: object) -> DecisionPoint:
    legal = kw.pop("legal", HAND)
    return DecisionPoint(parse_cards(cards), Card.parse(up), PRESETS[preset], legal, **kw)  # type: ignore[arg-type]


def test_stiff_hand_against_six_stands_because_the_dealer_busts() -> None:
    advice = advise(point("TS 6H", "6D", legal=frozenset({Action.HIT, Action.STAND})),
                    Action.HIT)
    assert advice.best is Action.STAND
    assert advice.reason.key == "dealer-busts-often"
    assert advice.reason.params["bust"] == pytest.approx(0.42, abs=0.01)
    assert advice.loss == pytest.approx(advice.evs[Action.STAND] - advice.evs[Action.HIT])
    assert not advice.is_correct


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


def test_warm_advice_is_fast() -> None:
    decision = point("9S 7H", "TD")
    advise(decision)
    start = time.perf_counter()
    for _ in range(100):
        advise(decision, Action.HIT)
    assert (time.perf_counter() - start) / 100 < 0.005
