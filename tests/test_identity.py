"""A learner's secret and display names: the rules of ``tutor.identity``."""

from __future__ import annotations

import doctest

import pytest

import tutor.identity
from tutor.identity import (
    ALPHABET,
    TOKEN_LENGTH,
    InvalidRecoveryCodeError,
    fold_nickname,
    format_code,
    new_token,
    parse_code,
    token_hash,
)


def test_the_examples_in_the_docstrings_hold() -> None:
    result = doctest.testmod(tutor.identity)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_token_is_26_crockford_characters_with_at_least_128_random_bits() -> None:
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000  # no repeats
    assert all(len(token) == TOKEN_LENGTH for token in tokens)
    assert set("".join(tokens)) == set(ALPHABET)  # every character drawn, nothing else
    assert not set("ILOU") & set(ALPHABET)
    assert TOKEN_LENGTH * 5 >= 128
    # The first character carries full 5 bits too (no leading zero padding of a short number).
    assert len({token[0] for token in tokens}) == 32


def test_the_displayed_code_reads_back_as_the_token() -> None:
    token = new_token()
    shown = format_code(token)
    groups = shown.split("-")
    assert "".join(groups) == token
    assert all(len(group) in (4, 5) for group in groups)
    assert parse_code(shown) == token


@pytest.mark.parametrize(
    "typed",
    [
        "01234-56789-abcd-efgh-jkmn-pqrs",  # lower case
        "01234 56789 ABCD EFGH JKMN PQRS",  # spaces
        " 0123456789ABCDEFGHJKMNPQRS\n",  # pasted with a newline
        "O1234-56789-ABCD-EFGH-JKMN-PQRS",  # the letter O for zero
        "0I234-56789-ABCD-EFGH-JKMN-PQRS",  # I for one
        "0l234-56789-ABCD-EFGH-JKMN-PQRS",  # l for one
    ],
)
def test_a_typed_code_is_read_the_way_people_copy_it(typed: str) -> None:
    assert parse_code(typed) == "0123456789ABCDEFGHJKMNPQRS"


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "26 characters"),
        ("0123456789ABCDEFGHJKMNPQR", "this one has 25"),
        ("0123456789ABCDEFGHJKMNPQRST", "this one has 27"),
        ("0123456789ABCDEFGHJKMNPQRU", "'U'"),
        ("0123456789ABCDEFGHJKMNPQR!", "'!'"),
        ("0123456789ABCDEFGHJKMNPQRé", "except I, L, O and U"),
    ],
)
def test_a_code_that_cannot_be_one_is_refused_with_the_reason(typed: str, says: str) -> None:
    with pytest.raises(InvalidRecoveryCodeError, match=says):
        parse_code(typed)


def test_a_refused_code_is_a_value_error_for_callers_that_catch_those() -> None:
    with pytest.raises(ValueError, match="recovery code"):
        parse_code("nope")


def test_only_a_hash_of_the_token_is_meant_to_be_stored() -> None:
    token = new_token()
    hashed = token_hash(token)
    assert len(hashed) == 64
    assert set(hashed) <= set("0123456789abcdef")
    assert token not in hashed
    assert token_hash(token) == hashed  # stable: a lookup key
    assert token_hash(new_token()) != hashed


@pytest.mark.parametrize(
    "variant",
    ["Camille Dupont", "camille  DUPONT", "Camille Dupönt", " CAMILLE\tdupont ", "Ｃamille Dupont"],
)
def test_nicknames_fold_case_accents_and_spacing_away(variant: str) -> None:
    assert fold_nickname(variant) == "camille dupont"


def test_different_names_stay_different_when_folded() -> None:
    assert fold_nickname("Camille Dupont") != fold_nickname("Camille Dupond")
    assert fold_nickname("Ana") != fold_nickname("Anna")
