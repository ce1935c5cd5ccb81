"""The names of things a learner reads: actions, outcomes, ranks, suits and cards (with their
articles), hands and totals, chart cells and quiz items, presets and tables, up-cards, the kinds
of drill, and a settled seat's account.

Why whole phrases per rank and per outcome rather than words glued together: each language
chooses its own article, gender and elision (``l'as``, ``la dame``, ``an 8``), so a phrase is one
catalogue entry a translator sees whole. The keys (actions, ranks, preset ids, item keys) are the
engine's; the words are only here.

>>> from tutor.render.translator import translator
>>> fr, en = translator("fr"), translator("en")
>>> fr.action_name(Action.HIT), en.action_name(Action.DOUBLE)
('Tirer', 'Double')
"""
from __future__ import annotations

from collections.abc import Sequence

from tutor.cards import Card, HandValue, Rank, Suit, hand_value
from tutor.cell import Cell, Kind, parse_hand
from tutor.decision import Action, DecisionPoint
from tutor.game import Outcome, SeatResult
from tutor.quiz_questions import Category
from tutor.render.catalogue import N_, Words
from tutor.rules import TableRules, edited_preset
from tutor.sources import citation

_ACTION_NAMES: dict[Action, str] = {
    Action.HIT: N_("Hit"),
    Action.STAND: N_("Stand"),
    Action.DOUBLE: N_("Double"),
    Action.SPLIT: N_("Split"),
    Action.SURRENDER: N_("Surrender"),
    Action.INSURE: N_("Insure"),
    Action.DECLINE_INSURANCE: N_("No insurance"),
    Action.EVEN_MONEY: N_("Even money"),
}

_OUTCOME_NAMES: dict[Outcome, str] = {
    Outcome.WIN: N_("won"),
    Outcome.LOSE: N_("lost"),
    Outcome.PUSH: N_("push"),
    Outcome.NATURAL: N_("natural"),
    Outcome.BONUS: N_("bonus"),
    Outcome.BUST: N_("bust"),
    Outcome.SURRENDER: N_("surrendered"),
    Outcome.EVEN_MONEY: N_("even money"),
}

#: Outcomes as nouns, for labels of what a question asked (``Payout of a win``).
_OUTCOME_NOUNS: dict[Outcome, str] = {
    Outcome.WIN: N_("a win"),
    Outcome.LOSE: N_("a loss"),
    Outcome.PUSH: N_("a push"),
    Outcome.NATURAL: N_("a natural"),
    Outcome.BONUS: N_("a bonus"),
    Outcome.BUST: N_("a bust"),
    Outcome.SURRENDER: N_("a surrender"),
    Outcome.EVEN_MONEY: N_("an even-money payout"),
}

_RANK_NAMES: dict[Rank, str] = {
    Rank.ACE: N_("Ace"),
    Rank.JACK: N_("Jack"),
    Rank.QUEEN: N_("Queen"),
    Rank.KING: N_("King"),
}

