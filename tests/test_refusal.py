"""One refusal: every domain error carries a ``Refusal(code, params)``, every code it may carry
is one it declares, and every code has a sentence in French and in English.

How the codes are collected: each ``RefusedError`` subclass lists its codes (``codes``), and the
source of ``tutor/`` is read (``ast``) for the codes written at raise sites, so a code added to a
``raise`` without its declaration (and so without its sentence) fails here.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import string
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

import tutor
from tutor.cards import InvalidCardError, ShoeExhaustedError
from tutor.cell import InvalidCellError
from tutor.classroom import ClassroomError
from tutor.exact import NumberError
from tutor.game import IllegalActionError
from tutor.homework import HomeworkError
from tutor.identity import InvalidRecoveryCodeError
from tutor.lessons.fields import LessonValueError
from tutor.lessons.run import NotOfferedError
from tutor.practice import SeatingError
from tutor.refusal import Refusal, RefusedError
from tutor.render.class_messages import error_message
from tutor.render.lesson_problems import LESSON_PROBLEMS, problem_sentence
from tutor.render.reasons import REFUSAL_MESSAGES, seating_message
from tutor.render.translator import Translator, translator
from tutor.rules import HoleCard, InvalidRulesError, TableRules, preset_rules
from tutor.rules_file import MAX_RULES_BYTES, load_rules
from tutor.store import InvalidNicknameError, UnknownLearnerError
from tutor.yaml_reader import BOUNDS

PACKAGE = Path(tutor.__file__).resolve().parent


def _import_everything() -> None:
    """Every module that can raise (the pages are Streamlit scripts, run by the app)."""
    for info in pkgutil.walk_packages(tutor.__path__, "tutor."):
        if info.name.startswith(("tutor.ui.pages", "tutor.migrations")) or info.name.endswith(
            "__main__"
        ):
            continue
        importlib.import_module(info.name)


def _subclasses(cls: type[RefusedError]) -> Iterator[type[RefusedError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


_import_everything()
ERRORS = sorted(set(_subclasses(RefusedError)), key=lambda cls: cls.__name__)


def _lesson_problem_words(code: str, t: Translator) -> str:
    """A lesson problem's sentence (``tutor.render.lesson_problems``), each field filled."""
    english = LESSON_PROBLEMS[code]
    names = {name for _, name, _, _ in string.Formatter().parse(english) if name}
    return problem_sentence(Refusal(code, dict.fromkeys(names, "7")), t)


def _class_mode_words(code: str, t: Translator) -> str:
    (error,) = (cls for cls in _subclasses(ClassroomError) if cls.codes == (code,))
    assert issubclass(error, ClassroomError)
    return error_message(error("refused", seconds=30, nickname="Zoé"), t)


def _nickname_words(code: str, t: Translator) -> str:
    return error_message(InvalidNicknameError("refused", code, most=24), t)  # type: ignore[arg-type]


#: The errors whose sentences are class mode's own (``error_message``: it quotes a nickname for
#: Markdown and reads the retention) or the seating form's (``seating_message``); every other
#: error is worded by ``Translator.refusal``.
SIBLINGS: dict[type[RefusedError], Callable[[str, Translator], str]] = {
    LessonValueError: _lesson_problem_words,
    ClassroomError: _class_mode_words,
    InvalidNicknameError: _nickname_words,
    SeatingError: lambda code, t: seating_message(
        SeatingError(code, names=3, players=2, most=6, low=1, high=7, name="Ana"), t
    ),
}

#: Parameters of the right kinds for the sentences that read them (an action by its value, a
#: share of the shoe); any other placeholder gets a plain figure.
KINDS: dict[str, object] = {
    "action": "double",
    "offered": ("hit", "stand"),
    "penetration": 0.99,
    "needed": 2,
    "stack": 1,
    "most": 3,
    "limit": 1_000_000,
}


def _door(code: str, error: type[RefusedError]) -> Callable[[Translator], str]:
    for family, words in SIBLINGS.items():
        if issubclass(error, family):
            return lambda t: words(code, t)
    english = REFUSAL_MESSAGES.get(code, "")
    names = {name for _, name, _, _ in string.Formatter().parse(english) if name}
    params = {name: KINDS.get(name, "7") for name in names}
    return lambda t: t.refusal(code, params)


