"""Messages (review finding 7): the run's seconds count its handshake; an engine's error with no frames of its own
says nothing of frames; an observable difference names the entry and the field in words; the "never applied"
warning names the engine's generation profile when it leaves features out."""

from __future__ import annotations

import json

from conformance.commands import cli
from conformance.running.audit import outcome_difference
from conformance.reports.text import traceback_lines
from conformance.running.session import RunSpec, Session

RUN = ["run", "--max-examples", "3", "--rules", "mw.queue-fifo", "--no-fixtures"]


def test_the_runs_seconds_count_the_handshake(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main([*RUN, "--engine", "profile_engines:SlowToSay", "--report-json", "r.json"]) == 0
    seconds = json.loads((tmp_path / "r.json").read_text())["seconds"]
    assert seconds >= 1.5, seconds
    assert f"in {seconds} s" in capsys.readouterr().out


def test_an_error_without_frames_says_nothing_of_frames():
    assert traceback_lines('{\n  "message": "boom"\n}', "boom") == [
        "      what the engine said of its error:", "      {", '        "message": "boom"', "      }"]
    assert traceback_lines("RuntimeError: boom", "RuntimeError: boom") == []
    framed = traceback_lines("KeyError: 'x'\n  my_engine.py:41 in resolve\n    zone = objects['x']", "KeyError")
    assert framed[0].strip() == "where the engine raised (its own frames, outermost first):"


def test_a_process_engines_error_with_only_a_message_has_no_details():
    from conformance.running.checking import play
    from conformance.reports.text import outcome_lines
    from process_support import TWO_TRIGGERS, engine as process_engine, named

    engine = process_engine("scripted")
    try:
        outcome = play(engine, named(TWO_TRIGGERS, "error-bare"))
    finally:
        engine.close()
    assert outcome.status == "errored" and outcome.message.endswith("boom") and outcome.context == ""
    assert not any("frames" in line or "said of its error" in line for line in outcome_lines(outcome))


def test_an_observable_difference_is_said_in_words():
    expected = {"events": [[["type", "signal"], ["name", "s1"]]], "resolved": [
        ["A1", "F1", "P1", [[["type", "signal"], ["name", "s1"]], 1], False],
        ["A3", "F1", "P1", [[["type", "signal"], ["name", "s2"]], 1], False]],
        "removed": [], "waiting": [], "steps": 0, "delayed": []}
    actual = json.loads(json.dumps(expected))
    actual["resolved"][1][3][0][1] = ["subject", "F2"]
    assert outcome_difference(expected, actual) == (
        'the 2nd trigger to resolve (A3 of F1, from a signal event), its triggering event, its 2nd field: "name" vs '
        '"subject" (at $.resolved[1][3][0][1][0])')
    actual = json.loads(json.dumps(expected))
    actual["events"][0][1][1] = "s9"
    assert outcome_difference(expected, actual).startswith('the 1st event (signal), the value of its field name: ')
    assert outcome_difference(expected, expected) is None


def test_never_applied_names_the_engines_profile(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cli.main(["run", "--engine", "profile_engines:PartialLifo", "--max-examples", "5", "--no-fixtures",
              "--rules", "mw.summon-package", "--shrink-seconds", "2"])
    out = capsys.readouterr().out
    assert "never applied" in out and "the engine's generation profile excludes mark_defeat, move, summon" in out
    session = Session(RunSpec(engine="reference"))
    try:
        assert session.excluded_features() == []
    finally:
        session.close()
