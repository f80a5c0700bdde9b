"""Findings of a fresh user's review of the tool, each proved with a real misbehaving engine (a process from
tests/engines/ or an in-process engine): what an engine writes on stderr reaches every report, a FAIL always comes
with a trace that violates the rule, an engine that raises on replay is not called nondeterministic, an interrupt
prints the CLI's own message only, and the compact scenario printout keeps every field that changes meaning."""

from __future__ import annotations

import json
import sys

import pytest

from conformance import cli
from process_support import ENGINES


def command(script: str) -> str:
    return f"{sys.executable} {ENGINES / script}.py"


# -- 1. An engine's stderr is shown with its problem --------------------------------------------------------------


def test_an_engines_stderr_reaches_the_console_every_report_and_check(tmp_path, capsys):
    """An engine that logs a line on stderr and then dies of an uncaught ValueError: the log line and the traceback
    are in the console (under the problem), in the JSON and JSON Lines reports (``engine_stderr``), in the JUnit,
    Markdown and HTML renderings, and in ``check``."""
    report, stream = tmp_path / "r.json", tmp_path / "r.jsonl"
    code = cli.main(["run", "--engine-cmd", command("log_then_raise"), "--max-examples", "3", "--no-fixtures",
                     "--rules", "mw.queue-fifo", "--report-json", str(report), "--report-jsonl", str(stream)])
    assert code == 1
    out = capsys.readouterr().out
    problem = out.index("it exited with code 1")
    assert out.index("log_then_raise: about to fail on run") > problem
    assert out.index("ValueError: log_then_raise: no such ability ABC-123") > problem
    (rule,) = json.loads(report.read_text())["rules"]
    assert rule["status"] == "errored"
    assert "log_then_raise: about to fail on run" in rule["engine_stderr"]
    assert "ValueError: log_then_raise: no such ability ABC-123" in rule["engine_stderr"]
    (line,) = [json.loads(x) for x in stream.read_text().splitlines() if '"engine_stderr"' in x]
    assert "ValueError: log_then_raise" in json.dumps(line)
    for form in ("junit", "markdown", "html"):
        assert cli.main(["report", str(stream), "--format", form]) == 0
        rendered = capsys.readouterr().out
        assert "log_then_raise: about to fail on run" in rendered, form
        assert "no such ability ABC-123" in rendered, form

    scenario = tmp_path / "s.json"
    scenario.write_text((ENGINES.parent.parent / "fixtures" / "momon-wonder" / "mw-append-after-pending.json")
                        .read_text())
    assert cli.main(["check", str(scenario), "--engine-cmd", command("log_then_raise")]) == 1
    out = capsys.readouterr().out
    assert "the engine gave no trace: crashed" in out
    assert "ValueError: log_then_raise: no such ability ABC-123" in out
