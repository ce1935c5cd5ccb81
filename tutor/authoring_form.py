"""The form editor of « Mes leçons »: a lesson written without typing YAML, as the same YAML text
the text editor holds.

Why a module of its own, beside ``tutor.authoring``: the form is a second way to write the one
text a teacher's lesson is (``TeacherLesson.draft``), never a second store. Every change the form
makes is a function from a text to a text (``set_head``, ``add_explain``, ``add_choice``,
``add_action``, ``add_deal``, ``remove_step``, ``move_step``), so that an edit made in the text
shows in the form (``read_form``) and an edit made in the form shows in the text, and the tests
check that what the form writes loads as a ``Lesson`` and passes the checker.

The form asks only what a teacher decides: the words, the cards (picked from lists), the right
move (among those legal at the table for that hand and offered by the lesson, ``ask_moves``).
What the engine knows it works out itself: a deal's decisions are basic strategy's among the moves
offered, its later cards are drawn from what is left of the table's decks when the teacher names
none, and its outcome and net are the engine's settlement (``plan_deal``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tutor.cards import Card, Rank, ShoeExhaustedError, Suit, format_cards, parse_cards
from tutor.decision import HAND_ACTIONS, Action
from tutor.game import Money, Outcome, Round, money
from tutor.lessons.source import MAX_BYTES, parse_yaml
from tutor.rules import PRESETS, TableRules
from tutor.table import decision_for, scripted_round

#: The name problems of a form's text carry (as ``tutor.authoring.LESSON_NAME``).
_NAME = "lesson"
#: The order in which the form writes a lesson's keys (the format's own order); others follow.
HEAD_KEYS = ("id", "title", "level", "language", "rules", "goals", "requires", "actions")
#: Every card a list offers, in a deck's order: A♠ 2♠ … K♠, then ♥, ♦, ♣.
CARDS: tuple[str, ...] = tuple(str(Card(rank, suit)) for suit in Suit for rank in Rank)
#: The moves a lesson's ``actions`` may list, in the order of the buttons.
MOVES: tuple[Action, ...] = HAND_ACTIONS
#: The most steps the form adds to one lesson (a lesson is a few KB).
MAX_STEPS = 40
#: The most cards the teacher names for a deal after the first four.
MAX_THEN = 12


class FormError(ValueError):
    """What the form cannot write, with its reason as a code the page words (``code``) and the
    English sentence for logs."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class StepLine:
    """A step as the form lists it: its kind (``explain``, ``show``, ``ask``, ``deal``,
    ``drill``) and a few words of its own text (its question, its intro, its explanation)."""

    kind: str
    title: str


@dataclass(frozen=True)
class FormView:
    """What the form shows of a lesson text: its head and the list of its steps."""

    lesson_id: str
    title: str
    level: int
    #: The lesson's table: a preset's name, or None when the text writes a table of its own
    #: (a preset with changes), which the form leaves as written.
    preset: str | None
    #: The moves offered; None: every move (no ``actions`` key).
    actions: tuple[Action, ...] | None
    steps: tuple[StepLine, ...]
    language: str | None
    #: The lesson's first goal (what the course list shows under its title).
    goal: str = ""


# -- reading -------------------------------------------------------------------------------------


def _data(text: str) -> dict[str, Any]:
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise FormError("form-too-large", "the lesson is too large for the form")
    data = parse_yaml(text, _NAME).data if text.strip() else {}
    if not isinstance(data, dict):
        raise FormError("form-not-a-mapping", "the text is not a lesson the form can read")
    steps = data.get("steps", [])
    if steps is None:
        data["steps"] = []
    elif not isinstance(steps, list):
        raise FormError("form-not-a-mapping", "the steps are not a list")
    return data


def text_of(value: object, language: str) -> str:
    """A lesson text as one string: a plain string, or the entry of ``language`` (another when it
    has none)."""
    if isinstance(value, dict):
        found = value.get(language) or next((v for v in value.values() if v), "")
        return str(found)
    return "" if value is None else str(value)