def _declared() -> list[tuple[type[RefusedError], str]]:
    return [(error, code) for error in ERRORS for code in error.codes]


def test_every_domain_error_named_in_the_issue_is_refused_and_keeps_its_old_base() -> None:
    """Callers that catch ``ValueError`` or ``LookupError`` keep working."""
    bases: dict[type[RefusedError], type[Exception]] = {
        IllegalActionError: Exception,
        InvalidRulesError: ValueError,
        InvalidCardError: ValueError,
        ShoeExhaustedError: RuntimeError,
        InvalidCellError: ValueError,
        NumberError: ValueError,
        InvalidRecoveryCodeError: ValueError,
        InvalidNicknameError: ValueError,
        UnknownLearnerError: LookupError,
        SeatingError: ValueError,
        NotOfferedError: ValueError,
        ClassroomError: Exception,
    }
    for error, base in bases.items():
        assert issubclass(error, RefusedError), error
        assert issubclass(error, base), error
    assert {error.__name__ for error in ERRORS} >= {"HandsError", "ExpiredSessionError"}


def test_a_refusal_is_a_frozen_value_whose_parameters_cannot_change() -> None:
    params = {"decks": 9}
    refusal = Refusal("rules-decks", params)
    params["decks"] = 2  # the caller's dict changing later changes nothing
    assert refusal == Refusal("rules-decks", {"decks": 9})
    assert hash(refusal) == hash(Refusal("rules-decks", {"decks": 9}))
    with pytest.raises(TypeError):
        refusal.params["decks"] = 3  # type: ignore[index]
    error = IllegalActionError("max-hands", "this table allows at most 2 hands", max_hands=2)
    assert (error.code, dict(error.params), str(error)) == (
        "max-hands",
        {"max_hands": 2},
        "this table allows at most 2 hands",
    )
    assert error.refusal == Refusal("max-hands", {"max_hands": 2})


#: The families' bases, caught and never raised themselves: they name no code.
CAUGHT_ONLY = (ClassroomError, HomeworkError)


def test_every_error_declares_its_codes_and_no_code_serves_two_errors() -> None:
    worded_by_translator = [
        code
        for error, code in _declared()
        if not any(issubclass(error, family) for family in SIBLINGS)
    ]
    assert all(error.codes for error in ERRORS if error not in CAUGHT_ONLY), [
        error for error in ERRORS if not error.codes and error not in CAUGHT_ONLY
    ]
    assert len(worded_by_translator) == len(set(worded_by_translator))


#: Where a raise site writes the code: the argument's place for the errors that take one (the
#: others are one reason each, their code is their class's), and ``Refusal``, ``of`` and the
#: rules' local helpers that build a ``Refusal`` (``add``, ``refused``, ``_refused``), which take
#: it first. ``code=`` is read wherever it is given.
CODE_AT = {
    "IllegalActionError": 0,
    "NumberError": 0,
    "InvalidRecoveryCodeError": 0,
    "SeatingError": 0,
    "InvalidNicknameError": 1,
    "Refusal": 0,
    "of": 0,
}
RULES_HELPERS = {"add": 0, "refused": 0, "_refused": 0}


def _raise_site_codes() -> set[tuple[str, str]]:
    """(callee, code) for every code written as a literal at a raise site of ``tutor/``, and
    for the engine's refusals returned as values (a code and its parameters)."""
    refused = {error.__name__ for error in ERRORS}
    found: set[tuple[str, str]] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        places = CODE_AT | (RULES_HELPERS if path.name in ("rules.py", "rules_file.py") else {})
        for node in ast.walk(tree):
            if (  # the engine's refusals as values: ``return "no-split", {}``
                isinstance(node, ast.Tuple)
                and len(node.elts) == 2
                and isinstance(node.elts[0], ast.Constant)
                and isinstance(node.elts[0].value, str)
                and isinstance(node.elts[1], ast.Dict)
                and path.name in ("legality.py", "game.py")
            ):
                found.add(("IllegalActionError", node.elts[0].value))
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in places and name not in refused:
                continue
            at = places.get(name)
            candidates = [k.value for k in node.keywords if k.arg == "code"]
            if at is not None and len(node.args) > at:
                candidates.append(node.args[at])
            for arg in candidates:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add((name, arg.value))
    return found


