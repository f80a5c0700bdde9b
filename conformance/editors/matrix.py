"""The rule-key coverage matrix and the rule-text lint for editors.

* :func:`matrix`: rule key x rule number x invariant (module:function) x fixtures that list the key x scenarios that
  exercised it in a run report (``--report FILE``, schemas/report.schema.json).
* :func:`lint_text`: an editor's text (``--rules-text FILE``) against the ruleset: every numbered rule has a key or
  a stated reason in ``Ruleset.unencoded``; every key has an invariant and a bundled fixture; a key whose rule's
  text changed since it was encoded is flagged *stale*. The sentence hashes are stored here
  (:data:`TEXT_HASHES`, sha256 of the rule's paragraph with whitespace collapsed, first 16 hex digits), so the
  installed tool never reads ../shared/rules.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from conformance.fixtures import bundled_fixtures
from reference_engine.core.ruleset import Ruleset

# Ruleset -> rule number -> hash of the paragraph that rule number heads in the text the keys were written from
# (Momon Wonder 1.0.0 section 11.2; MTG CR 603 as of 2026-02-27 with 704.3 etc.; Redemption REG glossary).
# Regenerate with text_hashes(ruleset, text) after re-reading every key the change touches.
TEXT_HASHES: dict[str, dict[str, str]] = json.loads("""{
 "momon-wonder": {
  "11.2.1": "ac60a85933704930",
  "11.2.2": "7d4bf0e65f575bc7",
  "11.2.3": "10258f3590854dd9",
  "11.2.4": "465306a7ff265c26",
  "11.2.5": "7d3266ee889c98af",
  "11.2.6": "fbb2ef4d0a6f2351"
 },
 "mtg": {
  "113.7a": "dcc5cee86ae5482f",
  "405.5": "24b264482d79be33",
  "603.10a": "081064eb85ef254c",
  "603.12": "181e1976523c70f3",
  "603.2": "334c5da040a0084e",
  "603.2c": "a77b3655b4586858",
  "603.2g": "80a67eace9024b5d",
  "603.3": "9d020e82ffb4b20f",
  "603.3a": "42ccba743a88febd",
  "603.3b": "2428e9ee2a9ba8c2",
  "603.3d": "c15931bc71387fe8",
  "603.4": "91174699e78972bd",
  "603.5": "add6ba67a96cef77",
  "603.7b": "10e78f9853a413a6",
  "603.7e": "ef23bcc43047f453",
  "603.8": "c654c901026620e0",
  "608.2": "c3ad495df46d2a40",
  "704.3": "a836b0ece8328ab6",
  "704.4": "f617bac4df9e9829",
  "800.4a": "8a58982df67430ab"
 },
 "redemption": {
  "TA.1": "4f767f7fb908510b",
  "TA.2": "a20084ce1d9585c1",
  "TA.3": "3b98f3e903267e22",
  "TA.4": "8812751b76f743d8",
  "TA.5": "749bb94cf2faaab0",
  "TA.6": "f53f346a79d28340"
 }
}""")


def paragraphs(ruleset: str, text: str) -> dict[str, str]:
    """Rule number -> its paragraph, for the text format of each ruleset (Momon ``11.2.N ``, MTG ``NNN.Nx ``,
    Redemption: the glossary entry's paragraphs after its title line, TA.1...). Raises KeyError for another
    ruleset."""
    if ruleset == "redemption":
        body = text.split("Triggered Ability\n", 2)[-1]
        lines = [line for line in body.splitlines() if line.strip()]
        return {f"TA.{n}": line for n, line in enumerate(lines, 1)}
    pattern = {"momon-wonder": r"^(11\.2\.\d+) ", "mtg": r"^(\d{3}\.\d+[a-z]?)\.? "}[ruleset]
    found: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        match = re.match(pattern, line)
        if match:
            current = match.group(1)
            found[current] = line[match.end():]
        elif current and line.strip() and not re.match(r"^\d{3}\.", line):
            found[current] += " " + line.strip()
        elif not line.strip():
            current = None if ruleset == "mtg" else current
    return found


def digest(paragraph: str) -> str:
    return hashlib.sha256(" ".join(paragraph.split()).encode("utf-8")).hexdigest()[:16]


def text_hashes(ruleset: Ruleset, text: str) -> dict[str, str]:
    """Rule number -> hash, for every rule number some key of ``ruleset`` cites and ``text`` has."""
    found = paragraphs(ruleset.name, text)
    cited = sorted({n for inv in ruleset.invariants for n in inv.rule_numbers.values()})
    return {n: digest(found[n]) for n in cited if n in found}


def _fixture_keys(ruleset: Ruleset) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for fixture in bundled_fixtures(ruleset.name):
        for key in fixture.rule_keys:
            table.setdefault(key, []).append(fixture.id)
    return table


def lint_text(ruleset: Ruleset, text: str | None) -> list[str]:
    """Problems (empty when the ruleset and ``text`` agree). Without ``text``, only the ruleset's own checks
    (every key an invariant and a fixture)."""
    problems: list[str] = []
    fixtures = _fixture_keys(ruleset)
    for inv in ruleset.invariants:
        if inv.key not in fixtures:
            problems.append(f"{inv.key}: no bundled fixture lists this key")
    if text is None:
        return problems
    found = paragraphs(ruleset.name, text)
    cited = {n for inv in ruleset.invariants for n in inv.rule_numbers.values()}
    unencoded = dict(ruleset.unencoded)
    in_scope = set(found) if ruleset.name != "mtg" else {n for n in found if re.fullmatch(r"603\.\d+", n)}
    for number in sorted(in_scope):
        covered = number in cited or any(c.startswith(number) and c[len(number):].isalpha() for c in cited)
        if not covered and number not in unencoded:
            problems.append(f"{number}: a numbered rule of the text with no rule key and no stated reason "
                            "(Ruleset.unencoded)")
    stored = TEXT_HASHES.get(ruleset.name, {})
    for inv in ruleset.invariants:
        for edition, number in sorted(set(inv.rule_numbers.items())):
            if number not in found:
                problems.append(f"{inv.key}: cites {number} ({edition}), which the text does not have")
            elif number in stored and digest(found[number]) != stored[number]:
                problems.append(f"{inv.key}: STALE: the text of {number} changed since the key was encoded "
                                f"(hash {digest(found[number])}, stored {stored[number]}); re-read the rule")
    return problems


def matrix(ruleset: Ruleset, report: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One row per rule key: key, rule numbers, invariant (module:function), fixtures, and from ``report`` (a run
    report of this ruleset) the scenarios that exercised it and its status (None without a report)."""
    fixtures = _fixture_keys(ruleset)
    rules = {r["key"]: r for r in (report or {}).get("rules", ())}
    rows = []
    for inv in ruleset.invariants:
        check = inv.check
        rows.append({
            "key": inv.key,
            "rules": ", ".join(f"{n} ({e})" for e, n in inv.rule_numbers.items()),
            "invariant": f"{getattr(check, '__module__', '?')}:{getattr(check, '__qualname__', '?')}",
            "fixtures": sorted(fixtures.get(inv.key, ())),
            "exercised": rules[inv.key]["scenarios_exercised"] if inv.key in rules else None,
            "status": rules[inv.key]["status"] if inv.key in rules else None,
        })
    return rows


def render_matrix(rows: list[dict[str, Any]]) -> str:
    lines = ["| key | rule | invariant | fixtures | scenarios exercised (status) |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        run = "no report" if row["exercised"] is None else f"{row['exercised']} ({row['status']})"
        lines.append(f"| `{row['key']}` | {row['rules']} | `{row['invariant'].rsplit('.', 1)[-1]}` | "
                     f"{len(row['fixtures'])} | {run} |")
    return "\n".join(lines)
