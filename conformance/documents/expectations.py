"""Expected failures of an engine, and the suite's own quarantine.

**Expectations** (``--expectations FILE``, one file per engine, kept by the engine's authors)::

    {
      "format": "trigger-conformance/expectations/1",
      "engine": "phase",
      "expected_failures": [
        {"rule": "mtg.apnap-order", "issue": "https://github.com/me/my-engine/issues/12",
         "reason": "APNAP ordering is not implemented yet"}
      ]
    }

Each expected failure names a rule key of the ruleset and an issue URL (http or https). A rule expected to fail
that fails is *expected* (it does not fail the run); one that **passes** fails the run (strict: the expectation is
stale, remove it); an errored, unexercised or skipped rule keeps its own verdict.

**Quarantine** (``conformance/quarantine.json``, kept by the suite): rule keys suspected to be encoded wrongly in
the suite itself (e.g. every engine disagrees with the reference engine on the same case), each with a reason and an
issue URL. A quarantined rule's failure is reported but does not fail any engine's run; it is separate from every
engine's expectations. The file ships empty.

Both raise ConformanceError for a malformed file, an unknown rule key or a missing issue URL (exit 2).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from reference_engine.kernel.errors import ConformanceError

_URL = re.compile(r"https?://\S+")


@dataclass(frozen=True)
class Expectation:
    rule: str
    issue: str
    reason: str = ""


def _entries(document: Any, where: str, field: str, known: set[str]) -> dict[str, Expectation]:
    if not isinstance(document, dict) or not isinstance(document.get(field), list):
        raise ConformanceError(f"{where}: at $: expected an object with a list {field!r}")
    found: dict[str, Expectation] = {}
    for n, item in enumerate(document[field]):
        at = f"{where}: at $.{field}[{n}]"
        if not isinstance(item, dict) or not isinstance(item.get("rule"), str):
            raise ConformanceError(f"{at}: expected an object with a 'rule' key")
        if item["rule"] not in known:
            raise ConformanceError(f"{at}.rule: no rule key {item['rule']!r} in this ruleset and edition")
        if not isinstance(item.get("issue"), str) or not _URL.fullmatch(item["issue"]):
            raise ConformanceError(f"{at}.issue: every entry needs the URL of the issue that tracks it")
        if item["rule"] in found:
            raise ConformanceError(f"{at}.rule: {item['rule']} is listed twice")
        found[item["rule"]] = Expectation(item["rule"], item["issue"], str(item.get("reason", "")))
    return found


def load_expectations(path: str | None, known: set[str]) -> dict[str, Expectation]:
    """The expected failures in ``path`` (rule key -> Expectation); {} without a file."""
    if not path:
        return {}
    from conformance.documents.json_io import loads, read_bytes

    return _entries(loads(read_bytes(path), path), path, "expected_failures", known)


def load_quarantine(known: set[str]) -> dict[str, Expectation]:
    """The suite's quarantine (conformance/quarantine.json), restricted to the rule keys in ``known``."""
    text = resources.files("conformance").joinpath("quarantine.json").read_text("utf-8")
    document = json.loads(text)
    every = {item["rule"] for item in document.get("quarantined", []) if isinstance(item, dict)}
    return _entries({"quarantined": [i for i in document.get("quarantined", []) if i.get("rule") in known]},
                    "conformance/quarantine.json", "quarantined", known | every)


def judge(entry: dict[str, Any], expected: dict[str, Expectation], quarantined: dict[str, Expectation]) -> str | None:
    """What an expectation makes of a rule's verdict: ``"expected-failure"`` (failed as expected: not a failure of
    the run), ``"unexpected-pass"`` (expected to fail, passed: fails the run), ``"quarantined"`` (failed, but the
    suite suspects the rule itself), or None (the verdict stands)."""
    key, status = entry.get("key"), entry.get("status")
    if key in quarantined and status == "failed":
        return "quarantined"
    if key in expected:
        if status == "failed":
            return "expected-failure"
        if status == "passed":
            return "unexpected-pass"
    return None
