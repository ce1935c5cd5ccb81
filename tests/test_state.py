"""The session's state, plain: which preset an edited table edits, said by the table itself."""

from __future__ import annotations

from tutor.rules import PRESETS, TableRules
from tutor.visit import rules_from_setting, rules_setting


def test_an_edited_preset_says_which_preset_it_edits() -> None:
    edited = PRESETS["french-casino"].edited(decks=2)
    assert (edited.edits, edited.preset, edited.decks) == ("french-casino", "french-casino", 2)
    again = edited.edited(decks=4)
    assert (again.edits, again.name) == ("french-casino", "french-casino*")
    assert (PRESETS["family"].edits, PRESETS["family"].preset) == ("", "family")
    assert TableRules(name="my-house").preset == "my-house"


def test_a_table_saved_before_edits_existed_reads_back_as_an_edit_of_its_preset() -> None:
    """A learner's settings row from before: the table's every option and the name
    ``family*``, no ``edits``."""
    old = PRESETS["family"].replace(name="family*", decks=2).as_dict()
    del old["edits"]
    back = rules_from_setting(old)
    assert back is not None
    assert (back.edits, back.decks) == ("family", 2)
    assert rules_from_setting(rules_setting(back)) == back


def test_a_rules_mapping_with_changes_is_an_edit_of_its_preset() -> None:
    rules = TableRules.from_mapping({"preset": "family", "decks": 2})
    assert (rules.name, rules.edits) == ("family*", "family")
    assert TableRules.from_mapping({"preset": "family"}).edits == ""
