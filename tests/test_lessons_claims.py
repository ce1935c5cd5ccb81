"""Lesson claims are data, and the checker checks every number it can (issue 23, points 1, 7, 12).

A general rule about the right play (« on sépare toujours les 8 ») is written as a claim that the
chart of every table the lesson plays at or names must bear out, and an absolute word about a play
that no claim backs is reported at the word. A total is counted from the cards shown, an engine's
figure is kept to the tenth, and no text beside a question gives its answer away.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin_course, builtin_lessons
from tests.marks import examples
from tutor.cards import hand_value, is_pair, parse_cards
from tutor.decision import Action
from tutor.lessons import Code, Problem, load_course
from tutor.lessons.claims import MAX_WORDING
from tutor.lessons.course import default_strategy
from tutor.lessons.models import HandClass
from tutor.lessons.source import parse_yaml
from tutor.lessons.wording import absolutes, mentions
from tutor.rules import PRESETS
from tutor.strategy import house_edge

HERE = Path(__file__).parent
BAD = HERE / "lessons_bad"
UNBACKED = BAD / "always-split-eights-unbacked.yaml"
CLAIMED = BAD / "always-split-eights-claimed.yaml"
LESSONS = HERE.parent / "lessons"


def problems(path: Path) -> list[Problem]:
    """The problems of one lesson file, its decisions and claims judged by the real chart."""
    return load_course([path], strategy=default_strategy()).problems


def at_table(source: Path, rules: str, tmp_path: Path) -> Path:
    """The same lesson played at another table."""
    text = source.read_text("utf-8").replace("rules: french-casino", f"rules: {rules}")
    path = tmp_path / source.name
    path.write_text(text, encoding="utf-8")
    return path


def lesson(tmp_path: Path, body: str, *, rules: str = "family", name: str = "x") -> list[Problem]:
    """A one-file lesson with these steps (and any lesson-level keys before ``steps:``)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"id: {name}\ntitle: T\nlevel: 1\nrules: {rules}\ngoals: [G]\n{body}", encoding="utf-8"
    )
    return problems(path)


# -- « On sépare toujours les 8 » at the French casino ----------------------------------------


def test_always_splitting_8s_at_the_french_casino_is_reported_at_the_word_without_a_claim() -> None:
    found = problems(UNBACKED)
    assert [(p.code, p.line, p.column) for p in found] == [
        (Code.WORDING, 14, 49),  # « toujours » in « On sépare toujours les 8. »
        (Code.WORDING, 15, 34),  # "Always" in "Always split 8s."
    ]
    assert "'toujours' states a general rule about split" in found[0].message
    assert "french-casino" in found[0].message  # the table it would be checked at
    assert str(found[0]).startswith(f"{_shown(UNBACKED)}:14:49: steps[0].ask.explanation.fr:")


def test_always_splitting_8s_at_the_french_casino_is_reported_at_the_claim_that_states_it() -> None:
    found = problems(CLAIMED)
    assert [(p.code, p.line) for p in found] == [(Code.CLAIM, 17)]
    message = found[0].message
    # The chart of the French casino: surrender against a 10, no split against an Ace.
    assert "false at the french-casino table" in message
    assert "surrender with 8,8 against 10" in message
    assert "with 8,8 against A" in message
    assert "split with 8,8 against A" not in message


def test_the_same_lesson_at_the_family_table_with_its_claim_passes(tmp_path: Path) -> None:
    assert problems(at_table(CLAIMED, "family", tmp_path)) == []


def test_the_same_lesson_at_the_family_table_without_its_claim_still_needs_one(
    tmp_path: Path,
) -> None:
    assert [p.code for p in problems(at_table(UNBACKED, "family", tmp_path))] == [
        Code.WORDING,
        Code.WORDING,
    ]


@pytest.mark.parametrize(
    "claim",
    [
        # Narrower than the sentence: true where it is claimed, silent on the 10 and the Ace.
        '{hands: "8,8", play: split, against: [2, 3, 4, 5, 6, 7, 8, 9]}',
        # The opposite of the sentence.
        '{hands: "8,8", avoid: [split], against: [10]}',
        '{hands: "8,8", avoid: [split]}',
    ],
)
def test_a_claim_that_does_not_say_what_the_sentence_says_backs_nothing(
    tmp_path: Path, claim: str
) -> None:
    """« On sépare toujours les 8 » speaks of every up-card and prescribes splitting: only a
    claim that 8-8 is split against every up-card backs it (and that claim is then checked)."""
    text = CLAIMED.read_text(encoding="utf-8")
    assert '      - {hands: "8,8", play: split}\n' in text
    (tmp_path / "always-split-eights-claimed.yaml").write_text(
        text.replace('      - {hands: "8,8", play: split}\n', f"      - {claim}\n"),
        encoding="utf-8",
    )
    found = problems(tmp_path / "always-split-eights-claimed.yaml")
    # (a claim that is itself false at the table is reported too, at the claim)
    assert [(p.line, p.column) for p in found if p.code is Code.WORDING] == [(14, 49), (15, 34)]


