"""A round told in sentences: each event of the engine (``tutor.game``) as one line a learner
reads or a screen reader says, in order.

Why a story and not one sentence per event: a hit's card is told by the hit, not twice; a total is
said soft or hard, which needs the hand's cards so far; and once a seat has split, each of its
hands is named in every sentence. ``_Story`` keeps that much of the round while it is told.

>>> from tutor.render.translator import translator
>>> from tutor.game import RoundStarted
>>> translator("en").narrate(RoundStarted(bets=(2,)), lambda seat: f"Seat {seat}")
'New round: bets are placed.'
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from tutor.cards import Card, HandValue, hand_value
from tutor.game import (
    Busted,
    CardDealt,
    DealerBusted,
    DealerChecked,
    DealerHit,
    DealerStood,
    Doubled,
    EvenMoneyTaken,
    Event,
    HandSettled,
    Hit,
    HoleCardRevealed,
    InsuranceDeclined,
    InsuranceOffered,
    InsuranceSettled,
    InsuranceTaken,
    Outcome,
    RoundStarted,
    Split,
    Stood,
    Surrendered,
)
from tutor.render.catalogue import N_
from tutor.render.naming import Names

#: Each settled hand as a whole sentence, so the verb agrees with whoever played it.
_SETTLED: dict[Outcome, str] = {
    Outcome.WIN: N_("{who}{hand} wins: {net}."),
    Outcome.LOSE: N_("{who}{hand} loses: {net}."),
    Outcome.PUSH: N_("{who}{hand} pushes: the bet comes back."),
    Outcome.NATURAL: N_("{who}{hand} wins with a natural: {net}."),
    Outcome.BONUS: N_("{who}{hand} wins a bonus: {net}."),
    Outcome.BUST: N_("{who}{hand} has bust: {net}."),
    Outcome.SURRENDER: N_("{who}{hand} has surrendered: {net}."),
    Outcome.EVEN_MONEY: N_("{who}{hand} takes even money: {net}."),
}


class Narration(Names):
    """The engine's events told in one language (a part of the ``Translator``)."""

    def narrate_events(
        self, events: Sequence[Event], seat_name: Callable[[int], str]
    ) -> list[str]:
        """A round told in sentences, in order: each hit told once (the card dealt by a hit is
        the hit's own sentence), every total said soft or hard, and once a seat has split, each
        of its hands named ``main 1``, ``main 2``, … in every sentence."""
        story = _Story()
        lines: list[str] = []
        for index, event in enumerate(events):
            following = events[index + 1] if index + 1 < len(events) else None
            if (
                isinstance(event, CardDealt)
                and isinstance(following, Hit)
                and (following.seat, following.hand) == (event.seat, event.hand or 0)
            ):
                story.follow(event)  # told by the hit itself
                continue
            line = self.narrate(event, seat_name, story=story)
            if line:
                lines.append(line)
        return lines

    def narrate(
        self, event: Event, seat_name: Callable[[int], str], *, story: _Story | None = None
    ) -> str | None:
        """One event of the round as a sentence, or None for events told by the table itself.
        With the ``story`` so far (``narrate_events``), hands are named after a split and a hit
        says whether the total is soft or hard."""
        story = story if story is not None else _Story()
        story.follow(event)
        seat = event.seat
        who = seat_name(seat) if seat is not None else ""
        hand = ""
        if seat is not None and (story.has_split(seat) or event.hand not in (None, 0)):
            hand = self.format(N_(" (hand {n})"), n=(event.hand or 0) + 1)
        match event:
            case RoundStarted():
                return self.gettext(N_("New round: bets are placed."))
            case CardDealt(card=card, face_down=face_down):
                if seat is None:
                    if face_down:
                        return self.gettext(N_("The dealer takes a card face down."))
                    return self.format(N_("The dealer shows {card}."), card=self._defined(card))
                if face_down:
                    return self.format(
                        N_("{who}{hand} gets a card face down."), who=who, hand=hand
                    )
                return self.format(
                    N_("{who}{hand} gets {card}."), who=who, hand=hand, card=self._defined(card)
                )
            case Hit(card=card) if story.hides(seat, event.hand):
                # A card of the hand is face down: its total is the player's secret.
                return self.format(
                    N_("{who}{hand} hits {card}."), who=who, hand=hand, card=self.card_phrase(card)
                )
            case Hit(card=card, total=told):
                after = story.value(seat, event.hand)
                before = story.value(seat, event.hand, without_last=True)
                total = self.value_text(after) if after is not None else str(told)
                message = N_("{who}{hand} hits {card}: {total}.")
                if before is not None and after is not None and before.soft and not after.soft:
                    message = N_("{who}{hand} hits {card}: {total} (the Ace now counts 1).")
                return self.format(
                    message, who=who, hand=hand, card=self.card_phrase(card), total=total
                )
            case DealerHit(card=card, total=told):
                after = story.value(None, None)
                total = self.value_text(after) if after is not None else str(told)
                if story.dealer_natural():  # a dealer without a hole card draws a natural
                    total = self.gettext(N_("natural"))
                return self.format(
                    N_("The dealer draws {card}: {total}."),
                    card=self.card_phrase(card),
                    total=total,
                )
            case HoleCardRevealed(card=card, at_deal=True):
                shown = self.card_phrase(card, definite=False)
                after = story.value(seat, event.hand)
                if after is None or story.hides(seat, event.hand):
                    return self.format(
                        N_("{who}{hand} shows the card dealt face down: {card}."),
                        who=who, hand=hand, card=shown,
                    )
                return self.format(
                    N_("{who}{hand} shows the card dealt face down: {card}: {total}."),
                    who=who, hand=hand, card=shown, total=self.hand_text_total(after),
                )
            case HoleCardRevealed(card=card):
                shown = self.card_phrase(card, definite=False)
                after = story.value(seat, event.hand)
                if after is None or story.hides(seat, event.hand):
                    return self.format(N_("The hidden card is {card}."), card=shown)
                total = self.hand_text_total(after)
                if seat is None and story.dealer_natural():
                    total = self.gettext(N_("natural"))
                if seat is None:
                    return self.format(N_("The hidden card is {card}: {total}."), card=shown,
                                       total=total)
                return self.format(
                    N_("{who}{hand}: the card doubled face down is {card}: {total}."),
                    who=who, hand=hand, card=shown, total=total,
                )
            case InsuranceOffered():
                return self.gettext(N_("The dealer shows an Ace: insurance is offered."))
            case InsuranceDeclined():
                return self.format(N_("{who} declines insurance."), who=who)
            case Busted() if story.hides(seat, event.hand):
                # 000: the player announces « Crevé »; his cards are shown at the settlement.
                return self.format(N_("{who}{hand} busts."), who=who, hand=hand)
            case Busted(total=total_value):
                return self.format(
                    N_("{who}{hand} busts with {total}."), who=who, hand=hand, total=total_value
                )
            case Split():
                return self.format(N_("{who} splits the pair."), who=who)
            case DealerBusted(total=total_value):
                return self.format(N_("The dealer busts with {total}."), total=total_value)
            case InsuranceTaken(amount=amount):
                return self.format(
                    N_("{who} takes insurance for {amount}."),
                    who=who,
                    amount=self.chips_text(amount),
                )
            case EvenMoneyTaken():
                return self.format(N_("{who} takes even money."), who=who)
            case DealerChecked(natural=natural):
                if natural:
                    return self.gettext(N_("The dealer checks the hidden card: a natural!"))
                return self.gettext(N_("The dealer checks the hidden card: no natural."))
            case Stood() if story.hides(seat, event.hand):
                return self.format(N_("{who}{hand} stands."), who=who, hand=hand)
            case Stood(total=total_value, soft=soft, automatic=automatic):
                if automatic:
                    return self.format(N_("{who}{hand} has 21 and stands."), who=who, hand=hand)
                return self.format(
                    N_("{who}{hand} stands on {total}."),
                    who=who,
                    hand=hand,
                    total=self.value_text(HandValue(total_value, soft)),
                )
            case Doubled(bet=bet):
                return self.format(
                    N_("{who}{hand} doubles: the bet is now {bet}."),
                    who=who,
                    hand=hand,
                    bet=self.chips_text(bet),
                )
            case Surrendered(returned=returned):
                return self.format(
                    N_("{who} surrenders and gets {returned} back."),
                    who=who,
                    returned=self.chips_text(returned),
                )
            case DealerStood(total=total_value, soft=soft):
                total = self.value_text(HandValue(total_value, soft))
                return self.format(N_("The dealer stands on {total}."), total=total)
            case InsuranceSettled(amount=amount, won=won, net=net):
                if won:
                    return self.format(N_("{who}: insurance wins {net}."), who=who,
                                       net=self.chips_text(net))
                return self.format(N_("{who}: insurance loses {amount}."), who=who,
                                   amount=self.chips_text(amount))
            case HandSettled(outcome=outcome, net=net):
                return self.format(
                    _SETTLED.get(outcome, N_("{who}{hand} wins: {net}.")),
                    who=who,
                    hand=hand,
                    net=self.chips_text(net, signed=True),
                )
        return None

    def _defined(self, card: Card | None) -> str:
        """A dealt card as a sentence names it (nothing for a card the table does not see)."""
        return self.card_phrase(card) if card is not None else ""


