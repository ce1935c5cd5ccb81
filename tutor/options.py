"""The options of a table's rules that are one of a few conventions, each an enum: how the dealer
takes a second card, which totals may be doubled, which surrender, who holds the bank, when the
cards are shuffled.

Why a module of its own: they are the vocabulary of ``tutor.rules.TableRules`` (which re-exports
them, so ``from tutor.rules import HoleCard`` keeps working), and a page or the strategy that only
names a convention need not read the whole rules parser. They import nothing of the tutor.

>>> Surrender("late").loses_all_to_a_later_natural, DoubleOn.NINE_TO_ELEVEN.allows(12, soft=False)
(True, False)
"""

from __future__ import annotations

from enum import Enum


class HoleCard(Enum):
    """How the dealer takes a second card."""

    #: A second card face down at the deal; with an Ace or a ten up the dealer checks it at once,
    #: so a dealer natural ends the round before anyone doubles or splits.
    AMERICAN = "american"
    #: No hole card: the dealer's second card comes after the players have played, and a dealer
    #: natural then takes every bet on the table, doubled and split bets included.
    EUROPEAN = "european"


class DoubleOn(Enum):
    """Which two-card totals may be doubled."""

    ANY_TWO = "any"
    NINE_TO_ELEVEN = "9-11"
    TEN_OR_ELEVEN = "10-11"

    def allows(self, total: int, *, soft: bool) -> bool:
        if self is DoubleOn.ANY_TWO:
            return True
        # A soft total is not "9, 10 or 11": restricted doubling is on hard totals only.
        allowed = (9, 10, 11) if self is DoubleOn.NINE_TO_ELEVEN else (10, 11)
        return not soft and total in allowed


class Surrender(Enum):
    """Whether a player may give up a hand for half the bet, and what the dealer's natural does
    to a hand given up. Two kinds, because the sources describe two different rules."""

    NONE = "none"
    #: Give up half the bet on the first two cards, after the dealer has checked for a natural.
    #: Under the European deal the dealer has not checked yet: a surrendered hand still loses its
    #: whole bet if the dealer's second card makes a natural (surrender only ever saves half against
    #: hands the dealer has to play out, as at a table with a hole card).
    LATE = "late"
    #: The French casinos' rule (``001``: after two cards, "constatant une carte dangereuse à la
    #: banque, un joueur peut décider d'abandonner immédiatement", the bank keeps half the bet):
    #: the hand is settled at once, half the bet back, whatever the dealer's second card turns
    #: out to be. 001 names no up-card it excludes, so it is offered against any up-card, an Ace
    #: included: with no hole card it then keeps half the bet even when the dealer's second card
    #: makes a natural. A casino that refuses it against an Ace says so in its house rules
    #: (``TableRules.surrender_against_ace``). With a hole card it plays as late surrender (the
    #: dealer has already checked under an Ace or a ten).
    IMMEDIATE = "immediate"

    @property
    def loses_all_to_a_later_natural(self) -> bool:
        """Whether a dealer natural revealed after the surrender (no hole card) takes the whole
        bet: late surrender does, immediate surrender is settled before the card is drawn."""
        return self is Surrender.LATE


class BankRotation(Enum):
    """Who holds the bank from one round to the next.

    At a casino, or at the family booklet's table (``004``), one bank sits through the whole
    session. In the game played at home that source ``000`` describes, the players hold the bank
    themselves, "suivant les conventions adoptées en début de partie", by one of three
    conventions: the banker keeps it "jusqu'à épuisement des cartes", gives it up "dès qu'il a
    perdu son coup", or holds it "qu'un seul coup". The passing itself is played by
    ``tutor.table.FamilySession``; the rules only say which convention the table agreed on.
    """

    #: The bank is one stack held for the whole session (the house, or the family booklet's bank).
    FIXED = "fixed"
    #: The players hold the bank in turn, one round each.
    EACH_ROUND = "each-round"
    #: The banker keeps the bank until a round costs the bank chips.
    UNTIL_LOSS = "until-loss"
    #: The banker keeps the bank until the cards run out. The cards of each round are burnt (not
    #: shuffled back) until too few are left to deal the next round; then they are gathered and
    #: shuffled, and the bank passes to the next player.
    UNTIL_CARDS_RUN_OUT = "until-cards-run-out"

    @property
    def is_rotating(self) -> bool:
        """Whether the players hold the bank in turn (no separate bank)."""
        return self is not BankRotation.FIXED


class Shuffle(Enum):
    #: Gather and shuffle every card after each round (the family table).
    EVERY_ROUND = "every-round"
    #: Deal down to a cut card, then shuffle between rounds.
    CUT_CARD = "cut-card"
