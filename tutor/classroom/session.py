"""A class session from creation to results: the teacher's steps, the students' seats and answers,
and what each screen may see.

A teacher creates a session (a title, the table rules, the hands to ask) and gets a short join
code to project and a teacher key, shown once (``tutor.classroom.access``). Students join with the
code and a nickname; they see the hand on screen, answer once, and learn whether they were right
only when the teacher reveals. The teacher sees the answers arrive, reveals the distribution with
the correct play and its reason, and moves on; afterwards the results (``tutor.classroom.results``).

The rules this module keeps (each has a test that fails if it is removed):

- the teacher's pages need the key, or the browser that created the class; wrong keys slow down
  their guesser only (``access``); wrong codes and patterns are counted per browser and per
  network client, right-code joins per browser and per class, creations per browser and per
  client (never by a bucket one stranger can fill), a class seats at most ``MAX_SEATS``,
  and a session is deleted ``RETENTION`` after its creation (``UNSTARTED_RETENTION`` when it
  never showed a question and was not finished);
- the class steps (next, reveal, finish) name the question they act on, and the database moves
  the class only if it is still there: a double click or a racing click acts once;
- a locked class seats nobody new, decided by the database inside the seat's insert (a join
  racing the lock is seated before it or refused after it); a seated student still rejoins;
- a student answers each question once, only the open, unrevealed question, and only a legal
  play; an answer racing the reveal is either counted in it or refused, never stored unseen;
- a student's view never holds other students' answers, the distribution or the correct play
  before the reveal; a finished session accepts no answers.

The teacher and student handles returned here are capabilities held in the server's memory of
that browser session: a page cannot forge one without the key or the student's token. Every
statement is in ``tutor.store.class_records``.

The rooms: the handles and views in ``tutor.classroom.handles``; the state and the reads both
sides share (a session with its expiry, the rate limits, the join pattern, a seat's token) in
``tutor.classroom.core``, the base of ``Classroom``; here, one method per step a teacher or a
student takes.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from tutor.classroom.access import (
    ANONYMOUS,
    CREATES_PER_MINUTE,
    JOINS_PER_MINUTE,
    MAX_SEATS,
    RETENTION,
    UNSTARTED_RETENTION,
    UNUSED_CLASSES_PER_CLIENT,
    client_key,
    hash_key,
    key_matches,
    learner_hash,
    lock_for,
    new_code,
    new_key,
    normalise_code,
    student_token_hash,
)
from tutor.classroom.core import ClassroomCore
from tutor.classroom.errors import (
    AlreadyAnsweredError,
    ClassFullError,
    ClassLockedError,
    ClassroomError,
    IllegalAnswerError,
    MovedOnError,
    NicknameTakenError,
    NotOpenError,
    NotYourClassError,
    SessionFinishedError,
    SlowDownError,
    TooManyClassesError,
    TooManyUnusedClassesError,
    UnknownStudentError,
    WrongKeyError,
)
from tutor.classroom.handles import (
    FinalScore,
    Reveal,
    Seat,
    Student,
    StudentView,
    Teacher,
    question_of,
    question_row,
    rules_of,
)
from tutor.classroom.info import SessionInfo
from tutor.classroom.joinstep import (
    new_pattern,
    read_pattern,
    stored_pattern,
)
from tutor.classroom.names import LANGUAGES, given_name
from tutor.classroom.questions import ClassQuestion, judged, legal
from tutor.classroom.results import ClassResults, class_results
from tutor.decision import Action, Grade
from tutor.identity import fold_nickname
from tutor.rules import TableRules
from tutor.store import clean_nickname
from tutor.strategy.advice import Reason

#: Finished classes whose scores a process keeps for the phones (``Classroom.final_score``).
FINALS_KEPT = 64
#: How many names a join draws for a class with given names before it says the last one drawn
#: is taken (each draw is free at least two times in three: 900 names, 300 seats at most).
GIVEN_NAME_DRAWS = 20


class Classroom(ClassroomCore):
    """Class sessions over a ``Store``'s database."""

    # -- the teacher's side --
    def create(
        self,
        title: str,
        rules: TableRules,
        questions: Sequence[ClassQuestion],
        *,
        learner_token: str | None = None,
        client: str | None = None,
        join_step: bool = False,
        given_names: str | None = None,
        group_id: int | None = None,
    ) -> tuple[SessionInfo, str]:
        """A new session and its teacher key (shown once: only its hash is kept).

        ``join_step``: each phone taps a pattern of symbols shown on the projector after the
        code (``tutor.classroom.joinstep``), so a script that has only the code cannot join.
        ``given_names``: a language (``fr``, ``en``) for the app to give each student a name of
        two friendly words in it, whatever they type (``tutor.classroom.names``).

        ``learner_token`` is the creating browser's: it counts towards ``CREATES_PER_MINUTE``
        and lets that browser find and reopen its classes (``classes_of``, ``open_own``).
        ``client`` is the network address of the request (``tutor.ui.client``), what binds a
        script that sends no cookie; its limits are that address's alone (creations a minute,
        classes held unused: ``UNUSED_CLASSES_PER_CLIENT``), so a flood from one client never
        refuses a teacher on another.

        ``group_id``: the study group the class is run for, whose follow-up then shows its
        results (``tutor.homework.in_class``). The caller passes the id of a group it holds as its
        teacher (a ``tutor.homework.GroupTeacher``, made only from the group's creating browser
        or its key): this module does not read homework's tables."""
        title = " ".join(title.split())[:80] or "Blackjack"
        if not questions:
            raise ValueError("a class session needs at least one question")
        if given_names is not None and given_names not in LANGUAGES:
            raise ValueError(f"names are given in {' or '.join(sorted(LANGUAGES))}")
        creator = None if learner_token is None else learner_hash(learner_token)
        creator_client = None if client is None else client_key(client)
        if creator is not None:
            self._throttle(
                f"create-browser:{creator}", CREATES_PER_MINUTE["browser"], TooManyClassesError
            )
        if creator_client is not None:
            self._throttle(
                f"create-client:{creator_client}",
                CREATES_PER_MINUTE["client"],
                TooManyClassesError,
            )
            unused = self.records.unused_of_client(
                creator_client, since=self.clock() - UNSTARTED_RETENTION
            )
            if unused >= UNUSED_CLASSES_PER_CLIENT:
                raise TooManyUnusedClassesError(
                    f"{unused} classes created from this network are not started yet",
                    most=UNUSED_CLASSES_PER_CLIENT,
                )
        for question in questions:
            question.point(rules)  # refuses a hand with no decision to make, before class starts
            # Judged now, once: the strategy of these rules is computed at the teacher's click,
            # not by forty polling phones at the first reveal.
            judged(rules, question)
        self.purge_expired()
        key = new_key()
        rows = [
            {"position": position, **question_row(question)}
            for position, question in enumerate(questions)
        ]
        for _ in range(10):
            code = new_code()
            session = {
                "code": code,
                "title": title,
                "rules": json.dumps(rules.as_dict()),
                "key_hash": hash_key(key),
                "created_at": self.clock(),
                "current": -1,
                "revealed": False,
                "failed_keys": 0,
                "creator_hash": creator,
                "creator_client": creator_client,
                "join_pattern": stored_pattern(new_pattern()) if join_step else None,
                "given_names": given_names,
                "group_id": group_id,
            }
            try:
                self.records.insert_session(session, rows)
            except sa.exc.IntegrityError:
                continue  # the code was taken: draw another
            return self.info(code), key
        raise RuntimeError("could not draw a free join code")  # pragma: no cover

    def sessions(self) -> list[SessionInfo]:
        """Every session kept and not expired, newest first: the administrator's view (the
        teacher's page lists none but the classes its own browser created)."""
        now = self.clock()
        rows = self.records.sessions(
            since=now - RETENTION, unstarted_since=now - UNSTARTED_RETENTION
        )
        return [self._session(row, "") for row in rows]

    def classes_of(self, learner_token: str) -> list[SessionInfo]:
        """The classes this browser created and still kept, newest first: what its teacher
        reopens with a click. Nothing of other browsers' classes."""
        rows = self.records.sessions(
            since=self.clock() - RETENTION,
            creator_hash=learner_hash(learner_token),
            unstarted_since=self.clock() - UNSTARTED_RETENTION,
        )
        return [self._session(row, "") for row in rows]

    def purge_expired(self) -> int:
        """Delete the sessions past ``RETENTION`` (past ``UNSTARTED_RETENTION`` when they never
        showed a question and are not finished: what a flood of creations leaves) with
        everything they hold, and the rate counts older than an hour; the number of sessions
        deleted. Run when a class is created."""
        now = self.clock()
        return self.records.purge(
            created_before=now - RETENTION,
            counted_before=now - timedelta(hours=1),
            unstarted_before=now - UNSTARTED_RETENTION,
        )

    def open_as_teacher(
        self,
        code: str,
        key: str,
        *,
        learner_token: str | None = None,
        client: str | None = None,
    ) -> Teacher:
        """The teacher's handle, if ``key`` is this session's; wrong keys lock the guesser out a
        while (``learner_token``: the guessing browser's; without one, the anonymous guesser).

        The lock belongs to the guesser, never to the class: a student who guesses from the
        public page locks only themselves out, and the teacher's own browser still gets in.
        A code that names no class counts as the guesser's wrong code (``client``: the
        request's network address), as a join's does: codes are not checked faster here.
        """
        info = self.guessed_info(code, self._guesser(learner_token, client))
        guesser = ANONYMOUS if learner_token is None else learner_hash(learner_token)
        now = self.clock()
        # The try is counted before the key is weighed (scrypt is the slow part): tries sent
        # together take one turn between them, and the rest wait out its lock unweighed.
        failures, locked_until, stored = self.records.claim_key_turn(
            info.id, guesser, now, lambda failures: now + lock_for(failures)
        )
        if locked_until is not None:
            wait = max((locked_until - now).total_seconds(), 0.1)
            raise SlowDownError(
                f"too many wrong keys: try again in {wait:.0f} s", seconds=round(wait, 1)
            )
        if key_matches(key, stored):
            self.records.forget_wrong_keys(info.id, guesser)
            return Teacher(info.id, info.code)
        raise WrongKeyError("this is not the teacher key of this session", failures=failures)

    def open_own(self, code: str, learner_token: str) -> Teacher:
        """The teacher's handle for a class this browser created, without the key: the
        browser's learner token (130 random bits) is a secret at least as strong as the key.
        ``NotYourClassError`` for any other class (the key is then the way in)."""
        row = self.records.session(code=normalise_code(code))
        info = self._session(row, "no class session has this code")  # refuses an expired one
        assert row is not None  # ``_session`` refused a missing one
        if row.creator_hash != learner_hash(learner_token):
            raise NotYourClassError("this browser did not create this class")
        return Teacher(info.id, info.code)

    def next_question(
        self, teacher: Teacher, *, expected_position: int | None = None
    ) -> SessionInfo:
        """Show the question after ``expected_position`` (the one on the teacher's screen; -1
        in the lobby); answers open for it. If the class has already left that question (the
        second click of a double click, another tab), nothing changes: one atomic
        ``UPDATE ... WHERE current = :position`` moves on once, never twice. Without
        ``expected_position``, the question on screen now (for scripts; a page passes it)."""
        info = self._teacher_info(teacher)
        if info.is_finished:
            raise SessionFinishedError("this session is finished")
        position = info.current if expected_position is None else expected_position
        if position + 1 >= info.questions:
            raise NotOpenError("that was the last question")
        self.records.move_on(teacher.session_id, position)
        self._changed(teacher.session_id)
        return self._teacher_info(teacher)

    def question(self, teacher: Teacher) -> ClassQuestion | None:
        """The question on screen (for the projector before the reveal); None before the first."""
        info = self._teacher_info(teacher)
        if not 0 <= info.current < info.questions:
            return None
        return self._question(teacher.session_id, info.current)

    def counts(self, teacher: Teacher) -> tuple[int, int]:
        """(answers to the current question, students joined): the teacher's live counter."""
        return self.records.counts(teacher.session_id)

    def students(self, teacher: Teacher) -> list[str]:
        """The nicknames joined so far, in the order they came (for the teacher to see)."""
        return self.records.nicknames(teacher.session_id)

    def remove_student(self, teacher: Teacher, nickname: str) -> None:
        """Send one student away (``remove_students`` of one name)."""
        self.remove_students(teacher, [nickname])

    def remove_students(self, teacher: Teacher, nicknames: Iterable[str]) -> list[str]:
        """Send students away (rude nicknames, a flood of made-up ones) in one transaction: their
        answers go with them, and their devices are no longer in the class. Returns the names
        removed, in joining order (a name already gone is not in it), for the page to count.

        A removed device holds no seat: while the class is open it may join again under
        another name; while the class is locked (``lock``) it cannot come back at all.
        At most ``MAX_SEATS`` names are read: a class seats no more."""
        names = list(itertools.islice(nicknames, MAX_SEATS))
        removed = self.records.remove_students(teacher.session_id, names)
        self._changed(teacher.session_id, students=True)
        return removed

    def remove_joined_within(self, teacher: Teacher, within: timedelta) -> list[str]:
        """Send away, in one transaction, everyone who joined in the last ``within`` (a flood of
        made-up names that came in at once); the names removed, in joining order."""
        removed = self.records.remove_where(
            teacher.session_id, joined_since=self.clock() - within
        )
        self._changed(teacher.session_id, students=True)
        return removed

    def remove_unanswered(self, teacher: Teacher) -> list[str]:
        """Send away, in one transaction, everyone who has not answered the question on screen
        (in the lobby: everyone who has answered nothing, which is everyone; once questions
        run, the phones that are not playing); the names removed, in joining order."""
        info = self._teacher_info(teacher)
        removed = self.records.remove_where(teacher.session_id, unanswered_at=info.current)
        self._changed(teacher.session_id, students=True)
        return removed

    def join_pattern(self, teacher: Teacher) -> tuple[str, ...] | None:
        """The symbols the projector shows for the second join step; None when the class has
        none. Only the teacher's handle reads it: no student page ever holds it."""
        row = self.records.session(session_id=teacher.session_id)
        if row is None or row.join_pattern is None:
            return None
        return read_pattern(row.join_pattern)

    def lock(self, teacher: Teacher, locked: bool = True) -> SessionInfo:
        """Lock the class (``locked``) or open it again: while locked nobody new takes a seat
        (``ClassLockedError``), a seated student still gets their seat back after a reload, and
        a removed one cannot come back under a new name. The database decides it inside each
        join's insert (``ClassRecords.insert_student``): a join racing this click is seated
        before it or refused after it, never seated once this returns."""
        self.records.set_locked(teacher.session_id, locked)
        self._changed(teacher.session_id)
        return self._teacher_info(teacher)

    def reveal(self, teacher: Teacher, *, expected_position: int | None = None) -> Reveal:
        """Close question ``expected_position`` and show how the class answered, with the
        right play. Revealing it again shows the same (a double click is harmless); a question
        the class has left raises ``MovedOnError`` and reveals nothing.

        One transaction: the ``UPDATE ... WHERE current = :position`` closes the question first
        (on PostgreSQL it waits for the answers being stored, which hold the session row), then
        the distribution is read, so every stored answer is in the chart."""
        info = self._teacher_info(teacher)
        position = info.current if expected_position is None else expected_position
        if position < 0:
            raise NotOpenError("no question has been shown yet")
        closed = self.records.close(teacher.session_id, position)
        self._changed(teacher.session_id)
        if closed is None:
            raise MovedOnError("the class has moved on from this question", position=position)
        row, actions, students = closed
        question = question_of(row)
        distribution = Counter(Action(action) for action in actions)
        return Reveal(
            question=question,
            distribution=dict(distribution),
            judgement=judged(info.rules, question),
            answered=sum(distribution.values()),
            students=students,
        )

    def finish(self, teacher: Teacher, *, expected_position: int | None = None) -> SessionInfo:
        """End the session: no more answers, the results shown. With ``expected_position``,
        only while the class is still on that question (a stale click does nothing)."""
        self.records.finish(teacher.session_id, self.clock(), expected_position)
        self._changed(teacher.session_id)
        return self._teacher_info(teacher)

    # -- the students' side --
    def join(
        self,
        code: str,
        nickname: str,
        *,
        learner_token: str | None = None,
        client: str | None = None,
        pattern: Sequence[str] | None = None,
    ) -> Student:
        """Take a seat in the session, or take back the seat this learner already holds.

        With ``learner_token`` (the browser's private learner token, ``tutor.identity``): if that
        learner already sits in this session, the same seat comes back (same nickname, same
        answers) with a fresh student token, whatever nickname was typed this time, even once
        the session is finished (to see its end). Otherwise a new seat under ``nickname``,
        refused if a seated student's nickname folds the same (``fold_nickname``: "CAMILLE
        dupont" is "Camille Dupont"), in a finished session, in a full one and in one the
        teacher has locked (``lock``: the seat comes back, a new name is refused).

        ``client`` is the request's network address (``tutor.ui.client``): a cookie-less script
        is a fresh browser at each join, so its address is what binds its failures (wrong codes,
        wrong patterns: ``tutor.classroom.tries``). A right code is never refused for its
        address: a school is one address. A join refused for its browser does not count in the
        class's bucket.

        ``pattern``: the symbols tapped, for a class with a second join step (``create``'s
        ``join_step``); none tapped is ``PatternNeededError``, others ``WrongPatternError``, and
        each wrong one is a failure of the guesser's address for this class. A seated student's
        reload needs no pattern: the seat comes back first.

        In a class with given names (``create``'s ``given_names``) the typed nickname is not
        read: the seat gets two friendly words drawn until one is free in the class.
        """
        guesser = self._guesser(learner_token, client)
        learner = guesser.browser
        info = self.guessed_info(code, guesser)  # a wrong code is the guesser's failure
        if learner is not None:
            self._throttle(f"join-browser:{learner}", JOINS_PER_MINUTE["browser"])
        self._throttle(f"join-class:{info.id}", JOINS_PER_MINUTE["class"])
        if learner is not None:
            seat = self._reseat(info.id, learner)
            if seat is not None:
                return seat
        if info.is_finished:
            raise SessionFinishedError("this session is finished")
        if info.locked:  # said before the nickname is judged; decided again by the insert
            raise ClassLockedError("the teacher has locked this class")
        if info.has_join_step:
            self._check_pattern(info.id, pattern, guesser)
        if self.records.seats(info.id) >= MAX_SEATS:  # said early; decided again by the insert
            raise ClassFullError("this class is full", seats=MAX_SEATS)
        if info.given_names is None:
            return self._seat(info, clean_nickname(nickname), learner)
        # A name drawn again when it is already seated: 900 names for at most 300 seats, so
        # each draw is free at least two times in three.
        for _ in range(GIVEN_NAME_DRAWS - 1):
            try:
                return self._seat(info, given_name(info.given_names), learner)
            except NicknameTakenError:
                continue
        return self._seat(info, given_name(info.given_names), learner)

    def _seat(self, info: SessionInfo, name: str, learner: str | None) -> Student:
        """A new seat under ``name``; ``NicknameTakenError`` if its folded name is seated,
        ``ClassLockedError`` if the teacher locked the class meanwhile, ``ClassFullError`` if the
        last seat went meanwhile (the insert counts the seats: a class never seats 301)."""
        token = secrets.token_urlsafe(16)
        try:
            student_id = self.records.insert_student(
                {
                    "session_id": info.id,
                    "nickname": name,
                    "folded": fold_nickname(name),
                    "learner_hash": learner,
                    "token_hash": student_token_hash(token),
                    "joined_at": self.clock(),
                    "reconnections": 0,
                },
                most=MAX_SEATS,
            )
        except sa.exc.IntegrityError:
            if learner is not None:
                # The same learner's other tab may have taken the seat between our two steps.
                seat = self._reseat(info.id, learner)
                if seat is not None:
                    return seat
            raise NicknameTakenError(
                "this nickname is taken in this session", nickname=name
            ) from None
        if student_id is None:  # locked by the teacher, or filled, since ``info`` was read
            if self.records.seats(info.id) >= MAX_SEATS:
                raise ClassFullError("this class is full", seats=MAX_SEATS)
            raise ClassLockedError("the teacher has locked this class")
        self._changed(info.id, students=True)
        return Student(student_id, info.id, name, token)

    def rejoin(self, code: str, learner_token: str) -> Student | None:
        """The seat this learner holds in the session, with a fresh student token; None if they
        hold none. For a page reloaded by a phone: back in class without typing anything.

        Everything it needs is in the database, so it works after a server restart too. Raises
        ``UnknownSessionError`` for an unknown code and ``InvalidRecoveryCodeError`` (a
        ``ValueError``) for a malformed learner token.
        """
        info = self.info(code)
        return self._reseat(info.id, learner_hash(learner_token))

    def roster(self, teacher: Teacher) -> list[Seat]:
        """Every seat of the session in joining order, with its reconnections and answer count,
        so the teacher's page can say "reconnected" rather than show a student twice."""
        return [
            Seat(row.nickname, row.joined_at, row.reconnections, int(row.answered))
            for row in self.records.roster(teacher.session_id)
        ]

    def student_view(self, student: Student) -> StudentView:
        """What the student's screen shows now. Polled by every phone every few seconds, so its
        reads are shared by all the phones this process serves for one tick (``ticks``): the
        session's row, its seats, the hand on screen and the answers to it are read once per
        class and tick, whatever the number of phones."""
        student = self._polled_student(student)
        session_id = student.session_id
        info = self._session(
            self.ticks.get(
                ("session", session_id), lambda: self.records.session(session_id=session_id)
            ),
            "no such class session",
        )
        question = None
        plays: tuple[Action, ...] = ()
        answer = best = None
        grade: Grade | None = None
        reason: Reason | None = None
        if 0 <= info.current < info.questions:
            position = info.current
            question = self.ticks.get(
                ("question", session_id, position), lambda: self._question(session_id, position)
            )
            allowed = legal(info.rules, question)
            plays = tuple(action for action in Action if action in allowed)
            given = self.ticks.get(
                ("answers", session_id, position),
                lambda: self.records.answers_at(session_id, position),
            )
            stored = given.get(student.id)
            answer = None if stored is None else Action(stored)
            if info.revealed:
                advice = judged(info.rules, question)
                best, reason = advice.play, advice.reason
                if answer is not None:
                    grade = judged(info.rules, question, answer).grade
        return StudentView(
            title=info.title,
            position=info.current,
            questions=info.questions,
            question=question,
            legal=plays,
            answer=answer,
            best=best,
            grade=grade,
            finished=info.is_finished,
            reason=reason,
            moment=info.moment,
        )

    def watched_moment(self, session_id: int) -> tuple[int, bool, bool] | None:
        """Where a class stands (``SessionInfo.moment``), read afresh rather than shared for a
        tick: the one look a process takes for all its phones of the class, a few times a second,
        to tell them when the class moved (``tutor.ui.class_mode.push``). When it has moved
        since the last look, what the phones share of the session is forgotten, so the screens
        they draw next read the new hand or reveal at once. None when the session is gone."""
        try:
            moment = self._info_by_id(session_id).moment
        except ClassroomError:
            return None
        if self._watched.get(session_id) != moment:
            self._watched[session_id] = moment
            self._changed(session_id)
        return moment

    def answer(self, student: Student, action: Action, *, position: int | None = None) -> None:
        """Record a student's answer to the open question: once, and only while it is open.

        ``position`` is the question the student was looking at: a page that polls every few
        seconds can still show question 3 after the teacher moved on, and a click there must
        not be counted as an answer to question 4. The checks run inside the storing
        transaction (``ClassRecords.store_answer``), so a reveal cannot slip between them and
        the insert.
        """

        def check(row: Any) -> None:
            if row is None:
                raise UnknownStudentError("this student is not in any session")
            if row.finished_at is not None:
                raise SessionFinishedError("this session is finished")
            if row.question_id is None or row.revealed:
                raise NotOpenError("no question is open for answers")
            if position is not None and row.current != position:
                raise NotOpenError("the teacher has moved on to another question")
            if action not in legal(rules_of(row.rules), question_of(row)):
                # The page offers only legal buttons; a forged request gets no further.
                raise IllegalAnswerError(f"{action.value} is not a legal play on this hand")

        try:
            stored = self.records.store_answer(
                student_token_hash(student.token), action.value, self.clock(), check
            )
        except sa.exc.IntegrityError:
            raise AlreadyAnsweredError("you have already answered this question") from None
        if not stored:
            raise NotOpenError("no question is open for answers")
        self._changed(student.session_id)

    def final_score(self, student: Student) -> FinalScore | None:
        """The student's own score and place once the class is finished (None before): right
        answers as every page grades them, among the questions asked. Computed once per
        finished class in this process (the answers no longer change), so the whole class's
        phones showing their score cost one read."""
        student = self._polled_student(student)
        session_id = student.session_id
        finals = self._finals.get(session_id)
        if finals is None:
            info = self._info_by_id(session_id)
            if not info.is_finished:
                return None
            finals = self._final_scores(info)
            self._finals[session_id] = finals
            while len(self._finals) > FINALS_KEPT:
                self._finals.pop(next(iter(self._finals)), None)
        asked, rights = finals
        mine = rights.get(student.id, 0)
        return FinalScore(
            right=mine,
            asked=asked,
            rank=1 + sum(1 for other in rights.values() if other > mine),
            students=len(rights),
            tied=sum(1 for other in rights.values() if other == mine) > 1,
        )

    def _final_scores(self, info: SessionInfo) -> tuple[int, dict[int, int]]:
        """(questions asked, right answers per seat id) of a finished class."""
        asked = [question_of(row) for row in self.records.questions(info.id)][: info.asked]
        rights = dict.fromkeys(self.records.seat_tokens(info.id), 0)
        for row in self.records.answers(info.id):
            if row.student_id in rights and row.position < len(asked):
                verdict = judged(info.rules, asked[row.position], Action(row.action))
                rights[row.student_id] += verdict.is_right
        return len(asked), rights

    def results(self, teacher: Teacher) -> ClassResults:
        """The results of the questions the class was shown (``tutor.classroom.results``), from
        this class's reads: the session, the questions asked, the seats and the answers."""
        info = self._teacher_info(teacher)
        seats = [(row.id, row.nickname) for row in self.records.roster(teacher.session_id)]
        given = {
            (row.student_id, row.position): Action(row.action)
            for row in self.records.answers(teacher.session_id)
        }
        return class_results(info, self.questions(teacher)[: info.asked], seats, given)

    def questions(self, teacher: Teacher) -> list[ClassQuestion]:
        """Every question of the session, asked or not, in order."""
        return [question_of(row) for row in self.records.questions(teacher.session_id)]