def step_title(step: object, language: str, *, words: int = 8) -> StepLine:
    """A step's kind and the first words of the text a teacher knows it by: its question, its
    intro or its text, its caption, its drill's category."""
    if not isinstance(step, dict) or not step:
        return StepLine("?", "")
    kind = next((key for key in step if key != "claims"), "?")
    body = step.get(kind)
    text: object = ""
    if kind == "explain":
        text = body
    elif isinstance(body, dict):
        for key in ("question", "intro", "caption", "explanation", "category", "cards", "player"):
            if body.get(key):
                text = body[key]
                break
    shown = " ".join(text_of(text, language).split())
    parts = shown.split(" ")
    if len(parts) > words:
        shown = " ".join(parts[:words]) + " …"
    return StepLine(str(kind), shown)


def read_form(text: str, language: str = "fr") -> FormView:
    """The form's view of a lesson text; ``FormError`` when the text is not a mapping of keys
    (the form then waits for the text to be fixed)."""
    data = _data(text)
    lang = data.get("language") if data.get("language") in ("fr", "en") else None
    shown = lang or language
    rules = data.get("rules", "family")
    actions = data.get("actions")
    moves: tuple[Action, ...] | None = None
    if isinstance(actions, list):
        moves = tuple(a for a in MOVES if a.value in {str(x) for x in actions})
    level = data.get("level")
    goals = data.get("goals")
    return FormView(
        lesson_id=str(data.get("id") or ""),
        title=text_of(data.get("title"), shown),
        level=level if isinstance(level, int) and level in (1, 2, 3) else 1,
        preset=rules if isinstance(rules, str) and rules in PRESETS else None,
        actions=moves,
        steps=tuple(step_title(step, shown) for step in data.get("steps") or []),
        language=lang,
        goal=text_of(goals[0], shown) if isinstance(goals, list) and goals else "",
    )


def lesson_rules(text: str) -> TableRules:
    """The table a lesson text assumes, as the checker reads it (the family table when it names
    none or one the checker refuses: the checker says so)."""
    from tutor.lessons.fields import _rules  # the format's one reading of ``rules``

    data = _data(text)
    try:
        return _rules(data.get("rules", "family"))
    except ValueError:
        return PRESETS["family"]


# -- writing -------------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """YAML as a teacher reads it: keys in the format's order, texts quoted, short lists of
    moves and answers on one line."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')


class _Flow(list[Any]):
    """A list written on one line: ``[hit, stand]``."""


class _FlowMap(dict[str, Any]):
    """A mapping written on one line: ``{action: hit}``."""


class _Word(str):
    """A key's word written bare: ``hit``, ``family``."""


_Dumper.add_representer(str, _str)
_Dumper.add_representer(_Word, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v)))
_Dumper.add_representer(
    _Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True)
)
_Dumper.add_representer(
    _FlowMap, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v, flow_style=True)
)


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    out = {key: data[key] for key in HEAD_KEYS if key in data}
    out.update({key: value for key, value in data.items() if key not in out and key != "steps"})
    if "steps" in data:
        out["steps"] = data["steps"]
    return out


def _styled(value: Any) -> Any:
    """The YAML shapes of a lesson's words: preset names, moves and outcomes bare, lists of
    moves on one line, answers as ``{action: hit}``."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in ("rules", "category", "language") and isinstance(item, str):
                out[key] = _Word(item)
            elif key in ("actions", "decisions") and isinstance(item, list):
                out[key] = _Flow(_Word(str(x)) for x in item)
            elif key == "outcome" and isinstance(item, str):
                out[key] = _Word(item)
            elif key == "answer" and isinstance(item, dict) and "options" not in item:
                out[key] = _FlowMap(
                    {_Word(k): _Word(v) if isinstance(v, str) else v for k, v in item.items()}
                )
            elif key == "id" and isinstance(item, str):
                out[key] = _Word(item)
            else:
                out[key] = _styled(item)
        return {_Word(str(key)): item for key, item in out.items()}
    if isinstance(value, list):
        return [_styled(item) for item in value]
    return value


def dump(data: dict[str, Any]) -> str:
    """A lesson's data as the YAML text the editor holds."""
    text = yaml.dump(
        _styled(_ordered(data)),
        Dumper=_Dumper,
        allow_unicode=True,
        sort_keys=False,
        width=100,
        indent=2,
    )
    return str(text)