@pytest.mark.parametrize(
    "text",
    [
        "19 souple : on reste, quelle que soit la carte du croupier.",
        "Soft 19: stand, whatever the dealer shows.",
        "Les 8 sont toujours séparés.",
    ],
)
def test_an_absolute_without_toujours_or_jamais_is_read_too(text: str) -> None:
    assert absolutes(text), text


_EIGHTS = (
    "steps:\n"
    "  - ask:\n"
    "      question: Two 8s against a 9?\n"
    "      cards: '8♣ 8♦'\n"
    "      dealer: '9♥'\n"
    "      answer: {action: split}\n"
    "      explanation: '{text}'\n"
    "    claims:\n"
    "      - {claim}\n"
    "  - deal:\n"
    "      rules: french-casino\n"
    "      intro: At the French casino table.\n"
    "      player: '10♠ 9♥'\n"
    "      dealer: '7♣'\n"
    "      then: '10♦'\n"
    "      expect: {decisions: [stand], outcome: win, net: 2}\n"
)


def _eights(text: str, claim: str) -> str:
    return _EIGHTS.replace("{text}", text).replace("{claim}", claim)


def test_a_claim_made_for_some_tables_only_is_said_to_hold_there(tmp_path: Path) -> None:
    claim = "{hands: '8,8', play: split, tables: [family]}"
    unsaid = lesson(tmp_path, _eights("Always split 8s.", claim))
    assert [p.code for p in unsaid] == [Code.WORDING]
    assert "made only for the family table(s)" in unsaid[0].message
    said = lesson(tmp_path, _eights("At our table, always split 8s.", claim))
    assert said == []


def test_a_claim_for_every_table_of_the_lesson_includes_a_deals_own_table(
    tmp_path: Path,
) -> None:
    found = lesson(tmp_path, _eights("Always split 8s.", "{hands: '8,8', play: split}"))
    assert [p.code for p in found] == [Code.CLAIM]
    assert "false at the french-casino table" in found[0].message
    assert "it holds at family" in found[0].message


def test_a_claim_false_at_a_table_it_lists_is_reported_at_its_tables(tmp_path: Path) -> None:
    claim = "{hands: '8,8', play: split, tables: [family, french-casino]}"
    text = "At this table and at the French casino, always split 8s."
    found = lesson(tmp_path, _eights(text, claim))
    assert [p.code for p in found] == [Code.CLAIM]
    assert found[0].message.startswith("steps[0].claims[0].tables:")


def test_a_table_named_in_the_text_is_a_table_the_claims_are_checked_at(tmp_path: Path) -> None:
    body = (
        "steps:\n"
        "  - explain: {fr: 'Au casino français aussi, on sépare toujours les As.', "
        "en: 'At the French casino too, always split Aces.'}\n"
        "    claims: [{hands: 'A,A', play: split}]\n"
        "  - ask: {question: Q, cards: 'A♣ A♦', dealer: '9♥', answer: {action: split}, "
        "explanation: E}\n"
    )
    found = lesson(tmp_path, body)
    assert [p.code for p in found] == [Code.CLAIM]
    assert "hit with A,A against A" in found[0].message


def test_a_claim_backs_only_sentences_about_its_play_and_its_hand(tmp_path: Path) -> None:
    body = (
        "claims: [{hands: '10,10', avoid: split}]\n"
        "steps:\n"
        "  - explain: 'Never split tens. Always split 8s.'\n"
        "  - ask: {question: Q, cards: 'A♣ 6♦', answer: {total: 17}, explanation: E}\n"
    )
    found = lesson(tmp_path, body)
    assert [(p.code, p.column) for p in found] == [(Code.WORDING, 33)]  # "Always", not "Never"


@pytest.mark.parametrize(
    "text",
    [
        "Splitting tens is almost always a mistake.",
        "The dealer never looks at your cards.",  # no play named
        "Doubling is not always allowed.",
        "On ne sépare presque jamais deux bûches.",
    ],
)
def test_a_hedged_word_or_a_sentence_without_a_play_needs_no_claim(text: str) -> None:
    assert absolutes(text) == []