def test_every_code_written_at_a_raise_site_is_declared_by_its_error() -> None:
    sites = _raise_site_codes()
    declared = {error.__name__: set(error.codes) for error in ERRORS}
    every = set().union(*declared.values())
    undeclared = sorted(
        (name, code) for name, code in sites if code not in declared.get(name, every)
    )
    assert not undeclared
    assert len(sites) > 70  # the scan sees the raise sites (a broken scan finds none)


@pytest.mark.parametrize(("error", "code"), _declared(), ids=lambda x: getattr(x, "__name__", x))
def test_every_code_has_a_french_and_an_english_sentence(
    error: type[RefusedError], code: str
) -> None:
    words = _door(code, error)
    fr, en = words(translator("fr")), words(translator("en"))
    assert code not in (fr, en)
    assert fr != en, "the French sentence is the English one"
    assert "{" not in fr + en, "a placeholder left unfilled"
    english = REFUSAL_MESSAGES.get(code)
    if english is not None:  # through the catalogue: French has its own msgstr
        assert translator("fr").gettext(english) != translator("en").gettext(english)


# -- the rules' mistakes, each as Settings will say it ---------------------------------------------


def _file(tmp: Path, name: str, content: str | bytes) -> Path:
    path = tmp / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    return path


NB = "\xa0"
PRESET_NAMES = (
    "family, french-casino, france-before-2007, home-game, online-six-deck, american-s17,"
    " american-h17"
)

