"""The rule-key coverage matrix and the rule-text lint for editors.

* :func:`matrix`: rule key x rule number x invariant (module:function) x fixtures that list the key x scenarios that
  exercised it in a run report (``--report FILE``, schemas/report.schema.json).
* :func:`lint_text`: an editor's text (``--rules-text FILE``) against the ruleset: every numbered rule of its scope
  has a key or a stated reason in ``Ruleset.unencoded``; every key has an invariant and a bundled fixture; a
  sentence that changed since the keys were encoded flags the keys recorded for that sentence only (*stale*). The
  sentence fingerprints live with the rule keys, in the Ruleset (``Ruleset.sentences``, each ruleset's
  ``sentences.py``), so the installed tool never reads ../shared/rules.
* :func:`text_findings`: the sections and rules a text refers to but does not hold, and the terms it never defines.
* :func:`sentence_table`: the fingerprint table for a new text, for a ruleset's sentences.py.
"""

from __future__ import annotations

import re
from typing import Any

from conformance.documents.fixture_files import bundled_fixtures
from reference_engine.kernel.registry import paragraphs, unit
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.kernel.ruletext import provides, references, sentence_digest, split_sentences, undefined_terms


def fixture_editions(ruleset: Ruleset) -> dict[str, int]:
    """How many bundled fixtures of ``ruleset`` each edition has, most first."""
    counts: dict[str, int] = {}
    for fixture in bundled_fixtures(ruleset.name):
        counts[fixture.scenario["edition"]] = counts.get(fixture.scenario["edition"], 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _fixture_keys(ruleset: Ruleset) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for fixture in bundled_fixtures(ruleset.name):
        for key in fixture.rule_keys:
            table.setdefault(key, []).append(fixture.id)
    return table


def sentence_table(ruleset: Ruleset, text: str) -> str:
    """The ``SENTENCES`` table of ``ruleset``'s sentences.py for ``text`` (Python source to paste there after
    re-reading the flagged keys): every rule of the text that the ruleset records, cites or has in its scope, each
    sentence with the keys recorded for the same sentence, else for the sentence in its place, else every key
    citing the rule."""
    found = paragraphs(ruleset.name, text)
    citing: dict[str, list[str]] = {}
    for inv in ruleset.invariants:
        for number in dict.fromkeys(inv.rule_numbers.values()):
            citing.setdefault(number, []).append(inv.key)
    lines = ["SENTENCES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {"]
    for number, paragraph in found.items():
        if not (number in ruleset.sentences or number in citing or _in_scope(ruleset, number)):
            continue
        recorded = list(ruleset.sentences.get(number, ()))
        by_digest = dict(recorded)
        lines.append(f'    "{number}": (')
        for k, sentence in enumerate(split_sentences(paragraph)):
            digest = sentence_digest(sentence)
            keys = by_digest.get(digest) or (recorded[k][1] if k < len(recorded) else tuple(citing.get(number, ())))
            listed = "".join(f'"{key}", ' for key in keys).strip()
            lines.append(f'        ("{digest}", ({listed})),')
        lines.append("    ),")
    return "\n".join(lines + ["}"]) + "\n"


def _in_scope(ruleset: Ruleset, number: str) -> bool:
    scope = _rule_scope(ruleset.name)
    return scope is None or re.fullmatch(scope, number) is not None


def _covered(number: str, cited: set[str]) -> bool:
    """A rule number is encoded when a key cites it or one of its lettered subrules (603.3 by 603.3b)."""
    return number in cited or any(c.startswith(number) and c[len(number):].isalpha() for c in cited)


def encoded_numbers(ruleset: Ruleset) -> set[str]:
    """The rule numbers some key encodes: the number each key cites (its rule number in each edition), and every
    number whose recorded sentences (``Ruleset.sentences``) name a key, so that one key encodes several rules and
    sub-rules (mtg.triggers-when-satisfied: 603.2, and 603.2d, 603.2h and 603.6a through their sentences)."""
    cited = {n for inv in ruleset.invariants for n in inv.rule_numbers.values()}
    keys = {inv.key for inv in ruleset.invariants}  # a key the table names but no invariant has encodes nothing
    cited.update(number for number, sentences in ruleset.sentences.items()
                 if any(keys.intersection(named) for _, named in sentences))
    return cited


def _rule_scope(name: str) -> str | None:
    """The rule numbers of the ruleset's text that its keys must encode (the unit's ``rule_scope``; None: all)."""
    try:
        return unit(name).rule_scope
    except KeyError:
        return None


def lint_text(ruleset: Ruleset, text: str | None, name: str = "the text") -> list[str]:
    """Problems (empty when the ruleset and ``text`` agree). Without ``text``, only the ruleset's own checks: every
    key an invariant and a fixture, every recorded rule encoded by a key or explained in ``Ruleset.unencoded``.
    With ``text`` (read by the ruleset's rule-text reader, so a page's footer, link lines, headings, bullets and
    re-wrapping change nothing), sentence by sentence: a changed or removed sentence flags only the keys recorded
    for it (``KEY: STALE: ...``); a new sentence, a rule of the scope that nothing encodes or explains, and a cited
    rule the text lacks are problems too. A text holding none of the rules the keys cite (an empty file, another
    ruleset's text) gets one line first saying so, ``name`` (the file's) naming it."""
    problems: list[str] = []
    fixtures = _fixture_keys(ruleset)
    keys = {inv.key for inv in ruleset.invariants}
    for inv in ruleset.invariants:
        if inv.key not in fixtures:
            problems.append(f"{inv.key}: no bundled fixture lists this key")
    for key in sorted(set(fixtures) - keys):
        problems.append(f"{key}: listed by fixture(s) {', '.join(sorted(fixtures[key]))} but no invariant has this key")
    cited = encoded_numbers(ruleset)
    unencoded = dict(ruleset.unencoded)
    for number in sorted(ruleset.sentences):
        if not _covered(number, cited) and number not in unencoded:
            problems.append(f"{number}: a rule the keys were written from (its sentences are recorded) that no rule "
                            "key encodes and no reason in Ruleset.unencoded explains")
    if text is None:
        return problems
    found = paragraphs(ruleset.name, text)
    numbers = sorted({n for inv in ruleset.invariants for n in inv.rule_numbers.values()}, key=_number_key)
    if numbers and not any(n in found for n in numbers):
        problems.append(f"{name} does not look like {ruleset.name}'s text ({ruleset.title}): none of the rules "
                        f"its keys cite ({', '.join(numbers)}) are there; each is listed below")
    for number in sorted(n for n in found if _in_scope(ruleset, n) and n not in ruleset.sentences):
        if not _covered(number, cited) and number not in unencoded:
            problems.append(f"{number}: a numbered rule of the text with no rule key and no stated reason "
                            "(Ruleset.unencoded)")
    for inv in ruleset.invariants:
        for edition, number in sorted(set(inv.rule_numbers.items())):
            if number not in found:
                problems.append(f"{inv.key}: cites {number} ({edition}), which the text does not have")
    for number in sorted(n for n in ruleset.sentences if n not in found and not _covered(n, cited)):
        problems.append(f"{number}: a rule the keys were written from is not in the text (removed?; unencoded: "
                        f"{unencoded.get(number, 'no reason recorded')})")
    problems += _sentence_changes(ruleset, found, unencoded)
    return problems


def _sentence_changes(ruleset: Ruleset, found: dict[str, str], unencoded: dict[str, str]) -> list[str]:
    problems = []
    for change in ruleset.stale_keys(found):
        if change.what == "new":
            problems.append(f"{change.number}: NEW sentence {change.index}, which no rule key encodes yet: "
                            f"“{_short(change.text)}”")
            continue
        if not change.drops_keys:
            continue  # moved unchanged: its keys stay in force (text_findings says where it went)
        if not change.keys:
            reason = unencoded.get(change.number, "no key encodes it")
            problems.append(f"{change.number}: {change.describe()} (unencoded: {reason}); re-read whether a key "
                            "should encode it now")
        for key in change.keys:
            problems.append(f"{key}: STALE: {change.describe()} since the key was encoded; re-read the rule")
        if change.text:
            problems.append(f"{change.number}: NEW wording of sentence {change.index}, which no rule key encodes yet "
                            f"(give an invariant for it with --with MODULE:ATTRIBUTE): “{_short(change.text)}”")
    return problems


def check_changes(ruleset: Ruleset, text: str) -> list[str]:
    """What an editor's draft ``text`` means for the check, one line per sentence that changed or is new: the keys
    dropped because their sentence changed (with the other sentences those keys also encode, which they no longer
    check either), the keys of the rule that stay in force, and that the new wording is checked by nothing until an
    invariant for it is given (``--with MODULE:ATTRIBUTE``). Empty when no sentence of the ruleset's rules changed."""
    found = paragraphs(ruleset.name, text)
    changes = [c for c in ruleset.stale_keys(found) if c.drops_keys or c.what == "new"]
    dropped = {k for c in changes if c.drops_keys for k in c.keys}
    lines = []
    for change in changes:
        recorded = ruleset.sentences.get(change.number, ())
        kept = sorted({k for _, keys in recorded for k in keys} - dropped)
        also = {}
        for key in change.keys:
            others = [str(i) for i, (_, keys) in enumerate(recorded, 1) if key in keys and i != change.index]
            if others:
                also[key] = others
        words = ", ".join(f"{k}" + (f" (it also encodes sentence(s) {', '.join(also[k])}, no longer checked "
                                     "either)" if k in also else "") for k in change.keys)
        head = f"{change.describe()}: "
        what = "no key encodes it" if change.what == "new" else f"keys dropped: {words}" if change.keys \
            else "no key encoded it"
        text_part = "" if change.what == "removed" else \
            "; the new wording is NOT CHECKED until an invariant for it is given (--with MODULE:ATTRIBUTE)"
        lines.append(f"{head}{what}; keys of {change.number} still in force: {', '.join(kept) or 'none'}"
                     f"{text_part}")
    return lines


def text_findings(ruleset: Ruleset, text: str) -> list[str]:
    """What the text relies on and does not provide, in plain words (never a lint failure: the text is what it
    is): each section or rule it refers to and does not hold, with the options that stand for it, and each
    capitalised term it uses and never defines (:mod:`reference_engine.kernel.ruletext`)."""
    found = paragraphs(ruleset.name, text)
    standing: dict[str, list[str]] = {}
    for option in ruleset.options:
        for ref in re.findall(r"\d+(?:\.\d+)+[a-z]?|\b\d{3}\b", option.stands_for):
            standing.setdefault(ref, []).append(option.name)
    notes = []
    for ref, where in sorted(references(found).items(), key=lambda item: _number_key(item[0])):
        if not provides(found, ref):
            modelled = f"; modelled by option {', '.join(standing[ref])}" if ref in standing else ""
            notes.append(f"refers to {ref}, which the text does not provide (in {', '.join(where)}){modelled}")
    for change in ruleset.stale_keys(found):
        if change.what == "moved":
            notes.append(f"{change.describe()}, word for word: its keys stay in force "
                         f"({', '.join(change.keys) or 'no key encodes it'})")
    for term, where in undefined_terms(found).items():
        notes.append(f"uses the term “{term}” without defining it (in {', '.join(where)})")
    return notes


def _number_key(number: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.findall(r"\d+|[a-z]+", number)]


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


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
            "sentences": _sentences_of(ruleset, inv.key),
            "summary": inv.summary,
            "invariant": f"{getattr(check, '__module__', '?')}:{getattr(check, '__qualname__', '?')}",
            "fixtures": sorted(fixtures.get(inv.key, ())),
            "exercised": rules[inv.key]["scenarios_exercised"] if inv.key in rules else None,
            "status": status,
        })
    return rows


