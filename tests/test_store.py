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

from tutor.srs import Grade, schedule
from tutor.store import Answer, InvalidNicknameError, Store, clean_nickname, metadata

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


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


def test_a_learner_is_a_nickname_created_on_first_use(store: Store) -> None:
    ana = store.learner("Ana")
    assert store.learner("  Ana ") == ana
    assert store.learner("Ben") != ana
    assert [learner.nickname for learner in store.learners()] == ["Ana", "Ben"]


def test_answers_and_reviews_are_stored_together(store: Store) -> None:
    ana = store.learner("Ana")
    review = schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW)
    store.record(ana, answer(), review)
    assert store.answers(ana) == [answer()]
    assert store.review(ana, "hard:16:10") == review
    again = schedule(review, "hard:16:10", "hard", Grade.RIGHT, NOW + timedelta(minutes=2))
    store.record(ana, answer(grade=Grade.RIGHT, chosen="hit"), again)
    assert store.review(ana, "hard:16:10") == again
    assert len(store.answers(ana)) == 2


def test_a_missed_item_comes_back_before_a_known_one(store: Store) -> None:
    ana = store.learner("Ana")
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
    ana, ben = store.learner("Ana"), store.learner("Ben")
    store.record(ana, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    assert store.answers(ben) == []
    assert store.reviews(ben) == []
    assert store.due(ben, NOW + timedelta(days=30)) == []


def test_export_then_delete_forgets_everything_about_a_learner(store: Store) -> None:
    ana, ben = store.learner("Ana"), store.learner("Ben")
    for learner in (ana, ben):
        store.record(learner, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    exported = store.export(ana)
    assert exported["nickname"] == "Ana"
    assert exported["answers"][0]["grade"] == "wrong"
    assert exported["answers"][0]["answered_at"] == NOW.isoformat()
    assert exported["reviews"][0]["item"] == "hard:16:10"
    store.delete_learner(ana)
    assert [learner.nickname for learner in store.learners()] == ["Ben"]
    with store.engine.connect() as db:
        owners = {row[0] for row in db.execute(sa.text("SELECT learner_id FROM answers"))}
        owners |= {row[0] for row in db.execute(sa.text("SELECT learner_id FROM reviews"))}
    assert owners == {ben.id}


def test_progress_survives_reopening_the_database(store: Store) -> None:
    ana = store.learner("Ana")
    store.record(ana, answer(), schedule(None, "hard:16:10", "hard", Grade.WRONG, NOW))
    reopened = Store(store.url)
    assert reopened.answers(reopened.learner("Ana")) == [answer()]
    reopened.close()


def test_concurrent_first_visits_create_one_learner(store: Store) -> None:
    found: list[int] = []

    def visit() -> None:
        found.append(store.learner("Chloé").id)

    threads = [threading.Thread(target=visit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(found)) == 1
    assert [learner.nickname for learner in store.learners()] == ["Chloé"]


def test_the_migrations_build_exactly_the_declared_schema(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, metadata)
    assert differences == []


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
