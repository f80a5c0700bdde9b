"""Findings of a fresh user's review of the tool, each proved with a real misbehaving engine (a process from
tests/engines/ or an in-process engine): what an engine writes on stderr reaches every report, a FAIL always comes
with a trace that violates the rule, an engine that raises on replay is not called nondeterministic, an interrupt
prints the CLI's own message only, and the compact scenario printout keeps every field that changes meaning."""

from __future__ import annotations

import json
import sys

import pytest

from conformance.commands import cli
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


# -- 2. A FAIL always comes with a trace that violated the rule ----------------------------------------------------


def test_a_counterexample_the_engine_can_no_longer_play_keeps_the_trace_that_violated_the_rule(tmp_path, monkeypatch,
                                                                                               capsys):
    """A faulty engine (it lets the inactive player go first) whose process dies on every 3rd request: shrinking
    spends the restart budget, so the shrunk scenario cannot be played again. The FAIL keeps the trace the engine gave
    when it violated the rule (the rule judges it a violation), says that shrinking ran out of restarts, and its
    replay file holds that counterexample."""
    from conformance.running.checking import check_trace
    from reference_engine.kernel.registry import get_ruleset

    monkeypatch.setenv("MUTANT", "redemption-inactive-player-first")
    monkeypatch.setenv("CRASH_EVERY", "3")
    report, failures = tmp_path / "r.json", tmp_path / "failures"
    code = cli.main(["run", "--engine-cmd", command("crash_every"), "--ruleset", "redemption", "--max-examples",
                     "20", "--rules", "red.triggers-on-situation", "red.active-player-first", "--no-fixtures",
                     "--report-json", str(report), "--failures-dir", str(failures)])
    assert code == 1
    out = capsys.readouterr().out
    assert "(no trace)" not in out
    rules = {rule["key"]: rule for rule in json.loads(report.read_text())["rules"]}
    rule = rules["red.active-player-first"]
    assert rule["status"] == "failed"
    failure = rule["failure"]
    assert failure["actual_trace"] is not None
    assert any("shrinking ran out of engine restarts" in m for m in failure["messages"])
    assert not any(m.startswith("the engine was not restarted again") for m in failure["messages"][:1])
    ruleset = get_ruleset("redemption")
    inv = ruleset.invariant("red.active-player-first")
    judged = check_trace(failure["scenario"], failure["actual_trace"], [inv])
    assert judged.violations.get(inv.key)  # the trace shown really violates the rule
    replays = [f for f in failures.iterdir() if "-problem-" not in f.name]  # problem scenarios: the errored rules'
    assert len(replays) == 1



# -- 3. A replay that raised is errored on replay, not nondeterminism ----------------------------------------------


def test_an_engine_that_raises_on_replay_is_not_called_nondeterministic(tmp_path, monkeypatch, capsys):
    """An in-process engine that fails mw.queue-fifo deterministically and raises KeyError on every 3rd call: the
    rule fails (deterministic), with a trace, and the replays that raised are said as "errored on replay"."""
    monkeypatch.syspath_prepend(str(ENGINES.parent))
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine", "review_engines:KeyErrorEveryThird", "--rules", "mw.queue-fifo",
                     "--max-examples", "30", "--no-fixtures", "--report-json", str(report)])
    assert code == 1
    out = capsys.readouterr().out
    assert "differently when it was replayed" not in out and "NONDETERMINISTIC" not in out
    (rule,) = json.loads(report.read_text())["rules"]
    assert rule["status"] == "failed"
    failure = rule["failure"]
    assert failure["determinism"] == "deterministic" and failure["actual_trace"] is not None
    assert "nondeterministic" not in rule.get("engine_problems", {})
    # which replay lands on a 3rd call depends on the stream: a determinism replay ("errored on replay"), or the
    # replay that fetches the trace shown ("... played again (errored: ...)")
    assert any((m.startswith("errored on replay") or "played again (errored: " in m) and "KeyError" in m
               for m in failure["messages"])


# -- 6. Cosmetics ----------------------------------------------------------------------------------------------------