def _sentences_of(ruleset: Ruleset, key: str) -> str:
    """The recorded sentences that ``key`` encodes, in words: ``"603.3b, sentences 1-3, 5"`` (or that none is
    recorded for it)."""
    parts = []
    for number, recorded in sorted(ruleset.sentences.items(), key=lambda item: _number_key(item[0])):
        places = [i for i, (_, keys) in enumerate(recorded, 1) if key in keys]
        if places:
            runs, start = [], places[0]
            for a, b in zip(places, places[1:] + [None]):
                if b != a + 1:
                    runs.append(f"{start}" if start == a else f"{start}-{a}")
                    start = b
            parts.append(f"{number}, sentence{'s' if len(places) > 1 else ''} {', '.join(runs)}")
    return "; ".join(parts) or "no sentence recorded"


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


# What a row's run status says, for the closing lines of ``rules --matrix``: each kind of row that is no plain pass
# in words, in the order said. A row exercised by no scenario of a run that checked it is said apart ("never").
RUN_GAPS = (
    ("never", "the run never exercised"),
    ("failed", "the run failed"),
    ("errored", "errored in the run (no verdict: the engine or a check did not answer; not counted as failed)"),
    ("partial", "left partial (the run was interrupted before concluding them; a partial verdict is not a pass)"),
    ("not checked (interrupted)", "not checked (the run was interrupted before them)"),
    ("not in this run", "not in this run (it checked only some rule keys)"),
    ("skipped", "the run skipped"),
)