def test_a_table_row_is_read_with_its_header() -> None:
    table = "| pair | split? |\n|---|---|\n| 8-8 | always |\n| 9-9 | 2 to 6 |\n"
    [found] = absolutes(table)
    assert found.word == "always"
    assert found.sentence == "| 8-8 | always |"
    assert found.plays == {Action.SPLIT}  # named by the header, not by the row


def test_only_the_right_option_of_a_choice_is_read_and_with_its_question(tmp_path: Path) -> None:
    body = (
        "steps:\n"
        "  - ask:\n"
        "      question: Should you split 8s?\n"
        "      answer:\n"
        "        choice: 0\n"
        "        options: ['Always', 'Never']\n"
        "      explanation: E\n"
    )
    found = lesson(tmp_path, body)
    assert [(p.code, p.line) for p in found] == [(Code.WORDING, 11)]
    assert "steps[0].ask.answer.options[0]" in found[0].message


def test_a_claim_about_insurance_is_asked_of_the_insurance_decision(tmp_path: Path) -> None:
    body = (
        "claims: [{claim}]\n"
        "steps:\n"
        "  - explain: 'Never insure a pair of 8s.'\n"
        "  - ask: {question: Q, cards: 'A♣ 6♦', answer: {total: 17}, explanation: E}\n"
    )
    right = "{hands: '8,8', against: [A], avoid: insure}"
    assert lesson(tmp_path, body.replace("{claim}", right)) == []
    found = lesson(tmp_path, body.replace("{claim}", right.replace("[A]", "[10]")))
    [claim] = [p for p in found if p.code is Code.CLAIM]
    assert "insurance is only offered against an Ace" in claim.message


@pytest.mark.parametrize(
    ("claim", "words"),
    [
        ("{hands: '8,9', play: split}", "is not a hand of a claim"),
        ("{hands: 'soft 21', play: stand}", "soft total in a claim is 13 to 20"),
        ("{hands: 'hard 21', play: stand}", "hard total in a claim is 5 to 20"),
        ("{hands: '8,8'}", "either 'play'"),
        ("{hands: '8,8', play: split, avoid: hit}", "either 'play'"),
        ("{hands: '8,8', play: split, against: [1, Z]}", "is not an up-card"),
        ("{hands: '8,8', play: split, tables: [nowhere]}", "unknown preset"),
    ],
)
def test_a_malformed_claim_is_a_schema_problem(tmp_path: Path, claim: str, words: str) -> None:
    body = (
        f"claims: [{claim}]\n"
        "steps:\n"
        "  - ask: {question: Q, cards: 'A♣ 6♦', answer: {total: 17}, explanation: E}\n"
    )
    found = lesson(tmp_path, body)
    assert found
    assert all(p.line == 6 for p in found), found
    assert any(words in p.message for p in found), found


@pytest.mark.parametrize("kind", ["pair", "hard", "soft"])
def test_the_hand_a_claim_asks_the_chart_about_is_in_the_row_it_names(kind: str) -> None:
    values = {"pair": range(1, 11), "hard": range(5, 21), "soft": range(13, 21)}[kind]
    for value in values:
        hand = HandClass(kind, value)  # type: ignore[arg-type]
        cards = parse_cards(hand.cards)
        total = hand_value(cards)
        assert HandClass.parse(str(hand)) == hand
        if kind == "pair":
            assert is_pair(cards)
            assert cards[0].points == value
        else:
            assert not is_pair(cards)
            assert (total.total, total.soft) == (value, kind == "soft")
        assert mentions(hand, f"a sentence about {hand}")


_WORDS = st.sampled_from(["toujours", "on", "sépare", "les", "8", "jamais", "presque", "tire"])