_SUIT_NAMES: dict[Suit, str] = {
    Suit.SPADES: N_("spades"),
    Suit.HEARTS: N_("hearts"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.CLUBS: N_("clubs"),
}

#: The letter printed in a card's corner: French packs print V, D, R for the Valet, the Dame and
#: the Roi; every other rank prints its own symbol in both languages.
_RANK_INDEX: dict[Rank, str] = {
    Rank.JACK: N_("J"),
    Rank.QUEEN: N_("Q"),
    Rank.KING: N_("K"),
}

#: A card named inside a sentence, with its article: whole phrases per rank, so each language
#: chooses its own article, gender and elision (``l'as``, ``la dame``, ``an 8``).
_CARD_DEFINITE: dict[Rank | None, str] = {
    Rank.ACE: N_("the Ace of {suit}"),
    Rank.JACK: N_("the Jack of {suit}"),
    Rank.QUEEN: N_("the Queen of {suit}"),
    Rank.KING: N_("the King of {suit}"),
    None: N_("the {rank} of {suit}"),
}
_CARD_INDEFINITE: dict[Rank | None, str] = {
    Rank.ACE: N_("an Ace of {suit}"),
    Rank.JACK: N_("a Jack of {suit}"),
    Rank.QUEEN: N_("a Queen of {suit}"),
    Rank.KING: N_("a King of {suit}"),
    Rank.EIGHT: N_("an 8 of {suit}"),
    None: N_("a {rank} of {suit}"),
}

#: A pair named as a learner reads it, with its total(s).
_PAIR_NAMES: dict[Rank | None, str] = {
    Rank.ACE: N_("pair of Aces (2 or 12)"),
    Rank.JACK: N_("pair of Jacks ({total})"),
    Rank.QUEEN: N_("pair of Queens ({total})"),
    Rank.KING: N_("pair of Kings ({total})"),
    None: N_("pair of {rank}s ({total})"),
}


#: An up-card named inside a sentence, with its article, as the card that shows: whole phrases
#: per rank so each language chooses its article and gender (``une Dame``, ``an Ace``). A chart's
#: column has no rank: its ten is ``a 10``.
_UP_CARDS: dict[Rank | None, str] = {
    Rank.ACE: N_("an Ace"),
    Rank.JACK: N_("a Jack"),
    Rank.QUEEN: N_("a Queen"),
    Rank.KING: N_("a King"),
    Rank.EIGHT: N_("an 8"),
    None: N_("a {rank}"),
}

#: The presets' names on screen; the keys stay the ids that addresses, files and tests use.
PRESET_NAMES: dict[str, str] = {
    "family": N_("Family table (rules booklet)"),
    "french-casino": N_("French casino"),
    "france-before-2007": N_("French casino before 2007"),
    "home-game": N_("Home game (Vingt-et-Un, two decks, the bank passed round)"),
    "online-six-deck": N_("Online game, six decks"),
    "american-s17": N_("American shoe, dealer stands on soft 17"),
    "american-h17": N_("American shoe, dealer hits soft 17"),
}


class Names(Words):
    """The names of the engine's things in one language (a part of the ``Translator``)."""

    # -- tables --
    def preset_name(self, name: str) -> str:
        """A table's name on screen: a preset's translated name, ``…(edited)`` for a preset the
        learner changed in Settings (``family*``), any other name as it is.

        >>> from tutor.render.translator import translator

        >>> translator("en").preset_name("family*")
        'Family table (rules booklet) (edited)'
        >>> translator("en").preset_name("my-house-rules")
        'my-house-rules'
        """
        base = edited_preset(name) or name
        edited = base != name
        shown = PRESET_NAMES.get(base)
        if shown is None:
            return name
        text = self.gettext(shown)
        return self.format(N_("{name} (edited)"), name=text) if edited else text

    def table_name(self, rules: TableRules) -> str:
        """The name on screen of the table these rules describe."""
        return self.preset_name(rules.name)

    def source_citation(self, rules: TableRules) -> str | None:
        """``Source : un livret de règles pour une table familiale…``: what the rules' source
        text is, in words (``tutor.sources``), or None when the rules cite none."""
        if not rules.source:
            return None
        cited = citation(rules.source, self.language) or rules.source
        return self.format(N_("Source: {source}"), source=cited)

    # -- engine vocabulary --
    def action_name(self, action: Action, *, natural: bool = False) -> str:
        """A move's name, as its button shows it; with ``natural`` (a natural against an Ace,
        even money offered), declining is declining even money, not insurance."""
        if natural and action is Action.DECLINE_INSURANCE:
            return self.gettext(N_("No even money"))
        return self.gettext(_ACTION_NAMES[action])

    def move_name(self, action: Action, point: DecisionPoint) -> str:
        """A move's name at this decision point (``action_name`` told whether it is a natural's
        even-money offer)."""
        natural = point.is_insurance_decision and Action.EVEN_MONEY in point.legal
        return self.action_name(action, natural=natural)

    def outcome_name(self, outcome: Outcome) -> str:
        return self.gettext(_OUTCOME_NAMES[outcome])

    def rank_name(self, rank: Rank) -> str:
        name = _RANK_NAMES.get(rank)
        return self.gettext(name) if name is not None else rank.symbol

    def suit_name(self, suit: Suit) -> str:
        return self.gettext(_SUIT_NAMES[suit])

    def colour_name(self, suit: Suit) -> str:
        return self.gettext(N_("red")) if suit.is_red else self.gettext(N_("black"))

    def card_name(self, card: Card) -> str:
        """``Roi de cœur`` / ``King of hearts``: what a screen reader says for a card."""
        return self.format(
            N_("{rank} of {suit}"), rank=self.rank_name(card.rank), suit=self.suit_name(card.suit)
        )

    def rank_index(self, rank: Rank) -> str:
        """The letter in a card's corner: ``R`` for a French Roi, ``K`` for an English King."""
        name = _RANK_INDEX.get(rank)
        return self.gettext(name) if name is not None else rank.symbol

    def card_index_text(self, card: Card) -> str:
        """A card as the screen writes it, its corner letter in the reader's language: ``R♠``
        for a French roi, ``K♠`` in English."""
        return self.rank_index(card.rank) + card.suit.symbol

    def cards_index_text(self, cards: Sequence[Card]) -> str:
        """Cards as the screen writes them (``R♠ 10♦``), for files a teacher opens.

        >>> from tutor.render.translator import translator
        >>> hand = [Card.parse("K♠"), Card.parse("10♦"), Card.parse("Q♥"), Card.parse("J♣")]
        >>> translator("fr").cards_index_text(hand), translator("en").cards_index_text(hand)
        ('R♠ 10♦ D♥ V♣', 'K♠ 10♦ Q♥ J♣')
        """
        return " ".join(self.card_index_text(card) for card in cards)

    def card_phrase(self, card: Card, *, definite: bool = True) -> str:
        """A card named inside a sentence, with its article: ``le roi de pique``, ``l'as de
        cœur``, ``un 10 de trèfle`` / ``the King of spades``, ``an 8 of hearts``.

        >>> from tutor.render.translator import translator

        >>> fr = translator("fr")
        >>> fr.card_phrase(Card.parse("K♠")), fr.card_phrase(Card.parse("10♣"), definite=False)
        ('le roi de pique', 'un 10 de trèfle')
        """
        table = _CARD_DEFINITE if definite else _CARD_INDEFINITE
        message = table.get(card.rank, table[None])
        return self.format(message, rank=card.rank.symbol, suit=self.suit_name(card.suit))

    def hand_text_total(self, value: HandValue) -> str:
        """A total told in a sentence: ``15 dur``, ``13 souple``, ``24, sauté``."""
        if value.total > 21:
            return self.format(N_("{total}, bust"), total=value.total)
        return self.value_text(value)

    def value_text(self, value: HandValue) -> str:
        """A total as a learner reads it: ``15 dur``, ``13 souple``; a bust total alone."""
        if value.total > 21:
            return str(value.total)
        return self.format(N_("soft {total}") if value.soft else N_("hard {total}"),
                           total=value.total)

    def hand_text(
        self, cards: Sequence[Card], *, natural: bool | None = None, pair: bool | None = None
    ) -> str:
        """What a hand is worth, named as a learner reads it: a pair as a pair (``paire d'as (2
        ou 12)``, ``paire de 10 (20)``), a natural as a natural (``naturel``), else ``15 dur``
        or ``13 souple``.

        >>> from tutor.render.translator import translator

        >>> en = translator("en")
        >>> aces, tens = ("A♠", "A♥"), ("10♠", "10♥")
        >>> en.hand_text([Card.parse(c) for c in aces]), en.hand_text([Card.parse(c) for c in tens])
        ('pair of Aces (2 or 12)', 'pair of 10s (20)')

        A King and a Queen are a pair where the chart files them as one (``pair=True``, as the
        quiz and the heat map name them: ``paire de 10``), else a hard 20:

        >>> kq = [Card.parse("K♠"), Card.parse("Q♥")]
        >>> en.hand_text(kq), en.hand_text(kq, pair=True)
        ('hard 20', 'pair of 10s (20)')
        """
        value = hand_value(cards)
        if pair is None:  # the same rank is a pair; two ten-valued cards when the caller says so
            pair = len(cards) == 2 and cards[0].rank is cards[1].rank
        if pair and len(cards) == 2 and cards[0].points == cards[1].points:
            rank = cards[0].rank if cards[0].rank is cards[1].rank else Rank.of_value(10)
            message = _PAIR_NAMES.get(rank, _PAIR_NAMES[None])
            return self.format(message, rank=rank.symbol, total=value.total)
        if natural is None:  # a two-card 21 after a split is no natural: the caller says so
            natural = len(cards) == 2 and value.total == 21
        if natural:
            return self.gettext(N_("natural"))
        if value.total > 21:
            return self.format(N_("{total}, bust"), total=value.total)
        return self.value_text(value)

    def item_name(self, item: str) -> str:
        """A quiz item (``tutor.quiz_questions.item_key``) as a learner reads it: ``hard:14:9``
        is ``14 dur contre un 9``, ``soft:s13:A`` is ``As-2 (13 souple) contre un As``; never
        the key itself.

        >>> from tutor.render.translator import translator

        >>> en = translator("en")
        >>> en.item_name("soft:s13:4"), en.item_name("pairs:10-10:A")
        ('Ace-2 (soft 13) against a 4', 'pair of 10s against an Ace')
        """
        try:
            return self.cell_name(Cell.parse_item(item)[1])
        except ValueError:
            pass
        parts = item.split(":")
        if parts[0] == "insurance":
            if parts[-1] == "natural":
                return self.gettext(N_("Insurance, holding a natural"))
            return self.gettext(N_("Insurance"))
        if parts[0] == "totals":
            cards = parts[-1].removesuffix("cards")
            if cards.isdigit():
                return self.plural(
                    "Total of a hand of {n} card", "Total of a hand of {n} cards", int(cards)
                )
            return self.gettext(N_("Hand totals"))
        if parts[0] == "payouts" and len(parts) >= 2:
            try:
                outcome = self.outcome_noun(Outcome(parts[1]))
            except ValueError:
                return self.gettext(N_("Payouts"))
            if len(parts) > 2 and parts[2] == "double":
                return self.format(N_("Payout of {outcome}, bet doubled"), outcome=outcome)
            return self.format(N_("Payout of {outcome}"), outcome=outcome)
        return self.gettext(N_("Another question"))

    def cell_name(self, cell: Cell) -> str:
        """A cell as a learner reads it: ``16 dur contre un 10``, ``paire d'as contre un 6``.

        >>> from tutor.render.translator import translator

        >>> translator("en").cell_name(Cell.parse("hard:16:10"))
        'hard 16 against a 10'
        """
        return self.format(N_("{hand} against {up}"), hand=self.row_name(cell.kind, cell.row),
                           up=self.up_card_phrase(cell.up))

    def hand_label(self, code: str) -> str:
        """A hand of an item key: ``14`` -> ``14 dur``, ``s13`` -> ``As-2 (13 souple)``,
        ``8-8`` -> ``paire de 8``, ``A-A`` -> ``paire d'as``; other text as it is."""
        try:
            kind, row = parse_hand(code)
        except ValueError:
            return code
        return self.row_name(kind, row)

    def row_name(self, kind: Kind, row: int) -> str:
        """A chart row (:class:`tutor.cell.Cell`'s kind and row) in words."""
        if kind is Kind.PAIRS:
            if row == 1:
                return self.gettext(N_("pair of Aces"))
            return self.format(N_("pair of {pair}s"), pair=str(row))
        if kind is Kind.SOFT:
            other = Rank.of_value(row - 11).symbol
            return self.format(N_("Ace-{other} (soft {total})"), other=other, total=row)
        return self.format(N_("hard {total}"), total=row)

    def seat_result(self, result: SeatResult) -> str:
        """A settled seat in one line whose amount is the engine's net, insurance included: the
        one account of a hand (``Résultat : +1 jeton — main : gagnée (+2 jetons) ; assurance :
        perdue (−1 jeton).``), never a line for the hand and another for the seat that disagree.

        >>> from tutor.render.translator import translator

        >>> from tutor.game import HandResult, Outcome, SeatResult
        >>> en = translator("en")
        >>> en.seat_result(SeatResult(0, (HandResult(Outcome.WIN, 2, 2),), 1, -1))
        'Result: +1 chip — hand: won (+2 chips); insurance: lost (−1 chip).'
        >>> en.seat_result(SeatResult(0, (HandResult(Outcome.LOSE, 2, -2),), 0, 0))
        'Result: −2 chips (lost).'
        """
        net = self.chips_text(result.net, signed=True)
        if len(result.hands) == 1 and not result.insurance:  # its own net is the seat's
            return self.format(N_("Result: {net} ({outcome})."), net=net,
                               outcome=self.outcome_name(result.hands[0].outcome))
        several = len(result.hands) > 1
        accounts = [
            (self.format(N_("hand {n}"), n=index + 1) if several else self.gettext(N_("hand")),
             self.outcome_name(hand.outcome), hand.net)
            for index, hand in enumerate(result.hands)
        ]
        if result.insurance:
            won = Outcome.WIN if result.insurance_net > 0 else Outcome.LOSE
            accounts.append((self.gettext(N_("insurance")), self.outcome_name(won),
                             result.insurance_net))
        parts = self.gettext(N_("; ")).join(
            self.format(N_("{what}: {outcome} ({net})"), what=what, outcome=outcome,
                        net=self.chips_text(amount, signed=True))
            for what, outcome, amount in accounts
        )
        return self.format(N_("Result: {net} — {parts}."), net=net, parts=parts)

    def outcome_noun(self, outcome: Outcome) -> str:
        """An outcome as a noun, for a label (``a win`` / ``un gain``)."""
        return self.gettext(_OUTCOME_NOUNS[outcome])

    def card_alt(self, card: Card) -> str:
        """A card's alternative text: its name and its colour, for colour-blind learners too."""
        return f"{self.card_name(card)} ({self.colour_name(card.suit)})"

    def up_card_name(self, points: int) -> str:
        """An up-card given by its value (1 = Ace), as the chart's columns show it."""
        return self.gettext(N_("Ace")) if points == 1 else str(points)

    def up_card_phrase(self, points: int, rank: str | Rank | None = None) -> str:
        """An up-card inside a sentence, with its article: the card that shows when its
        ``rank`` is known (``une dame``), else the chart column's value (``un 10``, ``un as``).

        >>> from tutor.render.translator import translator

        >>> fr, en = translator("fr"), translator("en")
        >>> fr.up_card_phrase(10, "Q"), fr.up_card_phrase(10), fr.up_card_phrase(1)
        ('une dame', 'un 10', 'un as')
        >>> en.up_card_phrase(8), en.up_card_phrase(1, "A"), en.up_card_phrase(10, "K")
        ('an 8', 'an Ace', 'a King')
        """
        if isinstance(rank, str):
            try:
                rank = Rank.parse(rank)
            except ValueError:
                rank = None
        if rank is None or rank.points != points:
            rank = Rank.of_value(points)
        return self.format(_UP_CARDS.get(rank, _UP_CARDS[None]), rank=rank.symbol)


def category_name(category: Category, t: Words) -> str:
    """A kind of drill as the quiz's menu and the class's results name it (``Paires``)."""
    names = {
        Category.HARD: t.gettext("Hard totals"),
        Category.SOFT: t.gettext("Soft totals"),
        Category.PAIRS: t.gettext("Pairs"),
        Category.INSURANCE: t.gettext("Insurance"),
        Category.SURRENDER: t.gettext("Surrender"),
        Category.DOUBLING: t.gettext("Doubling"),
        Category.TOTALS: t.gettext("Hand totals"),
        Category.PAYOUTS: t.gettext("Payouts"),
    }
    return names[category]