def _run_gaps(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The rows of a run's matrix that are no plain pass, by the kind :data:`RUN_GAPS` names: each row under its
    status, or under ``never`` when the run checked it (passed or unexercised) in no scenario exercising it."""
    found: dict[str, list[str]] = {}
    for row in rows:
        status = row["status"]
        if status not in dict(RUN_GAPS):
            status = "never" if row["exercised"] == 0 or status == "unexercised" else None
        if status is not None:
            found.setdefault(status, []).append(row["key"])
    return found


def matrix_gaps(rows: list[dict[str, Any]], report: str | None = None,
                editions: dict[str, int] | None = None) -> tuple[list[str], str, dict[str, int]]:
    """What ``rules --matrix`` looks for in its ``rows`` (:func:`matrix`): rule keys without a bundled fixture and,
    with a run ``report`` (its path), each kind of row that is no plain pass (:data:`RUN_GAPS`: failed, errored,
    partial, not checked, not in this run, skipped, never exercised), each said apart as its rows say it.
    ``editions``: how many bundled fixtures each edition has (:func:`fixture_editions`), stated when there are
    several, since ``run`` plays only its edition's. Returns (one line per kind of gap found, the words after "none
    found within", the counts: keys, fixtures, gaps)."""
    no_fixture = [r["key"] for r in rows if not r["fixtures"]]
    lines = [f"{len(no_fixture)} rule key(s) without a bundled fixture: {', '.join(no_fixture)}"] if no_fixture else []
    gapped = set(no_fixture)
    if report is not None:
        found = _run_gaps(rows)
        for status, words in RUN_GAPS:
            if found.get(status):
                lines.append(f"{len(found[status])} rule key(s) {words}: {', '.join(found[status])}")
                gapped.update(found[status])
    gaps = len(gapped)
    fixtures = len({f for r in rows for f in r["fixtures"]})
    by_edition = ", ".join(f"{n} of edition {e}" for e, n in (editions or {}).items())
    within = f"the {len(rows)} rule keys and their {fixtures} bundled fixtures" + (
        f" ({by_edition}; a run plays its edition's)" if len(editions or {}) > 1 else "") + (
        f", and the run {report}" if report is not None else " (no run report given: --report FILE shows "
        "exercised counts)")
    return lines, within, {"keys": len(rows), "fixtures": fixtures, "gaps": gaps}
