"""Where a course's lesson files are: the built-in folder, the folders a technician adds
(``TUTOR_LESSONS_DIR``), the files a list of paths names, and a cheap fingerprint of them.

A module of its own because this is the file system's side of loading, with its own refusal
(a link out of its folder is never read), and the app's course cache keys on it
(``fingerprint``) without loading anything; ``tutor.lessons.course`` reads what it finds.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from tutor.lessons.findings import Code, why
from tutor.lessons.problems import Problem

#: The built-in course shipped with the app.
BUILTIN_LESSONS = Path(__file__).resolve().parents[2] / "lessons"
#: The variable that names folders of lessons a technician adds to the built-in course, several
#: separated by ``os.pathsep`` (``:`` on Linux).
LESSONS_DIR_VARIABLE = "TUTOR_LESSONS_DIR"


def fingerprint(paths: Iterable[str | Path]) -> tuple[object, ...]:
    """What the course read from ``paths`` depends on, cheap to compute (one ``stat`` per lesson
    file, none read): each folder's lesson files by name, modification time and size. A lesson
    added, changed or removed changes it, so a course cached under it is loaded again.
    """
    marks: list[object] = []
    for raw in paths:
        path = Path(raw)
        try:
            if path.is_dir():
                entries = sorted(
                    (entry for entry in path.iterdir() if entry.suffix in (".yaml", ".yml")),
                    key=lambda entry: entry.name,
                )
                marks.append((str(path), tuple(_mark(entry) for entry in entries)))
            else:
                marks.append((str(path), _mark(path)))
        except OSError:
            marks.append((str(path), None))
    return tuple(marks)


def _mark(path: Path) -> tuple[str, int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return (path.name, status.st_mtime_ns, status.st_size)


def served_folders(environ: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The folders of the course the app serves: the built-in course, then each folder that
    ``TUTOR_LESSONS_DIR`` names, in its order (an empty part is skipped, a folder named twice
    is read once; one that does not exist is reported by the course, as any missing path).

    >>> served_folders({"TUTOR_LESSONS_DIR": "/srv/a" + os.pathsep + os.pathsep + "/srv/b"})[1:]
    (PosixPath('/srv/a'), PosixPath('/srv/b'))
    """
    env = os.environ if environ is None else environ
    extra = [Path(part) for part in env.get(LESSONS_DIR_VARIABLE, "").split(os.pathsep) if part]
    return tuple(dict.fromkeys([BUILTIN_LESSONS, *extra]))


def lesson_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[Problem]]:
    """The lesson files named by ``paths``: files as given, folders' ``*.yaml`` by file name.

    A file must be where it is listed: one that resolves outside its folder (a symbolic link out
    of ``lessons/``, to ``/etc/passwd`` or a teacher's private notes) is refused here, before a
    byte of it is read, so that no error message can quote what it holds."""
    found: list[Path] = []
    problems: list[Problem] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for entry in sorted(path.iterdir(), key=lambda p: p.name):
                if entry.suffix not in (".yaml", ".yml") or not entry.is_file():
                    continue
                if _outside(entry, path):
                    problems.append(_outside_problem(entry))
                else:
                    found.append(entry)
        elif path.is_file():
            if _outside(path, path.parent):
                problems.append(_outside_problem(path))
            else:
                found.append(path)
        else:
            problems.append(
                Problem(
                    path, 1, 1, "no such lesson file or folder", Code.FILE, why("lesson-no-file")
                )
            )
    unique = list(dict.fromkeys(found))
    return unique, problems


def _outside(path: Path, folder: Path) -> bool:
    """Whether ``path``, its links followed, lies outside ``folder`` (links followed too)."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return True
    except (OSError, RuntimeError):  # a loop of links: nothing to read there either
        return True
    return False


def _outside_problem(path: Path) -> Problem:
    return Problem(
        path,
        1,
        1,
        "the file is a link to a file outside its folder: refused without being read (copy the"
        " lesson into the folder instead)",
        Code.FILE,
        why("lesson-link-outside"),
    )


def is_builtin(path: Path) -> bool:
    """Whether ``path`` belongs to the built-in course, which must be bilingual."""
    try:
        path.resolve().relative_to(BUILTIN_LESSONS)
    except ValueError:
        return False
    return True
