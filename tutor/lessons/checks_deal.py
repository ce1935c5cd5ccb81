"""The scripted deals of a lesson, replayed through the engine: the cards it asks for exist, the
actions it scripts are legal, and the outcome it states is the one the dealer's cards give.

A module of its own because a replay is its own machine (a strict shoe, the script played action
by action, the story of the round told back in a finding); the ask checks that settle a hand
(``tutor.lessons.checks_ask``) use it too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.cards import Card, ShoeExhaustedError, format_cards
from tutor.decision import Action
from tutor.game import IllegalActionError, Money, Outcome, Round, money
from tutor.lessons.findings import Code, Finding, ForStrategy, Play, why
from tutor.lessons.models import Deal
from tutor.lessons.source import DataPath
from tutor.refusal import Refusal
from tutor.rules import TableRules
from tutor.table import scripted_round

# -- cards --------------------------------------------------------------------------------------


def check_copies(
    rules: TableRules, where: DataPath, fields: dict[str, Sequence[Card]]
) -> list[Finding]:
    """More copies of a card in one deal than the table's decks hold (one per deck)."""
    seen: Counter[Card] = Counter()
    reported: set[Card] = set()
    findings = []
    for name, cards in fields.items():
        for index, card in enumerate(cards):
            seen[card] += 1
            if seen[card] > rules.decks and card not in reported:
                reported.add(card)
                decks = "one deck holds" if rules.decks == 1 else f"{rules.decks} decks hold"
                findings.append(
                    Finding(
                        (*where, name),
                        f"{card} appears {seen[card]} times here, but {decks} only "
                        f"{rules.decks} {card} ({rules.name} table)",
                        Code.COPIES,
                        token=index,
                        reason=why(
                            "lesson-copies-one-deck" if rules.decks == 1 else "lesson-copies",
                            card=str(card),
                            seen=seen[card],
                            decks=rules.decks,
                            table=rules.name,
                        ),
                    )
                )
    return findings


# -- deal ---------------------------------------------------------------------------------------


