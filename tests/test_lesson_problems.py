"""The checker in the teacher's language (issue 27): every problem carries its reason as data,
every reason has a French and an English sentence from the catalogues, and the command line, a
teacher's folder and the server's folders read the lessons as the app serves them.
"""

from __future__ import annotations

import ast
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import OpenApp, builtin_folder
from tutor.cli import main
from tutor.decision import Action
from tutor.game import Outcome
from tutor.lessons import BUILTIN_LESSONS, Course, check_text, load_course
from tutor.lessons.folders import fingerprint, served_folders
from tutor.lessons.lesson import STEP_MODELS, Lesson
from tutor.lessons.models import ANSWER_KINDS, Claim, Deal, Drill, EngineFigure, Expect, Settle
from tutor.lessons.problem_codes import PROBLEM_CODES
from tutor.quiz_questions import Hands
from tutor.render.lesson_problems import CHECK_SUMMARY, LESSON_PROBLEMS, problem_text
from tutor.render.reasons import REFUSAL_MESSAGES
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.visit import AppState

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
BUILTIN = builtin_folder()  # load_course(BUILTIN_LESSONS, strategy=None), once per process
FR, EN = translator("fr"), translator("en")

#: English words a French sentence must not hold (the format's own keys and values aside; not
#: those French writes too: a, as, an, net, question, change, file, note, total, table).
ENGLISH = {
    "the", "and", "is", "are", "not", "with", "which", "this", "that", "of", "to", "in", "it",
    "its", "here", "there", "only", "every", "each", "must", "should", "can", "cannot", "no",
    "lesson", "lessons", "card", "cards", "round", "hand", "hands", "found", "expected",
    "missing", "unknown", "allowed", "write", "give", "add", "remove", "key", "keys", "value",
    "text", "number", "step", "steps", "chips", "bet", "at", "by", "from", "than", "be", "or",
    "against", "after", "before", "never", "always", "one", "two", "any", "what", "when", "so",
    "has", "have", "does", "do", "for", "same", "check", "checker",
    "engine", "strategy", "claim", "learner", "answer", "seat", "loss",
    "deck", "decks", "shoe", "table's", "dealer's", "learner's", "lesson's", "holds", "makes",
}


def _format_words() -> set[str]:
    """The words of the lesson format itself, which a French sentence writes as the file does:
    its keys, step kinds, answer kinds, actions, outcomes, presets, hands and languages."""
    models = [Lesson, *STEP_MODELS.values(), Claim, Deal, Drill, EngineFigure, Expect, Settle]
    words = {name for model in models for name in model.model_fields}
    words |= set(STEP_MODELS) | set(ANSWER_KINDS) | {"options", "tables", "true", "false"}
    words |= {action.value for action in Action} | {outcome.value for outcome in Outcome}
    words |= set(PRESETS) | {hands.value for hands in Hands} | {"fr", "en", "yaml", "utf-8"}
    return {part for word in words for part in re.split(r"[-_]", word)} | words


FORMAT = _format_words()


def _french(english: str) -> str:
    return FR._translations.gettext(english)  # the catalogue's msgstr, before any typography


# -- the sentences ------------------------------------------------------------------------------


def test_every_code_the_checker_writes_has_its_sentence() -> None:
    assert set(PROBLEM_CODES) == set(LESSON_PROBLEMS)


@pytest.mark.parametrize("code", sorted(LESSON_PROBLEMS))
def test_every_code_has_a_french_and_an_english_sentence(code: str) -> None:
    english = LESSON_PROBLEMS[code]
    assert EN._translations.gettext(english) == english
    french = _french(english)
    assert french != english, f"{code}: no French sentence"
    fields = {name for _, name, _, _ in string.Formatter().parse(english) if name}
    assert {name for _, name, _, _ in string.Formatter().parse(french) if name} == fields


@pytest.mark.parametrize("english", [*LESSON_PROBLEMS.values(), *CHECK_SUMMARY])
def test_no_english_word_is_left_in_the_french_sentences(english: str) -> None:
    french = _french(english)
    said = re.sub(r"\{\w+\}|«[^»]*»|'[^']*'|\"[^\"]*\"|\([^)]*\.\w+\)", " ", french)
    words = {word.lower() for word in re.findall(r"[A-Za-z][\w'’-]*", said)}
    left = sorted((words & ENGLISH) - FORMAT)
    assert not left, f"English in {french!r}: {left}"
    assert "'" not in re.sub(r"'[^']*'", "", french), "a French apostrophe is ’"