def test_messages_read_right(monkeypatch):
    """No doubled "at" in a JSON error, "an int" (not "a int"), a device is not called a file, a mutant's version is
    the reference engine's it changes (not "0")."""
    from conformance.adapters.registry import load_engine
    from conformance.documents.json_io import loads
    from reference_engine.kernel.errors import ConformanceError, DocumentError, EngineError
    from conformance.documents.failure_store import example_database

    with pytest.raises(DocumentError) as bad:
        loads('{"id": "abc', "a.json")
    assert " at at " not in str(bad.value) and "Unterminated string starting at line 1, column 8" in str(bad.value)
    monkeypatch.syspath_prepend(str(ENGINES.parent))
    with pytest.raises(EngineError) as wrong:
        load_engine("review_engines:not_an_engine", "momon-wonder")
    assert "is an int, not an Engine" in str(wrong.value)
    with pytest.raises(ConformanceError) as device:
        example_database("/dev/zero")
    assert "/dev/zero is a device or other special file, not a folder" in str(device.value)
    assert load_engine("mutant:mw-lifo", "momon-wonder").info.version == load_engine(
        "reference", "momon-wonder").info.version != "0"


def test_a_single_line_is_shown_rather_than_elided():
    """side_by_side trims long traces around the first difference, but never replaces one line by "... 1 identical
    entries ..." or "... 1 more entries ..." (the note is as long as the line)."""
    from conformance.reports.text import side_by_side

    def trace(names):
        return {"entries": [{"kind": "step_begin", "step": n} for n in names]}

    expected = trace(range(26))
    actual = trace([*range(13), 99, *range(14, 26)])  # differs at 13: context 12 would leave 1 line out each side
    lines = side_by_side(expected, actual, context=12)
    assert not any("... 1 identical" in line or "... 1 more" in line for line in lines), lines
    assert sum(1 for line in lines if "step_begin" in line) == 26
    longer = side_by_side(trace(range(40)), trace([*range(20), 99, *range(21, 40)]), context=12)
    assert any("... 8 identical entries ..." in line for line in longer)


# -- 5. The compact scenario printout keeps every field that changes meaning ----------------------------------------


FIXTURES = ENGINES.parent.parent / "fixtures"


def _scenario(path: str, controlled: str | None = None, controller: str | None = None) -> dict:
    document = json.loads((FIXTURES / path).read_text())
    scenario = document.get("scenario", document)
    for obj in scenario["objects"]:
        if obj["id"] == controlled:
            obj["controller"] = controller
    return scenario


@pytest.mark.parametrize("path,controlled,controller,shown", [
    ("momon-wonder/mw-one-summon-several-monsters.json", "W", "P1",
     ["W: field, owner P2, controller P1", "P1 does summon X also [\"Y\"]", "OX: when summon self -> signal x"]),
    ("momon-wonder/mw-removal-reasons.json", "V", "P1",
     ["V: field, owner P2, controller P1", "A2: when signal a if in_zone V field -> signal b",
      "A3: when signal a may -> signal b"]),
    ("redemption/ta2-if-x-y-checks-on-play.json", "C2", "P1",
     ["C2: field, owner P2, controller P1", "A1: when play self checks on play if in_zone C9 field -> signal s1",
      "A2: when play self checks on play if in_zone C9 graveyard -> signal s2"]),
    ("mtg/mtg-vocab-filters-you-opponent-type-token.json", "C2", "P1",
     ["C2: field, owner P2, controller P1, types [\"creature\"]", "A1: when enter type=creature controller=opponent",
      "A2: when leave other to=graveyard type=creature controller=you nontoken=true",
      "A3: when life player=you change=gain", "K2: field, owner P2, types [\"creature\"], token true"]),
    ("mtg/mtg-vocab-603-2c-one-or-more-enter.json", None, None, ["B: when enter batch=true ->"]),
    ("mtg/mtg-vocab-603-2h-once-each-turn.json", None, None,
     ["O: when signal s1 once each turn ->", "Q: when signal s1 may once each turn ->"]),
    ("mtg/mtg-603-4-felidar-39-life.json", None, None,
     ["life: P1=39", "A1: when signal upkeep if life_at_least controller 40 -> signal wins"]),
    ("mtg/mtg-ref-603-10a-graveyard-leaving-looks-back.json", None, None,
     ["A1: when move from=graveyard if in_zone self graveyard active_in=[\"graveyard\"] ->"]),
    ("mtg/mtg-603-8-discard-then-draw.json", None, None, ["A1: when state while zone_empty P1 hand ->"]),
], ids=lambda v: v.split("/")[-1] if isinstance(v, str) and "/" in v else None)
def test_the_scenario_printout_keeps_every_field_that_changes_meaning(path, controlled, controller, shown):
    from conformance.reports.text import describe_scenario

    lines = describe_scenario(_scenario(path, controlled, controller))
    text = "\n".join(lines)
    for expected in shown:
        assert expected in text, (expected, text)