def check_deal(
    deal: Deal, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    """Replay the scripted deal through the engine and compare with what the lesson states."""
    rules = deal.rules or rules
    findings = check_copies(
        rules, where, {"player": deal.player, "dealer": deal.dealer, "then": deal.then}
    )
    wanted = 2 if rules.dealer_peeks else 1
    if len(deal.dealer) != wanted:
        message = _dealer_count_message(rules, deal.dealer)
        reason = _dealer_count_reason(rules, deal.dealer)
        findings.append(Finding((*where, "dealer"), message, Code.DEAL, reason=reason))
    if findings:
        return findings
    return replay(deal, rules, where, pending)


def _dealer_count_reason(rules: TableRules, dealer: Sequence[Card]) -> Refusal:
    if rules.dealer_peeks:
        return why("lesson-american-dealer", table=rules.name, count=len(dealer))
    return why("lesson-european-dealer", table=rules.name)


def _dealer_count_message(rules: TableRules, dealer: Sequence[Card]) -> str:
    if rules.dealer_peeks:
        return (
            f"with the American deal ({rules.name} table) give the dealer's up-card and hole "
            f'card, such as "9♣ 7♦"; found {len(dealer)} card'
        )
    return (
        f"with the European deal ({rules.name} table) the dealer has no hole card: give only "
        "the up-card here, and the dealer's second card in 'then' after the learner's cards"
    )


def replay(
    deal: Deal, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    """Play the deal's stated decisions on a strict scripted shoe; report where the lesson errs.

    The deal is played at its own table when it names one, the lesson's otherwise."""
    rules = deal.rules or rules
    decisions_path = (*where, "expect", "decisions")
    game, findings = _play_script(
        _Script(deal.player, deal.dealer, deal.then, deal.bet, deal.expect.decisions),
        rules,
        where,
        decisions_path,
        pending if deal.follows_strategy else None,
    )
    if game is None:
        return findings
    if not game.is_over:
        stated = decisions_path if deal.expect.decisions else (*where, "expect")
        findings.append(_goes_on(game, stated))
        return findings
    findings += _compare_result(deal, game, where)
    findings += _unused_cards(game, where)
    return findings


@dataclass(frozen=True)
class _Script:
    """The cards and decisions of a scripted round, a deal's or a settled question's."""

    player: Sequence[Card]
    dealer: Sequence[Card]
    then: Sequence[Card]
    bet: int
    decisions: Sequence[Action]


_OUT_OF_CARDS = (
    "the scripted cards run out {when}: add the cards still to be dealt to 'then', in "
    "dealing order (the learner's cards first, then the dealer's)"
)


def _play_script(
    script: _Script,
    rules: TableRules,
    where: DataPath,
    decisions_path: DataPath,
    pending: ForStrategy | None,
) -> tuple[Round | None, list[Finding]]:
    """Deal a script on a strict shoe and play its decisions; the round, or None when the script
    cannot be played to the end of its decisions, with what went wrong on the way.

    Each decision is left to the strategy pass (in ``pending``) unless a later decision cannot be
    played at all: the script's mistake then is the only finding, as it is what must be fixed."""
    plays: list[Play] = []
    try:
        game = scripted_round(
            rules, [script.player], script.dealer, script.then, bets=[script.bet], strict=True
        )
    except ShoeExhaustedError:
        out = Finding(
            (*where, "then"),
            _OUT_OF_CARDS.format(when="at the deal"),
            Code.DEAL,
            reason=why("lesson-out-of-cards-at-deal"),
        )
        return None, [out]
    findings: list[Finding] = []
    for number, action in enumerate(script.decisions):
        path = (*decisions_path, number)
        if game.is_over:
            return None, [
                Finding(
                    path,
                    f"the round is already over ({_state(game)}), so decision "
                    f"{number + 1} ({action.value}) never comes",
                    Code.DEAL,
                    reason=why(
                        "lesson-round-over",
                        state=_state_reason(game),
                        number=number + 1,
                        action=action.value,
                    ),
                )
            ]
        try:
            game.verify(action)
        except IllegalActionError as error:
            return None, [
                Finding(
                    path,
                    f"decision {number + 1} ({action.value}) is not allowed at the "
                    f"{rules.name} table with {_state(game)}: {error}",
                    Code.DEAL,
                    reason=why(
                        "lesson-decision-illegal",
                        number=number + 1,
                        action=action.value,
                        table=rules.name,
                        state=_state_reason(game),
                        why=error.refusal,
                    ),
                )
            ]
        if pending is not None:
            plays.append(Play(game.decision_point(), action, path))
        try:
            game.act(action)
        except ShoeExhaustedError:
            when = f"after decision {number + 1} ({action.value})"
            out = Finding(
                (*where, "then"),
                _OUT_OF_CARDS.format(when=when),
                Code.DEAL,
                reason=why("lesson-out-of-cards-after", number=number + 1, action=action.value),
            )
            if pending is not None:
                pending.plays += plays
            return None, [*findings, out]
    if pending is not None:
        pending.plays += plays
    return game, findings


def _goes_on(game: Round, path: DataPath) -> Finding:
    legal = ", ".join(sorted(a.value for a in game.legal_actions()))
    return Finding(
        path,
        f"the stated decisions end but the round goes on: {_state(game)} still has "
        f"to choose among {legal}",
        Code.DEAL,
        reason=why("lesson-round-goes-on", state=_state_reason(game), legal=legal),
    )


def _unused_cards(game: Round, where: DataPath) -> list[Finding]:
    left = game.shoe.scripted_left
    if not left:
        return []
    unused = format_cards(game.shoe.remaining[:left])
    return [
        Finding(
            (*where, "then"),
            f"{left} scripted card(s) are never dealt ({unused}): the "
            "round ends before them; remove them or check the decisions",
            Code.DEAL,
            reason=why("lesson-cards-unused", count=left, cards=unused),
        )
    ]


def _compare_result(deal: Deal, game: Round, where: DataPath) -> list[Finding]:
    findings = []
    result = game.results[0]
    actual = tuple(hand.outcome for hand in result.hands)
    expected = deal.expect.outcome
    story = _story(game)
    if expected != actual:
        shown = _outcomes_text(actual)
        if len(expected) != len(actual):
            message = (
                f"the round ends with {len(actual)} hand(s), so give {len(actual)} outcome(s): "
                f"the engine finds {shown} ({story})"
            )
            reason = why(
                "lesson-outcome-count", count=len(actual), found=shown, story=_story_reason(game)
            )
        else:
            message = f"the engine finds {shown}, not {_outcomes_text(expected)} ({story})"
            reason = why(
                "lesson-outcome-wrong",
                found=shown,
                stated=_outcomes_text(expected),
                story=_story_reason(game),
            )
        findings.append(Finding((*where, "expect", "outcome"), message, Code.DEAL, reason=reason))
    if money(deal.expect.net) != result.net:
        findings.append(
            Finding(
                (*where, "expect", "net"),
                f"the seat's net is {_chips(result.net)} chips, not "
                f"{_chips(deal.expect.net)} ({story}; bet {deal.bet})",
                Code.DEAL,
                reason=why(
                    "lesson-net-wrong",
                    net=_chips(result.net),
                    stated=_chips(deal.expect.net),
                    story=_story_reason(game),
                    bet=deal.bet,
                ),
            )
        )
    return findings


def _outcomes_text(outcomes: Sequence[Outcome]) -> str:
    if len(outcomes) == 1:
        return outcomes[0].value
    return "[" + ", ".join(outcome.value for outcome in outcomes) + "]"


def _chips(amount: Money) -> str:
    value = money(amount)
    return f"{value:+d}" if isinstance(value, int) else f"{'+' if value > 0 else ''}{value}"


def _state(game: Round) -> str:
    """The learner's hands and the dealer's visible cards, for a message."""
    seat = game.seats[0]
    hands = "; ".join(f"{format_cards(hand.cards)} ({hand.value.total})" for hand in seat.hands)
    dealer = format_cards(game.visible_dealer_cards)
    return f"hand {hands} against the dealer's {dealer}"


def _state_reason(game: Round) -> Refusal:
    """``_state`` as data: the hands with their totals and the dealer's visible cards."""
    seat = game.seats[0]
    hands = "; ".join(f"{format_cards(hand.cards)} ({hand.value.total})" for hand in seat.hands)
    return why("lesson-state", hands=hands, dealer=format_cards(game.visible_dealer_cards))


def _story_reason(game: Round) -> Refusal:
    """``_story`` as data: each hand and the dealer's cards with their totals."""
    seat = game.seats[0]
    hands = "; ".join(f"{format_cards(hand.cards)} = {hand.value.total}" for hand in seat.hands)
    return why(
        "lesson-story", hands=hands, dealer=format_cards(game.dealer), total=game.dealer_value.total
    )


def _story(game: Round) -> str:
    seat = game.seats[0]
    hands = "; ".join(f"{format_cards(hand.cards)} = {hand.value.total}" for hand in seat.hands)
    dealer = game.dealer_value
    return f"player {hands}, dealer {format_cards(game.dealer)} = {dealer.total}"
