"""Issue 29, item 3: every editor command states its coverage. ``lint-rules``, ``diff`` (sampled or exhaustive) and
``rules --matrix`` end a search that found nothing with "none found within <bound or sample>", in the same form, in
the text, the Markdown and HTML reports ("None found within ...") and the JSON report (``coverage``: its kind, the
same words, the counts; schemas/editor-report.schema.json)."""

from __future__ import annotations

import json
import re

from conformance.commands.cli import main
from conformance.documents.json_io import problems
from conformance.editors.matrix import matrix_gaps


def _reports(tmp_path) -> list[str]:
    return ["--report-json", str(tmp_path / "r.json"), "--report-markdown", str(tmp_path / "r.md"),
            "--report-html", str(tmp_path / "r.html")]


def _coverage(tmp_path, out: str, kind: str, nothing: bool = True) -> dict:
    """The report's coverage, checked against the text: its words follow "none found within" in the printed
    output, and (when nothing was found) in the Markdown and HTML "Nothing found" sections."""
    doc = json.loads((tmp_path / "r.json").read_text())
    assert problems(doc, "editor-report") == []
    coverage = doc["coverage"]
    assert coverage["kind"] == kind
    assert f"(none found within {coverage['within']})" in out
    if nothing:
        markdown = (tmp_path / "r.md").read_text().replace("\\_", "_").replace("\\*", "*")
        assert f"## Nothing found\n\nNone found within {coverage['within']}." in markdown
        assert "None found within " + coverage["within"].replace('"', "&quot;") in \
            (tmp_path / "r.html").read_text().replace("&#x27;", "'")
    return coverage


def test_lint_rules_sampled_states_its_sample(tmp_path, capsys):
    main(["lint-rules", "--ruleset", "redemption", "--scenarios", "3", "--per-branch-point", "0",
          *_reports(tmp_path)])
    out = capsys.readouterr().out
    coverage = _coverage(tmp_path, out, "sample", nothing=False)
    assert re.fullmatch(r"\d+ small generated scenarios, seed 0, skew 3.0, at most 200 plays each, every trace of "
                        r"each: a sample, not every scenario", coverage["within"])
    assert coverage["bound"] is None and coverage["exhausted"] is None
    assert coverage["scenarios"]["enumerated"] == int(coverage["within"].split()[0])


def test_lint_rules_exhaustive_states_its_bound(tmp_path, capsys):
    main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=1", *_reports(tmp_path)])
    coverage = _coverage(tmp_path, capsys.readouterr().out, "bound", nothing=False)
    assert coverage["within"].endswith("depth=1,values=4 (11 scenarios, exhausted)")
    assert coverage["exhausted"] is True and coverage["bound"]["depth"] == 1
    assert coverage["scenarios"]["distinct"] == 11


def test_diff_sampled_states_its_sample(tmp_path, capsys):
    assert main(["diff", "--ruleset", "redemption", "--without", "red.effect-carried-out", "--scenarios", "2",
                 "--draws", "40", *_reports(tmp_path)]) == 0
    out = capsys.readouterr().out
    coverage = _coverage(tmp_path, out, "sample")
    assert "no difference found between published and draft (without red.effect-carried-out) (none found " in out
    assert coverage["within"].startswith("40 small scenarios drawn") and coverage["within"].endswith(
        ": a sample, not every scenario")
    assert coverage["scenarios"]["drawn"] == 40 and coverage["scenarios"]["compared"] <= 2


def test_diff_exhaustive_states_its_bound(tmp_path, capsys):
    assert main(["diff", "--ruleset", "momon-wonder", "--option", "package_contents=summoned-object-triggers",
                 "--exhaustive", "--bound", "depth=1", *_reports(tmp_path)]) == 0
    coverage = _coverage(tmp_path, capsys.readouterr().out, "bound")
    assert coverage["within"].endswith("depth=1,values=4 (11 scenarios, exhausted)") and coverage["exhausted"]


