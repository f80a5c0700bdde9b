"""Issue 14, item 5: the rule-key lint, with the source sentences' hashes kept in the Ruleset (stale keys).

The lint passes on every landed ruleset, and fails when an invariant is removed, when a fixture names a key no
invariant has, and when a rule sentence an editor's draft (``--rules-text``) changes. The first tests need no rule
text (they run from a clean clone); the last ones read the seed texts beside the checkout when they are there.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from conformance.commands.cli import main
from conformance.editors.matrix import _covered, encoded_numbers, lint_text, paragraphs, sentence_table
from reference_engine.kernel.ruletext import sentence_digest, split_sentences
from reference_engine.kernel.registry import get_ruleset

RULESETS = ["momon-wonder", "mtg", "redemption"]
TEXTS = {"momon-wonder": "momon-wonder-11.2.txt", "mtg": "mtg-cr-603.txt",
         "redemption": "redemption-triggered-ability.txt"}


def rules_text(name: str) -> str | None:
    from conftest import SHARED_RULES

    path = SHARED_RULES / TEXTS[name]
    return path.read_text("utf-8") if path.is_file() else None


@pytest.mark.parametrize("name", RULESETS)
def test_the_lint_passes_on_the_landed_rulesets(name):
    ruleset = get_ruleset(name)
    assert lint_text(ruleset, None) == []
    cited = {n for inv in ruleset.invariants for n in inv.rule_numbers.values()}
    assert cited <= set(ruleset.sentences), "every cited rule has its sentences recorded"
    keys = {inv.key for inv in ruleset.invariants}
    for number, sentences in ruleset.sentences.items():
        for digest, listed in sentences:
            assert set(listed) <= keys, (number, listed)
            assert listed or number in dict(ruleset.unencoded), f"a sentence of {number} with no key and no reason"
    encoded = {key for sentences in ruleset.sentences.values() for _, listed in sentences for key in listed}
    assert encoded == keys, "every key is anchored to at least one sentence"


@pytest.mark.parametrize("name", RULESETS)
def test_removing_an_invariant_fails_the_lint(name):
    ruleset = get_ruleset(name)
    for dropped in ruleset.invariants:
        fewer = replace(ruleset, invariants=tuple(i for i in ruleset.invariants if i is not dropped))
        problems = lint_text(fewer, None)
        # Its fixtures now name a key no invariant has; if it was the only key of its rule, the rule is unencoded.
        assert any(p.startswith(f"{dropped.key}: listed by fixture") for p in problems), dropped.key
        still = encoded_numbers(fewer)  # cited by a key left, or named in sentences by a key left
        for number in set(dropped.rule_numbers.values()):
            if not _covered(number, still) and number not in dict(ruleset.unencoded):
                assert any(p.startswith(f"{number}: ") for p in problems), (dropped.key, number)


def test_a_changed_sentence_makes_its_keys_stale_without_the_real_text():
    """The mechanism on a stand-in text (no rule text needed): sentences recorded from one text, a draft that edits
    one sentence flags that sentence's keys and no other."""
    momon = get_ruleset("momon-wonder")
    numbers = sorted(momon.sentences)
    stand_in = "\n\n".join(f"{n} Paragraph {k} as the keys were written from. Its second sentence {k}."
                           for k, n in enumerate(numbers))
    keys = {n: [(("first",) if k == 0 else ("second",)) for k in range(2)] for n in numbers}
    table: dict = {}
    exec(sentence_table(replace(momon, sentences={}), stand_in), table)
    recorded = replace(momon, sentences={n: tuple((d, keys[n][k]) for k, (d, _) in enumerate(rows))
                                         for n, rows in table["SENTENCES"].items()},
                       invariants=momon.invariants)
    assert [p for p in lint_text(recorded, stand_in) if "STALE" in p or "NEW" in p] == []
    draft = stand_in.replace("Its second sentence 3.", "Its second sentence 3, edited.")
    stale = [p for p in lint_text(recorded, draft) if "STALE" in p]
    assert stale == [f"second: STALE: sentence 2 of {numbers[3]} changed since the key was encoded; "
                     "re-read the rule"]
    assert any(p.startswith(f"{numbers[3]}: NEW wording of sentence 2") for p in lint_text(recorded, draft))
    assert sentence_digest("a  b\nc") == sentence_digest("a b c") != sentence_digest("a b d")


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", RULESETS)
def test_on_the_seed_texts_nothing_is_stale_and_each_sentence_edit_flags_its_keys_only(name):
    text = rules_text(name)
    if text is None:
        pytest.skip("the rule texts are not beside this checkout")
    ruleset = get_ruleset(name)
    assert lint_text(ruleset, text) == []
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a markdown link reads as its label
    assert lint_text(ruleset, text) == []
    found = paragraphs(name, text)
    for number, recorded in sorted(ruleset.sentences.items()):
        for index, sentence in enumerate(split_sentences(found[number]), 1):
            words = sentence.split(" ")
            edited_sentence = " ".join(words[:1] + ["EDITED"] + words[1:])
            assert _first_words(sentence) in " ".join(text.split()), (number, index)
            edited = _edit_sentence(text, sentence, edited_sentence, number)
            problems = lint_text(ruleset, edited)
            stale = {p.split(":")[0] for p in problems if "STALE" in p}
            assert stale == set(recorded[index - 1][1]), (number, index)
            new = [p for p in problems if "NEW wording" in p]
            assert len(new) == 1 and new[0].startswith(f"{number}: NEW wording of sentence {index}"), (number, index, new)
            if not recorded[index - 1][1]:  # a rule no key encodes: the edit is still reported
                assert any(p.startswith(f"{number}: sentence {index} of {number} changed") for p in problems)


