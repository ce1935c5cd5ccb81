"""Advice on one decision point: the exact EV of every legal action, the best, and why.

The EVs are for the exact cards of the point (composition-dependent), for exactly the actions the
engine says are legal (``point.legal``): the strategy never decides legality for itself. Whether a
learner's move was right is not decided here but in :mod:`tutor.strategy.judge`, which compares a
move with the chart the learner learns and with these exact values.

The reason is a key and parameters (numbers the computation produced), never a sentence: the
interface translates keys into the learner's language. Every reason names the play it argues for
(``play``), the runner-up (``other``) and both EVs (``play_ev``, ``other_ev``), so the sentence can
never praise a play its own figures contradict; ``scope`` says whether the figures are those of
these exact cards (``"cards"``) or the average over the chart's cell (``"chart"``). Keys:

- ``dealer-busts-often`` (up, bust, total, player_bust): stand on a stiff total, the dealer is weak;
- ``total-strong-enough`` (total, up): stand, hitting risks more than it can win;
- ``cannot-bust`` (total): hit, no card can take the hand over 21;
- ``dealer-strong`` (up, bust, total, player_bust): hit, standing loses too often to this up-card;
- ``double-edge`` (total, up): double: one card is enough, worth a bigger bet;
- ``split-pair`` (pair, up): two hands from this pair are worth more than one;
- ``surrender-saves`` (up): every way of playing on loses more than surrendering;
- ``composition`` (row_play, total, up; set by :mod:`.judge`): hit or stand where the chart's row
  of this total says the other, because the cards held change what is left to draw;
- ``insurance-odds`` / ``insurance-pays`` (tens, break_even): insurance pays 2:1 and wins only on
  a ten in the hole, so it pays exactly when tens come more often than ``break_even``;
- ``even-money-declined`` / ``even-money-sure`` (tens, break_even, pays): with a natural, even money
  is a sure win of one bet against a natural paid ``pays`` unless the hole card is a ten.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tutor.cards import Card
from tutor.decision import Action, DecisionPoint
from tutor.strategy.dealer import BUST, INFINITE, dealer_distribution, full_shoe, shoe_after
from tutor.strategy.solution import Solution, is_natural, solve
from tutor.strategy.solver import Hand, hand_graph, hand_of

#: Below this EV difference (in bets) two plays are a close call: the reasons say so, and the
#: judge (``tutor.strategy.judge``) grades a move this close to the reference play acceptable.
CLOSE = 0.005


@dataclass(frozen=True)
class Reason:
    key: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Advice:
    """Exact EVs per unit of the hand's bet (given no dealer natural once the dealer has peeked)
    of every legal action, the best of them, and the reason drawn from those same numbers."""

    evs: Mapping[Action, float]
    best: Action
    reason: Reason


@dataclass(frozen=True)
class Context:
    """The facts a reason quotes beside the EVs: the hand, the up-card and the bust chances."""

    up: int
    total: int
    hard: int
    soft: bool
    pair: int | None
    #: The dealer's chance to bust from this up-card (given no natural after a peek).
    bust: float
    #: The player's chance to bust on one more card.
    player_bust: float
    scope: str


def _solution(point: DecisionPoint, use_seen: bool) -> tuple[Solution, bool]:
    if not use_seen or not point.seen:
        return solve(point.rules), False
    shoe = shoe_after(full_shoe(point.rules.decks), [card.points for card in point.seen])
    return solve(point.rules, shoe=shoe), True


def _points(cards: tuple[Card, ...]) -> list[int]:
    return [card.points for card in cards]


def advise(point: DecisionPoint, *, use_seen: bool = True) -> Advice:
    """The exact EVs of ``point.legal`` for these cards, the best play and why. Cards in
    ``point.seen`` are taken out of the shoe (``use_seen``); with none seen the cached solution of
    the rules answers in well under a millisecond."""
    if not point.legal:
        raise ValueError("this decision point has no legal action to advise on")
    solution, one_off = _solution(point, use_seen)
    up = point.dealer_up.points
    hand = hand_of(_points(point.cards))
    if point.is_insurance_decision:
        evs = insurance_evs(point, solution, hand)
    else:
        evs = solution.action_evs(
            up, hand, actions=point.legal, hands_in_seat=point.hands_in_seat,
            from_split=point.from_split, within=one_off,
        )
    best = max(evs, key=evs.__getitem__)
    if point.is_insurance_decision:
        reason = insurance_reason(point, evs, best, tens_share(solution, up, hand))
    else:
        reason = hand_reason(evs, best, exact_context(solution, up, hand, one_off, point))
    return Advice(evs, best, reason)


def exact_reason(point: DecisionPoint, evs: Mapping[Action, float], play: Action) -> Reason:
    """Why ``play`` on these exact cards, from ``evs`` (``advise``'s): for a play that ties with
    the best one, argued from the same figures as any other reason."""
    solution, one_off = _solution(point, True)
    up = point.dealer_up.points
    hand = hand_of(_points(point.cards))
    if point.is_insurance_decision:
        return insurance_reason(point, evs, play, tens_share(solution, up, hand))
    return hand_reason(evs, play, exact_context(solution, up, hand, one_off, point))


def best_action(point: DecisionPoint) -> Action:
    return advise(point).best


# -- insurance ----------------------------------------------------------------------------------


def tens_share(solution: Solution, up: int, hand: Hand) -> float:
    """The chance that the hole card under the Ace is worth ten, with ``hand`` out of the shoe."""
    return solution.ups[up].dealer_natural(hand)


def insurance_evs(
    point: DecisionPoint, solution: Solution, hand: Hand, *, tens: float | None = None
) -> dict[Action, float]:
    """EVs of the whole round per unit bet for each legal insurance answer (the dealer shows an
    Ace). ``tens`` replaces the exact share of tens (the chart's view: the shoe with only the
    up-card out)."""
    rules = point.rules
    up = point.dealer_up.points
    solver = solution.ups[up]
    if tens is None:
        tens = solver.dealer_natural(hand)
    amount = float(rules.insurance_max)
    insurance = amount * (2 * tens - (1 - tens))
    evs: dict[Action, float] = {}
    if is_natural(hand):
        keep = float(rules.blackjack_pays) * (1 - tens)
        evs[Action.DECLINE_INSURANCE] = keep
        evs[Action.INSURE] = keep + insurance
        evs[Action.EVEN_MONEY] = 1.0
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
    missing = point.legal - set(evs)
    if missing:
        names = ", ".join(sorted(action.value for action in missing))
        raise ValueError(f"the strategy cannot value {names} on an insurance decision")
    return {action: ev for action, ev in evs.items() if action in point.legal}


def insurance_reason(
    point: DecisionPoint, evs: Mapping[Action, float], play: Action, tens: float,
    *, scope: str = "cards",
) -> Reason:
    """Why to take or refuse insurance (or even money), from the share of tens that decides it."""
    natural = point.is_natural
    if natural and Action.EVEN_MONEY in evs:
        pays = point.rules.blackjack_pays
        # Even money (1) against a natural paid ``pays`` unless the hole card is a ten.
        break_even = 1 - 1 / float(pays)
        key = "even-money-sure" if play is not Action.DECLINE_INSURANCE else "even-money-declined"
        extra: dict[str, object] = {"pays": f"{pays.numerator}:{pays.denominator}"}
    else:
        break_even = 1 / 3
        key = "insurance-odds" if play is Action.DECLINE_INSURANCE else "insurance-pays"
        extra = {}
    return Reason(key, {**_compare(evs, play, scope), "tens": tens, "break_even": break_even,
                        **extra})


# -- hands --------------------------------------------------------------------------------------


def _player_bust(hard: int, draws: list[float]) -> float:
    """The chance that one card takes a hand of this hard total over 21 (an Ace counts 1)."""
    return sum(p for value, p in enumerate(draws, start=1) if hard + value > 21)


def exact_context(
    solution: Solution, up: int, hand: Hand, one_off: bool, point: DecisionPoint
) -> Context:
    """The facts of these exact cards: the dealer's and the player's bust chances for them."""
    graph = hand_graph()
    node = graph.index[hand]
    values = solution.ups[up].values(0, hand if one_off else None)
    hard = int(graph.hard[node])
    return Context(
        up=up,
        total=int(graph.total[node]),
        hard=hard,
        soft=bool(graph.soft[node]),
        pair=point.cards[0].points if point.is_pair and len(point.cards) == 2 else None,
        bust=float(values.dealer_bust[node]),
        player_bust=_player_bust(hard, [float(p) for p in values.draws[node]]),
        scope="cards",
    )


def chart_context(
    solution: Solution, up: int, *, total: int, hard: int, soft: bool, pair: int | None
) -> Context:
    """The facts of a chart cell: a shoe with only the up-card out, as the chart averages."""
    solver = solution.ups[up]
    rules = solution.rules
    shoe = None if solver.infinite else solver.shoe
    dealer = dealer_distribution(
        shoe, up, hits_soft_17=rules.dealer_hits_soft_17, peek=True,
        after_peek=solver.conditioned,
    )
    if shoe is None:
        draws = list(INFINITE)
    else:
        cards = sum(shoe)
        draws = [count / cards for count in shoe]
    return Context(
        up=up, total=total, hard=hard, soft=soft, pair=pair, bust=dealer[BUST],
        player_bust=_player_bust(hard, draws), scope="chart",
    )


def _compare(evs: Mapping[Action, float], play: Action, scope: str) -> dict[str, object]:
    """The play argued for, the runner-up, both EVs and how close they are."""
    others = {action: ev for action, ev in evs.items() if action is not play}
    params: dict[str, object] = {"play": play.value, "play_ev": evs[play], "scope": scope}
    if others:
        other = max(others, key=others.__getitem__)
        margin = evs[play] - others[other]
        params.update(other=other.value, other_ev=others[other], margin=margin,
                      close=0 <= margin < CLOSE)
    return params


def hand_reason(evs: Mapping[Action, float], play: Action, context: Context) -> Reason:
    """Why ``play`` on this hand, with the figures of ``evs`` (which must rank it first)."""
    common: dict[str, object] = {
        **_compare(evs, play, context.scope), "up": context.up, "total": context.total,
        "soft": context.soft,
    }
    if context.pair is not None:
        common["pair"] = context.pair
    if play is Action.SURRENDER:
        return Reason("surrender-saves", common)
    if play is Action.SPLIT:
        return Reason("split-pair", {"pair": context.total // 2, **common})
    if play is Action.DOUBLE:
        return Reason("double-edge", common)
    if play is Action.STAND:
        if context.total <= 16 and not context.soft:
            return Reason("dealer-busts-often", {
                **common, "bust": context.bust, "player_bust": context.player_bust,
            })
        return Reason("total-strong-enough", common)
    if context.hard <= 11:
        return Reason("cannot-bust", common)
    return Reason("dealer-strong", {
        **common, "bust": context.bust, "player_bust": context.player_bust,
    })
