"""A teacher's own lessons (« Mes leçons », issue 27): kept in the database, bounded as lesson
files are, published only when the checker finds nothing, reaching only the students given the
link, and keeping learners' progress on the steps a new version did not change.

Every test runs on a SQLite file and on PostgreSQL (``database_url``; the PostgreSQL run is
marked slow and needs ``TUTOR_TEST_POSTGRES_URL``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tutor.authoring import (
    TEMPLATE,
    Changes,
    Shelf,
    check_text,
    compare_steps,
    progress_key,
    step_fingerprints,
)
from tutor.classroom.access import learner_hash
from tutor.identity import new_token, token_hash
from tutor.lessons.findings import Code
from tutor.lessons.run import LessonRun, save_run
from tutor.render.refusals import refusal_text
from tutor.render.translator import translator
from tutor.store import (
    LESSONS_PER_TEACHER,
    TEXT_MAX_BYTES,
    Store,
    TeacherLessonError,
    metadata,
)

#: The template with two mistakes a teacher makes: a card that is not one (line 11) and a net
#: the engine does not find (line 25).
TWO_MISTAKES = TEMPLATE.replace('"10♠ 7♥"', '"10♠ 1X"').replace("net: 0", "net: 2")


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


@pytest.fixture
def shelf(store: Store) -> Shelf:
    return Shelf(store)


def _with_id(text: str, lesson_id: str, *requires: str) -> str:
    """The template under another id, requiring ``requires``."""
    text = text.replace("id: ma-lecon\n", f"id: {lesson_id}\n", 1)
    if requires:
        text = text.replace("level: 1\n", f"level: 1\nrequires: [{', '.join(requires)}]\n", 1)
    return text


# -- the template and the checker --------------------------------------------------------------


def test_the_template_is_a_valid_four_step_lesson_in_french_only() -> None:
    checked = check_text(TEMPLATE)
    assert checked.is_ok, checked.problems
    assert checked.lesson is not None
    assert len(checked.lesson.steps) == 4
    assert isinstance(checked.lesson.title, str)  # one language: plain strings, no {fr:, en:}
    assert checked.lesson.language == "fr"  # offered to French learners, never untranslated


def test_each_mistake_is_found_at_its_line_and_column_with_the_line_quoted() -> None:
    checked = check_text(TWO_MISTAKES)
    places = [(problem.line, problem.column) for problem in checked.problems]
    assert places == [(11, 19), (25, 14)]
    assert checked.line(11) == '      cards: "10♠ 1X"'
    assert checked.line(25).strip() == "net: 2"


def test_a_lesson_of_300_kb_is_one_problem_and_the_store_refuses_it(shelf: Shelf) -> None:
    huge = TEMPLATE + "# " + "x" * (300 * 1024) + "\n"
    checked = check_text(huge, strategy=False)
    assert not checked.is_ok
    assert [p.code for p in checked.problems] == [Code.FILE]
    with pytest.raises(TeacherLessonError) as refused:
        shelf.create(new_token(), huge)
    assert refused.value.code == "lesson-too-large"
    french = refusal_text(refused.value, translator("fr"))
    assert "256 Ko" in french.replace("\u00a0", " "), french


def test_a_draft_grown_past_the_bound_is_refused_and_the_old_draft_kept(shelf: Shelf) -> None:
    teacher = new_token()
    handle, _key = shelf.create(teacher)
    with pytest.raises(TeacherLessonError, match="at most 256 KB"):
        shelf.save(handle, TEMPLATE + "#" * TEXT_MAX_BYTES, teacher)
    assert shelf.lesson(handle).draft == TEMPLATE


# -- bounds: lessons per teacher ------------------------------------------------------------------


def test_a_thousand_lessons_from_one_teacher_stop_at_the_bound_without_slowing_another(
    store: Store,
) -> None:
    records = store.teacher_lessons
    flood, other = learner_hash(new_token()), learner_hash(new_token())

    def insert(owner: str, number: int) -> float:
        started = time.perf_counter()
        records.insert(
            owner_hash=owner, token=f"T{owner[:6]}{number:09d}"[:16], key_hash="scrypt$00$00",
            draft=TEMPLATE, draft_ok=True, lesson_id=f"l-{number}", title="L",
            now=_now(),
        )
        return time.perf_counter() - started

    before = min(insert(other, n) for n in range(3))
    kept = refused = 0
    started = time.perf_counter()
    codes = set()
    for number in range(1000):
        try:
            insert(flood, number)
            kept += 1
        except TeacherLessonError as error:
            codes.add(error.code)
            refused += 1
    flood_seconds = time.perf_counter() - started
    after = min(insert(other, n) for n in range(3, 6))
    assert (kept, refused) == (LESSONS_PER_TEACHER, 1000 - LESSONS_PER_TEACHER)
    assert codes == {"too-many-lessons"}
    assert records.count_of(flood) == LESSONS_PER_TEACHER
    assert records.count_of(other) == 6  # the other teacher was never refused
    # A refused try is one index probe: a thousand of them take seconds at most, and leave the
    # other teacher's insert as fast as it was (well within ten times, noise included).
    assert flood_seconds < 30, flood_seconds
    assert after < max(10 * before, 0.05), (before, after)
    french = refusal_text(TeacherLessonError("too-many-lessons", "", most=50), translator("fr"))
    assert "50 leçons" in french


def _now() -> object:
    from datetime import UTC, datetime

    return datetime.now(UTC)


# -- who sees what --------------------------------------------------------------------------------


def test_a_broken_draft_never_reaches_a_learner(shelf: Shelf) -> None:
    teacher = new_token()
    handle, _key = shelf.create(teacher, TWO_MISTAKES)
    assert shelf.published_lesson(handle.token) is None  # never published: the link opens nothing
    with pytest.raises(TeacherLessonError) as refused:
        shelf.publish(handle, teacher)
    assert refused.value.code == "lesson-has-problems"
    assert refused.value.params["count"] == 2
    shelf.save(handle, TEMPLATE, teacher)
    shelf.publish(handle, teacher)
    shelf.save(handle, TWO_MISTAKES, teacher)  # broken again, in the draft only
    played = shelf.published_lesson(handle.token)
    assert played is not None
    assert str(played.steps[1].show.cards[1]) == "7♥"  # type: ignore[attr-defined]
    assert shelf.lesson(handle).unpublished_changes


def test_a_lesson_is_listed_to_its_own_browser_only(shelf: Shelf) -> None:
    teacher, other = new_token(), new_token()
    handle, _key = shelf.create(teacher)
    assert [lesson.handle for lesson in shelf.lessons_of(teacher)] == [handle]
    assert shelf.lessons_of(other) == []
    with pytest.raises(TeacherLessonError) as refused:
        shelf.open_own(other, handle.token)
    assert refused.value.code == "not-your-lesson"


def test_another_browser_reopens_a_lesson_with_its_link_and_key_only(shelf: Shelf) -> None:
    handle, key = shelf.create(new_token())
    with pytest.raises(TeacherLessonError) as refused:
        shelf.open_with_key(handle.token, "00000-00000-00000")
    assert refused.value.code == "wrong-lesson-key"
    assert shelf.open_with_key(handle.token.lower(), key.lower().replace("-", " ")) == handle


def test_a_prerequisite_of_another_teachers_lesson_is_refused_and_ones_own_accepted(
    shelf: Shelf,
) -> None:
    ana, bob = new_token(), new_token()
    first, _key = shelf.create(ana, _with_id(TEMPLATE, "lecon-d-ana"))
    shelf.publish(first, ana)
    theirs, _key = shelf.create(bob, _with_id(TEMPLATE, "suite-de-bob", "lecon-d-ana"))
    checked = shelf.check(bob, shelf.lesson(theirs).draft, theirs)
    assert [p.code for p in checked.problems] == [Code.PREREQUISITE]
    assert checked.problems[0].line == 4  # the requires line, where the teacher looks
    with pytest.raises(TeacherLessonError):
        shelf.publish(theirs, bob)
    own, _key = shelf.create(ana, _with_id(TEMPLATE, "suite-d-ana", "lecon-d-ana", "card-values"))
    assert shelf.check(ana, shelf.lesson(own).draft, own).is_ok
    assert shelf.publish(own, ana).version == 1


def test_a_lesson_may_not_take_the_id_of_a_lesson_of_the_course() -> None:
    checked = check_text(_with_id(TEMPLATE, "card-values"), strategy=False)
    assert [p.code for p in checked.problems] == [Code.DUPLICATE_ID]


def test_the_template_gets_an_id_of_its_own_among_the_teachers_lessons(shelf: Shelf) -> None:
    teacher = new_token()
    ids = [shelf.lesson(shelf.create(teacher)[0]).lesson_id for _ in range(3)]
    assert ids == ["ma-lecon", "ma-lecon-2", "ma-lecon-3"]


# -- publishing again: what changed, and the learners' progress ------------------------------------


def test_steps_are_matched_in_order_and_counted_as_changed_added_or_removed() -> None:
    assert compare_steps(["a", "b", "c"], ["a", "b", "c"]) == ({0: 0, 1: 1, 2: 2}, Changes())
    assert compare_steps(["a", "b"], ["x", "a", "b"]) == ({0: 1, 1: 2}, Changes(added=1))
    assert compare_steps(["a", "b", "c"], ["a", "c"]) == ({0: 0, 2: 1}, Changes(removed=1))
    kept, changes = compare_steps(["a", "b", "c", "d"], ["a", "B", "C", "d", "e"])
    assert kept == {0: 0, 3: 3}
    assert changes == Changes(modified=2, added=1)


def test_a_deal_at_another_table_is_another_step_but_its_explanation_is_the_same() -> None:
    other_table = TEMPLATE.replace("rules: family", "rules: american-s17")
    before, after = step_fingerprints(TEMPLATE), step_fingerprints(other_table)
    assert before[0] == after[0]  # an explanation does not depend on the table
    assert before[3] != after[3]  # a deal is dealt at the table


def test_publishing_again_keeps_progress_on_the_steps_that_did_not_change(
    shelf: Shelf, store: Store
) -> None:
    teacher = new_token()
    handle, _key = shelf.create(teacher)
    shelf.publish(handle, teacher)
    lesson = shelf.published_lesson(handle.token)
    assert lesson is not None
    assert lesson.id == progress_key(handle.token)
    learner = store.learner_for_token(new_token())
    assert learner is not None
    run = LessonRun(lesson, seed=7)
    run.start()
    for index in range(3):
        if index == 2:
            run.answer("17")
        save_run(store, learner, run, index)
        run.next()
    save_run(store, learner, run, 3)
    # The teacher rewrites the show step's caption and adds an explanation at the end.
    edited = TEMPLATE.replace("aucun as n’y compte pour 11.", "pas d’as compté 11.") + (
        '  - explain: "Retenez : sur 17 dur, on reste."\n'
    )
    shelf.save(handle, edited, teacher)
    publication = shelf.publish(handle, teacher)
    assert publication.version == 2
    assert publication.changes == Changes(modified=1, added=1)
    assert shelf.lesson(handle).changes == Changes(modified=1, added=1)
    saved = store.lesson_record(learner, progress_key(handle.token))
    assert saved is not None
    assert saved.steps[2].data == {"answer": "17", "right": True}  # the question is the same
    assert 1 not in saved.seen  # the caption changed: shown again
    new_lesson = shelf.published_lesson(handle.token)
    assert new_lesson is not None
    assert len(new_lesson.steps) == 5
    resumed = LessonRun.restore(new_lesson, saved)
    assert resumed.answers[2].correct
    assert resumed.step == 1  # back to the changed step, the first not done any more


def test_french_says_what_changed_as_a_teacher_reads_it() -> None:
    from tutor.ui.pages.my_lessons import changes_sentence

    assert changes_sentence(Changes(modified=2, added=1), translator("fr")) == (
        "2 étapes modifiées, 1 étape ajoutée"
    )
    assert changes_sentence(Changes(removed=1), translator("en")) == "1 step removed"


# -- erasure and migration ----------------------------------------------------------------------


def test_erasing_the_teacher_leaves_the_lesson_to_its_link_and_key(
    shelf: Shelf, store: Store
) -> None:
    teacher = new_token()
    handle, key = shelf.create(teacher)
    shelf.publish(handle, teacher)
    learner = store.learner_for_token(teacher)
    assert learner is not None
    store.delete_learner(learner)
    with store.engine.connect() as db:
        held = db.execute(
            sa.text("SELECT COUNT(*) FROM teacher_lessons WHERE owner_hash = :h"),
            {"h": token_hash(teacher)},
        ).scalar_one()
    assert held == 0
    assert shelf.lessons_of(teacher) == []
    assert shelf.open_with_key(handle.token, key) == handle
    assert shelf.published_lesson(handle.token) is not None  # the students keep their lesson


def test_migration_0008_can_be_undone_and_redone(database_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    import tutor

    Store(database_url).close()

    def alembic(name: str, revision: str) -> None:
        engine = sa.create_engine(database_url)
        with engine.begin() as connection:
            config = Config()
            config.set_main_option(
                "script_location", str(Path(tutor.__file__).parent / "migrations")
            )
            config.attributes["connection"] = connection
            getattr(command, name)(config, revision)
        engine.dispose()

    alembic("downgrade", "0007")
    engine = sa.create_engine(database_url)
    assert "teacher_lessons" not in sa.inspect(engine).get_table_names()
    engine.dispose()
    store = Store(database_url)
    try:
        assert "teacher_lessons" in sa.inspect(store.engine).get_table_names()
        assert "teacher_lessons" in metadata.tables
        handle, _key = Shelf(store).create(new_token())
        assert Shelf(store).lesson(handle).version == 0
    finally:
        store.close()
