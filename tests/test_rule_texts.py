"""Rule numbers linted against the rule texts (issue 9, item 6), as test262 checks its ids against the spec: every
rule number an invariant cites exists in its ruleset's text, and every numbered rule of the text in scope has a rule
key. The texts are read from ../shared/rules (tests may; the installed tool never does)."""

from __future__ import annotations

import re

import pytest

from conftest import SHARED_RULES
from reference_engine.kernel.registry import get_ruleset

pytestmark = pytest.mark.skipif(not SHARED_RULES.is_dir(), reason="the rule texts are not beside this checkout")


def momon_numbers() -> set[str]:
    text = (SHARED_RULES / "momon-wonder-11.2.txt").read_text("utf-8")
    return set(re.findall(r"^(11\.2\.\d+) ", text, re.M))


def mtg_numbers() -> set[str]:
    text = (SHARED_RULES / "mtg-cr-603.txt").read_text("utf-8")
    return {n.rstrip(".") for n in re.findall(r"^(\d{3}\.\d+[a-z]?\.?) ", text, re.M)}


def redemption_numbers() -> set[str]:
    """TA.1 to TA.n: the paragraphs of the glossary entry after its title line."""
    text = (SHARED_RULES / "redemption-triggered-ability.txt").read_text("utf-8")
    body = text.split("Triggered Ability\n", 2)[-1]
    paragraphs = [line for line in body.splitlines() if line.strip()]
    return {f"TA.{n}" for n in range(1, len(paragraphs) + 1)}


TEXTS = {"momon-wonder": momon_numbers, "mtg": mtg_numbers, "redemption": redemption_numbers}


def test_the_texts_parse_into_the_numbers_we_expect():
    assert momon_numbers() == {f"11.2.{n}" for n in range(1, 7)}
    assert redemption_numbers() == {f"TA.{n}" for n in range(1, 7)}
    assert {"603.2", "603.3b", "603.4", "603.10a", "704.3", "117.5", "101.4", "405.5", "800.4a"} <= mtg_numbers()


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_cited_rule_number_exists_in_the_text(name):
    known = TEXTS[name]()
    ruleset = get_ruleset(name)
    cited = {(inv.key, edition, number) for inv in ruleset.invariants for edition, number in inv.rule_numbers.items()}
    missing = sorted(c for c in cited if c[2] not in known)
    assert not missing, f"rule numbers cited but not in the text: {missing}"


@pytest.mark.parametrize("name", ["momon-wonder", "redemption"])
def test_every_numbered_rule_of_the_text_has_a_key(name):
    ruleset = get_ruleset(name)
    cited = {number for inv in ruleset.invariants for number in inv.rule_numbers.values()}
    assert TEXTS[name]() <= cited, sorted(TEXTS[name]() - cited)


def test_every_mtg_603_rule_has_a_key_or_a_stated_reason():
    """CR 603's numbered rules are either encoded by a rule key or listed in the ruleset with the reason they are
    not (a definition, a rule about other objects than triggered abilities, a rule the vocabulary cannot express)."""
    ruleset = get_ruleset("mtg")
    cited = {number for inv in ruleset.invariants for number in inv.rule_numbers.values()}
    top_level = {n for n in mtg_numbers() if re.fullmatch(r"603\.\d+", n)}
    covered = {n for n in top_level if n in cited or any(c.startswith(n) and c[len(n):].isalpha() for c in cited)}
    unencoded = dict(ruleset.unencoded)
    assert top_level - covered <= set(unencoded), sorted(top_level - covered - set(unencoded))
    assert all(reason.strip() for reason in unencoded.values())
    assert set(unencoded) <= mtg_numbers(), "an unencoded rule number that is not in the text"