def _first_words(sentence: str) -> str:
    return " ".join(sentence.split()[:4])


def _edit_sentence(text: str, sentence: str, replacement: str, number: str) -> str:
    """``text`` with ``sentence`` (whitespace-collapsed, perhaps wrapped over lines) replaced where it first occurs
    in rule ``number`` (a numbered rule's paragraph starts with its number; another text is searched whole)."""
    start = re.search(rf"^{re.escape(number)}\.? ", text, re.M)
    offset = start.start() if start else 0
    pattern = r"\s+".join(re.escape(word) for word in sentence.split())
    edited, count = re.subn(pattern, replacement.replace("\\", "\\\\"), text[offset:], count=1)
    assert count == 1, sentence[:60]
    return text[:offset] + edited


def test_lint_rules_rules_text_flags_a_stale_key(tmp_path, capsys):
    text = rules_text("momon-wonder")
    if text is None:
        pytest.skip("the rule texts are not beside this checkout")
    start = text.index("11.2.5 ")
    draft = tmp_path / "draft.txt"
    draft.write_text(text[:start] + text[start:].replace("after pending work", "before pending work", 1))
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--rules-text", str(draft), "--scenarios", "0"]) == 1
    out = capsys.readouterr().out
    stale = sorted(line.split()[1].rstrip(":") for line in out.splitlines() if "STALE" in line)
    # the keys of that sentence (2 of 11.2.5: "preserve their chronological order", which the order of one State-Based
    # Conditions pass's defeats reads too)
    assert stale == ["mw.append-after-pending", "mw.group-position", "mw.sbc-defeat-order"]
    assert "STALE: sentence 2 of 11.2.5 changed" in out
    assert "TEXT  refers to 11.3, which the text does not provide" in out
    original = tmp_path / "original.txt"
    original.write_text(text)
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--rules-text", str(original), "--scenarios", "0"]) == 0


@pytest.mark.parametrize("name", RULESETS)
def test_the_matrix_on_every_ruleset(name, capsys):
    assert main(["rules", "--ruleset", name, "--matrix"]) == 0
    out = capsys.readouterr().out
    ruleset = get_ruleset(name)
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == len(ruleset.invariants)
    for inv, row in zip(ruleset.invariants, rows):
        assert f"`{inv.key}`" in row and "no report" in row
        assert " 0 |" not in row  # every key has at least one fixture


def test_a_key_encodes_the_rules_its_recorded_sentences_name(capsys):
    """Issue 27 item 4: a key may encode several rule numbers and sub-rules; the lint counts a rule as encoded when
    a key cites it or when its recorded sentences name a key (not through ``unencoded``, which is for reasons)."""
    mtg = get_ruleset("mtg")
    numbers = encoded_numbers(mtg)
    assert {"603.2d", "603.2h", "603.6a"} <= numbers and "603.2c" in numbers  # sentences, and the cited number
    assert "603.2d" not in dict(mtg.unencoded) and lint_text(mtg, None) == []
    stripped = dict(mtg.sentences)
    stripped["603.2d"] = tuple((digest, ()) for digest, _ in stripped["603.2d"])
    problems = lint_text(replace(mtg, sentences=stripped), None)
    assert [p for p in problems if p.startswith("603.2d:")], problems  # neither encoded nor explained: reported
    assert main(["explain", "mtg.triggers-when-satisfied"]) == 0
    assert "also encodes, through their recorded sentences: " in capsys.readouterr().out


def test_an_empty_or_foreign_text_gets_one_clear_line_first(tmp_path, capsys):
    """A fresh user gave lint-rules an empty file, then another ruleset's text: 22 "cites 11.2.x, which the text does
    not have" lines and no hint. One line first now says the file does not look like the ruleset's text."""
    mtg_like = "603.2. Whenever a game event or game state matches a triggered ability's trigger event, it triggers."
    for content in ("", mtg_like):
        given = tmp_path / "draft.txt"
        given.write_text(content, "utf-8")
        assert main(["lint-rules", "--ruleset", "momon-wonder", "--rules-text", str(given), "--scenarios", "0"]) == 1
        lints = [line for line in capsys.readouterr().out.splitlines() if line.startswith("LINT  ")]
        assert lints[0] == (f"LINT  {given} does not look like momon-wonder's text (Momon Wonder Comprehensive "
                            "Rules, section 11.2 (Triggering and the Queue)): none of the rules its keys cite "
                            "(11.2.1, 11.2.2, 11.2.3, 11.2.4, 11.2.5, 11.2.6) are there; each is listed below")
        assert sum("does not look like" in line for line in lints) == 1 and len(lints) > 20
    text = rules_text("momon-wonder")
    if text is not None:  # the ruleset's own text: no such line
        assert not any("does not look like" in p for p in lint_text(get_ruleset("momon-wonder"), text, "x.txt"))
    ruleset = get_ruleset("momon-wonder")
    partial = "11.2.1 A triggered ability triggers when its trigger condition is satisfied."
    assert not any("does not look like" in p for p in lint_text(ruleset, partial))  # one rule there: a draft