class _Story:
    """What a narration knows of the round so far: each hand's cards (to say soft or hard),
    how many of them are still face down (a total is then not told), and which seats have split
    (to name their hands)."""

    def __init__(self) -> None:
        self.hands: dict[tuple[int | None, int], list[Card]] = {}
        self.face_down: dict[tuple[int | None, int], int] = {}
        self.split: set[int] = set()

    def has_split(self, seat: int) -> bool:
        return seat in self.split

    def hides(self, seat: int | None, hand: int | None) -> bool:
        """Whether a seat's hand holds a card the table has not seen yet."""
        return seat is not None and self.face_down.get((seat, hand or 0), 0) > 0

    def value(
        self, seat: int | None, hand: int | None, *, without_last: bool = False
    ) -> HandValue | None:
        """The hand's value as told so far (before its last card, with ``without_last``)."""
        cards = self.hands.get((seat, hand or 0), [])
        if without_last:
            cards = cards[:-1]
        return hand_value(cards) if cards else None

    def dealer_natural(self) -> bool:
        """Whether the dealer's cards so far are a natural: two cards making 21."""
        cards = self.hands.get((None, 0), [])
        return len(cards) == 2 and hand_value(cards).total == 21

    def follow(self, event: Event) -> None:
        place = (event.seat, event.hand or 0)
        match event:
            case CardDealt(card=Card() as card) | DealerHit(card=card):
                self.hands.setdefault(place, []).append(card)
            case CardDealt(card=None):
                self.face_down[place] = self.face_down.get(place, 0) + 1
            case HoleCardRevealed(card=card):
                # The dealer's hole card, a seat's card of the deal or its double dealt face
                # down (its deal told no card).
                self.hands.setdefault(place, []).append(card)
                if self.face_down.get(place, 0) > 0:
                    self.face_down[place] -= 1
            case Split(seat=seat, hand=index):
                self.split.add(seat)
                cards = self.hands.get((seat, index), [])
                later = sorted(
                    (key for key in self.hands if key[0] == seat and key[1] > index),
                    key=lambda key: -key[1],
                )
                for key in later:  # the hands after this one move up by one, as in the engine
                    self.hands[(seat, key[1] + 1)] = self.hands.pop(key)
                    if key in self.face_down:
                        self.face_down[(seat, key[1] + 1)] = self.face_down.pop(key)
                if len(cards) >= 2:
                    self.hands[(seat, index + 1)] = [cards.pop()]