#: One way to make each rules mistake, and what a French page says of it.
RULES_MISTAKES: list[tuple[str, Callable[[Path], object], str]] = [
    ("rules-decks", lambda _: TableRules(decks=9), "Un sabot contient de 1 à 8 jeux, pas 9."),
    (
        "rules-max-hands",
        lambda _: TableRules(max_hands=5),
        "Une place tient de 1 à 4 mains après séparation, pas 5.",
    ),
    (
        "rules-resplit-aces-room",
        lambda _: TableRules(resplit_aces=True, max_hands=2),
        "Reséparer les as demande de la place pour au moins 3 mains.",
    ),
    (
        "rules-natural-pays",
        lambda _: TableRules(blackjack_pays=Fraction(1, 2)),
        "Un naturel paie au moins autant que la mise (1 pour 1), pas 1/2.",
    ),
    (
        "rules-insurance-max",
        lambda _: TableRules(insurance_max=Fraction(3, 2)),
        "L’assurance est une part de la mise, plus de 0 et au plus 1, pas 3/2.",
    ),
    (
        "rules-insurance-without-insurance",
        lambda _: TableRules(
            insurance=False, even_money=False, insurance_forbids_double_split=True
        ),
        "Des règles d’assurance sont choisies, mais cette table ne propose pas d’assurance.",
    ),
    (
        "rules-insurance-both",
        lambda _: TableRules(
            hole_card=HoleCard.EUROPEAN,
            insurance_forbids_double_split=True,
            insure_additional_bets=True,
        ),
        "L’assurance ne peut pas à la fois interdire de doubler et de séparer, et assurer les"
        " mises que ces coups ajoutent.",
    ),
    (
        "rules-insure-added-bets-hole-card",
        lambda _: TableRules(insure_additional_bets=True),
        f"Assurer les mises qu’ajoute un double ou une séparation n’a de sens que sans carte"
        f" cachée{NB}: avec la donne américaine, le croupier a déjà vérifié s’il avait un naturel.",
    ),
    (
        "rules-even-money-without-insurance",
        lambda _: TableRules(insurance=False),
        "Le paiement immédiat est une forme d’assurance, et cette table ne propose pas"
        " d’assurance.",
    ),
    (
        "rules-surrender-ace-without-surrender",
        lambda _: TableRules(surrender_against_ace=False),
        "L’abandon contre un as est refusé, mais cette table ne propose aucun abandon.",
    ),
    (
        "rules-penetration",
        lambda _: TableRules(penetration=0.99),
        f"La carte de coupe se place entre 10{NB}% et 95{NB}% du sabot, pas 99{NB}%.",
    ),
    (
        "rules-spare-deck",
        lambda _: TableRules(spare_deck=True),
        "Un jeu de réserve sert aux tables qui battent les cartes après chaque coup.",
    ),
    (
        "rules-bonus",
        lambda _: TableRules(ace_of_spades_black_jack_pays=Fraction(1)),
        "Le bonus de l’as de pique avec un valet noir paie plus qu’un naturel.",
    ),
    (
        "rules-unknown-option",
        lambda _: TableRules().replace(colour="green"),
        f"Règle de table inconnue{NB}: «{NB}colour{NB}». Les règles sont{NB}: name, decks,",
    ),
    (
        "rules-option-value",
        lambda _: TableRules.from_mapping({"surrender": "sometimes"}),
        "surrender prend l’une des valeurs 'none', 'late', 'immediate', pas 'sometimes'.",
    ),
    (
        "rules-payout",
        lambda _: TableRules.from_mapping({"blackjack_pays": "three"}),
        "blackjack_pays est un nombre ou un rapport comme 3/2, pas 'three'.",
    ),
    (
        "rules-preset-type",
        lambda _: TableRules.from_mapping({"preset": 3}),
        "Une table prédéfinie se donne par son nom, pas 3.",
    ),
    (
        "rules-unknown-preset",
        lambda _: preset_rules("vegas"),
        f"Table prédéfinie inconnue{NB}: «{NB}vegas{NB}». Les tables prédéfinies"
        f" sont{NB}: {PRESET_NAMES}.",
    ),
    (
        "rules-not-bool",
        lambda _: TableRules.from_mapping({"dealer_hits_soft_17": "no"}),
        "dealer_hits_soft_17 vaut true ou false (oui ou non), pas 'no'.",
    ),
    (
        "rules-not-int",
        lambda _: TableRules.from_mapping({"decks": 2.5}),
        "decks est un nombre entier, pas 2.5.",
    ),
    (
        "rules-not-number",
        lambda _: TableRules.from_mapping({"penetration": "most"}),
        "penetration est un nombre, pas 'most'.",
    ),
    (
        "rules-not-text",
        lambda _: TableRules.from_mapping({"name": 3}),
        "name est un texte d’au plus 200 caractères, pas 3.",
    ),
    (
        "rules-no-file",
        lambda _: load_rules("vegas"),
        f"«{NB}vegas{NB}» n’est ni une table prédéfinie ({PRESET_NAMES}) ni un fichier de"
        " règles existant.",
    ),
    (
        "rules-unreadable",
        lambda tmp: load_rules(tmp / "rules.toml"),  # written, then its reading refused
        "Le fichier de règles ",  # the path follows
    ),
    (
        "rules-file-too-large",
        lambda tmp: load_rules(_file(tmp, "big.toml", "#" * (MAX_RULES_BYTES + 1))),
        "Un fichier de règles tient en quelques lignes, pas plus de 64 Ko.",
    ),
    (
        "rules-not-utf8",
        lambda tmp: load_rules(_file(tmp, "bin.toml", b"decks = 1\n\xff\n")),
        "Le fichier de règles ",
    ),
    (
        "rules-not-mapping",
        lambda tmp: load_rules(_file(tmp, "list.yaml", "- 1\n- 2\n")),
        "Un fichier de règles est une liste de lignes option = valeur.",
    ),
    (
        "rules-toml-syntax",
        lambda tmp: load_rules(_file(tmp, "bad.toml", "decks = = 2\n")),
        "Le TOML du fichier de règles ",
    ),
    (
        "rules-nests-too-deeply",
        lambda tmp: load_rules(_file(tmp, "deep.yaml", "name: [[[[[[[[1]]]]]]]]\n")),
        "Le fichier de règles s’imbrique trop profondément.",
    ),
    (
        "rules-yaml-alias",
        lambda tmp: load_rules(_file(tmp, "alias.yaml", "a: &x 1\nb: *x\n")),
        "Les alias et les ancres sont interdits dans un fichier de règles (ligne 1, colonne 4).",
    ),
    (
        "rules-yaml-too-many-values",
        lambda tmp: load_rules(
            _file(tmp, "many.yaml", "name: [" + ", ".join(["1"] * BOUNDS.max_nodes) + "]\n")
        ),
        "Un fichier de règles tient en quelques lignes, pas plus de 10\u202f000 valeurs (ligne 1,",
    ),
    (
        "rules-yaml-value",
        lambda tmp: load_rules(_file(tmp, "date.yaml", "name: 2024-02-30\n")),
        "Une valeur du fichier de règles est illisible (ligne 1, colonne 7).",
    ),
    (
        "rules-yaml-syntax",
        lambda tmp: load_rules(_file(tmp, "open.yaml", "name: [\n")),
        "Le YAML du fichier de règles ne se lit pas à la ligne 2, colonne 1.",
    ),
]


