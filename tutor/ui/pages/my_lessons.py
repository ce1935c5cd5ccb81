"""« Mes leçons »: a teacher writes a lesson in the browser, reads the checker's problems at their
lines, previews it as a learner meets it, publishes it and gives students its link.

Thin: what a lesson may be, who may change it and what publishing does are ``tutor.authoring``'s
(``Shelf``); the preview is the lessons page's own player, never a second one. The editor is a
text area (the Streamlit editor components on PyPI are unmaintained, and AppTest cannot type into
them); the text is shown under it with line numbers and YAML colours, and each problem quotes its
line with a mark under the column.
"""

from __future__ import annotations

import html
import re
import zlib
from collections.abc import Sequence
from urllib.parse import quote

import streamlit as st

from tutor.authoring import Changes, Checked, LessonHandle, TeacherLesson
from tutor.authoring_form import format_guide, step_titles
from tutor.lessons import Problem
from tutor.render.lesson_problems import place_text
from tutor.render.lesson_problems import problem_sentence as reason_sentence
from tutor.render.markup import plain_title
from tutor.render.refusals import refusal_text
from tutor.render.translator import Translator
from tutor.store import TEXT_MAX_BYTES, TeacherLessonError
from tutor.ui.class_mode.join import base_url, qr_data_uri
from tutor.ui.client import client_address
from tutor.ui.lesson_form import lesson_form
from tutor.ui.resources import shelf
from tutor.ui.state import app_state
from tutor.visit import AppState, AuthoringPages

LESSONS_PAGE = "tutor/ui/pages/lessons_page.py"
#: A link token or a whole link typed to reopen a lesson, and a key: longer is refused unread.
REOPEN_MAX_CHARS = 200
KEY_MAX_CHARS = 64
#: The editor's height in pixels: a four-step lesson fits without scrolling, beside the form.
EDITOR_HEIGHT = 640


def student_link(base: str, token: str) -> str:
    """The address that opens a published lesson for a student: the lessons page (the app's
    default page, so its root) with the lesson's link token.

    >>> student_link("http://192.168.1.20:8501/", "ABCD")
    'http://192.168.1.20:8501/?l=ABCD'
    """
    return f"{base.rstrip('/')}/?l={quote(token)}"


#: The characters Markdown would read in a checker's sentence (it quotes the teacher's text).
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$])")


def problem_sentence(problem: Problem, t: Translator, titles: Sequence[str] = ()) -> str:
    """A checker's problem in the teacher's language, for Markdown: where in the lesson, as a
    teacher reads it (« étape 2 « Que faites-vous ? », réponse », ``place_text``, with the few
    words each step is known by in ``titles``) and why (``tutor.render.lesson_problems``); the
    line and column are said beside it."""
    if problem.reason is None:
        text = problem.message
    else:
        place = place_text(problem.label, titles, t) if problem.label else ""
        where = place[:1].upper() + place[1:] + " : " if place else ""
        if t.language != "fr":
            where = where.replace(" : ", ": ")
        text = t.typeset(where) + reason_sentence(problem.reason, t)
    return _MARKDOWN.sub(r"\\\1", text)


def changes_sentence(changes: Changes, t: Translator) -> str:
    """« 2 étapes modifiées, 1 étape ajoutée »: what a new version changed for its learners."""
    parts = []
    if changes.modified:
        parts.append(t.plural("{n} step changed", "{n} steps changed", changes.modified))
    if changes.added:
        parts.append(t.plural("{n} step added", "{n} steps added", changes.added))
    if changes.removed:
        parts.append(t.plural("{n} step removed", "{n} steps removed", changes.removed))
    return ", ".join(parts) if parts else t.gettext("no step changed")


def _say(pages: AuthoringPages, message: str, *, success: bool = False) -> None:
    pages.message = message
    pages.success = success


