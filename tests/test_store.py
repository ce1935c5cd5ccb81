"""The store: the same tests on a SQLite file and on PostgreSQL.

PostgreSQL runs when ``TUTOR_TEST_POSTGRES_URL`` names a server (``.ci/run`` starts one with
``scripts/postgres-for-tests``); without it those cases are skipped and say why (the
``database_url`` fixture of ``conftest.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from tutor.identity import InvalidRecoveryCodeError, format_code, new_token, token_hash
from tutor.srs import Grade, schedule
from tutor.store import (
    JSON_MAX,
    Answer,
    InvalidNicknameError,
    Learner,
    LessonRecord,
    Settings,
    StepRecord,
    Store,
    UnknownLearnerError,
    clean_nickname,
    learners,
    metadata,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


def new_learner(store: Store, nickname: str | None = None) -> Learner:
    """A learner as a browser makes one: from a fresh token, then maybe a display name."""
    learner = store.learner_for_token(new_token())
    assert learner is not None
    return learner if nickname is None else store.set_nickname(learner, nickname)


def answer(item: str = "hard:16:10", grade: Grade = Grade.WRONG, **changes: object) -> Answer:
    values: dict[str, object] = {
        "category": "hard",
        "item": item,
        "cards": "10 6",
        "dealer_up": "10",
        "rules": "family",
        "chosen": "stand",
        "best": "hit",
        "grade": grade,
        "ev_loss": 0.03,
        "answered_at": NOW,
    }
    values.update(changes)
    return Answer(**values)  # type: ignore[arg-type]


def test_a_learner_is_found_by_their_token_and_created_on_first_use(store: Store) -> None:
    token = new_token()
    ana = store.learner_for_token(token)
    assert ana is not None
    assert ana.nickname is None  # no name until the learner gives one
    assert store.learner_for_token(token) == ana
    assert store.learner_for_token(new_token()) != ana


def test_the_recovery_code_typed_on_another_device_finds_the_same_learner(store: Store) -> None:
    token = new_token()
    ana = store.learner_for_token(token)
    typed = format_code(token).lower().replace("0", "o")  # as a person copies it
    assert store.learner_for_token(typed, create=False) == ana


def test_an_unknown_token_finds_nobody_when_asked_not_to_create(store: Store) -> None:
    assert store.learner_for_token(new_token(), create=False) is None
    assert store.learners() == []


def test_a_malformed_token_is_refused_not_stored(store: Store) -> None:
    with pytest.raises(InvalidRecoveryCodeError):
        store.learner_for_token("Camille Dupont")
    assert store.learners() == []


def test_only_the_hash_of_a_token_is_stored(store: Store) -> None:
    token = new_token()
    store.learner_for_token(token)
    with store.engine.connect() as db:
        stored = [tuple(row) for row in db.execute(sa.text("SELECT * FROM learners"))]
    assert token_hash(token) in stored[0]
    assert not any(token in str(value) for row in stored for value in row)


def test_a_nickname_only_displays_and_two_learners_may_share_it(store: Store) -> None:
    first = new_learner(store, "Camille Dupont")
    second = new_learner(store, "Camille Dupont")
    assert first.nickname == second.nickname == "Camille Dupont"
    assert first.id != second.id
    store.record(first, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    assert store.answers(second) == []


def test_a_nickname_can_be_changed_or_removed_and_follows_the_rules(store: Store) -> None:
    token = new_token()
    ana = store.learner_for_token(token)
    assert ana is not None
    assert store.set_nickname(ana, "  Zoé ").nickname == "Zoé"
    assert store.learner_for_token(token) == Learner(ana.id, "Zoé")
    assert store.set_nickname(ana, None).nickname is None
    with pytest.raises(InvalidNicknameError):
        store.set_nickname(ana, "<b>Zoé</b>")


def test_an_erased_learner_cannot_be_renamed(store: Store) -> None:
    ana = new_learner(store)
    store.delete_learner(ana)
    with pytest.raises(UnknownLearnerError):
        store.set_nickname(ana, "Ana")


def test_concurrent_first_visits_with_one_token_create_one_learner(store: Store) -> None:
    token = new_token()
    barrier = threading.Barrier(8)
    found: list[int] = []

    def visit() -> None:
        barrier.wait()
        learner = store.learner_for_token(token)
        assert learner is not None
        found.append(learner.id)

    threads = [threading.Thread(target=visit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8
    assert len(set(found)) == 1
    assert len(store.learners()) == 1


def test_answers_and_reviews_are_stored_together(store: Store) -> None:
    ana = new_learner(store)
    review = schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW)
    store.record(ana, answer(), review)
    assert store.answers(ana) == [answer()]
    assert store.review(ana, "hard:16:10") == review
    again = schedule(review, "hard:16:10", "hard", Grade.RIGHT, NOW + timedelta(minutes=2))
    store.record(ana, answer(grade=Grade.RIGHT, chosen="hit"), again)
    assert store.review(ana, "hard:16:10") == again
    assert len(store.answers(ana)) == 2


def test_a_missed_item_comes_back_before_a_known_one(store: Store) -> None:
    ana = new_learner(store)
    missed = schedule(None, "soft:18:9", "soft", Grade.WRONG, NOW)
    known = schedule(None, "hard:12:4", "hard", Grade.RIGHT, NOW)
    store.record(ana, answer("soft:18:9", category="soft"), missed)
    store.record(ana, answer("hard:12:4", Grade.RIGHT), known)
    soon = NOW + timedelta(minutes=5)
    assert [review.item for review in store.due(ana, soon)] == ["soft:18:9"]
    much_later = NOW + timedelta(days=2)
    assert [review.item for review in store.due(ana, much_later)] == ["soft:18:9", "hard:12:4"]
    assert [review.item for review in store.due(ana, much_later, ["hard"])] == ["hard:12:4"]


def test_two_learners_do_not_see_each_others_progress(store: Store) -> None:
    ana, ben = new_learner(store), new_learner(store)
    store.record(ana, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    store.save_lesson(ana, "aces", seed=7, step=3, seen=[0, 1, 2, 3], completed=3)
    right = {"answer": "11", "right": True}
    store.save_lesson_step(ana, "aces", 2, kind="ask", data=right, done=True)
    assert store.answers(ben) == []
    assert store.reviews(ben) == []
    assert store.due(ben, NOW + timedelta(days=30)) == []
    assert store.lesson_progress(ben) == {}
    assert store.lesson_record(ben, "aces") is None


def test_progress_survives_reopening_the_database(store: Store) -> None:
    token = new_token()
    ana = store.learner_for_token(token)
    assert ana is not None
    store.record(ana, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    store.save_lesson(ana, "aces", seed=7, step=2, seen=[0, 1, 2], completed=2)
    reopened = Store(store.url)
    again = reopened.learner_for_token(token, create=False)
    assert again is not None
    assert reopened.answers(again) == [answer()]
    assert reopened.lesson_progress(again)["aces"].step == 2
    reopened.close()


# -- lessons --


def test_a_lesson_run_is_stored_whole_enough_to_replay_it(store: Store) -> None:
    ana = new_learner(store)
    before = datetime.now(UTC)
    store.save_lesson(ana, "soft-totals", seed=2**62 + 5, step=4, seen=[3, 0, 1, 1], completed=3)
    ask = {"answer": "17 or 7", "right": True}
    deal = {"actions": ["hit", "stand"], "net": "2"}
    drill = {"answers": ["hit", "double", "stand"]}
    store.save_lesson_step(ana, "soft-totals", 1, kind="ask", data=ask, done=True)
    store.save_lesson_step(ana, "soft-totals", 3, kind="deal", data=deal, done=True)
    store.save_lesson_step(ana, "soft-totals", 4, kind="drill", data=drill, done=False)
    record = store.lesson_record(ana, "soft-totals")
    assert record is not None
    assert (record.seed, record.step, record.completed) == (2**62 + 5, 4, 3)
    assert record.seen == frozenset({0, 1, 3})
    assert record.steps == {
        1: StepRecord("ask", ask, True),
        3: StepRecord("deal", deal, True),
        4: StepRecord("drill", drill, False),
    }
    assert record.updated_at >= before.replace(microsecond=0)
    assert isinstance(record, LessonRecord)


def test_the_course_list_reads_every_started_lesson(store: Store) -> None:
    ana = new_learner(store)
    assert store.lesson_progress(ana) == {}
    store.save_lesson(ana, "aces", seed=1, step=4, seen=range(5), completed=4)
    store.save_lesson(ana, "dealer", seed=2, step=0, seen=[0], completed=0)
    progress = store.lesson_progress(ana)
    assert sorted(progress) == ["aces", "dealer"]
    assert (progress["aces"].step, progress["aces"].completed) == (4, 4)
    assert progress["dealer"].updated_at.tzinfo is not None


def test_saving_again_moves_the_learner_on_rather_than_adding_a_row(store: Store) -> None:
    ana = new_learner(store)
    store.save_lesson(ana, "aces", seed=9, step=1, seen=[0, 1], completed=1)
    store.save_lesson(ana, "aces", seed=9, step=2, seen=[0, 1, 2], completed=2)
    store.save_lesson_step(ana, "aces", 1, kind="drill", data={"answers": ["hit"]}, done=False)
    store.save_lesson_step(
        ana, "aces", 1, kind="drill", data={"answers": ["hit", "stand"]}, done=True
    )
    record = store.lesson_record(ana, "aces")
    assert record is not None
    assert (record.step, record.completed) == (2, 2)
    assert record.steps == {1: StepRecord("drill", {"answers": ["hit", "stand"]}, True)}
    with store.engine.connect() as db:
        assert db.execute(sa.text("SELECT COUNT(*) FROM lesson_progress")).scalar_one() == 1
        assert db.execute(sa.text("SELECT COUNT(*) FROM lesson_steps")).scalar_one() == 1


def test_a_learner_restarts_a_lesson_on_purpose(store: Store) -> None:
    ana = new_learner(store)
    for lesson in ("aces", "dealer"):
        store.save_lesson(ana, lesson, seed=3, step=2, seen=[0, 1, 2], completed=2)
        store.save_lesson_step(ana, lesson, 1, kind="ask", data={"answer": "a"}, done=True)
    store.reset_lesson(ana, "aces")
    assert store.lesson_record(ana, "aces") is None
    assert list(store.lesson_progress(ana)) == ["dealer"]  # the other lesson is untouched
    store.save_lesson(ana, "aces", seed=4, step=0, seen=[0], completed=0)
    restarted = store.lesson_record(ana, "aces")
    assert restarted is not None
    assert restarted.steps == {}  # the old answers did not come back


def test_a_step_needs_its_lesson_run_saved_first(store: Store) -> None:
    ana = new_learner(store)
    with pytest.raises(UnknownLearnerError, match="save_lesson first"):
        store.save_lesson_step(ana, "aces", 0, kind="ask", data={}, done=False)


def test_an_erased_learner_saves_no_lesson(store: Store) -> None:
    ana = new_learner(store)
    store.delete_learner(ana)
    with pytest.raises(UnknownLearnerError):
        store.save_lesson(ana, "aces", seed=1, step=0, seen=[], completed=0)
    with store.engine.connect() as db:
        assert db.execute(sa.text("SELECT COUNT(*) FROM lesson_progress")).scalar_one() == 0


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"lesson_id": "x" * 65}, "1 to 64"),
        ({"lesson_id": ""}, "1 to 64"),
        ({"seed": 2**63}, "64-bit"),
        ({"seed": True}, "64-bit"),
        ({"step": -1}, "from 0 to"),
        ({"step": 10**6}, "from 0 to"),
        ({"completed": 2.5}, "from 0 to"),
        ({"seen": [0, -3]}, "from 0 to"),
        ({"seen": [0, 10**6]}, "from 0 to"),
    ],
)
def test_a_lesson_save_out_of_bounds_is_refused(
    store: Store, changes: dict[str, object], says: str
) -> None:
    ana = new_learner(store)
    values: dict[str, object] = {"lesson_id": "aces", "seed": 1, "step": 0, "seen": [0]}
    values["completed"] = 0
    values.update(changes)
    lesson_id = values.pop("lesson_id")
    with pytest.raises(ValueError, match=says):
        store.save_lesson(ana, lesson_id, **values)  # type: ignore[arg-type]
    assert store.lesson_progress(ana) == {}


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"kind": "quiz"}, "kind"),
        ({"data": {"answers": ["x" * JSON_MAX]}}, f"at most {JSON_MAX}"),
        ({"data": {"net": float("nan")}}, "plain JSON"),
        ({"data": {"when": NOW}}, "plain JSON"),
        ({"data": ["hit"]}, "mapping"),
        ({"index": -1}, "from 0 to"),
    ],
)
def test_a_step_record_out_of_bounds_is_refused(
    store: Store, changes: dict[str, object], says: str
) -> None:
    ana = new_learner(store)
    store.save_lesson(ana, "aces", seed=1, step=0, seen=[0], completed=0)
    values: dict[str, object] = {"index": 0, "kind": "ask", "data": {}, "done": False}
    values.update(changes)
    index = values.pop("index")
    with pytest.raises(ValueError, match=says):
        store.save_lesson_step(ana, "aces", index, **values)  # type: ignore[arg-type]
    record = store.lesson_record(ana, "aces")
    assert record is not None
    assert record.steps == {}


# -- everything about one learner, and only them --


def test_export_then_delete_forgets_everything_about_a_learner_and_only_them(
    store: Store,
) -> None:
    ana, ben = new_learner(store, "Ana"), new_learner(store, "Ben")
    for learner in (ana, ben):
        store.record(learner, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
        store.save_lesson(learner, "aces", seed=5, step=2, seen=[0, 1, 2], completed=2)
        store.save_lesson_step(
            learner, "aces", 1, kind="deal", data={"actions": ["hit"], "net": "-2"}, done=True
        )
    exported = store.export(ana)
    assert exported["nickname"] == "Ana"
    assert exported["answers"][0]["grade"] == "wrong"
    assert exported["answers"][0]["answered_at"] == NOW.isoformat()
    assert exported["reviews"][0]["item"] == "hard:16:10"
    assert [lesson["lesson"] for lesson in exported["lessons"]] == ["aces"]
    assert exported["lessons"][0]["seen"] == [0, 1, 2]
    assert exported["lessons"][0]["steps"] == [
        {
            "index": 1,
            "kind": "deal",
            "data": {"actions": ["hit"], "net": "-2"},
            "done": True,
            "updated_at": exported["lessons"][0]["steps"][0]["updated_at"],
        }
    ]
    ben_before = store.export(ben)

    store.delete_learner(ana)

    assert store.learners() == [ben]
    with store.engine.connect() as db:
        owners = {
            row[0]
            for table in ("answers", "reviews", "lesson_progress", "lesson_steps")
            for row in db.execute(sa.text(f"SELECT learner_id FROM {table}"))
        }
    assert owners == {ben.id}
    assert store.export(ben) == ben_before  # Ben's data is intact, to the byte


def test_the_migrations_build_exactly_the_declared_schema(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, metadata)
    assert differences == []


def _alembic(url: str, command_name: str, revision: str) -> None:
    """Move a database to ``revision`` the way an older release of the app left it (plain
    engine: on SQLite foreign keys are off, as in every copy of a table Alembic makes)."""
    from alembic import command
    from alembic.config import Config

    import tutor

    engine = sa.create_engine(url)
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(Path(tutor.__file__).parent / "migrations"))
        config.attributes["connection"] = connection
        getattr(command, command_name)(config, revision)
    engine.dispose()


#: The time bound as a DateTime, which SQLAlchemy writes as text on SQLite (Python 3.12 deprecates
#: sqlite3's own datetime adapter, which a bare ``:t`` would use).
_T = sa.bindparam("t", type_=sa.DateTime(timezone=True))


def _timed(sql: str) -> sa.TextClause:
    return sa.text(sql).bindparams(_T)


def test_an_old_database_keeps_every_answer_and_seat_through_migration_0003(
    database_url: str,
) -> None:
    _alembic(database_url, "upgrade", "0002")
    engine = sa.create_engine(database_url)
    with engine.begin() as db:
        db.execute(
            _timed("INSERT INTO learners (nickname, created_at) VALUES ('Ana', :t)"), {"t": NOW}
        )
        db.execute(
            sa.text(
                "INSERT INTO answers (learner_id, answered_at, category, item, cards, dealer_up,"
                " rules, chosen, best, verdict, ev_loss) SELECT id, :t, 'hard', 'hard:16:10',"
                " '10 6', '10', 'family', 'stand', 'hit', 'wrong', 0.03 FROM learners"
            ).bindparams(_T),
            {"t": NOW},
        )
        db.execute(
            sa.text(
                "INSERT INTO class_sessions (id, code, title, rules, key_hash, created_at,"
                " current, revealed, failed_keys) VALUES (1, 'ABCDEF', 'Lundi', '{}', 'x', :t,"
                " 0, false, 0)"
            ).bindparams(_T),
            {"t": NOW},
        )
        db.execute(
            sa.text(
                "INSERT INTO class_questions (id, session_id, position, cards, dealer_up,"
                " insurance) VALUES (1, 1, 0, '10 6', '10', false)"
            )
        )
        for seat, name in ((1, "Camille"), (2, "camille"), (3, "Ben")):  # case-sensitive then
            db.execute(
                sa.text(
                    "INSERT INTO class_students (id, session_id, nickname, token_hash, joined_at)"
                    " VALUES (:id, 1, :name, :token, :t)"
                ).bindparams(_T),
                {"id": seat, "name": name, "token": f"token-{seat}", "t": NOW},
            )
            db.execute(
                sa.text(
                    "INSERT INTO class_answers (question_id, student_id, action, answered_at)"
                    " VALUES (1, :id, 'hit', :t)"
                ).bindparams(_T),
                {"id": seat, "t": NOW},
            )
    engine.dispose()

    store = Store(database_url)  # migrates to the newest revision, as the app does on start
    try:
        with store.engine.connect() as db:
            assert db.execute(sa.text("SELECT COUNT(*) FROM answers")).scalar_one() == 1
            assert db.execute(sa.text("SELECT COUNT(*) FROM class_answers")).scalar_one() == 3
            seats: dict[str, str] = dict(
                db.execute(sa.text("SELECT nickname, folded FROM class_students")).all()
            )
        assert seats == {"Camille": "camille", "camille": "camille#2", "Ben": "ben"}
        # The old learner and its answer are kept, out of reach of every token.
        assert [learner.nickname for learner in store.learners()] == ["Ana"]
        assert len(store.answers(store.learners()[0])) == 1
        newcomer = new_learner(store, "Ana")
        assert store.answers(newcomer) == []
    finally:
        store.close()


def test_sqlite_foreign_keys_are_back_on_once_the_store_has_migrated(store: Store) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("the pragma is SQLite's")
    with store.engine.connect() as db:
        assert db.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_migration_0003_can_be_undone_and_redone(database_url: str) -> None:
    store = Store(database_url)
    with store.engine.begin() as db:  # a learner of before tokens, as migration 0003 keeps it
        row = db.execute(learners.insert().values(nickname="Ana", created_at=NOW))
        legacy = Learner(int(row.inserted_primary_key[0]), "Ana")
    store.record(legacy, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    new_learner(store, "Ana")
    store.close()
    _alembic(database_url, "downgrade", "0002")
    store = Store(database_url)
    try:
        assert [learner.nickname for learner in store.learners()] == ["Ana"]
        assert store.answers(store.learners()[0]) == [answer()]
    finally:
        store.close()


def test_a_sqlite_file_is_created_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path / "nested" / "dir"))
    opened = Store()
    assert (tmp_path / "nested" / "dir" / "tutor.sqlite3").exists()
    opened.close()


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 25, "at most 24"),
        ("<b>Ana</b>", "letters, digits"),
        ("Ana\nBen", "letters, digits"),
    ],
)
def test_nicknames_are_short_and_plain(raw: str, problem: str) -> None:
    with pytest.raises(InvalidNicknameError, match=problem):
        clean_nickname(raw)


def test_nicknames_keep_accents_and_apostrophes() -> None:
    assert clean_nickname("  Zoé d'Arc-Lévy ") == "Zoé d'Arc-Lévy"


def test_simultaneous_first_answers_to_one_hand_are_all_kept(store: Store) -> None:
    """Two tabs answering the same new hand at once: both answers stored, one schedule, no
    IntegrityError (issue 14: 8 of 10 failed on PostgreSQL)."""
    ana = new_learner(store)
    review = schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW)
    barrier = threading.Barrier(10)
    errors: list[BaseException] = []

    def record() -> None:
        barrier.wait()
        try:
            store.record(ana, answer(), review)
        except BaseException as error:  # collected: a thread's failure fails the test
            errors.append(error)

    threads = [threading.Thread(target=record) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(store.answers(ana)) == 10
    assert store.reviews(ana) == [review]


def test_an_erased_learner_records_no_answer(store: Store) -> None:
    ana = new_learner(store)
    store.delete_learner(ana)
    with pytest.raises(UnknownLearnerError):
        store.record(ana, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "empty"),
        ("x" * 25, "too-long"),
        ("\u3164", "invisible"),  # a Hangul filler: a "letter" that draws as nothing
        ("Ana\u3164", "invisible"),
        ("Ana\u200b", "invisible"),  # zero-width space
        ("\u2066Ana", "invisible"),  # a direction isolate
        ("\uff21\uff4e\uff41", "compatibility"),  # full-width Ana
        ("\U0001d400na", "compatibility"),  # mathematical bold A
        ("\u0410na", "mixed-scripts"),  # Cyrillic A, Latin na
        ("P\u0430ul", "mixed-scripts"),  # Cyrillic a inside a Latin name
        ("Ana\u03bf", "mixed-scripts"),  # Greek omicron
        ("www.evil.example/<b>", "characters"),
        ("\u093fAna", "characters"),  # a vowel sign on nothing
        ("Ana \u0301", "characters"),  # an accent on a space
        ("Z" + "\u0301\u0302\u0303\u0304\u0306", "characters"),  # a pile of marks
    ],
)
def test_look_alike_and_invisible_nicknames_are_refused_with_their_reason(
    raw: str, code: str
) -> None:
    with pytest.raises(InvalidNicknameError) as refused:
        clean_nickname(raw)
    assert refused.value.code == code


@pytest.mark.parametrize(
    "name",
    ["Саша", "Ἀλέξης", "李雷", "Zoé d'Arc-Lévy", "www.ana.fr", "प्रिया", "தமிழ்", "ที่ดิน", "محمد"],
)
def test_names_in_one_alphabet_are_kept(name: str) -> None:
    """One alphabet is fine, whichever, with the vowel signs and marks its letters carry
    (Devanagari, Tamil, Thai): only mixing look-alike alphabets is refused. A name with dots
    stays allowed: the pages show it as text, never as a link."""
    assert clean_nickname(name) == name


def test_migration_0004_can_be_undone_and_redone(database_url: str) -> None:
    Store(database_url).close()
    _alembic(database_url, "downgrade", "0003")
    engine = sa.create_engine(database_url)
    tables = set(sa.inspect(engine).get_table_names())
    engine.dispose()
    assert "class_key_attempts" not in tables
    assert "class_rate" not in tables
    store = Store(database_url)  # upgrades again
    try:
        tables = set(sa.inspect(store.engine).get_table_names())
        assert {"class_key_attempts", "class_rate"} <= tables
    finally:
        store.close()


def test_migration_0005_can_be_undone_and_redone(database_url: str) -> None:
    Store(database_url).close()
    _alembic(database_url, "downgrade", "0004")
    engine = sa.create_engine(database_url)
    columns = {column["name"] for column in sa.inspect(engine).get_columns("class_sessions")}
    engine.dispose()
    assert "creator_hash" not in columns
    assert "created_at" in columns
    store = Store(database_url)  # upgrades again
    try:
        columns = {c["name"] for c in sa.inspect(store.engine).get_columns("class_sessions")}
        assert "creator_hash" in columns
    finally:
        store.close()


# -- a learner's settings --


def test_settings_follow_the_code_to_another_device_and_a_restarted_server(
    database_url: str,
) -> None:
    token = new_token()
    first = Store(database_url)
    ana = first.learner_for_token(token)
    assert ana is not None
    assert first.settings(ana) is None  # never changed: the page's defaults apply
    first.save_settings(ana, Settings("en", "chart", {"preset": "french-casino"}))
    first.save_settings(ana, Settings("en", "exact", {"preset": "french-casino"}))
    first.close()

    again = Store(database_url)  # the server restarted; the code typed on another device
    try:
        found = again.learner_for_token(format_code(token).lower(), create=False)
        assert found == ana
        assert again.settings(found) == Settings("en", "exact", {"preset": "french-casino"})
        assert again.export(found)["settings"] == {
            "language": "en",
            "reference": "exact",
            "rules": {"preset": "french-casino"},
        }
    finally:
        again.close()


def test_settings_are_one_learners_and_go_with_an_erasure(store: Store) -> None:
    ana, ben = new_learner(store), new_learner(store)
    store.save_settings(ana, Settings("en", "chart", {"preset": "french-casino"}))
    assert store.settings(ben) is None
    store.delete_learner(ana)
    with store.engine.connect() as db:
        assert db.execute(sa.text("SELECT COUNT(*) FROM learner_settings")).scalar() == 0
    with pytest.raises(UnknownLearnerError):
        store.save_settings(ana, Settings("fr", "chart", {"preset": "family"}))


@pytest.mark.parametrize(
    "settings",
    [
        Settings("", "chart", {}),
        Settings("fr" * 5, "chart", {}),
        Settings("fr", "x" * 9, {}),
        Settings("fr", "chart", {"source": "x" * JSON_MAX}),
    ],
    ids=["no-language", "long-language", "long-reference", "huge-rules"],
)
def test_settings_out_of_bounds_are_refused(store: Store, settings: Settings) -> None:
    learner = new_learner(store)
    with pytest.raises(ValueError, match=r"language|reference|rules"):
        store.save_settings(learner, settings)
    assert store.settings(learner) is None


def test_migration_0006_can_be_undone_and_redone_and_old_answers_are_the_quizs(
    database_url: str,
) -> None:
    first = Store(database_url)
    learner = new_learner(first)
    first.record(learner, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    first.close()
    _alembic(database_url, "downgrade", "0005")
    engine = sa.create_engine(database_url)
    tables = set(sa.inspect(engine).get_table_names())
    columns = {column["name"] for column in sa.inspect(engine).get_columns("answers")}
    engine.dispose()
    assert "learner_settings" not in tables
    assert "origin" not in columns
    store = Store(database_url)  # upgrades again
    try:
        assert "learner_settings" in set(sa.inspect(store.engine).get_table_names())
        assert [kept.origin for kept in store.answers(learner)] == ["quiz"]
    finally:
        store.close()


def test_migration_0007_can_be_undone_and_redone_and_old_classes_are_unlocked(
    database_url: str,
) -> None:
    from tutor.classroom import ClassQuestion, Classroom
    from tutor.rules import PRESETS

    first = Store(database_url)
    info, _key = Classroom(first).create(
        "Avant", PRESETS["family"], [ClassQuestion.parse("10♠ 6♥", "10♣")]
    )
    first.close()
    _alembic(database_url, "downgrade", "0006")
    engine = sa.create_engine(database_url)
    columns = {column["name"] for column in sa.inspect(engine).get_columns("class_sessions")}
    engine.dispose()
    assert "locked" not in columns
    assert "join_pattern" not in columns
    assert "given_names" not in columns
    assert "creator_hash" in columns
    store = Store(database_url)  # upgrades again
    try:
        room = Classroom(store)
        assert not room.info(info.code).locked  # a class of before the lock is open
        assert not room.info(info.code).has_join_step  # and asks for no symbols
        assert room.info(info.code).given_names is None  # nor gives names
        assert room.join(info.code, "Ana").nickname == "Ana"
    finally:
        store.close()


def test_an_answer_says_where_it_was_given_and_an_unknown_place_is_refused(store: Store) -> None:
    learner = new_learner(store)
    review = schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW)
    store.record(learner, answer(), review)
    store.record(learner, answer(origin="table"), review)
    assert [kept.origin for kept in store.answers(learner)] == ["quiz", "table"]
    assert [row["origin"] for row in store.export(learner)["answers"]] == ["quiz", "table"]
    with pytest.raises(ValueError, match="comes from one of"):
        store.record(learner, answer(origin="casino"), review)
    assert len(store.answers(learner)) == 2
