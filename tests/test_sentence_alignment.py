"""Issue 33, items 1 and 2: a draft is read by sentence with a real alignment, on each of the three texts.

Deleting, adding, moving, merging, splitting or rewording sentences is each reported as what it is
(reference_engine/kernel/sentence_alignment.py), and only the keys of sentences that really changed become stale:
deleting one sentence never makes the unchanged sentences after it look changed. A paragraph merged into its
neighbour keeps its keys; an edit to two adjacent unnumbered Redemption paragraphs finds both. ``diff`` says what a
changed or added sentence means for the check, and never answers "no difference" with an exit code of 0 while a
sentence of the draft is checked by nothing.
"""

from __future__ import annotations

import pytest

from conformance.editors.matrix import check_changes, lint_text
from conftest import SHARED_RULES
from reference_engine.kernel.registry import get_ruleset, paragraphs
from reference_engine.kernel.ruletext import split_sentences
from reference_engine.kernel.sentence_alignment import align_rule

TEXTS = {"momon-wonder": "momon-wonder-11.2", "mtg": "mtg-cr-603", "redemption": "redemption-triggered-ability"}


def _text(name: str) -> str:
    path = SHARED_RULES / f"{TEXTS[name]}.txt"
    if not path.is_file():
        pytest.skip("the rule texts are not beside this checkout")
    return path.read_text("utf-8")


def _rule(name: str) -> tuple[str, list[str], str]:
    """A rule of ``name`` with at least three recorded sentences, each written word for word in the text file
    (so that a draft can be made by editing the file), its sentences, and the file's text."""
    ruleset, text = get_ruleset(name), _text(name)
    found = paragraphs(name, text)
    for number, recorded in sorted(ruleset.sentences.items(), key=lambda item: -len(item[1])):
        sentences = split_sentences(found.get(number, ""))
        if len(recorded) >= 3 and len(sentences) == len(recorded) and all(s in text for s in sentences):
            return number, sentences, text
    raise AssertionError(f"{name}: no rule with three sentences written out in full")


def _changes(name: str, draft: str):
    return [c for c in get_ruleset(name).stale_keys(paragraphs(name, draft))]


RULESETS = sorted(TEXTS)


@pytest.mark.parametrize("name", RULESETS)
def test_the_published_text_aligns_with_nothing_changed(name):
    assert _changes(name, _text(name)) == []


@pytest.mark.parametrize("name", RULESETS)
def test_a_deleted_sentence_is_removed_and_the_ones_after_it_are_unchanged(name):
    number, s, text = _rule(name)
    changes = _changes(name, text.replace(" " + s[1], "", 1))
    assert [(c.number, c.index, c.what) for c in changes] == [(number, 2, "removed")]
    assert changes[0].drops_keys and changes[0].keys == tuple(dict(get_ruleset(name).sentences[number])[_digest(s[1])])


@pytest.mark.parametrize("name", RULESETS)
def test_an_added_sentence_is_new_and_nothing_else(name):
    number, s, text = _rule(name)
    changes = _changes(name, text.replace(s[0], s[0] + " Each player draws a card at once.", 1))
    assert [(c.number, c.index, c.what, c.keys) for c in changes] == [(number, 2, "new", ())]
    assert changes[0].text == "Each player draws a card at once."


@pytest.mark.parametrize("name", RULESETS)
def test_a_reworded_sentence_is_changed_alone(name):
    number, s, text = _rule(name)
    reworded = s[1].replace(" ", "  ", 1).replace(" the ", " this ", 1) if " the " in s[1] else "Reworded. " + s[1]
    changes = _changes(name, text.replace(s[1], reworded, 1))
    stale = [(c.number, c.index) for c in changes if c.drops_keys]
    assert stale == [(number, 2)], changes


@pytest.mark.parametrize("name", RULESETS)
def test_two_sentences_merged_into_one_are_merged(name):
    number, s, text = _rule(name)
    merged = s[1].rstrip(".") + ", and " + s[2][0].lower() + s[2][1:]
    changes = _changes(name, text.replace(s[1] + " " + s[2], merged, 1))
    assert [(c.index, c.what) for c in changes] == [(2, "merged"), (3, "merged")]
    assert all(c.now == (2,) for c in changes)


@pytest.mark.parametrize("name", RULESETS)
def test_one_sentence_split_into_two_is_split(name):
    number, s, text = _rule(name)
    changes = _changes(name, text.replace(s[1], "This comes first. " + s[1].replace(" ", " so ", 1), 1))
    assert [(c.index, c.what, c.now) for c in changes] == [(2, "split", (2, 3))]


