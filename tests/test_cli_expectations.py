"""Issue 13: an engine's expected failures (strict, each with an issue URL) and the suite's quarantine."""

from __future__ import annotations

import json
import re

from conformance.commands import cli
from conformance.documents import expectations
from conformance.documents.expectations import Expectation

FAILING = ["mw.queue-fifo", "mw.package-position", "mw.append-after-pending"]  # mw-lifo, seed 0, 30 scenarios
ISSUE = "https://example.org/my-engine/issues/7"


def _run(tmp_path, *extra):
    return cli.main(["run", "--engine", "mutant:mw-lifo", "--max-examples", "30", "--shrink-seconds", "0.5",
                     "--no-fixtures", "--failures-dir", str(tmp_path / "failures"), *extra])


def _file(tmp_path, rules, issue=ISSUE):
    path = tmp_path / "expected.json"
    path.write_text(json.dumps({"format": "trigger-conformance/expectations/1", "engine": "mutant:mw-lifo",
                                "expected_failures": [{"rule": r, "issue": issue, "reason": "LIFO for now"}
                                                      for r in rules]}))
    return str(path)


def test_expected_failures_do_not_fail_the_run_and_are_reported(tmp_path, capsys):
    # (Without expectations this run exits 1: the quarantine test below shows these three rules fail.)
    assert _run(tmp_path, "--expectations", _file(tmp_path, FAILING)) == 0
    out = capsys.readouterr().out
    for key in FAILING:
        assert f"note: {key} failed: expected failure ({ISSUE}): LIFO for now" in out


def test_an_expected_failure_that_passes_fails_the_run(tmp_path, capsys):
    assert _run(tmp_path, "--expectations", _file(tmp_path, FAILING + ["mw.remedy-front"])) == 1
    assert f"error: mw.remedy-front passed but is listed as an expected failure ({ISSUE})" in capsys.readouterr().out


def test_an_expectation_needs_an_issue_url_and_a_known_rule(tmp_path, capsys):
    assert _run(tmp_path, "--expectations", _file(tmp_path, FAILING, issue="soon")) == 2
    assert "needs the URL of the issue" in capsys.readouterr().err
    assert _run(tmp_path, "--expectations", _file(tmp_path, ["mw.no-such-rule"])) == 2
    assert "no rule key 'mw.no-such-rule'" in capsys.readouterr().err


def test_the_suite_quarantine_is_separate_from_any_engine(tmp_path, capsys, monkeypatch):
    assert expectations.load_quarantine({"mw.queue-fifo"}) == {}  # ships empty
    suspects = {key: Expectation(key, "https://example.org/suite/issues/3", "encoding suspected") for key in FAILING}
    monkeypatch.setattr(expectations, "load_quarantine", lambda known: dict(suspects))
    assert _run(tmp_path) == 0  # no expectations file: the quarantine alone spares the run
    out = capsys.readouterr().out
    assert "note: mw.queue-fifo failed: quarantined by the suite (https://example.org/suite/issues/3)" in out
    # still reported as what it is: a failure, expected (its own mark, counted apart), and why
    assert re.search(r"^XFAIL mw\.queue-fifo .*\(quarantined by the suite\)$", out, re.MULTILINE), out
    assert f"{len(FAILING)} XFAIL in " in out, out


def test_an_expected_failure_is_shown_and_counted_apart_as_xfail(tmp_path, capsys):
    # A fresh user's finding: "FAIL" and "1 rule: 1 FAIL" yet exit 0, explained only by a trailing note.
    assert _run(tmp_path, "--rules", "mw.queue-fifo", "mw.remedy-front",
                "--expectations", _file(tmp_path, ["mw.queue-fifo"])) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.split()[1:2] == ["mw.queue-fifo"] and "[11.2.4]" in line]
    assert len(rows) == 2 and all(row.startswith("XFAIL ") and row.endswith("(expected failure)") for row in rows), out
    assert "1 rule(s) did not pass: 1 XFAIL (expected), each with its shrunk counterexample:" in out
    assert "2 rules: 1 PASS, 1 XFAIL in " in out and "FAIL " not in out.replace("XFAIL ", ""), out


def test_an_unexpected_failure_beside_an_expected_one_is_counted_apart(tmp_path, capsys):
    assert _run(tmp_path, "--rules", *FAILING[:2], "--expectations", _file(tmp_path, FAILING[:1])) == 1
    out = capsys.readouterr().out
    assert "2 rule(s) did not pass: 1 FAIL and 1 XFAIL (expected)" in out and "2 rules: 1 FAIL, 1 XFAIL in " in out


def test_the_reports_made_from_the_json_lines_report_show_an_expected_failure_as_xfail(tmp_path, capsys):
    from conformance.reports.render import counts_line, html, load, markdown

    stream = tmp_path / "r.jsonl"
    assert _run(tmp_path, "--rules", "mw.queue-fifo", "mw.remedy-front", "--report-jsonl", str(stream),
                "--expectations", _file(tmp_path, ["mw.queue-fifo"])) == 0
    run = load(str(stream))
    assert counts_line(run) == "2 rules: 1 PASS, 1 XFAIL"
    text, page = markdown(run), html(run)
    assert "| `mw.queue-fifo` | XFAIL |" in text and "## XFAIL: `mw.queue-fifo`" in text, text
    assert "**Summary:** 2 rules: 1 PASS, 1 XFAIL" in text, text
    assert "<td class=status>XFAIL</td>" in page and "1 XFAIL" in page
    assert "FAIL" not in text.replace("XFAIL", "") and "FAIL" not in page.replace("XFAIL", "")
