"""Each table follows the sentence of its source: one row per rule, the source cited beside it.

The rule texts are in ``shared/sources`` (000 encyclopedia page, 001 French casino rules, 003
six-deck online game, 004 family booklet). A row names the preset, the cards dealt in order, the
actions played, and what the source says must follow: each seat's net in chips (bets of 2), or
the code of the refusal. The citation is the source's file and a few of its words; the tests
check the engine, and through the shared legality the strategy offers the same actions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from tests.conftest import OpenApp
from tutor.cards import Card, parse_cards
from tutor.decision import Action
from tutor.game import EventKind, Outcome, Phase
from tutor.practice import PracticeTable
from tutor.render.translator import translator
from tutor.rules import PRESETS, TableRules
from tutor.strategy import advise, chart, house_edge
from tutor.table import FamilySession, deal_order, new_shoe, play_at_random, scripted_round
from tutor.visit import AppState

S000 = "000_0c2d5cbf6d108733.txt"
S001 = "001_c05efaf0daf1676d.txt"
S003 = "003_3e906d12f813f817.txt"
S004 = "004_85fc10a6bbbb7bbc.txt"


@dataclass(frozen=True)
class Row:
    """A scripted round and what its source says must come of it."""

    rule: str
    preset: str
    #: Each seat's two cards.
    hands: tuple[str, ...]
    #: The dealer's cards at the deal: up-card and hole card (American deal) or up-card alone.
    dealer: str
    #: The cards drawn afterwards, in order (players' draws, then the dealer's).
    then: str
    actions: tuple[str, ...]
    #: Each seat's net in chips, for a round played to its end.
    nets: tuple[int, ...] | None
    #: The first seat's outcome per hand.
    outcomes: tuple[Outcome, ...] | None
    #: After the actions: an action and the refusal code the table gives for it.
    refused: tuple[str, str] | None
    source: str
    says: str


ROWS = [
    # -- surrender: immediate at the French tables, half back, not against an Ace --
    Row(
        "immediate surrender keeps half even when the dealer's second card makes a natural",
        "french-casino", ("10♠ 6♥", "10♦ 8♣"), "10♣", "A♦", ("surrender", "stand"),
        nets=(-1, -2), outcomes=(Outcome.SURRENDER,), refused=None,
        source=S001, says="abandonner immédiatement. La banque récupère alors la moitié",
    ),
    Row(
        "immediate surrender keeps half before 2007 too",
        "france-before-2007", ("10♠ 6♥", "10♦ 8♣"), "10♣", "A♦", ("surrender", "stand"),
        nets=(-1, -2), outcomes=(Outcome.SURRENDER,), refused=None,
        source=S001, says="abandonner immédiatement. La banque récupère alors la moitié",
    ),
    Row(
        "immediate surrender against a nine: half back, the dealer's hand does not matter",
        "french-casino", ("10♠ 6♥",), "9♣", "", ("surrender",),
        nets=(-1,), outcomes=(Outcome.SURRENDER,), refused=None,
        source=S001, says="la moitié de sa mise",
    ),
    Row(
        "immediate surrender against an Ace keeps half even when the dealer then makes a natural",
        "french-casino", ("10♠ 6♥", "10♦ 8♣"), "A♣", "K♦",
        ("decline-insurance", "decline-insurance", "surrender", "stand"),
        nets=(-1, -2), outcomes=(Outcome.SURRENDER,), refused=None,
        source=S001, says="constatant une carte dangereuse à la banque, un joueur peut décider",
    ),
    Row(
        "immediate surrender against an Ace before 2007 too",
        "france-before-2007", ("10♠ 6♥", "10♦ 8♣"), "A♣", "K♦",
        ("decline-insurance", "decline-insurance", "surrender", "stand"),
        nets=(-1, -2), outcomes=(Outcome.SURRENDER,), refused=None,
        source=S001, says="constatant une carte dangereuse à la banque, un joueur peut décider",
    ),
    Row(
        "late surrender with a hole card stays allowed against an Ace (checked first)",
        "american-s17", ("10♠ 6♥",), "A♣ 7♦", "", ("decline-insurance", "surrender"),
        nets=(-1,), outcomes=(Outcome.SURRENDER,), refused=None,
        source="american-s17 preset (common American rules)", says="late surrender",
    ),
    # -- splitting: by value at the French tables, by rank elsewhere --
    Row(
        "K-10 splits at the French casino",
        "french-casino", ("K♠ 10♥",), "6♣", "9♦ 8♠ K♦ Q♣", ("split", "stand", "stand"),
        nets=(4,), outcomes=(Outcome.WIN, Outcome.WIN), refused=None,
        source=S001, says="deux cartes de même valeur",
    ),
    Row(
        "K-10 splits at the French casino before 2007",
        "france-before-2007", ("K♠ 10♥",), "6♣", "9♦ 8♠ K♦ Q♣", ("split", "stand", "stand"),
        nets=(4,), outcomes=(Outcome.WIN, Outcome.WIN), refused=None,
        source=S001, says="deux cartes de même valeur",
    ),
    Row(
        "K-10 does not split at the family table",
        "family", ("K♠ 10♥",), "6♣ 7♦", "", (),
        nets=None, outcomes=None, refused=("split", "split-pair"),
        source=S004, says="Si tes deux cartes ont le même rang",
    ),
    Row(
        "K-10 does not split in the six-deck online game",
        "online-six-deck", ("K♠ 10♥",), "6♣ 7♦", "", (),
        nets=None, outcomes=None, refused=("split", "split-pair"),
        source=S003, says="avec la même dénomination",
    ),
    # -- the game at home (000): two decks, the banker's hole card, the bank's natural first --
    Row(
        "at home a natural is paid 3 to 2",
        "home-game", ("A♠ K♥",), "9♣ 7♦", "", (),
        nets=(3,), outcomes=(Outcome.NATURAL,), refused=None,
        source=S000, says="Black Jack gagne 3 pour 2",
    ),
    Row(
        "at home the banker's natural takes every bet but a natural's, which pushes",
        "home-game", ("A♠ K♥", "10♦ 8♣"), "K♣ A♦", "", (),
        nets=(0, -2), outcomes=(Outcome.PUSH,), refused=None,
        source=S000, says="il ramasse les mises des joueurs, sauf celles des joueurs qui ont eux",
    ),
    Row(
        "at home the double takes one card face down, settled when the bank has played",
        "home-game", ("6♠ 5♥",), "6♣ 10♦", "9♦ 2♣", ("double",),
        nets=(4,), outcomes=(Outcome.WIN,), refused=None,
        source=S000, says="qu'une seule carte, face cachée",
    ),
    Row(
        "at home a new pair may be split again",
        "home-game", ("8♠ 8♥",), "6♣ 10♦", "8♦ 3♣ 10♥ 9♠ 9♦",
        ("split", "split", "stand", "stand", "stand"),
        nets=(6,), outcomes=(Outcome.WIN, Outcome.WIN, Outcome.WIN), refused=None,
        source=S000, says="peut encore dissocier toute nouvelle Paire",
    ),
    Row(
        "at home the double is on the first two cards, not after a split",
        "home-game", ("8♠ 8♥",), "6♣ 10♦", "3♦ 9♣", ("split",),
        nets=None, outcomes=None, refused=("double", "no-double-after-split"),
        source=S000, says="après avoir vu leurs deux premières cartes, ont la faculté de doubler",
    ),
    Row(
        "no surrender at home",
        "home-game", ("10♠ 6♥",), "10♣ 7♦", "", (),
        nets=None, outcomes=None, refused=("surrender", "no-surrender"),
        source=S000, says="(000 has no surrender)",
    ),
    # -- doubling: one card, face down at the American tables (the card shown at the end) --
    Row(
        "a double face down is settled as any double once the dealer has played",
        "american-s17", ("6♠ 5♥",), "6♣ 10♦", "9♦ 2♣", ("double",),
        nets=(4,), outcomes=(Outcome.WIN,), refused=None,
        source=S001, says="Au Blackjack américain, le joueur double face cachée",
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.rule for row in ROWS])
def test_the_table_does_what_its_source_says(row: Row) -> None:
    rules = PRESETS[row.preset]
    game = scripted_round(rules, list(row.hands), row.dealer, row.then)
    for action in row.actions:
        game.act(Action.parse(action))
    if row.refused is not None:
        action, code = row.refused
        refusal = game.refusal(Action.parse(action))
        assert refusal is not None, (row.source, row.says)
        assert refusal[0] == code, (row.source, row.says, refusal)
        # The strategy reads the same rule: it never values the refused action here.
        assert Action.parse(action) not in advise(game.decision_point()).evs
        return
    assert game.is_over, (row.source, row.says)
    assert tuple(result.net for result in game.results) == row.nets, (row.source, row.says)
    if row.outcomes is not None:
        assert tuple(hand.outcome for hand in game.results[0].hands) == row.outcomes


@pytest.mark.parametrize("preset", ["french-casino", "france-before-2007"])
@pytest.mark.parametrize("up", ["10♣", "A♣"])
def test_an_immediate_surrender_is_worth_exactly_half_the_bet_to_the_strategy(
    preset: str, up: str
) -> None:
    """001: the bank keeps half the bet, whatever comes next; so the strategy values it at -0.5
    against a ten and against an Ace, where a late surrender would also lose the whole bet to a
    natural (about one time in three under an Ace)."""
    def surrender_ev(rules: TableRules) -> float:
        game = scripted_round(rules, ["10♠ 6♥"], up, strict=False)
        if game.phase is Phase.INSURANCE:
            game.decline_insurance()
        return advise(game.decision_point()).evs[Action.SURRENDER]

    assert surrender_ev(PRESETS[preset]) == -0.5
    assert surrender_ev(PRESETS[preset].replace(surrender="late")) < -0.5


# Early surrender against an Ace (half back before the dealer's second card), infinite deck, dealer
# stands on soft 17: surrender where playing on is worth less than -0.5 counting the natural,
# hard 5 to 7, hard 12 to 17, and the pairs 3-3, 6-6, 7-7 and 8-8 (blackjackinfo.com community,
# thread 10366, "BS difference"). Six decks agree cell for cell.
EARLY_SURRENDER_AGAINST_AN_ACE = {
    "hard": {"5", "6", "7", "12", "13", "14", "15", "16", "17"},
    "pairs": {"3,3", "6,6", "7,7", "8,8"},
    "soft": set(),
}


@pytest.mark.parametrize("preset", ["french-casino", "france-before-2007"])
def test_the_french_chart_surrenders_against_an_ace_where_published_early_surrender_does(
    preset: str,
) -> None:
    tables = chart(PRESETS[preset]).tables()
    for name, rows in EARLY_SURRENDER_AGAINST_AN_ACE.items():
        frame = tables[name]
        surrendered = {str(row) for row in frame.index if str(frame.loc[row, "A"]).startswith("R")}
        assert surrendered == rows, (preset, name)


def test_the_house_rule_against_an_ace_takes_surrender_out_of_the_ace_column_only() -> None:
    """Refused against an Ace (a casino's house rule, in no source), the chart's Ace column plays
    on and every other column is unchanged."""
    french = PRESETS["french-casino"]
    offered = chart(french).tables()
    refused = chart(french.replace(surrender_against_ace=False)).tables()
    for name in ("hard", "soft", "pairs"):
        before, after = offered[name], refused[name]
        assert not any(str(code).startswith("R") for code in after["A"]), name
        others = [column for column in before.columns if column != "A"]
        assert before[others].equals(after[others]), name
    assert (offered["hard"].loc["16", "A"], refused["hard"].loc["16", "A"]) == ("Rh", "H")


def test_immediate_surrender_against_an_ace_gives_the_player_the_edge_the_house_rule_takes_back(
) -> None:
    """The two French presets with and without the house rule: immediate surrender against an
    Ace, with no hole card, is worth about 0.39 % of the bet to the player (the reason a casino
    might refuse it), enough to give the player the edge at the French casino."""
    french = PRESETS["french-casino"]
    offered = house_edge(french)
    refused = house_edge(french.replace(surrender_against_ace=False))
    assert offered < 0 < refused
    assert 0.0035 < refused - offered < 0.0045


# -- doubling face down (001, American deal) or face up (003) --------------------------------------


@pytest.mark.parametrize(
    ("preset", "face_down", "source", "says"),
    [
        ("american-s17", True, S001, "Au Blackjack américain, le joueur double face cachée"),
        ("american-h17", True, S001, "Au Blackjack américain, le joueur double face cachée"),
        ("online-six-deck", False, S003, "une troisième carte face découverte"),
        ("french-casino", False, S001, "face cachée is said of the Blackjack américain only"),
    ],
)
def test_the_doubled_card_is_dealt_face_down_only_where_the_source_says(
    preset: str, face_down: bool, source: str, says: str
) -> None:
    rules = PRESETS[preset]
    dealer = "6♣ 10♦" if rules.dealer_peeks else "6♣"
    then = "9♦ 2♣" if rules.dealer_peeks else "9♦ 10♦ 2♣"
    game = scripted_round(rules, ["6♠ 5♥", "10♠ 7♥"], dealer, then)
    game.double()
    dealt = [e for e in game.events if e.kind is EventKind.CARD_DEALT and e.seat == 0]
    assert dealt[-1].face_down is face_down, (source, says)
    assert (game.seats[0].hands[0].hidden_card is not None) is face_down


def test_a_card_doubled_face_down_is_seen_only_once_the_dealer_has_played() -> None:
    """001: the player "ne la voit qu'une fois le jeu du croupier terminé"; the narration never
    names it before, and the total of the hand is not shown."""
    rules = PRESETS["american-s17"]
    hidden = Card.parse("9♦")
    game = scripted_round(rules, ["6♠ 5♥", "10♠ 7♥"], "6♣ 10♦", "9♦ 2♣", bets=[2, 2])
    game.double()
    assert game.seats[0].hands[0].hidden_card == hidden
    game.stand()
    kinds = [e.kind for e in game.events]
    revealed = next(
        i for i, e in enumerate(game.events)
        if e.kind is EventKind.HOLE_CARD_REVEALED and e.seat == 0
    )
    assert kinds.index(EventKind.DEALER_STOOD) < revealed  # after the dealer's play
    assert game.events[revealed].card == hidden
    for language in ("fr", "en"):
        t = translator(language)
        told = [t.narrate(e, lambda seat: f"P{seat}") or "" for e in game.events[:revealed]]
        assert not any(t.card_name(hidden) in line for line in told), told
        assert t.card_name(hidden) in (t.narrate(game.events[revealed], str) or "")
    assert [r.net for r in game.results] == [4, -2]  # 20 and 17 against the dealer's 18


def test_the_dealer_plays_out_against_a_busted_card_nobody_has_seen() -> None:
    """The dealer cannot know a face-down double busted: he draws as usual, then the card is
    shown and the hand is lost (a regression test: he used to skip his turn, which told)."""
    rules = PRESETS["american-s17"]
    game = scripted_round(rules, ["10♠ 6♥"], "6♣ 10♦", "K♦ 5♣")
    game.double()  # 10+6+K = 26, face down
    assert game.is_over
    assert [e.card for e in game.events if e.kind is EventKind.DEALER_HIT] == [
        Card.parse("5♣")
    ]
    assert game.results[0].hands[0].outcome is Outcome.BUST
    assert game.results[0].net == -4


def test_the_table_view_shows_the_doubled_card_face_down_until_the_dealer_has_played(
    open_app: OpenApp,
) -> None:
    rules = PRESETS["american-s17"]
    state = AppState(rules=rules)
    practice = PracticeTable(rules, seats=2, seed=1)
    script = deal_order(
        rules, [parse_cards("6♠ 5♥"), parse_cards("10♠ 7♥")], parse_cards("6♣ 10♦"),
        parse_cards("9♦ 2♣"),
    )
    practice.table.shoe = new_shoe(rules, script=script)
    practice.deal()
    practice.act(Action.DOUBLE)
    state.practice = practice
    at = open_app("practice", state)
    t = translator("fr")
    page = " ".join(block.value for block in at.markdown)
    assert t.gettext("Card face down") in page
    assert t.card_name(Card.parse("9♦")) not in page
    at.button(key="table-stand").click().run()
    assert not at.exception
    page = " ".join(block.value for block in at.markdown)
    assert t.card_name(Card.parse("9♦")) in page


# -- the spare deck serves one round (004) ---------------------------------------------------------


def test_the_spare_deck_serves_the_round_that_ran_dry_and_that_round_only() -> None:
    """004: when a round exhausts the pack, "un deuxième jeu de secours de 52 cartes"; the next
    round is shuffled from the one pack again."""
    session = FamilySession(["Alice", "Bruno", "Chloé"], seed=4)
    shoe = session.table.shoe
    for _ in range(49):  # earlier play left three cards: the next deal needs eight
        shoe.draw()
    shoe.end_round(shuffle=False)
    rng = random.Random(4)
    game = session.start_round()
    assert shoe.spare_decks_opened == 1
    play_at_random(game, rng)
    session.finish_round()
    assert shoe.spare_decks_opened == 0
    assert shoe.total_cards == len(shoe) == 52
    while not session.is_over:
        game = session.start_round()
        dealt = Counter(shoe.in_play)
        assert len(shoe) + len(shoe.in_play) == 52  # dealt from one pack
        assert max(dealt.values()) == 1
        play_at_random(game, rng)
        session.finish_round()
