"""Advice on one decision point: the exact EV of every legal action, the best, and why.

The EVs are for the exact cards of the point (composition-dependent), for exactly the actions the
engine says are legal (``point.legal``): the strategy never decides legality for itself. Whether a
learner's move was right is not decided here but in :mod:`tutor.strategy.judge`, which compares a
move with the chart the learner learns and with these exact values.

The reason is a key and parameters (numbers the computation produced), never a sentence: the
interface translates keys into the learner's language. Every reason names the play it argues for
(``play``), the move it is set against (``other``) and both EVs (``play_ev``, ``other_ev``), so
the sentence can never praise a play its own figures contradict. When a learner has moved
(``chosen``), the move set against the play is theirs (``chosen`` is then true), and the key is
chosen by the pair (play, move), never by the play alone: a reason against drawing a card says
nothing to a learner who split. Without a move it is the runner-up. ``scope`` says whether the
figures are those of these exact cards (``"cards"``) or the average over the chart's cell
(``"chart"``); ``up`` is the up-card's value and ``up_rank`` its rank when a real card shows (a
Queen is named as a Queen, not as a 10). Keys, by the pair compared (play against the other
move) and the facts that make each true:

- stand against hit: ``twenty-one`` on any 21; ``soft-stand`` (improve) on a soft total;
  ``dealer-busts-often`` (bust, player_bust) on a hard 12 to 16 against 2 to 6, ``stiff-stand``
  (bust, player_bust) on one against 7 to Ace; ``stand-hard`` (player_bust) on a hard 17 or more;
- hit against stand: ``cannot-bust`` on a hard 11 or less; ``soft-hit`` on a soft total where
  standing loses more than it wins, ``soft-hit-improves`` (improve) where it does not;
  ``stiff-hit`` / ``dealer-strong`` (bust, player_bust) on a hard 12 to 16 against 2 to 6 / 7 to
  Ace; ``hit-hard-high`` (player_bust) on a hard 17 or more;
- double against hit / stand: ``double-edge`` / ``double-not-stand`` (bust) where one card cannot
  bust the hand and the dealer shows 2 to 6, ``double-strong`` / ``double-strong-not-stand``
  against 7 to Ace, ``double-busts`` (player_bust) where one card can bust the hand;
- against a double: ``hit-not-double``; ``stand-not-double`` (player_bust) on a hard total,
  ``stand-not-double-soft`` (improve) on a soft one;
- split: ``split-aces``; ``split-edge`` where the split hands win more than they lose;
  ``split-stiff`` (player_bust) where a losing pair makes a hard 12 to 16; ``split-less-loss``;
- against a split: ``double-not-split``; ``stand-not-split`` (the total wins more than it loses)
  or ``stand-not-split-less``; ``hit-not-split`` (split hands would lose more than they win) or
  ``hit-not-split-weak``;
- surrender: ``surrender-saves``; against a surrender ``split-not-surrender``, ``keep-playing``;
- ``composition`` (row_play, total, up; set by :mod:`.judge`): hit or stand where the chart's row
  of this total says the other, because the cards held change what is left to draw;
- ``insurance-odds`` / ``insurance-pays`` (tens, break_even): insurance pays 2:1 and wins only on
  a ten in the hole, so it pays exactly when tens come more often than ``break_even``;
- ``even-money-declined`` / ``even-money-sure`` (tens, break_even, pays): with a natural, even money
  is a sure win of one bet against a natural paid ``pays`` unless the hole card is a ten.

``natural_takes_bet`` (true) joins a reason against a double or a split at a table without a hole
card, facing an Ace or a ten: nobody has checked for a natural, and a natural takes the bet the
move adds, which is what decides many of these hands.
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
    #: The chance that one more card raises the total without busting it.
    improve: float = 0.0
    #: No hole card: a dealer natural is found after the players and takes added bets.
    no_hole_card: bool = False
    #: The up-card's rank symbol when a real card shows ("Q"), None for a chart's column.
    up_rank: str | None = None


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


def exact_reason(
    point: DecisionPoint, evs: Mapping[Action, float], play: Action,
    chosen: Action | None = None,
) -> Reason:
    """Why ``play`` on these exact cards rather than ``chosen`` (the runner-up when None), from
    ``evs`` (``advise``'s), argued from the same figures as any other reason."""
    solution, one_off = _solution(point, True)
    up = point.dealer_up.points
    hand = hand_of(_points(point.cards))
    if point.is_insurance_decision:
        return insurance_reason(point, evs, play, tens_share(solution, up, hand), chosen=chosen)
    return hand_reason(evs, play, exact_context(solution, up, hand, one_off, point), chosen)


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
    *, scope: str = "cards", chosen: Action | None = None,
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
    if not point.rules.dealer_peeks:
        extra["no_hole_card"] = True  # the ten that decides is the dealer's second card
    return Reason(key, {**_compare(evs, play, scope, chosen), "tens": tens,
                        "break_even": break_even, **extra})


# -- hands --------------------------------------------------------------------------------------


def _player_bust(hard: int, draws: list[float]) -> float:
    """The chance that one card takes a hand of this hard total over 21 (an Ace counts 1)."""
    return sum(p for value, p in enumerate(draws, start=1) if hard + value > 21)


def _improve(total: int, draws: list[float]) -> float:
    """The chance that one card raises ``total`` and keeps it at 21 or less (an Ace counts 1: a
    card that turns a soft total hard and lower does not improve it)."""
    return sum(p for value, p in enumerate(draws, start=1) if total + value <= 21)


def exact_context(
    solution: Solution, up: int, hand: Hand, one_off: bool, point: DecisionPoint
) -> Context:
    """The facts of these exact cards: the dealer's and the player's bust chances for them."""
    graph = hand_graph()
    node = graph.index[hand]
    values = solution.ups[up].values(0, hand if one_off else None)
    hard = int(graph.hard[node])
    draws = [float(p) for p in values.draws[node]]
    return Context(
        up=up,
        total=int(graph.total[node]),
        hard=hard,
        soft=bool(graph.soft[node]),
        pair=point.cards[0].points if point.is_pair and len(point.cards) == 2 else None,
        bust=float(values.dealer_bust[node]),
        player_bust=_player_bust(hard, draws),
        improve=_improve(int(graph.total[node]), draws),
        scope="cards",
        no_hole_card=not point.rules.dealer_peeks,
        up_rank=point.dealer_up.rank.symbol,
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
    draws = list(INFINITE) if shoe is None else solver.next_card()
    return Context(
        up=up, total=total, hard=hard, soft=soft, pair=pair, bust=dealer[BUST],
        player_bust=_player_bust(hard, draws), scope="chart", no_hole_card=not rules.dealer_peeks,
        improve=_improve(total, draws),
    )


#: Two names of one bet: with a natural against an Ace, insuring for half the bet is even money.
_SAME_BET = {Action.EVEN_MONEY: Action.INSURE, Action.INSURE: Action.EVEN_MONEY}

#: Up-cards against which a dealer is weak (busts most often): the "weak dealer" reasons speak
#: of these only, the "strong dealer" ones of the others.
WEAK_UPS = frozenset({2, 3, 4, 5, 6})


def _compare(
    evs: Mapping[Action, float], play: Action, scope: str, chosen: Action | None = None
) -> dict[str, object]:
    """The play argued for, the move set against it (the learner's, else the runner-up), both
    EVs and how close they are."""
    params: dict[str, object] = {"play": play.value, "play_ev": evs[play], "scope": scope}
    if chosen is not None and chosen is not play and chosen in evs:
        other: Action | None = chosen
        params["chosen"] = True
    else:
        # Insuring a natural is even money by another name: the runner-up is named once, as
        # even money (what a natural is offered), unless the play itself is one of the two.
        same = _SAME_BET.get(play, Action.INSURE if Action.EVEN_MONEY in evs else None)
        others = {a: ev for a, ev in evs.items() if a is not play and a is not same}
        other = max(others, key=others.__getitem__) if others else None
    if other is not None:
        margin = evs[play] - evs[other]
        params.update(other=other.value, other_ev=evs[other], margin=margin,
                      close=0 <= margin < CLOSE)
    return params


def _hand_key(
    play: Action, other: Action | None, evs: Mapping[Action, float], context: Context
) -> tuple[str, tuple[str, ...]]:
    """The reason's key for ``play`` set against ``other`` (the learner's move, else the
    runner-up), and the chances it quotes: the key is chosen by the pair, so the sentence argues
    the mechanism that decides between those two moves, and by the facts that make it true here
    (a bust argument only where one card can bust the hand, "cannot bust" only where none can).
    """
    play_ev = evs[play]
    can_bust = context.hard >= 12  # an Ace counted 1: a ten takes 12 or more over 21
    if context.total == 21 and play is Action.STAND:
        return "twenty-one", ()
    if play is Action.SURRENDER:
        return "surrender-saves", ()
    if other is Action.SURRENDER:
        return ("split-not-surrender" if play is Action.SPLIT else "keep-playing"), ()
    if play is Action.SPLIT:
        if context.pair == 1:
            return "split-aces", ()
        if play_ev > 0:
            return "split-edge", ()
        if not context.soft and 12 <= context.total <= 16:
            return "split-stiff", ("player_bust",)
        return "split-less-loss", ()
    if other is Action.SPLIT:
        other_ev = evs[other]
        if play is Action.DOUBLE:
            return "double-not-split", ()
        if play is Action.STAND:
            return ("stand-not-split" if play_ev > 0 else "stand-not-split-less"), ()
        return ("hit-not-split" if other_ev < 0 else "hit-not-split-weak"), ()
    if play is Action.DOUBLE:
        if can_bust:
            return "double-busts", ("player_bust",)
        if context.up in WEAK_UPS:  # the dealer's bust is the argument only where it is likely
            return ("double-not-stand" if other is Action.STAND else "double-edge"), ("bust",)
        return ("double-strong-not-stand" if other is Action.STAND else "double-strong"), ()
    if play is Action.STAND:
        if other is Action.DOUBLE:
            if context.soft:
                return "stand-not-double-soft", ("improve",)
            return "stand-not-double", ("player_bust",)
        if context.soft:
            return "soft-stand", ("improve",)
        if context.total <= 16:
            key = "dealer-busts-often" if context.up in WEAK_UPS else "stiff-stand"
            return key, ("bust", "player_bust")
        return "stand-hard", ("player_bust",)
    # The play is to hit.
    if other is Action.DOUBLE:
        return "hit-not-double", ()
    if context.soft:
        stand = evs.get(Action.STAND)
        if stand is not None and stand < 0:
            return "soft-hit", ()
        return "soft-hit-improves", ("improve",)
    if not can_bust:
        return "cannot-bust", ()
    if context.total <= 16:
        key = "stiff-hit" if context.up in WEAK_UPS else "dealer-strong"
        return key, ("bust", "player_bust")
    return "hit-hard-high", ("player_bust",)


def hand_reason(
    evs: Mapping[Action, float], play: Action, context: Context, chosen: Action | None = None
) -> Reason:
    """Why ``play`` on this hand rather than ``chosen`` (the runner-up when None), with the
    figures of ``evs``."""
    params: dict[str, object] = {
        **_compare(evs, play, context.scope, chosen), "up": context.up, "total": context.total,
        "soft": context.soft,
    }
    if context.up_rank is not None:
        params["up_rank"] = context.up_rank
    if context.pair is not None:
        params["pair"] = context.pair
    other = Action(str(params["other"])) if "other" in params else None
    key, chances = _hand_key(play, other, evs, context)
    params.update({name: getattr(context, name) for name in chances})
    if "split" in key.split("-"):
        params.setdefault("pair", context.total // 2)
    added = chosen if params.get("chosen") else None
    if added in (Action.DOUBLE, Action.SPLIT) and context.no_hole_card and context.up in (1, 10):
        params["natural_takes_bet"] = True
    return Reason(key, params)