def test_every_check_gives_its_problem_a_reason() -> None:
    """Every Finding, claim or wording finding and Problem the checker builds passes its
    reason (by keyword, or in its place), so no problem reaches a teacher in English only."""
    place = {"Finding": None, "ClaimFinding": 2, "WordingFinding": 4, "Problem": 5}
    missing = []
    for path in sorted((ROOT / "tutor" / "lessons").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in place:
                name = getattr(node.func, "id", "")
                at = place[name]
                given = any(k.arg == "reason" for k in node.keywords) or (
                    at is not None and len(node.args) > at
                )
                if not given:
                    missing.append(f"{path.name}:{node.lineno} {name}")
    assert not missing


CORPUS = sorted([*TESTS.glob("lessons_bad/*.yaml"), *TESTS.glob("lessons_fuzz/*.yaml")])


def test_every_problem_of_the_corpora_reads_in_french_at_its_place() -> None:
    course = load_course(CORPUS, strategy=None)
    assert len(course.problems) >= len(CORPUS)
    for problem in course.problems:
        assert problem.reason is not None, str(problem)
        assert problem.reason.code in LESSON_PROBLEMS or problem.reason.code in REFUSAL_MESSAGES
        french, english = problem_text(problem, FR), problem_text(problem, EN)
        place = f"{problem.shown_path}:{problem.line}:{problem.column}: "
        assert french.startswith(place + (f"{problem.label}: " if problem.label else ""))
        assert english.startswith(place)
        assert french != english
        assert "{" not in french.replace("{fr: …, en: …}", ""), french


#: A teacher's lesson in French only, with three mistakes: a card, a misspelt key, a wrong net.
FRENCH_ONLY = """\
id: ma-lecon
language: fr
title: Ma leçon
level: 1
goals: [Jouer un 17 souple]
requires: [dealer-rules]
steps:
  - explain: "Un As compte 1 ou 11."
  - show:
      cards: "A♠ 1X"
  - ask:
      question: "Que faites-vous ?"
      answr: {action: hit}
  - deal:
      player: "A♠ 6♥"
      dealer: "9♣ 7♦"
      then: "9♦ 5♣ K♠"
      expect:
        decisions: [hit, hit]
        outcome: win
        net: 3
"""


def test_a_french_only_broken_lesson_reads_in_french_at_its_lines() -> None:
    checked = check_text(FRENCH_ONLY, "ma-lecon.yaml", course=BUILTIN, strategy=None)
    lines = [problem_text(problem, FR).replace("\xa0", " ") for problem in checked.problems]
    assert lines == [
        "ma-lecon.yaml:10:18: steps[1].show.cards: « 1X » n’est pas une carte : une couleur"
        " s’écrit ♠ ♥ ♦ ♣ ou S H D C. Les cartes s’écrivent A♠ 10♥ K♦ ou AS TH KD.",
        "ma-lecon.yaml:12:7: steps[2].ask: il manque la clé obligatoire « answer »",
        "ma-lecon.yaml:12:7: steps[2].ask: il manque la clé obligatoire « explanation »",
        "ma-lecon.yaml:13:7: steps[2].ask.answr: clé inconnue « answr » (vouliez-vous dire"
        " « answer » ?) ; les clés possibles : question, cards, dealer, settle, answer,"
        " explanation, follows_strategy",
        "ma-lecon.yaml:21:14: steps[3].deal.expect.net: le gain net de la place est de +2"
        " jetons, pas +3 (joueur A♠ 6♥ 9♦ 5♣ = 21, croupier 9♣ 7♦ K♠ = 26 ; mise 2)",
    ]


# -- the command line -------------------------------------------------------------------------


def _folder(tmp_path: Path, text: str, name: str = "ma-lecon.yaml") -> Path:
    folder = tmp_path / "mes-lecons"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    return folder


MINE = FRENCH_ONLY.split("steps:")[0] + """steps:
  - explain: "Un As compte 1 ou 11."
  - ask:
      question: "Combien de cartes de valeur 10 compte un jeu ?"
      answer: {number: 16}
      explanation: "Les 10, valets, dames et rois : 4 × 4 = 16."
"""


def test_a_teachers_folder_is_checked_beside_the_built_in_course(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tutor check my-lessons/`` alone: ``requires: [dealer-rules]`` names the course's lesson."""
    assert main(["check", "--lang", "en", str(_folder(tmp_path, MINE))]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "checked 1 file(s): 1 lesson(s), 2 step(s); no problems"


def test_a_teachers_id_taken_by_the_course_is_a_duplicate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = MINE.replace("id: ma-lecon", "id: dealer-rules").replace("[dealer-rules]", "[]")
    assert main(["check", "--lang", "en", str(_folder(tmp_path, text, "dealer-rules.yaml"))]) == 1
    assert "duplicate id 'dealer-rules'" in capsys.readouterr().out


def test_check_speaks_french_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, FRENCH_ONLY)
    assert main(["check", "--lang", "fr", str(folder)]) == 1
    out = capsys.readouterr().out.replace("\xa0", " ").splitlines()
    assert out[0].endswith(
        "steps[1].show.cards: « 1X » n’est pas une carte : une couleur s’écrit ♠ ♥ ♦ ♣ ou"
        " S H D C. Les cartes s’écrivent A♠ 10♥ K♦ ou AS TH KD."
    )
    assert ":10:18: " in out[0]
    assert out[-1] == (
        "1 fichier(s) vérifié(s) : 0 leçon(s), 0 étape(s) ; 5 problème(s) dans 1 fichier(s)"
    )


def test_check_speaks_the_language_of_the_environment(tmp_path: Path) -> None:
    folder = _folder(tmp_path, FRENCH_ONLY)
    env = {"PATH": "/usr/bin:/bin", "LANG": "fr_FR.UTF-8", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "check", str(folder)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False, env=env,
    )
    assert done.returncode == 1, done.stderr
    assert "il manque la clé obligatoire" in done.stdout
    env["LANG"] = "C.UTF-8"
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "check", str(folder)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False, env=env,
    )
    assert "missing required key 'answer'" in done.stdout


# -- one-language lessons and the server's folders ---------------------------------------------


def test_a_one_language_lesson_is_offered_to_the_learners_of_its_language(tmp_path: Path) -> None:
    course = load_course([BUILTIN_LESSONS, _folder(tmp_path, MINE)], strategy=None)
    assert [str(p) for p in course.problems] == []
    assert "ma-lecon" in [lesson.id for lesson in course.lessons_for("fr")]
    assert "ma-lecon" not in [lesson.id for lesson in course.lessons_for("en")]
    assert len(course.lessons_for("en")) == len(BUILTIN.lessons)


def test_a_lesson_declares_a_language_the_app_speaks(tmp_path: Path) -> None:
    text = MINE.replace("language: fr", "language: de")
    (problem,) = check_text(text, "ma-lecon.yaml", course=BUILTIN, strategy=None).problems
    assert (problem.line, problem.column) == (2, 11)
    said = problem_text(problem, FR).replace("\xa0", " ")
    assert said.endswith("il faut l’une de ces valeurs : 'fr', 'en', trouvé la valeur 'de'")


def test_the_server_folders_are_the_built_in_course_and_tutor_lessons_dir() -> None:
    assert served_folders({}) == (BUILTIN_LESSONS,)
    assert served_folders({"TUTOR_LESSONS_DIR": "/a:/b:/a"}) == (
        BUILTIN_LESSONS, Path("/a"), Path("/b"),
    )


def test_the_fingerprint_changes_when_a_lesson_is_added_changed_or_removed(tmp_path: Path) -> None:
    folder = _folder(tmp_path, MINE)
    first = fingerprint([folder])
    assert fingerprint([folder]) == first
    (folder / "autre.yaml").write_text(MINE.replace("ma-lecon", "autre"), "utf-8")
    added = fingerprint([folder])
    (folder / "autre.yaml").write_text(MINE.replace("ma-lecon", "autre") + "\n", "utf-8")
    changed = fingerprint([folder])
    (folder / "autre.yaml").unlink()
    assert len({first, added, changed}) == 3
    assert fingerprint([folder]) == first


def test_a_lesson_copied_into_a_served_folder_is_listed_without_a_restart(
    open_app: OpenApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path, MINE)
    monkeypatch.setenv("TUTOR_LESSONS_DIR", str(folder))
    at = open_app("lessons", AppState())
    titles = " ".join(str(block.value) for block in at.markdown)
    assert "Ma leçon" in titles
    (folder / "deux.yaml").write_text(
        MINE.replace("ma-lecon", "deux").replace("Ma leçon", "Ma deuxième leçon"), "utf-8"
    )
    at.run()
    assert not at.exception, at.exception
    assert not at.error, at.error
    assert "Ma deuxième leçon" in " ".join(str(block.value) for block in at.markdown)
    (folder / "deux.yaml").unlink()
    at.run()
    assert not at.exception, at.exception
    assert not at.error, at.error
    assert "Ma deuxième leçon" not in " ".join(str(block.value) for block in at.markdown)
    english = open_app("lessons", AppState(language="en"))
    assert "Ma leçon" not in " ".join(str(block.value) for block in english.markdown)


def test_the_built_in_course_stays_in_both_languages() -> None:
    assert all(lesson.language is None for lesson in BUILTIN.lessons)
    assert isinstance(BUILTIN, Course)