def _open(pages: AuthoringPages, handle: LessonHandle, checked: Checked | None = None) -> None:
    pages.open = handle
    pages.checked = checked
    pages.editor_round += 1


# -- the list -------------------------------------------------------------------------------------


def start_screen(state: AppState, pages: AuthoringPages) -> None:
    t = state.t
    _ = t.gettext
    room = shelf()
    st.markdown(
        _(
            "Write a lesson of your own: the checker reads it at every save, the preview plays it"
            " as a student will, and once published its link opens it for your students only."
        )
    )
    new_col, upload_col = st.columns(2)
    with new_col:
        if st.button(
            _("New lesson"), key="author-new", type="primary", icon=":material/add_circle:"
        ):
            _create(state, pages, None)
            st.rerun()
    # In an expander: Streamlit's uploader speaks English of its own (its button, its limit),
    # shown only to a teacher who asks for it.
    with upload_col, st.expander(_("Or start from a lesson file (.yaml)")):
        uploaded = st.file_uploader(
            _("A lesson file (.yaml)"),
            type=["yaml", "yml"],
            key=f"author-upload-{pages.editor_round}",
        )
        if uploaded is not None and st.button(_("Create from this file"), key="author-from-file"):
            if uploaded.size > TEXT_MAX_BYTES:
                _say(pages, t.format("A lesson is at most {most} KB.", most=TEXT_MAX_BYTES // 1024))
            else:
                raw = uploaded.read(TEXT_MAX_BYTES + 1)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    _say(pages, _("This file is not UTF-8 text: save it as UTF-8 and try again."))
                else:
                    _create(state, pages, text)
            st.rerun()
    _message(pages)
    mine = room.lessons_of(state.learner_token)
    reopened = [h for h in pages.reopened if h not in {lesson.handle for lesson in mine}]
    others = []
    for handle in reopened:
        try:
            others.append(room.lesson(handle))
        except TeacherLessonError:
            pages.reopened.remove(handle)
    if mine or others:
        st.markdown("### " + _("Your lessons"))
    for lesson in [*mine, *others]:
        _lesson_line(lesson, pages, t)
    with st.expander(_("A lesson written in another browser: its link and key")):
        link = st.text_input(_("The lesson's link"), key="author-reopen-link",
                             max_chars=REOPEN_MAX_CHARS)
        key = st.text_input(_("Lesson key"), key="author-reopen-key", type="password",
                            max_chars=KEY_MAX_CHARS)
        if st.button(_("Open"), key="author-reopen"):
            token = str(link).rsplit("l=", 1)[-1].split("&")[0].strip()
            try:
                handle = room.open_with_key(
                    token[:REOPEN_MAX_CHARS],
                    str(key)[:KEY_MAX_CHARS],
                    learner_token=state.learner_token,
                    client=client_address(),
                )
            except TeacherLessonError as error:
                _say(pages, refusal_text(error, t))
            else:
                if handle not in pages.reopened:
                    pages.reopened.append(handle)
                _open(pages, handle)
            st.rerun()


def _lesson_line(lesson: TeacherLesson, pages: AuthoringPages, t: Translator) -> None:
    if lesson.is_published:
        status = t.format("published (version {n})", n=lesson.version)
        if lesson.unpublished_changes:
            status += " · " + t.gettext("changes not published")
    else:
        status = t.gettext("draft")
    line, button = st.columns([5, 1], vertical_alignment="center")
    line.markdown(f"**{plain_title(lesson.title)}** · {status}")
    if button.button(t.gettext("Open"), key=f"author-open-{lesson.token}", width="stretch"):
        _open(pages, lesson.handle)
        st.rerun()


def _create(state: AppState, pages: AuthoringPages, text: str | None) -> None:
    try:
        handle, key = shelf().create(state.learner_token, text, client=client_address())
    except TeacherLessonError as error:
        _say(pages, refusal_text(error, state.t))
        return
    pages.key = key
    pages.message = None
    lesson = shelf().lesson(handle)
    _open(pages, handle, shelf().check(state.learner_token, lesson.draft, handle))


# -- the editor ---------------------------------------------------------------------------------


def editor(state: AppState, pages: AuthoringPages, handle: LessonHandle) -> None:
    t = state.t
    _ = t.gettext
    room = shelf()
    try:
        lesson = room.lesson(handle)
    except TeacherLessonError:
        pages.open = None
        st.rerun()
    if st.button("← " + _("My lessons"), key="author-back"):
        pages.open = None
        pages.checked = None
        pages.message = None
        st.rerun()
    st.title(plain_title(lesson.title), anchor=False)
    if pages.key is not None:
        _key_once(pages, lesson, t)
    text_key = f"author-text-{handle.row_id}-{pages.editor_round}"
    # The text as the box holds it now (typed but not saved yet): the form's changes start from it.
    current = str(st.session_state.get(text_key, lesson.draft))

    def write(new_text: str) -> None:
        """The form's change, saved and checked as a text typed and saved is; the text box then
        shows it."""
        try:
            pages.checked = room.save(
                handle, new_text, state.learner_token, client=client_address()
            )
        except TeacherLessonError as error:
            _say(pages, refusal_text(error, t))
        else:
            pages.message = None
        pages.editor_round += 1
        pages.form_round += 1
        st.rerun()

    # The form beside the text (one under the other on a phone): both write the same text.
    form_col, text_col = st.columns(2, gap="medium")
    with form_col, st.container(key="author-form"):
        st.markdown("## :material/edit_note: " + _("Form"))
        st.caption(
            _(
                "Write the lesson without YAML: each change is written into the YAML text and"
                " checked at once."
            )
        )
        lesson_form(
            current,
            t,
            # A new saved text (from the form or the text box) draws the form afresh from it.
            key=f"author-form-{handle.row_id}-{zlib.crc32(lesson.draft.encode())}"
            f"-{pages.form_round}",
            write=write,
        )
    with text_col, st.container(key="author-editor"):
        st.markdown("## :material/code: " + _("YAML text"))
        text = st.text_area(
            _("The lesson (YAML)"),
            value=lesson.draft,
            key=text_key,
            height=EDITOR_HEIGHT,
            max_chars=TEXT_MAX_BYTES,
        )
    _guide(t)
    save_col, preview_col, publish_col = st.columns(3)
    saved = save_col.button(
        _("Save and check"), key="author-save", icon=":material/save:", width="stretch"
    )
    if saved:
        try:
            pages.checked = room.save(
                handle, str(text), state.learner_token, client=client_address()
            )
        except TeacherLessonError as error:
            _say(pages, refusal_text(error, t))
        else:
            pages.message = None
        st.rerun()
    checked = pages.checked
    if checked is None or checked.text != lesson.draft:
        checked = pages.checked = room.check(state.learner_token, lesson.draft, handle)
    unsaved = str(text) != lesson.draft
    if preview_col.button(
        _("Preview"),
        key="author-preview",
        icon=":material/play_circle:",
        disabled=not checked.is_ok or unsaved,
        width="stretch",
    ):
        _preview(state, pages, lesson)
    if publish_col.button(
        _("Publish"),
        key="author-publish",
        type="primary",
        icon=":material/publish:",
        disabled=not checked.is_ok or unsaved,
        width="stretch",
    ):
        try:
            publication = room.publish(handle, state.learner_token)
        except TeacherLessonError as error:
            _say(pages, refusal_text(error, t))
        else:
            said = t.format("Published: version {n}.", n=publication.version)
            if publication.version > 1:
                said += " " + changes_sentence(publication.changes, t) + "."
            _say(pages, said, success=True)
        st.rerun()
    if unsaved:
        st.caption(_("Save to check the text before previewing or publishing it."))
    _message(pages)
    _problems(checked, t)
    with st.expander(_("The text, line by line"), expanded=False):
        st.code(lesson.draft, language="yaml", line_numbers=True)
    if lesson.is_published:
        _link(state, lesson)
    st.divider()
    with st.expander(_("Delete this lesson")):
        st.markdown(_("Its link stops working and its students' progress on it is erased."))
        if st.button(_("Delete it for good"), key="author-delete", icon=":material/delete:"):
            room.delete(handle)
            if handle in pages.reopened:
                pages.reopened.remove(handle)
            pages.open = None
            pages.checked = None
            _say(pages, _("The lesson is deleted."), success=True)
            st.rerun()


def _guide(t: Translator) -> None:
    """The format's guide, in the teacher's language, opened on the page."""
    with st.expander(
        ":material/menu_book: " + t.gettext("The lesson format: the guide"), expanded=False
    ), st.container(key="author-guide"):
        st.markdown(format_guide(t.language))


def _problems(checked: Checked, t: Translator) -> None:
    if checked.is_ok:
        st.success(t.gettext("The checker finds no problem."), icon=":material/check_circle:")
        return
    st.error(
        t.plural("The checker finds {n} problem:", "The checker finds {n} problems:",
                 len(checked.problems)),
        icon=":material/error:",
    )
    titles = step_titles(checked.text, t.language)
    for problem in checked.problems:
        with st.container(border=True, key=f"author-problem-{problem.line}-{problem.column}"):
            st.markdown(
                t.format("**Line {line}, column {column}**", line=problem.line,
                         column=problem.column)
                + " · "
                + problem_sentence(problem, t, titles)
            )
            quoted = checked.line(problem.line)
            if quoted:
                mark = " " * (len(str(problem.line)) + 2 + problem.column - 1) + "^"
                st.code(f"{problem.line}: {quoted}\n{mark}", language=None)


def _key_once(pages: AuthoringPages, lesson: TeacherLesson, t: Translator) -> None:
    with st.container(border=True):
        st.warning(
            t.gettext(
                "Write this lesson key down: it is shown only this once. With the lesson's link"
                " it reopens the lesson from another browser."
            ),
            icon=":material/key:",
        )
        st.code(pages.key or "", language=None)
        if st.button(t.gettext("I have written it down"), key="author-key-noted"):
            pages.key = None
            st.rerun()


def _link(state: AppState, lesson: TeacherLesson) -> None:
    t = state.t
    url = student_link(base_url(state.classes), lesson.token)
    st.markdown("### " + t.gettext("For your students"))
    left, right = st.columns([3, 2])
    with left:
        st.markdown(t.gettext("This link opens the published lesson; give it to your students:"))
        st.code(url, language=None)
        st.caption(
            t.gettext("Only those who have the link see the lesson; drafts never reach them.")
        )
    with right:
        st.markdown(
            f'<img src="{qr_data_uri(url)}" alt="{html.escape(url)}" '
            'style="width:100%;max-width:260px;image-rendering:pixelated"/>',
            unsafe_allow_html=True,
        )


def _preview(state: AppState, pages: AuthoringPages, lesson: TeacherLesson) -> None:
    """Play the saved draft on the lessons page, with its player, as a learner meets it."""
    preview = shelf().preview_lesson(lesson.draft)
    if preview is None:
        return
    state.open_lesson(preview.model_copy(update={"id": "~" + lesson.token}))
    pages.previewing = True
    st.switch_page(LESSONS_PAGE)


def _message(pages: AuthoringPages) -> None:
    if pages.message:
        if pages.success:
            st.success(pages.message, icon=":material/check_circle:")
        else:
            st.error(pages.message, icon=":material/error:")


def main() -> None:
    state = app_state()
    pages = state.authoring
    if pages.open is None:
        st.title(state.t.gettext("My lessons"), anchor=False)
        start_screen(state, pages)
    else:
        editor(state, pages, pages.open)


main()
