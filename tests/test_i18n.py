"""The Translator speaks each language properly: plurals by the language's rule, cards with their
articles, hands and quiz items as a learner reads them, French typography applied in one place,
French card indices and action keys, and a round told once per event (issue 17)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from fractions import Fraction

import pytest
from babel.messages.pofile import read_po

from tutor.cards import Card, parse_cards
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS
from tutor.quiz_deal import next_question
from tutor.quiz_questions import Category, item_key
from tutor.render.card_pictures import card_svg
from tutor.render.catalogue import LOCALE_DIR, NBSP, french_typography
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.table import scripted_round
from tutor.ui.components import HINT_SHORTCUT, SHORTCUTS_BY_LANGUAGE

NNBSP = "\u202f"
#: An ordinary space before : ; ! ? that French typography forbids (a ratio like 3:2, an icon
#: like :material/star: or an address are not punctuation).
LOOSE_FRENCH_SPACE = re.compile(r" [:;!?](?![\w/])")


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("fr", 0, f"0{NBSP}jeton"),
        ("fr", 1, f"1{NBSP}jeton"),
        ("fr", Fraction(3, 2), f"1,5{NBSP}jeton"),
        ("fr", 2, f"2{NBSP}jetons"),
        ("fr", 1_000_000, f"1{NNBSP}000{NNBSP}000{NBSP}jetons"),
        ("en", 0, "0 chips"),
        ("en", 1, "1 chip"),
        ("en", Fraction(3, 2), "1.5 chips"),
        ("en", 2, "2 chips"),
        ("en", 1_000_000, "1,000,000 chips"),
    ],
)
def test_chips_take_the_plural_of_the_language(
    language: str, count: int | Fraction, expected: str
) -> None:
    """French puts 0 and 1 (and 1,5) in the singular, English only 1."""
    assert translator(language).chips_text(count) == expected


@pytest.mark.parametrize(
    ("language", "amount", "expected"),
    [
        ("fr", 2, f"+2{NBSP}jetons"),
        ("fr", -1, f"−1{NBSP}jeton"),
        ("fr", 0, f"0{NBSP}jeton"),
        ("en", -1, "−1 chip"),
        ("en", 3, "+3 chips"),
    ],
)
def test_a_signed_amount_agrees_with_its_size(language: str, amount: int, expected: str) -> None:
    assert translator(language).chips_text(amount, signed=True) == expected


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [("fr", 0, "0 erreur"), ("fr", 1, "1 erreur"), ("fr", 2, "2 erreurs"),
     ("en", 0, "0 mistakes"), ("en", 1, "1 mistake"), ("en", 2, "2 mistakes")],
)
def test_ngettext_follows_the_catalogue_plural_rule(
    language: str, count: int, expected: str
) -> None:
    t = translator(language)
    assert t.ngettext("{n} mistake", "{n} mistakes", count).format(n=count) == expected


@pytest.mark.parametrize(
    ("language", "card", "definite", "expected"),
    [
        ("fr", "K♠", True, "le roi de pique"),
        ("fr", "A♥", True, "l’as de cœur"),
        ("fr", "Q♦", True, "la dame de carreau"),
        ("fr", "J♣", True, "le valet de trèfle"),
        ("fr", "7♠", True, "le 7 de pique"),
        ("fr", "10♣", False, "un 10 de trèfle"),
        ("fr", "Q♥", False, "une dame de cœur"),
        ("fr", "A♠", False, "un as de pique"),
        ("en", "K♠", True, "the King of spades"),
        ("en", "8♥", False, "an 8 of hearts"),
        ("en", "A♠", False, "an Ace of spades"),
        ("en", "9♦", False, "a 9 of diamonds"),
    ],
)
def test_a_card_in_a_sentence_has_its_article(
    language: str, card: str, definite: bool, expected: str
) -> None:
    assert translator(language).card_phrase(Card.parse(card), definite=definite) == expected


@pytest.mark.parametrize(
    ("language", "cards", "expected"),
    [
        ("fr", "A♠ A♥", "paire d’as (2 ou 12)"),
        ("fr", "10♠ 10♥", "paire de 10 (20)"),
        ("fr", "K♠ K♥", "paire de rois (20)"),
        ("fr", "8♠ 8♦", "paire de 8 (16)"),
        ("fr", "A♠ 2♥", "13 souple"),
        ("fr", "10♠ 5♥", "15 dur"),
        ("fr", "K♠ Q♥", "20 dur"),
        ("fr", "A♠ K♥", "naturel"),
        ("fr", "10♠ 6♥ 8♦", "24, sauté"),
        ("en", "A♠ A♥", "pair of Aces (2 or 12)"),
        ("en", "10♠ 10♥", "pair of 10s (20)"),
        ("en", "A♠ 6♥", "soft 17"),
    ],
)
def test_a_hand_is_named_as_a_learner_reads_it(language: str, cards: str, expected: str) -> None:
    assert translator(language).hand_text(parse_cards(cards)) == expected


def test_a_two_card_21_after_a_split_is_not_called_a_blackjack() -> None:
    fr = translator("fr")
    assert fr.hand_text(parse_cards("A♠ K♥"), natural=False) == "21 souple"


@pytest.mark.parametrize(
    ("language", "item", "expected"),
    [
        ("fr", "hard:14:9", "14 dur contre un 9"),
        ("fr", "soft:s18:4", "As-7 (18 souple) contre un 4"),
        ("fr", "soft:s13:A", "As-2 (13 souple) contre un as"),
        ("fr", "pairs:10-10:6", "paire de 10 contre un 6"),
        ("fr", "pairs:A-A:10", "paire d’as contre un 10"),
        ("fr", "insurance:hand", "Assurance"),
        ("fr", "insurance:natural", "Assurance, avec un naturel en main"),
        ("fr", "totals:3cards", f"Total d’une main de 3{NBSP}cartes"),
        ("fr", "payouts:lose:double", "Paiement d’une perte, mise doublée"),
        ("en", "hard:14:9", "hard 14 against a 9"),
        ("en", "surrender:16:10", "hard 16 against a 10"),
        ("en", "payouts:win", "Payout of a win"),
    ],
)
def test_a_quiz_item_is_named_never_shown_as_its_key(
    language: str, item: str, expected: str
) -> None:
    assert translator(language).item_name(item) == expected


@pytest.mark.parametrize("language", ["fr", "en"])
def test_no_drilled_item_reads_as_an_internal_key(language: str) -> None:
    """Every category's questions, as drawn: the name never holds the key's colons or an ``s13``."""
    t = translator(language)
    rng = random.Random(17)
    for category in Category:
        for _ in range(30):
            try:
                question = next_question(category, PRESETS["american-s17"], rng)
            except ValueError:
                break
            name = t.item_name(item_key(question))
            assert ":" not in name.replace(f"{NBSP}:", ""), name
            assert not re.search(r"\bs\d+\b|\d+-\d+", name), name


TYPOGRAPHY = [
    ("Le joueur : gagne", f"Le joueur{NBSP}: gagne"),
    ("Vraiment ? Oui !", f"Vraiment{NBSP}? Oui{NBSP}!"),
    ("Juste!", f"Juste{NBSP}!"),
    ("Source: le livret", f"Source{NBSP}: le livret"),
    ("deux ; trois", f"deux{NBSP}; trois"),
    ("« Rester »", f"«{NBSP}Rester{NBSP}»"),
    ("«Rester»", f"«{NBSP}Rester{NBSP}»"),
    ("**Tirer** : juste.", f"**Tirer**{NBSP}: juste."),
    ("{who}{hand} : {net}", f"{{who}}{{hand}}{NBSP}: {{net}}"),
    # Left alone: ratios, times, icons, addresses, code, tags, text already right.
    ("paie 3:2 et 6:5", "paie 3:2 et 6:5"),
    (":material/lightbulb: Le conseil", ":material/lightbulb: Le conseil"),
    ("voir https://exemple.fr/?a=1 !", f"voir https://exemple.fr/?a=1{NBSP}!"),
    ("`a:b` <b title='x: y'>", "`a:b` <b title='x: y'>"),
    (f"Déjà{NBSP}: bon", f"Déjà{NBSP}: bon"),
]


@pytest.mark.parametrize(("raw", "expected"), TYPOGRAPHY)
def test_french_typography(raw: str, expected: str) -> None:
    assert french_typography(raw) == expected
    assert french_typography(expected) == expected  # applied twice, nothing changes


def test_typography_is_french_only_and_applied_to_every_french_string() -> None:
    """Every message of the catalogue, as the Translator returns it: no ordinary space before
    ``: ; ! ?`` in French, and English untouched."""
    fr, en = translator("fr"), translator("en")
    assert en.typeset("Note : x") == "Note : x"
    with (LOCALE_DIR / "fr" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalogue = read_po(handle, locale="fr")
    checked = 0
    for message in catalogue:
        if not message.id or not isinstance(message.id, str):
            continue
        shown = fr.gettext(message.id)
        assert not LOOSE_FRENCH_SPACE.search(shown), shown
        checked += 1
    assert checked > 400


def test_lesson_text_shown_in_french_gets_the_same_typography() -> None:
    fr = translator("fr")
    assert fr.typeset("Question : que faites-vous ?") == f"Question{NBSP}: que faites-vous{NBSP}?"


@pytest.mark.parametrize(
    ("language", "card", "index"),
    [("fr", "K♠", "R"), ("fr", "Q♥", "D"), ("fr", "J♦", "V"), ("fr", "A♣", "A"),
     ("fr", "10♠", "10"), ("en", "K♠", "K"), ("en", "Q♥", "Q"), ("en", "J♦", "J")],
)
def test_cards_print_the_index_of_the_language_pack(language: str, card: str, index: str) -> None:
    svg = card_svg(Card.parse(card), translator(language))
    assert svg.count(f">{index}</text>") == 2  # both corners


@pytest.mark.parametrize("language", ["fr", "en"])
def test_action_keys_are_the_language_letters_and_never_clash(language: str) -> None:
    keys = SHORTCUTS_BY_LANGUAGE[language]
    hint = HINT_SHORTCUT[language]
    for shown_together in (HAND_ACTIONS, INSURANCE_ACTIONS):
        letters = [keys[action] for action in shown_together] + [hint]
        assert len(set(letters)) == len(letters), letters
        assert not {"C", "R"} & set(letters)  # Streamlit keeps C and R for itself
    t = translator(language)
    for action in HAND_ACTIONS:  # each letter is in the button's own word
        assert keys[action].lower() in t.action_name(action).lower()


def test_chart_locale_comes_from_babel() -> None:
    fr = translator("fr").chart_locale()
    assert fr["time"]["months"][11] == "décembre"
    assert fr["number"]["decimal"] == ","
    assert fr["number"]["thousands"] == NNBSP
    assert translator("en").chart_locale()["time"]["months"][11] == "December"


def _told(language: str, hands: list[str], dealer: str, then: str, moves: list[str]) -> list[str]:
    game = scripted_round(PRESETS["american-s17"], hands, dealer, then)
    for move in moves:
        getattr(game, move)()
    t = translator(language)
    name: Callable[[int], str] = lambda _seat: t.gettext("The player")  # noqa: E731
    return t.narrate_events(game.events, name)


def test_a_hit_is_told_once_and_says_when_the_ace_drops_to_one() -> None:
    lines = _told("fr", ["A♠ 5♥"], "10♣ 7♦", "10♥", ["hit", "stand"])
    hits = [line for line in lines if "10 de cœur" in line]
    assert hits == [f"Le joueur tire le 10 de cœur{NBSP}: 16 dur (l’as compte maintenant 1)."]
    assert "Le joueur reçoit l’as de pique." in lines
    lines = _told("en", ["A♠ 5♥"], "10♣ 7♦", "10♥", ["hit", "stand"])
    assert "The player hits the 10 of hearts: hard 16 (the Ace now counts 1)." in lines


def test_split_hands_are_named_hand_1_and_hand_2_in_every_sentence() -> None:
    lines = _told("fr", ["8♠ 8♥"], "10♣ 7♦", "3♠ 2♦", ["split", "stand", "stand"])
    after = lines[next(i for i, line in enumerate(lines) if "sépare" in line) + 1:]
    player = [line for line in after if line.startswith("Le joueur")]
    assert player
    assert all("(main 1)" in line or "(main 2)" in line for line in player), player
    assert any("(main 1)" in line for line in player)
    assert any("(main 2)" in line for line in player)


def test_the_hidden_card_and_the_settlement_read_as_sentences() -> None:
    lines = _told("fr", ["10♠ 9♥"], "10♣ 7♦", "", ["stand"])
    assert f"La carte cachée est un 7 de carreau{NBSP}: 17 dur." in lines
    assert f"Le joueur gagne{NBSP}: +2{NBSP}jetons." in lines
    lines = _told("fr", ["10♠ 7♥"], "10♣ 7♦", "", ["stand"])
    assert f"Le joueur fait égalité{NBSP}: la mise est rendue." in lines
