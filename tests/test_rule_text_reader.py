"""Issue 21, item 3: the rule texts are read sentence by sentence, whatever form they come in.

The reader survives page footers, link lines, headings, bullets and re-wrapping (the published pages in
../shared/rules/published read the same as the plain files); a one-word edit flags only the keys of its sentence;
a rule of the scope that no key cites is reported when it changes or disappears; and the sections and terms a text
relies on without providing them are reported.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from conformance.editors.matrix import lint_text, paragraphs, text_findings
from conftest import SHARED_RULES
from reference_engine.kernel.registry import get_ruleset
from reference_engine.kernel.ruletext import clean_lines, numbered_paragraphs, split_sentences

TEXTS = {"momon-wonder": "momon-wonder-11.2", "mtg": "mtg-cr-603", "redemption": "redemption-triggered-ability"}


def _text(name: str, published: bool = False) -> str:
    path = SHARED_RULES / ("published" if published else "") / f"{TEXTS[name]}{'.page' if published else ''}.txt"
    if not path.is_file():
        pytest.skip("the rule texts are not beside this checkout")
    return path.read_text("utf-8")


def test_sentences_are_cut_at_their_ends_only():
    assert split_sentences("One rule. Two rules! (See rule 1.2.) “Quoted. Still quoted.” Last") == [
        "One rule.", "Two rules!", "(See rule 1.2.)", "“Quoted. Still quoted.”", "Last"]
    assert split_sentences("It reads “When X, Y.” Then it stops.") == ["It reads “When X, Y.”", "Then it stops."]
    assert split_sentences("Use it, e.g. Twice. And a 3.5 value. 603.3b applies.") == [
        "Use it, e.g. Twice.", "And a 3.5 value.", "603.3b applies."]
    assert split_sentences("  wrapped\n   over   lines.  ") == ["wrapped over lines."]


def test_page_furniture_is_not_rule_text():
    page = ("> For the index, see [the list](https://example.invalid/llms.txt).\n\n# 1.1 A title\n\n"
            "1.1.1 First rule, with a [link](/x.md) in it.\n\n- 1.1.2 A bulleted\nrule over two lines.\n\n"
            "---\n\n# Site boilerplate\nNot a rule. 1.1.3 is mentioned.\n")
    found = numbered_paragraphs(page, r"^(1\.1\.\d+) ")
    assert found == {"1.1.1": "First rule, with a link in it.", "1.1.2": "A bulleted rule over two lines."}
    assert "Site boilerplate" not in " ".join(clean_lines(page, re.compile(r"^1\.1\.\d+ ")))
    # A horizontal rule between numbered rules separates excerpts; only one after the last rule starts a footer.
    excerpts = "1.1.1 One.\n\n----\n\n1.1.2 Two.\n\n----\n\nfooter\n"
    assert numbered_paragraphs(excerpts, r"^(1\.1\.\d+) ") == {"1.1.1": "One.", "1.1.2": "Two."}


@pytest.mark.parametrize("name", ["momon-wonder", "redemption"])
def test_the_published_page_reads_as_the_plain_file(name):
    plain, page = _text(name), _text(name, published=True)
    assert paragraphs(name, page) == paragraphs(name, plain)
    assert lint_text(get_ruleset(name), page) == []


def test_the_published_mtg_index_page_matches_the_first_sentences_of_the_rules():
    """MTG's page is the chapter's index: each line repeats the chapter title and gives a rule's first words, cut
    short. What it has in full matches the recorded sentences; nothing is stale, nothing is new."""
    ruleset = get_ruleset("mtg")
    index = paragraphs("mtg", _text("mtg", published=True))
    plain = paragraphs("mtg", _text("mtg"))
    assert sorted(index) == sorted(n for n in plain if re.fullmatch(r"603\.\d+", n))
    for number, line in index.items():
        assert not line.startswith("Handling Triggered Abilities")
        assert plain[number].startswith(line.rstrip("…").rstrip())
    problems = lint_text(ruleset, _text("mtg", published=True))
    assert problems and all((": cites " in p and "which the text does not have" in p) or "is not in the text" in p
                            for p in problems)
    assert not any("STALE" in p or "NEW" in p for p in problems)


def _rewrap(text: str, width: int) -> str:
    out = []
    for block in re.split(r"\n\s*\n", text):
        lines = block.splitlines()
        if len(lines) == 1 and len(lines[0]) > width:
            out.append(textwrap.fill(lines[0], width))
        else:
            out.append(block)
    return "\n\n".join(out)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_re_wrapping_changes_nothing(name):
    plain = _text(name)
    for width in (40, 61, 79):
        wrapped = _rewrap(plain, width) if name != "redemption" else "\n".join(
            textwrap.fill(line, width) if line.strip() else line for line in plain.splitlines())
        assert paragraphs(name, wrapped) == paragraphs(name, plain), width
        assert lint_text(get_ruleset(name), wrapped) == [], width


def test_a_one_word_edit_of_the_remedy_sentence_flags_only_its_key():
    text = _text("momon-wonder")
    draft = text.replace("may place a restored trigger at the front", "may place a restored trigger at the back")
    assert draft != text
    problems = lint_text(get_ruleset("momon-wonder"), draft)
    assert [p.split(":")[0] for p in problems if "STALE" in p] == ["mw.remedy-front"]
    assert len([p for p in problems if p.startswith("11.2.4: NEW wording of sentence 7")]) == 1


def test_an_uncited_subrule_rewritten_or_deleted_is_reported():
    text = _text("mtg")
    ruleset = get_ruleset("mtg")
    rewritten = text.replace("These trigger only at the time the named event happens",
                             "These trigger whenever the named state holds")
    assert rewritten != text
    problems = lint_text(ruleset, rewritten)
    assert any(p.startswith("603.2e: sentence 2 of 603.2e changed (unencoded:") for p in problems)
    assert not any("STALE" in p for p in problems)
    deleted = re.sub(r"^603\.3c .*\n", "", text, flags=re.M)
    assert deleted != text
    assert any(p.startswith("603.3c: a rule the keys were written from is not in the text")
               for p in lint_text(ruleset, deleted))
    added = text.replace("603.4. A triggered ability may read", "603.3e A new subrule an editor wrote.\n\n"
                                                                  "603.4. A triggered ability may read")
    assert added != text
    assert any(p.startswith("603.3e: a numbered rule of the text with no rule key") for p in lint_text(ruleset, added))


def test_what_the_momon_text_relies_on_without_providing_it_is_reported():
    notes = text_findings(get_ruleset("momon-wonder"), _text("momon-wonder"))
    joined = "\n".join(notes)
    assert "refers to 9.3, which the text does not provide" in joined
    assert re.search(r"refers to 11\.3, .*modelled by option same_event_order", joined)
    for term in ("State-Based Conditions", "Snatch Check", "Missed Trigger Remedy", "Effect-Based Summon",
                 "PROCEDURE AND PENALTY GUIDE"):
        assert f"uses the term “{term}” without defining it" in joined, term
    assert not any("Felidar" in n or "Manticore" in n for n in text_findings(get_ruleset("mtg"), _text("mtg")))