def test_rules_matrix_states_the_keys_and_fixtures_it_looked_at(tmp_path, capsys):
    assert main(["rules", "--ruleset", "mtg", "--matrix", *_reports(tmp_path)]) == 0
    out = capsys.readouterr().out
    coverage = _coverage(tmp_path, out, "table")
    assert "every rule key has a bundled fixture (none found within the " in out
    assert coverage["within"].startswith(f"the {coverage['scenarios']['keys']} rule keys and their "
                                         f"{coverage['scenarios']['fixtures']} bundled fixtures")
    assert coverage["scenarios"]["gaps"] == 0


def test_rules_matrix_names_its_gaps():
    rows = [{"key": "a", "fixtures": [], "exercised": 3, "status": "passed"},
            {"key": "b", "fixtures": ["f1"], "exercised": 0, "status": "unexercised"},
            {"key": "c", "fixtures": ["f1", "f2"], "exercised": 5, "status": "failed"},
            {"key": "d", "fixtures": ["f2"], "exercised": 5, "status": "passed"}]
    lines, within, counts = matrix_gaps(rows, "run.json")
    assert lines == ["1 rule key(s) without a bundled fixture: a", "1 rule key(s) the run never exercised: b",
                     "1 rule key(s) the run failed: c"]
    assert within == "the 4 rule keys and their 2 bundled fixtures, and the run run.json"
    assert counts == {"keys": 4, "fixtures": 2, "gaps": 3}
    assert matrix_gaps(rows[3:], None)[0] == []


def test_rules_matrix_closing_lines_say_what_its_rows_say():
    """A run of one key, an interrupted run, a run whose engine errored at the handshake: the closing lines said
    "every rule key ... was exercised and did not fail" over rows saying "not in this run", "(partial)" or "not
    checked (interrupted)", and "the run failed" of keys that errored."""
    rows = [{"key": "a", "fixtures": ["f"], "exercised": 3, "status": "passed"},
            {"key": "b", "fixtures": ["f"], "exercised": None, "status": "not in this run"},
            {"key": "c", "fixtures": ["f"], "exercised": 2, "status": "partial"},
            {"key": "d", "fixtures": ["f"], "exercised": None, "status": "not checked (interrupted)"},
            {"key": "e", "fixtures": ["f"], "exercised": 0, "status": "errored"},
            {"key": "g", "fixtures": ["f"], "exercised": 0, "status": "errored"}]
    lines, _, counts = matrix_gaps(rows, "run.json")
    assert lines == [
        "2 rule key(s) errored in the run (no verdict: the engine or a check did not answer; not counted as "
        "failed): e, g",
        "1 rule key(s) left partial (the run was interrupted before concluding them; a partial verdict is not a "
        "pass): c",
        "1 rule key(s) not checked (the run was interrupted before them): d",
        "1 rule key(s) not in this run (it checked only some rule keys): b"]
    assert counts["gaps"] == 5 and not any("failed:" in line for line in lines)
    assert matrix_gaps(rows[:1], "run.json")[0] == []


def test_the_matrix_of_a_run_of_some_keys_does_not_say_every_key_was_exercised(tmp_path, capsys):
    report = tmp_path / "run.json"
    assert main(["run", "--ruleset", "redemption", "--max-examples", "2", "--no-fixtures", "--rules",
                 "red.negation-ends", "--report-json", str(report), "--database", str(tmp_path / "db")]) == 0
    capsys.readouterr()
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "did not fail in the run" not in out
    assert re.search(r"^\d+ rule key\(s\) not in this run \(it checked only some rule keys\): ", out, re.M), out


def test_rules_matrix_states_the_editions_of_its_fixtures_when_there_are_several():
    """A run plays its edition's fixtures only (mtg: 53 of 54), so the matrix, which counts every bundled fixture,
    says how many each edition has."""
    rows = [{"key": "a", "fixtures": ["f1", "f2", "f3"], "exercised": None, "status": None}]
    within = matrix_gaps(rows, None, {"2026": 2, "2021": 1})[1]
    assert within.startswith("the 1 rule keys and their 3 bundled fixtures (2 of edition 2026, 1 of edition 2021; "
                             "a run plays its edition's)")
    assert "edition" not in matrix_gaps(rows, None, {"2026": 3})[1]
