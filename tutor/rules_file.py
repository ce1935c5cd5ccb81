"""A table's rules from a file or a preset's name: the command line's ``--rules`` and benchmarks.

Why apart from ``tutor.rules``: reading a file is where most things go wrong (a missing file,
bytes that are not text, TOML or YAML that does not parse, an alias bomb), and none of it is about
the rules themselves, which ``TableRules.from_mapping`` reads once the file is a mapping.

>>> load_rules("family") is PRESETS["family"]
True
>>> try:
...     load_rules("vegas")
... except InvalidRulesError as error:
...     error.code
'rules-no-file'
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from tutor.refusal import Refusal
from tutor.rules import PRESETS, InvalidRulesError, TableRules
from tutor.yaml_reader import BOUNDS, Issue, YamlProblem, read_yaml

#: The largest rules file read: a rules file is a few lines (a preset and some overrides). The
#: YAML reader's bound, which a TOML file is held to as well.
MAX_RULES_BYTES = BOUNDS.max_bytes


def load_rules(spec: str | Path) -> TableRules:
    """A preset's name, or a TOML/YAML file of rules (``preset = ...`` plus overrides).

    Every failure is an ``InvalidRulesError`` naming the file and saying why, never another
    exception: a missing or unreadable file, a file too large, text that is not UTF-8, TOML or
    YAML that does not parse or that ``tutor.yaml_reader`` refuses within its ``BOUNDS`` (aliases
    as in lesson files: an alias bomb expands without bound), a value of the wrong type.
    """
    text = str(spec)
    if text in PRESETS:
        return PRESETS[text]
    path = Path(text)
    if not path.is_file():
        presets = ", ".join(PRESETS)
        raise InvalidRulesError.of(
            "rules-no-file",
            f"{text!r} is neither a preset ({presets}) nor an existing rules file",
            spec=text[:200],
            presets=presets,
        )
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_RULES_BYTES + 1)
    except OSError as error:
        raise InvalidRulesError.of(
            "rules-unreadable", f"{path}: cannot read the file: {error.strerror}", path=str(path)
        ) from None
    if len(raw) > MAX_RULES_BYTES:
        kilobytes = MAX_RULES_BYTES // 1024
        raise InvalidRulesError.of(
            "rules-file-too-large",
            f"{path}: a rules file is a few lines, not more than {kilobytes} KB",
            path=str(path),
            kilobytes=kilobytes,
        )
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidRulesError.of(
            "rules-not-utf8",
            f"{path}: the file is not UTF-8 text (byte {error.start + 1} cannot be read)",
            path=str(path),
            byte=error.start + 1,
        ) from None
    data = _parse_rules_text(path, source)
    if not isinstance(data, dict):
        raise InvalidRulesError.of(
            "rules-not-mapping",
            f"{path}: a rules file is a mapping of option = value",
            path=str(path),
        )
    try:
        return TableRules.from_mapping(data)
    except InvalidRulesError as error:
        # The same mistakes, named in the file: the message says where, the refusals why.
        raise InvalidRulesError(error.refusals, f"{path}: {error}", error.problems) from None
    except TypeError as error:
        raise InvalidRulesError.of(
            "rules-not-mapping", f"{path}: {error}", path=str(path)
        ) from None


def _parse_rules_text(path: Path, source: str) -> object:
    """The file's data, TOML or YAML by its suffix; a syntax error is an ``InvalidRulesError``."""
    if path.suffix == ".toml":
        try:
            return tomllib.loads(source)
        except tomllib.TOMLDecodeError as error:
            raise InvalidRulesError.of(
                "rules-toml-syntax", f"{path}: the TOML does not parse: {error}", path=str(path)
            ) from None
        except RecursionError:
            raise InvalidRulesError.of(
                "rules-nests-too-deeply", f"{path}: the file nests too deeply", path=str(path)
            ) from None
    read = read_yaml(source)
    if read.refused is not None:
        refusal, sentence = _yaml_refusal(read.refused)
        raise InvalidRulesError(refusal, f"{path}: {sentence}")
    # As ``yaml.safe_load(...) or {}`` read it before: an empty file is the default table, and a
    # key given twice keeps its last value.
    return read.data or {}


def _yaml_refusal(problem: YamlProblem) -> tuple[Refusal, str]:
    """Why the YAML reader refused a rules file, as a refusal and the owner's English sentence."""
    line, column = problem.position.line, problem.position.column
    at = f"line {line}, column {column}"

    def refused(code: str, message: str, **params: object) -> tuple[Refusal, str]:
        return Refusal(code, {"line": line, "column": column, **params}), message

    if problem.kind in (Issue.ALIAS, Issue.ANCHOR):
        # A rules file is one flat mapping, so an alias is never needed.
        return refused("rules-yaml-alias", f"aliases and anchors are not allowed ({at})")
    if problem.kind is Issue.DEPTH:
        return refused("rules-nests-too-deeply", f"the file nests too deeply ({at})")
    if problem.kind is Issue.NODES:
        most = BOUNDS.max_nodes
        message = f"a rules file is a few lines, not more than {most:,} values ({at})"
        return refused("rules-yaml-too-many-values", message, most=most)
    if problem.kind is Issue.SIZE:
        kilobytes = MAX_RULES_BYTES // 1024
        message = f"a rules file is a few lines, not more than {kilobytes} KB"
        return refused("rules-file-too-large", message, kilobytes=kilobytes)
    if problem.kind is Issue.VALUE:
        return refused("rules-yaml-value", f"cannot read a value: {problem.detail}")
    if problem.kind is Issue.CHARACTER:
        message = f"the YAML does not parse at {at}: the file contains {problem.detail}"
        return refused("rules-yaml-syntax", message)
    return refused("rules-yaml-syntax", f"the YAML does not parse at {at}: {problem.detail}")