def _edit(text: str, change: Callable[[dict[str, Any]], None]) -> str:
    data = _data(text)
    change(data)
    return dump(data)


def _put_text(data: dict[str, Any], key: str, value: str, language: str) -> None:
    """A text written where the lesson keeps it: as a plain string, or in the teacher's language
    when the lesson gives its texts per language."""
    current = data.get(key)
    if isinstance(current, dict):
        current[language] = value
    else:
        data[key] = value


def _words(value: str, what: str) -> str:
    text = " ".join(str(value).split()) if "\n" not in str(value) else str(value).strip()
    if not text:
        raise FormError("form-empty-text", f"{what} is empty", what=what)
    return text


def set_head(
    text: str,
    *,
    title: str,
    level: int,
    preset: str | None,
    actions: Sequence[Action] | None,
    goal: str | None = None,
    language: str = "fr",
) -> str:
    """The lesson's title, level, table (a preset; None leaves a table of the text's own as
    written), moves offered (None: every move, no ``actions`` key) and first goal (None: as
    written)."""

    def change(data: dict[str, Any]) -> None:
        lang = data.get("language") if data.get("language") in ("fr", "en") else language
        _put_text(data, "title", _words(title, "title"), str(lang))
        if goal is not None:
            goals = data.get("goals")
            if not isinstance(goals, list) or not goals:
                goals = data["goals"] = [""]
            if isinstance(goals[0], dict):
                goals[0][str(lang)] = _words(goal, "goal")
            else:
                goals[0] = _words(goal, "goal")
        data["level"] = int(level) if int(level) in (1, 2, 3) else 1
        if preset is not None:
            if preset not in PRESETS:
                raise FormError("form-preset", f"unknown table {preset!r}", preset=preset)
            data["rules"] = preset
        if actions is None:
            data.pop("actions", None)
        else:
            data["actions"] = [a.value for a in MOVES if a in set(actions)]

    return _edit(text, change)


def _add_step(text: str, step: dict[str, Any]) -> str:
    def change(data: dict[str, Any]) -> None:
        steps = data.setdefault("steps", [])
        if len(steps) >= MAX_STEPS:
            raise FormError("form-too-many-steps", "the lesson has too many steps", most=MAX_STEPS)
        steps.append(step)

    return _edit(text, change)


def add_explain(text: str, body: str) -> str:
    """A page of explanation at the end of the lesson."""
    return _add_step(text, {"explain": _words(body, "explanation")})


def add_choice(
    text: str, question: str, options: Sequence[str], right: int, explanation: str
) -> str:
    """A question answered by picking one of ``options`` (``right`` counted from 0)."""
    kept = [" ".join(str(option).split()) for option in options]
    kept = [option for option in kept if option]
    if len(kept) < 2:
        raise FormError("form-two-options", "a choice needs at least two options")
    if not 0 <= right < len(kept):
        raise FormError("form-right-option", "the right option is not one of the options")
    ask = {
        "question": _words(question, "question"),
        "answer": {"choice": right, "options": kept},
        "explanation": _words(explanation, "explanation"),
    }
    return _add_step(text, {"ask": ask})


def offered_moves(text: str) -> frozenset[Action]:
    """The moves a lesson text offers: its ``actions``, or every move."""
    actions = _data(text).get("actions")
    if not isinstance(actions, list):
        return frozenset(Action)
    return frozenset(a for a in Action if a.value in {str(x) for x in actions})


def ask_moves(
    rules: TableRules, cards: Sequence[Card], up: Card, offered: frozenset[Action]
) -> tuple[Action, ...]:
    """The moves an action question on this hand offers: those legal at the table for it and
    offered by the lesson, in the buttons' order (no Split on 10-3, no Surrender where the table
    has none). Empty when the hand has no decision (a natural, 21)."""
    point = decision_for(rules, cards, up)
    return tuple(action for action in HAND_ACTIONS if action in point.legal and action in offered)


def best_move(
    rules: TableRules, cards: Sequence[Card], up: Card, moves: Sequence[Action]
) -> Action:
    """Basic strategy's play on this hand among ``moves``: the chart's when offered, else the
    offered move of the best expected value."""
    from tutor.strategy.judge import judge  # the strategy layer, solved once per table

    verdict = judge(decision_for(rules, cards, up))
    if verdict.chart_play in moves:
        return verdict.chart_play
    return max(moves, key=lambda action: verdict.evs.get(action, float("-inf")))