@settings(max_examples=examples(200), deadline=None)
@given(
    words=st.lists(st.lists(_WORDS, min_size=1, max_size=8), min_size=1, max_size=5),
    style=st.sampled_from(["plain", "double", "single", "block"]),
)
def test_every_absolute_word_is_placed_on_that_very_word_in_the_file(
    words: list[list[str]], style: str
) -> None:
    """Whatever a text holds and however it is written in YAML, the line and column reported
    for an absolute word point at that word in the file."""
    said = [" ".join(["Ainsi", *sentence]) + "." for sentence in words]
    text = " ".join(said)
    if style == "block":
        written = "explain: |\n  " + "\n  ".join(said) + "\n"
        text = "\n".join(said) + "\n"
    else:
        quote = {"plain": "", "double": '"', "single": "'"}[style]
        written = f"explain: {quote}{text}{quote}\n"
    document = parse_yaml(written, "x.yaml")
    assert document.problems == []
    assert document.data["explain"] == text
    lines = written.splitlines()
    for found in absolutes(text):
        position = document.word_position(("explain",), found.word, found.occurrence)
        line = lines[position.line - 1]
        assert line[position.column - 1 :].lower().startswith(found.word.lower())
        before = "\n".join([*lines[: position.line - 1], line[: position.column - 1]])
        assert len(re.findall(rf"(?<!\w){found.word}(?!\w)", before, re.I)) == found.occurrence


# -- numbers the cards or the engine give ---------------------------------------------------------


def _ask(answer: str, cards: str | None = "'10♣ 6♦'", question: str = "What is it worth?") -> str:
    shown = f"      cards: {cards}\n" if cards else ""
    return (
        "steps:\n  - ask:\n"
        f"      question: {question}\n{shown}      answer: {answer}\n      explanation: E\n"
    )


def test_a_total_is_counted_from_the_cards_shown(tmp_path: Path) -> None:
    assert lesson(tmp_path, _ask("{total: 16}")) == []
    [wrong] = lesson(tmp_path, _ask("{total: 17}"))
    assert (wrong.code, wrong.line) == (Code.NUMBER, 10)
    assert "the cards shown (10♣ 6♦) make 16, not 17" in wrong.message
    [soft] = lesson(tmp_path, _ask("{total: 7}", cards="'A♣ 6♦'"))
    assert "make soft 17, not 7" in soft.message


def test_a_number_answer_beside_cards_is_reported_as_the_total_it_should_be(
    tmp_path: Path,
) -> None:
    """Issue 23 point 12: « 10♣ 6♦ » answered 17 was accepted."""
    [found] = lesson(tmp_path, _ask("{number: 17}"))
    assert (found.code, found.line) == (Code.NUMBER, 10)
    assert "write {total: 16}" in found.message
    assert lesson(tmp_path, _ask("{number: 16}", cards=None)) == []  # no cards: any number


def test_a_total_needs_the_cards_it_counts(tmp_path: Path) -> None:
    [found] = lesson(tmp_path, _ask("{total: 16}", cards=None))
    assert "give them in 'cards'" in found.message


def test_a_money_question_on_cards_shown_is_a_settled_round(tmp_path: Path) -> None:
    [found] = lesson(tmp_path, _ask("{chips: 2}", question="What do you win?"))
    assert found.code is Code.NUMBER
    assert "names its round in 'settle'" in found.message


_COST = (
    "{{number: {key}, engine: {{edge: {{preset: american-h17, blackjack_pays: '6/5'}}, "
    "minus: american-h17, times: 1000}}}}"
)


def test_a_rounded_engine_figure_is_reported_and_the_tenth_is_accepted(tmp_path: Path) -> None:
    """Issue 23 point 12: lesson 17's key said 14 chips where the engine gives 13.6."""
    [rounded] = lesson(tmp_path, _ask(_COST.format(key=14), cards=None))
    assert (rounded.code, rounded.line) == (Code.NUMBER, 9)
    assert "the engine's figure is 13.59" in rounded.message
    assert "write 13.6" in rounded.message
    assert lesson(tmp_path, _ask(_COST.format(key=13.6), cards=None)) == []


def test_an_average_asked_without_its_engine_figure_is_reported(tmp_path: Path) -> None:
    """The key of lesson 17 was 14 with no link to the engine: an average is the engine's."""
    question = "'At a 6-to-5 table, how many chips do you lose on average per 1,000 bet?'"
    [found] = lesson(tmp_path, _ask("{number: 14}", cards=None, question=question))
    assert (found.code, found.line) == (Code.NUMBER, 9)
    assert "name it in 'engine'" in found.message


def test_lesson_17_states_the_engines_cost_of_six_to_five_in_its_question() -> None:
    course = builtin_lessons()
    step = course.lesson("rule-variants").steps[6].ask  # type: ignore[union-attr]
    rules = PRESETS["american-h17"]
    cost = house_edge(rules.replace(blackjack_pays="6/5")) - house_edge(rules)
    assert f"{cost:.2%}".replace("%", " %") in step.question.en  # type: ignore[union-attr]
    assert f"{cost:.2%}".replace(".", ",").replace("%", " %") in step.question.fr  # type: ignore[union-attr]
    assert float(step.answer.number) == round(cost * 1000, 1)  # type: ignore[union-attr]