@pytest.mark.parametrize("name", ["mtg", "momon-wonder"])  # Redemption's reader places a known sentence by itself
def test_two_sentences_swapped_are_moved_and_keep_their_keys(name):
    number, s, text = _rule(name)
    changes = _changes(name, text.replace(s[0] + " " + s[1], s[1] + " " + s[0], 1))
    assert changes and all(c.what == "moved" and not c.drops_keys for c in changes), changes
    assert not [p for p in lint_text(get_ruleset(name), text.replace(s[0] + " " + s[1], s[1] + " " + s[0], 1))
                if "STALE" in p]


def test_a_sentence_moved_to_another_rule_is_moved_there():
    number, s, text = _rule("mtg")
    other = "603.2"
    found = paragraphs("mtg", text)
    draft = text.replace(" " + s[1], "", 1).replace(found[other], found[other] + " " + s[1], 1)
    changes = _changes("mtg", draft)
    assert [(c.number, c.index, c.what, c.to) for c in changes] == [(number, 2, "moved", other)]


def test_a_paragraph_merged_into_its_neighbour_keeps_its_keys():
    ruleset, text = get_ruleset("mtg"), _text("mtg")
    found = paragraphs("mtg", text)
    first, second = "603.2e", "603.2f"  # two short recorded rules, one after the other
    assert first in ruleset.sentences and second in ruleset.sentences
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(second + " "))
    merged_lines = [*lines[:at], "", *lines[at + 1:]]
    before = next(i for i, line in enumerate(merged_lines) if line.startswith(first + " "))
    merged_lines[before] += " " + found[second]
    changes = _changes("mtg", "\n".join(merged_lines))
    assert changes and all(c.what == "moved" and c.to == first and c.number == second for c in changes), changes


def test_the_reported_603_3b_deletion_flags_only_its_sentence():
    """Issue 33: deleting "(See rule 101.4.)" from 603.3b marked every later sentence CHANGED and a sentence 7 as
    "removed?"."""
    text = _text("mtg")
    draft = text.replace(" (See rule 101.4.)", "", 1)
    assert draft != text
    changes = _changes("mtg", draft)
    assert [(c.number, c.index, c.what) for c in changes] == [("603.3b", 3, "removed")]
    from conformance.editors.report import Sentences
    statuses = [e["status"] for e in Sentences(get_ruleset("mtg"), draft).at("603.3b", "2026-02-27")]
    assert statuses.count("as encoded") == len(statuses) - 1 and not any("removed?" in st for st in statuses)


def test_editing_two_adjacent_redemption_paragraphs_finds_both():
    """Issue 33: editing TA.4 and TA.5 together made the reader report TA.5 as missing (its keys kept)."""
    text = _text("redemption")
    draft = text.replace("If two mandatory triggered", "If two or more mandatory triggered", 1) \
        .replace("If two optional triggered", "If two or more optional triggered", 1)
    found = paragraphs("redemption", draft)
    assert {"TA.4", "TA.5"} <= set(found)
    changes = _changes("redemption", draft)
    assert [(c.number, c.what) for c in changes] == [("TA.4", "changed"), ("TA.5", "changed")]
    problems = lint_text(get_ruleset("redemption"), draft)
    assert not [p for p in problems if "does not have" in p]
    assert any(p.startswith("red.optional-choice: STALE") for p in problems)


def test_a_changed_sentence_says_what_is_no_longer_checked():
    number, s, text = _rule("momon-wonder")
    lines = check_changes(get_ruleset("momon-wonder"), text.replace(s[1], "Reworded entirely, it says less.", 1))
    assert len(lines) == 1 and "keys dropped:" in lines[0] and "still in force:" in lines[0]
    assert "NOT CHECKED until an invariant for it is given (--with" in lines[0]


def test_diff_never_says_no_difference_silently_about_an_added_sentence(tmp_path, capsys):
    """Issue 33: a sentence added to 11.2.5 gave "no difference found" and exit 0 while lint-rules flagged it."""
    from conformance.commands.cli import main

    text = _text("momon-wonder")
    first = split_sentences(paragraphs("momon-wonder", text)["11.2.5"])[0]
    draft = tmp_path / "draft.txt"
    draft.write_text(text.replace(first, first + " A trigger put at the front of the Trigger Queue resolves last.", 1))
    # A few scenarios: what is checked is the text's alignment, not the search (issue 26).
    assert main(["diff", "--ruleset", "momon-wonder", "--rules-text", str(draft), "--scenarios", "3"]) == 1
    out = capsys.readouterr().out
    assert "CHECK new sentence 2 of 11.2.5: no key encodes it" in out
    assert "NOT CHECKED: 1 changed or new sentence(s)" in out


def test_align_rule_reads_a_replaced_block_one_to_one():
    recorded = [("a", ("k1",)), ("b", ("k2",)), ("c", ("k3",))]
    aligned = align_rule("R", recorded, ["x.", "y.", "z."])
    assert [a.what for a in aligned] == ["changed", "changed", "changed"]


def _digest(sentence: str) -> str:
    from reference_engine.kernel.ruletext import sentence_digest
    return sentence_digest(sentence)