def _two(cards: Sequence[str], what: str) -> tuple[Card, ...]:
    parsed = parse_cards(" ".join(cards))
    if len(parsed) != 2:
        raise FormError("form-two-cards", f"{what}: pick two cards", what=what)
    return parsed


def add_action(
    text: str,
    question: str,
    cards: Sequence[str],
    up: str,
    action: Action,
    explanation: str,
) -> str:
    """A question on a hand against an up-card, answered by a move: one of ``ask_moves``."""
    hand = _two(cards, "cards")
    dealer = parse_cards(up)
    rules = lesson_rules(text)
    moves = ask_moves(rules, hand, dealer[0], offered_moves(text))
    if action not in moves:
        raise FormError(
            "form-move-not-offered",
            f"{action.value} is not offered on this hand",
            action=action,
            moves=moves,
        )
    ask = {
        "question": _words(question, "question"),
        "cards": format_cards(hand),
        "dealer": format_cards(dealer),
        "answer": {"action": action.value},
        "explanation": _words(explanation, "explanation"),
    }
    return _add_step(text, {"ask": ask})


@dataclass(frozen=True)
class DealPlan:
    """A scripted deal as the engine plays it: basic strategy's decisions among the moves
    offered, every card it needs, and its settlement."""

    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    then: tuple[Card, ...]
    decisions: tuple[Action, ...]
    outcomes: tuple[Outcome, ...]
    net: Money

    def as_data(self, intro: str | None, explanation: str | None) -> dict[str, Any]:
        deal: dict[str, Any] = {}
        if intro:
            deal["intro"] = intro
        deal["player"] = format_cards(self.player)
        deal["dealer"] = format_cards(self.dealer)
        if self.then:
            deal["then"] = format_cards(self.then)
        outcome: object = (
            self.outcomes[0].value
            if len(self.outcomes) == 1
            else _Flow(_Word(o.value) for o in self.outcomes)
        )
        deal["expect"] = {
            "decisions": [a.value for a in self.decisions],
            "outcome": outcome,
            "net": self.net if isinstance(self.net, int) else float(self.net),
        }
        if explanation:
            deal["explanation"] = explanation
        return {"deal": deal}


def _remaining(rules: TableRules, used: Sequence[Card], seed: int) -> list[Card]:
    """The cards left in the table's decks once ``used`` are out, shuffled by ``seed``."""
    left = [Card(rank, suit) for _deck in range(rules.decks) for suit in Suit for rank in Rank]
    for card in used:
        if card in left:
            left.remove(card)
    random.Random(seed).shuffle(left)
    return left


def _decide(game: Round, offered: frozenset[Action]) -> Action:
    legal = game.legal_actions()
    if game.to_act() is not None and game.to_act().hand is None:  # type: ignore[union-attr]
        for action in (Action.DECLINE_INSURANCE, Action.INSURE, Action.EVEN_MONEY):
            if action in legal and action in offered:
                return action
    point = game.decision_point()
    moves = [a for a in HAND_ACTIONS if a in legal and a in offered] or [Action.STAND]
    return best_move(game.rules, point.cards, point.dealer_up, moves)