# -- what a text beside a question gives away (point 7) -------------------------------------------


def test_a_question_that_states_the_total_it_asks_for(tmp_path: Path) -> None:
    [found] = lesson(tmp_path, _ask("{total: 16}", question="'What is this 16 worth?'"))
    assert (found.code, found.line, found.column) == (Code.WORDING, 8, 31)


def test_a_caption_of_the_same_cards_just_before_that_states_the_total(tmp_path: Path) -> None:
    body = (
        "steps:\n"
        "  - show: {cards: '10♣ 6♦', caption: 'A hard 16.'}\n"
        "  - ask: {question: 'What is it worth?', cards: '10♣ 6♦', answer: {total: 16}, "
        "explanation: E}\n"
    )
    [found] = lesson(tmp_path, body)
    assert (found.code, found.line) == (Code.WORDING, 7)
    other = body.replace("caption: 'A hard 16.'", "caption: 'A hard 15.'")
    assert lesson(tmp_path, other) == []


def test_a_deal_that_asks_to_count_the_hand_its_table_labels(tmp_path: Path) -> None:
    body = (
        "steps:\n"
        "  - deal:\n"
        "      intro: {fr: 'Comptez votre main, puis décidez.', en: 'Count your hand, then "
        "decide.'}\n"
        "      player: 'K♠ 9♥'\n"
        "      dealer: '7♦ 10♣'\n"
        "      expect: {decisions: [stand], outcome: win, net: 2}\n"
    )
    found = lesson(tmp_path, body)
    assert [(p.code, p.column) for p in found] == [(Code.WORDING, 20), (Code.WORDING, 61)]
    assert "labels the learner's hand with its total" in found[0].message


def test_lesson_one_asks_for_its_first_deals_total_before_the_deal() -> None:
    lesson_one = builtin_lessons().lesson("card-values")
    kinds = [step.kind for step in lesson_one.steps]
    deal = kinds.index("deal")
    before = lesson_one.steps[deal - 1]
    assert before.kind == "ask"
    assert before.ask.cards == lesson_one.steps[deal].deal.player  # type: ignore[union-attr]
    assert before.ask.answer.total == 19  # type: ignore[union-attr]


def _shown(path: Path) -> str:
    relative = os.path.relpath(path)
    return relative if not relative.startswith("..") else str(path)


# -- the whole course ------------------------------------------------------------------------------


def test_no_built_in_lesson_says_always_split_8s_where_a_table_of_the_lesson_does_not() -> None:
    """Lesson 9 step 10 said « On sépare toujours les 8 » in a lesson that plays at the French
    casino; now every « toujours » about a play is a claim, and each one holds."""
    course = builtin_course()
    assert [str(p) for p in course.problems] == []
    splitting = course.lesson("splitting")
    explanation = splitting.steps[9].ask.explanation  # type: ignore[union-attr]
    assert "À notre table, on sépare toujours les 8" in explanation.fr  # type: ignore[union-attr]
    assert splitting.steps[9].claims, "the rule is stated as data too"


# -- a hostile file ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["On sépare toujours les 8. " * 8000, "on sépare toujours les 8 et " * 7000],
    ids=["many sentences", "one long sentence"],
)
def test_thousands_of_absolute_words_cost_a_bounded_check(tmp_path: Path, text: str) -> None:
    """A file near the size bound, full of absolute words (in many sentences or one), is read
    in about a second: at most MAX_WORDING words are reported, each quoted in a few words."""
    claims = "\n".join(
        "  - {hands: ['8,8', 'A,A', 'hard 16', '10,10'], avoid: hit}" for _ in range(50)
    )
    path = tmp_path / "x.yaml"
    path.write_text(
        f"id: x\ntitle: T\nlevel: 1\ngoals: [G]\nclaims:\n{claims}\nsteps:\n"
        f"  - explain: '{text}'\n"
        "  - ask: {question: Q, cards: 'A♣ 6♦', answer: {total: 17}, explanation: E}\n",
        encoding="utf-8",
    )
    started = time.monotonic()
    found = load_course([path], strategy=None).problems
    assert time.monotonic() - started < 30  # about 1 s here; the quadratic version took 48 s
    assert len(found) == MAX_WORDING
    assert all(len(problem.message) < 600 for problem in found)
