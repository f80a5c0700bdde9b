"""Issue 14, item 5: the rule-key lint, with the source sentences' hashes kept in the Ruleset (stale keys).

The lint passes on every landed ruleset, and fails when an invariant is removed, when a fixture names a key no
invariant has, and when a rule sentence an editor's draft (``--rules-text``) changes. The first tests need no rule
text (they run from a clean clone); the last ones read the seed texts beside the checkout when they are there.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from conformance.cli import main
from conformance.editors.matrix import _covered, lint_text, paragraphs, text_hashes
from reference_engine.kernel.ruleset import sentence_digest
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
    assert cited <= set(ruleset.sentence_hashes), "every cited rule has the hash of its sentence"


@pytest.mark.parametrize("name", RULESETS)
def test_removing_an_invariant_fails_the_lint(name):
    ruleset = get_ruleset(name)
    for dropped in ruleset.invariants:
        fewer = replace(ruleset, invariants=tuple(i for i in ruleset.invariants if i is not dropped))
        problems = lint_text(fewer, None)
        # Its fixtures now name a key no invariant has; if it was the only key of its rule, the rule is unencoded.
        assert any(p.startswith(f"{dropped.key}: listed by fixture") for p in problems), dropped.key
        still = {n for i in fewer.invariants for n in i.rule_numbers.values()}
        for number in set(dropped.rule_numbers.values()):
            if not _covered(number, still) and number not in dict(ruleset.unencoded):
                assert any(p.startswith(f"{number}: ") for p in problems), (dropped.key, number)


def test_a_changed_sentence_makes_its_keys_stale_without_the_real_text():
    """The mechanism on a stand-in text (no rule text needed): hashes recorded from one text, a draft that edits
    one paragraph."""
    momon = get_ruleset("momon-wonder")
    numbers = sorted(momon.sentence_hashes)
    stand_in = "\n\n".join(f"{n} Paragraph {k} as the keys were written from." for k, n in enumerate(numbers))
    recorded = replace(momon, sentence_hashes=text_hashes(momon, stand_in))
    assert lint_text(recorded, stand_in) == []
    draft = stand_in.replace("Paragraph 3 as", "Paragraph 3, edited, as")
    stale = lint_text(recorded, draft)
    citing = sorted(inv.key for inv in momon.invariants if numbers[3] in inv.rule_numbers.values())
    assert citing and sorted(p.split(":")[0] for p in stale) == citing
    assert all(f"STALE: the text of {numbers[3]} changed" in p for p in stale)
    assert sorted(k for k, *_ in recorded.stale_keys(paragraphs("momon-wonder", draft))) == citing
    assert sentence_digest("a  b\nc") == sentence_digest("a b c") != sentence_digest("a b d")


@pytest.mark.parametrize("name", RULESETS)
def test_on_the_seed_texts_nothing_is_stale_and_an_edit_is(name):
    text = rules_text(name)
    if text is None:
        pytest.skip("the rule texts are not beside this checkout")
    ruleset = get_ruleset(name)
    assert lint_text(ruleset, text) == []
    found = paragraphs(name, text)
    assert {n: sentence_digest(found[n]) for n in ruleset.sentence_hashes} == dict(ruleset.sentence_hashes)
    for number in sorted(ruleset.sentence_hashes):
        if found[number] in text:  # a one-line paragraph
            edited = text.replace(found[number], found[number] + " EDITED", 1)
        else:  # a paragraph over several lines: edit its first line
            edited = re.sub(rf"^{re.escape(number)}(\.?) ", rf"{number}\1 EDITED ", text, count=1, flags=re.M)
        assert edited != text, number
        citing = {inv.key for inv in ruleset.invariants if number in inv.rule_numbers.values()}
        stale = {p.split(":")[0] for p in lint_text(ruleset, edited) if "STALE" in p}
        assert stale == citing, number


def test_lint_rules_rules_text_flags_a_stale_key(tmp_path, capsys):
    text = rules_text("momon-wonder")
    if text is None:
        pytest.skip("the rule texts are not beside this checkout")
    para = paragraphs("momon-wonder", text)["11.2.5"]
    draft = tmp_path / "draft.txt"
    draft.write_text(text.replace(para, para.replace("after", "before", 1)))
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--rules-text", str(draft), "--scenarios", "0"]) == 1
    out = capsys.readouterr().out
    assert "mw.append-after-pending: STALE: the text of 11.2.5 changed" in out
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