def plan_deal(
    rules: TableRules,
    player: Sequence[Card],
    dealer: Sequence[Card],
    then: Sequence[Card] = (),
    *,
    offered: frozenset[Action] = frozenset(Action),
    seed: int = 0,
) -> DealPlan:
    """Play a deal as the lesson will script it: the cards given first, then cards drawn from
    what is left of the decks (seeded) as the round needs them; each decision basic strategy's
    among the moves offered; the round settled by the engine."""
    if len(player) != 2:
        raise FormError("form-two-cards", "the player is dealt two cards", what="player")
    wanted = 2 if rules.dealer_peeks else 1
    if len(dealer) != wanted:
        raise FormError("form-dealer-cards", "the dealer's cards", count=wanted)
    given = [*player, *dealer, *then]
    for card in set(given):
        if given.count(card) > rules.decks:
            raise FormError("form-card-twice", f"{card} is given too often", card=str(card))
    spare = _remaining(rules, given, seed)
    script = list(then)
    for _attempt in range(len(spare) + 1):
        decisions: list[Action] = []
        try:
            game = scripted_round(rules, [player], dealer, script, bets=[2], strict=True)
            while not game.is_over:
                action = _decide(game, offered)
                game.act(action)
                decisions.append(action)
                if len(decisions) > 20:
                    raise FormError("form-deal-long", "the round does not end")
        except ShoeExhaustedError:
            if not spare:
                raise FormError("form-deal-cards", "the decks run out") from None
            script.append(spare.pop(0))
            continue
        result = game.results[0]
        left = game.shoe.scripted_left
        then_used = tuple(script[: len(script) - left]) if left else tuple(script)
        return DealPlan(
            tuple(player),
            tuple(dealer),
            then_used,
            tuple(decisions),
            tuple(hand.outcome for hand in result.hands),
            money(result.net),
        )
    raise FormError("form-deal-cards", "the decks run out")


def add_deal(
    text: str,
    player: Sequence[str],
    up: str,
    hole: str | None,
    then: Sequence[str] = (),
    *,
    intro: str = "",
    explanation: str = "",
    seed: int = 0,
) -> str:
    """A scripted deal at the end of the lesson: the learner's two cards, the dealer's up-card
    (and hole card with the American deal: drawn when ``hole`` is None), the next cards if the
    teacher names them; the rest is the engine's (``plan_deal``)."""
    rules = lesson_rules(text)
    hand = _two(player, "player")
    dealer = list(parse_cards(up))
    later = parse_cards(" ".join(then)) if then else ()
    if rules.dealer_peeks:
        if hole:
            dealer += parse_cards(hole)
        else:
            dealer.append(_remaining(rules, [*hand, *dealer, *later], seed)[0])
    if len(then) > MAX_THEN:
        raise FormError("form-too-many-cards", "too many cards", most=MAX_THEN)
    plan = plan_deal(
        rules,
        hand,
        dealer,
        later,
        offered=offered_moves(text),
        seed=seed,
    )
    intro_text = " ".join(intro.split())
    explained = " ".join(explanation.split())
    return _add_step(text, plan.as_data(intro_text or None, explained or None))


def remove_step(text: str, index: int) -> str:
    """The lesson without its step ``index`` (counted from 0)."""

    def change(data: dict[str, Any]) -> None:
        steps = data.get("steps") or []
        if 0 <= index < len(steps):
            del steps[index]

    return _edit(text, change)


def move_step(text: str, index: int, offset: int) -> str:
    """The lesson with its step ``index`` moved ``offset`` places (-1 up, +1 down)."""

    def change(data: dict[str, Any]) -> None:
        steps = data.get("steps") or []
        target = index + offset
        if 0 <= index < len(steps) and 0 <= target < len(steps):
            steps[index], steps[target] = steps[target], steps[index]

    return _edit(text, change)


def step_titles(text: str, language: str) -> list[str]:
    """The few words each step of a text is known by (``step_title``), for the places of its
    problems (« étape 2 « Que faites-vous ? » »); none when the text is no lesson yet."""
    try:
        steps = _data(text).get("steps") or []
    except FormError:
        return []
    data_language = _data(text).get("language")
    shown = data_language if data_language in ("fr", "en") else language
    return [step_title(step, str(shown), words=6).title for step in steps]


#: The format's guide for teachers, by language: the French translation beside the English.
GUIDES = {"fr": "LESSON_FORMAT.fr.md", "en": "LESSON_FORMAT.md"}
_ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def format_guide(language: str) -> str:
    """The lesson format's guide in ``language`` (the English one when there is no other), as
    Markdown for a page: its headings one level down, under the page's own."""
    for name in (GUIDES.get(language), GUIDES["en"]):
        if name is None:
            continue
        path = _ROOT / name
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            fenced = False
            out = []
            for line in lines:
                if line.startswith("```"):
                    fenced = not fenced
                out.append("#" + line if line.startswith("#") and not fenced else line)
            return "\n".join(out)
    return GUIDES["en"]
