"""The rule-key coverage matrix and the rule-text lint for editors.

* :func:`matrix`: rule key x rule number x invariant (module:function) x fixtures that list the key x scenarios that
  exercised it in a run report (``--report FILE``, schemas/report.schema.json).
* :func:`lint_text`: an editor's text (``--rules-text FILE``) against the ruleset: every numbered rule has a key or
  a stated reason in ``Ruleset.unencoded``; every key has an invariant and a bundled fixture; a key whose rule's
  text changed since it was encoded is flagged *stale*. The sentence hashes live with the rule keys, in the
  Ruleset (``Ruleset.sentence_hashes``, each ruleset's ``sentences.py``; ``sentence_digest``), so the installed
  tool never reads ../shared/rules.
"""

from __future__ import annotations

import re
from typing import Any

from conformance.fixtures import bundled_fixtures
from reference_engine.kernel.registry import paragraphs, unit
from reference_engine.kernel.ruleset import Ruleset, sentence_digest


digest = sentence_digest  # the name earlier callers use


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


def _covered(number: str, cited: set[str]) -> bool:
    """A rule number is encoded when a key cites it or one of its lettered subrules (603.3 by 603.3b)."""
    return number in cited or any(c.startswith(number) and c[len(number):].isalpha() for c in cited)


def _rule_scope(name: str) -> str | None:
    """The rule numbers of the ruleset's text that its keys must encode (the unit's ``rule_scope``; None: all)."""
    try:
        return unit(name).rule_scope
    except KeyError:
        return None


def lint_text(ruleset: Ruleset, text: str | None) -> list[str]:
    """Problems (empty when the ruleset and ``text`` agree). Without ``text``, only the ruleset's own checks
    (every key an invariant and a fixture)."""
    problems: list[str] = []
    fixtures = _fixture_keys(ruleset)
    keys = {inv.key for inv in ruleset.invariants}
    for inv in ruleset.invariants:
        if inv.key not in fixtures:
            problems.append(f"{inv.key}: no bundled fixture lists this key")
    for key in sorted(set(fixtures) - keys):
        problems.append(f"{key}: listed by fixture(s) {', '.join(sorted(fixtures[key]))} but no invariant has this key")
    cited_numbers = {n for inv in ruleset.invariants for n in inv.rule_numbers.values()}
    unencoded_numbers = dict(ruleset.unencoded)
    for number in sorted(ruleset.sentence_hashes):
        if not _covered(number, cited_numbers) and number not in unencoded_numbers:
            problems.append(f"{number}: a sentence the keys were written from (Ruleset.sentence_hashes) that no rule "
                            "key encodes any more")
    if text is None:
        return problems
    found = paragraphs(ruleset.name, text)
    cited = {n for inv in ruleset.invariants for n in inv.rule_numbers.values()}
    unencoded = dict(ruleset.unencoded)
    scope = _rule_scope(ruleset.name)
    in_scope = {n for n in found if scope is None or re.fullmatch(scope, n)}
    for number in sorted(in_scope):
        if not _covered(number, cited) and number not in unencoded:
            problems.append(f"{number}: a numbered rule of the text with no rule key and no stated reason "
                            "(Ruleset.unencoded)")
    for inv in ruleset.invariants:
        for edition, number in sorted(set(inv.rule_numbers.items())):
            if number not in found:
                problems.append(f"{inv.key}: cites {number} ({edition}), which the text does not have")
    for key, number, stored, now in ruleset.stale_keys(found):
        if stored is None:
            problems.append(f"{key}: no sentence hash is stored for {number} (Ruleset.sentence_hashes); record the "
                            f"sentence it encodes (hash {now})")
        else:
            problems.append(f"{key}: STALE: the text of {number} changed since the key was encoded "
                            f"(hash {now}, stored {stored}); re-read the rule")
    return problems


def matrix(ruleset: Ruleset, report: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One row per rule key: key, rule numbers, invariant (module:function), fixtures, and from ``report`` the
    scenarios that exercised it and its status (both None without a report).

    ``report`` is a run of this ruleset, either a JSON report (``schemas/report.schema.json``: its ``rules`` list)
    or, as ``conformance.editors.commands`` reads a stream or a report, ``{"rules": {key: {"scenarios_exercised",
    "status"}}, "interrupted", "not_checked"}``. A key without a verdict in the report has no exercised count and
    the status ``"not checked (interrupted)"`` when the run was interrupted before checking it (``not_checked``),
    else ``"not in this run"`` (a run of some keys only)."""
    fixtures = _fixture_keys(ruleset)
    given = (report or {}).get("rules", ())
    rules = given if isinstance(given, dict) else {r["key"]: r for r in given}
    not_checked = set((report or {}).get("not_checked") or ()) if (report or {}).get("interrupted") else set()
    rows = []
    for inv in ruleset.invariants:
        check = inv.check
        status = rules[inv.key]["status"] if inv.key in rules else None
        if status is None and report is not None:
            status = "not checked (interrupted)" if inv.key in not_checked else "not in this run"
        rows.append({
            "key": inv.key,
            "rules": ", ".join(f"{n} ({e})" for e, n in inv.rule_numbers.items()),
            "invariant": f"{getattr(check, '__module__', '?')}:{getattr(check, '__qualname__', '?')}",
            "fixtures": sorted(fixtures.get(inv.key, ())),
            "exercised": rules[inv.key]["scenarios_exercised"] if inv.key in rules else None,
            "status": status,
        })
    return rows


def render_matrix(rows: list[dict[str, Any]]) -> str:
    lines = ["| key | rule | invariant | fixtures | scenarios exercised (status) |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        if row["exercised"] is not None:
            run = f"{row['exercised']} ({row['status']})"
        else:
            run = row["status"] or "no report"  # "not checked (interrupted)", or no report given
        lines.append(f"| `{row['key']}` | {row['rules']} | `{row['invariant'].rsplit('.', 1)[-1]}` | "
                     f"{len(row['fixtures'])} | {run} |")
    return "\n".join(lines)
