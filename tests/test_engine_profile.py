"""An engine's generation profile (review findings 2 and 3): a profile the builder cannot use is the engine's
problem, said once at the handshake with a did-you-mean (every rule errored, no INTERNALERROR); and shrinking keeps
to the profile: no candidate of the shrinker or of the scenario-level reductions leaves it, so a partial engine is
never handed a scenario it declared it cannot play."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import profile_engines
from conformance.commands import cli
from conformance.generation.engine_profile import ProfileError, check_profile, kinds, profile_guard
from conformance.running.session import RunSpec, Session
from process_support import ENGINES, ENV


@pytest.mark.parametrize("profile, words", [
    ({"exclude": ["sumon"]}, ["unknown momon-wonder feature 'sumon'", "did you mean 'summon'"]),
    (["summon"], ["a list", "not an object"]),
    ({"exlude": ["summon"]}, ["unknown key 'exlude'", "did you mean 'exclude'"]),
    ({"exclude": "summon"}, ["'exclude' is a string"]),
])
def test_check_profile_says_what_is_wrong(profile, words):
    with pytest.raises(ProfileError) as raised:
        check_profile("momon-wonder", profile)
    for word in words:
        assert word in str(raised.value)


def test_check_profile_takes_good_profiles():
    assert check_profile("momon-wonder", None) is None
    assert check_profile("momon-wonder", {"exclude": ["summon"]}) == {"exclude": ["summon"]}
    assert check_profile("momon-wonder", {}) == {"exclude": []}


@pytest.mark.parametrize("name, words", [("MisspeltProfile", "did you mean 'summon'"), ("ListProfile", "a list"),
                                         ("MisspeltKey", "did you mean 'exclude'")])
def test_an_in_process_engine_with_a_bad_profile_errors_every_rule_once(name, words):
    session = Session(RunSpec(engine=f"profile_engines:{name}", max_examples=3, fixtures=False))
    try:
        session.handshake()
        assert session.unavailable is not None and session.unavailable["outcome"] == "errored"
        assert words in session.unavailable["message"] and "generation profile" in session.unavailable["message"]
        entry = session.check_rule("mw.queue-fifo")
        assert entry["status"] == "errored" and words in entry["first_problem"]
    finally:
        session.close()


def test_the_run_command_reports_a_bad_profile_without_an_internal_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = cli.main(["run", "--engine", "profile_engines:MisspeltProfile", "--max-examples", "3",
                     "--rules", "mw.queue-fifo", "--no-fixtures", "--report-json", "r.json"])
    out = capsys.readouterr()
    assert code == 1, out
    assert "INTERNALERROR" not in out.out + out.err and "did you mean 'summon'" in out.err
    assert json.loads((tmp_path / "r.json").read_text())["rules"][0]["status"] == "errored"


def test_a_process_engine_declaring_a_bad_profile_is_its_problem(tmp_path):
    command = f"{sys.executable} {ENGINES / 'bad_profile.py'} '{json.dumps({'exclude': ['sumon']})}'"
    proc = subprocess.run([sys.executable, "-m", "conformance.commands.cli", "run", "--engine-cmd", command,
                           "--max-examples", "3", "--rules", "mw.queue-fifo", "--no-fixtures"],
                          env=ENV, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, (proc.stdout[-2000:], proc.stderr[-2000:])
    assert "INTERNALERROR" not in proc.stdout + proc.stderr
    assert "the profile the engine's handshake declares for momon-wonder" in proc.stderr
    assert "did you mean 'summon'" in proc.stderr and "(garbage)" in proc.stderr


def test_the_guard_refuses_what_the_scenario_as_found_did_not_use():
    found = {"objects": [{"id": "X", "zone": "field", "abilities": [
        {"id": "A", "trigger": {"event": "signal", "name": "s1"}, "effect": [{"do": "signal", "name": "s2"}]}]}],
        "script": [], "options": {"x": True}}
    changed = json.loads(json.dumps(found))
    changed["objects"][0]["abilities"][0]["trigger"] = {"event": "defeated", "subject": "self"}
    renamed = json.loads(json.dumps(found))
    renamed["objects"][0]["abilities"][0]["trigger"]["name"] = "s9"
    guard = profile_guard({"exclude": ["mark_defeat"]}, found, lambda d: True)
    assert not guard(changed) and guard(renamed) and guard(found)
    assert kinds(changed) - kinds(found) == {("event", "defeated"), ("subject",)}
    assert profile_guard(None, found, bool) is bool  # no profile: the passes are as they were


def test_shrinking_never_hands_a_partial_engine_what_its_profile_excludes():
    profile_engines.PartialLifo.played.clear()
    session = Session(RunSpec(engine="profile_engines:PartialLifo", rules=("mw.queue-fifo",), max_examples=60,
                              fixtures=False, shrink_seconds=20))
    try:
        session.handshake()
        entry = session.check_rule("mw.queue-fifo")
    finally:
        session.close()
    assert entry["status"] == "failed", entry
    played = profile_engines.PartialLifo.played
    assert len(played) > 60  # shrinking played candidates
    outside = [s for s in played if profile_engines.outside_profile(s)]
    assert not outside, json.dumps(outside[0])[:2000]
    assert "skipped" not in entry.get("engine_problems", {})


def test_shrinking_never_hands_a_refusing_process_engine_what_its_profile_excludes(tmp_path):
    log = tmp_path / "played.jsonl"
    profile = json.dumps({"exclude": profile_engines.EXCLUDED})
    command = f"{sys.executable} {ENGINES / 'bad_profile.py'} '{profile}' lifo refuse log={log}"
    proc = subprocess.run([sys.executable, "-m", "conformance.commands.cli", "run", "--engine-cmd", command,
                           "--max-examples", "60", "--rules", "mw.queue-fifo", "--no-fixtures", "--shrink-seconds",
                           "20", "--report-json", "r.json"],
                          env=ENV, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, (proc.stdout[-2000:], proc.stderr[-2000:])
    rule = json.loads((tmp_path / "r.json").read_text())["rules"][0]
    assert rule["status"] == "failed" and not rule.get("engine_problems"), rule
    assert "ran out of engine restarts" not in proc.stdout
    played = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(played) > 60 and not [s for s in played if profile_engines.outside_profile(s)]