def test_every_rules_code_has_a_mistake_below() -> None:
    assert sorted(code for code, _, _ in RULES_MISTAKES) == sorted(InvalidRulesError.codes)


@pytest.mark.parametrize(("code", "make", "french"), RULES_MISTAKES, ids=lambda x: x)
def test_each_rules_mistake_reads_in_french_as_settings_will_show_it(
    code: str,
    make: Callable[[Path], object],
    french: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if code == "rules-unreadable":  # root reads any file: the refusal is the system's
        _file(tmp_path, "rules.toml", "decks = 1\n")

        def refuse(*args: object, **kwargs: object) -> object:
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(InvalidRulesError) as caught:
        make(tmp_path)
    error = caught.value
    assert error.code == code
    said = translator("fr").refusal(error.code, error.params)
    assert said.startswith(french), said
    assert translator("en").refusal(error.code, error.params) != said


def test_rules_that_break_two_conventions_carry_both_refusals_and_one_message() -> None:
    with pytest.raises(InvalidRulesError) as caught:
        TableRules(decks=9, spare_deck=True)
    codes = [refusal.code for refusal in caught.value.refusals]
    assert codes == ["rules-decks", "rules-spare-deck"]
    assert str(caught.value) == (
        "a shoe holds 1 to 8 decks, not 9;"
        " a spare deck is for tables that shuffle after every round"
    )


def test_a_mistake_in_a_mapping_keeps_its_key_and_its_refusal() -> None:
    with pytest.raises(InvalidRulesError) as caught:
        TableRules.from_mapping({"decks": 2.5, "colour": "green"})
    problems = caught.value.problems
    assert [(p.key, p.refusal.code, p.at_key) for p in problems] == [
        ("decks", "rules-not-int", False),
        ("colour", "rules-unknown-option", True),
    ]
    assert caught.value.refusals == tuple(p.refusal for p in problems)


def test_refusal_names_one_thing_in_the_whole_package() -> None:
    """``Refusal`` is the value of ``tutor.refusal`` wherever it is read: no other module defines
    a name ``Refusal`` (the rules' checks once called their ``(code, params)`` pair so, and the
    engine imported the value under another name to tell them apart), and none imports the
    value under another name."""
    root = Path(tutor.__file__).parent
    wrong = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            defined = (
                [node.name] if isinstance(node, ast.ClassDef)
                else [t.id for t in node.targets if isinstance(t, ast.Name)]
                if isinstance(node, ast.Assign)
                else [node.target.id]
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                else []
            )
            if "Refusal" in defined and path != root / "refusal.py":
                wrong.append(f"{path.relative_to(root)}:{node.lineno} defines Refusal")
            if isinstance(node, ast.ImportFrom) and node.module == "tutor.refusal":
                wrong += [
                    f"{path.relative_to(root)}:{node.lineno} imports Refusal as {alias.asname}"
                    for alias in node.names
                    if alias.name == "Refusal" and alias.asname not in (None, "Refusal")
                ]
    assert wrong == []
