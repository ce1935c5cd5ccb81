"""Advice on one decision point: the EV of every legal action, the best, the loss, and why.

The reason is a key and parameters (numbers the computation produced), never a sentence: the
interface translates keys into the learner's language. Keys:

- ``dealer-busts-often`` (up, bust, total): stand on a stiff total, the dealer's up-card is weak;
- ``total-strong-enough`` (total, up): stand, hitting risks more than it can win;
- ``cannot-bust`` (total): hit, no card can take the hand over 21;
- ``dealer-strong`` (up, bust, total): hit, standing on this total loses too often to this up-card;
- ``double-edge`` (total, up, double, hit): double: one card is enough, worth a bigger bet;
- ``split-pair`` (pair, up, split, keep): two hands from this pair are worth more than one;
- ``surrender-saves`` (up, surrender, play): every way of playing loses more than half the bet;
- ``insurance-odds`` (tens, break_even): insurance pays 2:1 and wins only on a ten in the hole;
- ``even-money-sure`` (tens): even money is a sure win of one bet against a gamble worth less.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tutor.cards import Card
from tutor.decision import Action, DecisionPoint
from tutor.strategy.dealer import full_shoe, shoe_after
from tutor.strategy.solution import Solution, is_natural, solve
from tutor.strategy.solver import hand_graph, hand_of

#: Below this EV difference a decision is reported as close (``params["close"]``).
CLOSE = 0.005


@dataclass(frozen=True)
class Reason:
    key: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Advice:
    """EVs per unit of the hand's bet (given no dealer natural once the dealer has peeked)."""

    evs: Mapping[Action, float]
    best: Action
    chosen: Action | None
    #: How much the chosen action gives up against the best, per unit bet (0 when none chosen).
    loss: float
    reason: Reason

    @property
    def is_correct(self) -> bool:
        return self.chosen is None or self.loss <= 1e-12


def _solution(point: DecisionPoint, use_seen: bool) -> tuple[Solution, bool]:
    if not use_seen or not point.seen:
        return solve(point.rules), False
    shoe = shoe_after(full_shoe(point.rules.decks), [card.points for card in point.seen])
    return solve(point.rules, shoe=shoe), True


def _points(cards: tuple[Card, ...]) -> list[int]:
    return [card.points for card in cards]


def advise(
    point: DecisionPoint, chosen: Action | None = None, *, use_seen: bool = True
) -> Advice:
    """Judge one decision. Cards in ``point.seen`` are taken out of the shoe (``use_seen``); with
    none seen the cached solution of the rules answers in well under a millisecond."""
    if not point.legal:
        raise ValueError("this decision point has no legal action to advise on")
    solution, one_off = _solution(point, use_seen)
    up = point.dealer_up.points
    hand = hand_of(_points(point.cards))
    if point.is_insurance_decision:
        evs, reason = _insurance(point, solution, up, hand)
    else:
        evs = solution.action_evs(
            up, hand, hands_in_seat=point.hands_in_seat, from_split=point.from_split,
            may_split=Action.SPLIT in point.legal, may_double=Action.DOUBLE in point.legal,
            within=one_off,
        )
        evs = {action: ev for action, ev in evs.items() if action in point.legal}
        reason = Reason("", {})
    if not evs:
        raise ValueError("none of the legal actions is valued by the strategy")
    best = max(evs, key=evs.__getitem__)
    if not reason.key:
        reason = _reason(solution, up, hand, evs, best, one_off)
    loss = 0.0 if chosen is None else evs[best] - evs.get(chosen, float("-inf"))
    if chosen is not None and chosen not in evs:
        raise ValueError(f"{chosen.value} is not a legal action here")
    return Advice(evs, best, chosen, loss, reason)


def best_action(point: DecisionPoint) -> Action:
    return advise(point).best


def _insurance(
    point: DecisionPoint, solution: Solution, up: int, hand: tuple[int, ...]
) -> tuple[dict[Action, float], Reason]:
    """EVs of the whole round per unit bet for each insurance answer (the dealer shows an Ace)."""
    rules = point.rules
    solver = solution.ups[up]
    tens = solver.dealer_natural(hand)
    amount = float(rules.insurance_max)
    insurance = amount * (2 * tens - (1 - tens))
    evs: dict[Action, float] = {}
    if is_natural(hand):
        keep = float(rules.blackjack_pays) * (1 - tens)
        evs[Action.DECLINE_INSURANCE] = keep
        evs[Action.INSURE] = keep + insurance
        evs[Action.EVEN_MONEY] = 1.0
        reason = Reason("even-money-sure", {"tens": tens})
    else:
        full = max(solution.action_evs(up, hand).values())
        locked = max(
            solution.action_evs(
                up, hand, may_split=not rules.insurance_forbids_double_split,
                may_double=not rules.insurance_forbids_double_split,
            ).values()
        )
        if solver.conditioned:
            evs[Action.DECLINE_INSURANCE] = -tens + (1 - tens) * full
            evs[Action.INSURE] = -tens + (1 - tens) * locked + insurance
        else:
            evs[Action.DECLINE_INSURANCE] = full
            evs[Action.INSURE] = locked + insurance
        reason = Reason("insurance-odds", {"tens": tens, "break_even": 1 / 3})
    return {a: ev for a, ev in evs.items() if a in point.legal}, reason


def _reason(
    solution: Solution, up: int, hand: tuple[int, ...], evs: Mapping[Action, float], best: Action,
    one_off: bool,
) -> Reason:
    graph = hand_graph()
    node = graph.index[hand]
    values = solution.ups[up].values(0, hand if one_off else None)
    bust = float(values.dealer_bust[node])
    total = int(graph.total[node])
    others = [ev for action, ev in evs.items() if action is not best]
    margin = evs[best] - max(others) if others else 1.0
    common: dict[str, object] = {"up": up, "close": margin < CLOSE, "margin": margin}
    if best is Action.SURRENDER:
        play = max(others) if others else -1.0
        return Reason("surrender-saves", {**common, "surrender": evs[best], "play": play})
    if best is Action.SPLIT:
        keep = max(others) if others else 0.0
        pair = hand.index(2) + 1
        return Reason("split-pair", {**common, "pair": pair, "split": evs[best], "keep": keep})
    if best is Action.DOUBLE:
        return Reason("double-edge", {**common, "total": total, "double": evs[best],
                                      "hit": evs.get(Action.HIT, 0.0)})
    if best is Action.STAND:
        if total <= 16:
            return Reason("dealer-busts-often", {**common, "bust": bust, "total": total})
        return Reason("total-strong-enough", {**common, "total": total})
    if int(graph.hard[node]) <= 11:
        return Reason("cannot-bust", {**common, "total": total})
    return Reason("dealer-strong", {**common, "bust": bust, "total": total})
