"""Issue 11: no run lost to a misbehaving engine. Each test uses a real engine process from tests/engines/ (or a real
in-process engine) that misbehaves in one way, and checks the whole kind: the verdict, that the run goes on and
reports, and that no process is left behind. docs/harness.md lists which test proves which promise."""

from __future__ import annotations

import json
import os
import re
import sys
import time

import pytest
from hypothesis import strategies as st

from conformance.commands import cli
from conformance.running.checking import play
from conformance.documents.json_io import problems
from conformance.shrinking.shrinker import VERDICT_REPLAYS, shrink
from process_support import ENGINES, ENV, REPO, TWO_TRIGGERS, engine, named, seeded
from reference_engine.kernel.registry import get_ruleset

RULE_COUNT = len(get_ruleset("momon-wonder").invariants_for("1.0.0"))


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped by its parent, counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stream:
            return stream.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_dead(pids, seconds: float = 5.0) -> list[int]:
    """The pids still alive after waiting up to ``seconds`` for them to go."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def command(script: str) -> str:
    return f"{sys.executable} {ENGINES / script}.py"


# -- Nondeterminism: a flaky verdict never stops the run ------------------------------------------------------------


def test_a_flaky_verdict_inside_the_shrinker_is_reported_with_both_answers():
    """Hypothesis raises Flaky/FlakyFailure when a condition changes its mind; shrink() catches it and counts."""
    from reference_engine.kernel.registry import builder_for

    build = builder_for("momon-wonder")
    plays = []

    def fails(document):  # fails, then passes, then fails...: the verdict of a nondeterministic engine
        plays.append(1)
        return len(plays) % 2 == 1

    shrunk = shrink(build, "1.0.0", bytes(range(40)), fails, key=b"flaky-test", seconds=10)
    assert shrunk.nondeterministic.startswith("NONDETERMINISTIC")
    counts = re.search(r"violated the rule in (\d+) of (\d+) plays and satisfied it in the other (\d+)",
                       shrunk.nondeterministic)
    failed, total, passed = map(int, counts.groups())
    assert failed >= 1 and passed >= 1 and failed + passed == total and total >= VERDICT_REPLAYS


def test_a_crash_during_shrinking_is_no_sign_of_nondeterminism():
    from reference_engine.kernel.registry import builder_for

    shrunk = shrink(builder_for("momon-wonder"), "1.0.0", bytes(range(40)),
                    lambda document: True if len(document["objects"]) else None, key=b"crash-test", seconds=5)
    assert shrunk.nondeterministic == "" and shrunk.shrink_error == ""


def test_a_search_that_raises_costs_nothing_but_the_shrink():
    from reference_engine.kernel.registry import builder_for

    calls = []

    def fails(document):
        calls.append(1)
        if len(calls) >= 3:  # a check that breaks half-way through the shrink, and stays broken
            raise RuntimeError("a bug in a check")
        return True

    shrunk = shrink(builder_for("momon-wonder"), "1.0.0", bytes(range(40)), fails, key=b"raise-test", seconds=5)
    assert "RuntimeError: a bug in a check" in shrunk.shrink_error


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_nondeterministic_engine_gets_a_report_and_a_nondeterministic_verdict(tmp_path, capsys, seed):
    """tests/engines/flaky.py ignores the chosen trigger order at random: every run finishes with a report."""
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine-cmd", command("flaky"), "--max-examples", "60", "--no-fixtures",
                     "--seed", str(seed), "--rules", "mw.same-event-order", "mw.queue-fifo", "--shrink-seconds", "10",
                     "--report-json", str(report), "--failures-dir", str(tmp_path / "failures")])
    assert code == 1, capsys.readouterr()
    rules = {r["key"]: r for r in json.loads(report.read_text())["rules"]}
    assert set(rules) == {"mw.same-event-order", "mw.queue-fifo"}
    flaky = rules["mw.same-event-order"]
    assert flaky["status"] == "errored" and flaky["engine_problems"].get("nondeterministic") == 1
    assert flaky["failure"]["determinism"] == "nondeterministic"
    assert any(m.startswith("NONDETERMINISTIC") for m in flaky["failure"]["messages"])


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
def test_a_nondeterministic_engines_failed_fixtures_are_marked_nondeterministic(tmp_path, capsys):
    """Issue 23 item 6: tests/engines/nondeterministic.py reverses the chosen order on every second run: a fixture
    that fails on one play is replayed, and when the answers differ it is errored and marked, as a rule is."""
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine-cmd", command("nondeterministic"), "--max-examples", "1", "--report-json",
                     str(report)])
    out = capsys.readouterr().out
    fixtures = json.loads(report.read_text())["fixtures"]
    bad = [f for f in fixtures if f["status"] != "passed"]
    assert code == 1 and bad
    for fixture in bad:
        assert fixture["status"] == "errored" and fixture["determinism"] == "nondeterministic", fixture
        assert fixture["messages"][0].startswith("NONDETERMINISTIC: ") and len(fixture["messages"]) > 1
        assert f"ERROR fixture {fixture['id']}" in out
    assert "NONDETERMINISTIC: " in out
    assert all("determinism" not in f for f in fixtures if f["status"] == "passed")


# -- Text of any content ----------------------------------------------------------------------------------------


def test_strange_text_from_an_engine_is_garbage_and_the_run_goes_on():
    names = ["ok", "surrogate", "surrogate-key", "bigint", "hugeint", "nan", "deep-context", "deep", "ok-again"]
    with engine("strange_text") as eng:
        outcomes = {name: play(eng, named(TWO_TRIGGERS, name)) for name in names}
        assert eng.restarts_used == 7  # each garbage answer costs the process, never the harness
    assert {k: o.status for k, o in outcomes.items()} == {
        "ok": "trace", "surrogate": "garbage", "surrogate-key": "garbage", "bigint": "garbage", "hugeint": "garbage",
        "nan": "garbage", "deep-context": "garbage", "deep": "garbage", "ok-again": "trace"}
    assert "lone surrogate" in outcomes["surrogate"].message and "at $.reason" in outcomes["surrogate"].message
    assert "5000 digits" in outcomes["bigint"].message
    for outcome in outcomes.values():
        outcome.message.encode("utf-8")  # every verdict can be written as UTF-8


def test_a_report_holds_engine_text_of_any_content(tmp_path, monkeypatch, capsys):
    (tmp_path / "surrogate_engine.py").write_text(
        "from reference_engine.momon_wonder.engines.reference import MomonWonderEngine\n"
        "class Engine(MomonWonderEngine):\n"
        "    def run(self, scenario, chooser):\n"
        "        raise ValueError('lone \\udc80 surrogate, and ' + '9' * 5000)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine", "surrogate_engine:Engine", "--max-examples", "3", "--no-fixtures",
                     "--rules", "mw.queue-fifo", "--report-json", str(report)])
    assert code == 1
    text = report.read_bytes().decode("utf-8")  # valid UTF-8, whole
    rule = json.loads(text)["rules"][0]
    assert rule["engine_problems"] == {"errored": 3} and "lone \ufffd surrogate" in rule["first_problem"]
    assert "Traceback" not in capsys.readouterr().err
    sys.modules.pop("surrogate_engine", None)


def test_problems_never_raise_whatever_the_value():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for value in ("\ud800", {"a\udc80": 1}, 10 ** 5000, float("nan"), deep, {1, 2}, object()):
        assert problems({"format": "trigger-conformance/trace/1", "entries": [value]}, "trace")


# -- Death, descendants, zombies --------------------------------------------------------------------------------


def _child(outcome) -> int:
    return int(re.search(r"child pid (\d+)", outcome.stderr).group(1))


def _stderr_line(eng, pattern: str, seconds: float = 10.0):
    """The engine's stderr is read by a thread of its own: the reply on stdout may come before the line is read."""
    deadline = time.monotonic() + seconds
    while not (found := re.search(pattern, eng._stderr.text())) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found, f"no {pattern!r} on the engine's stderr within {seconds} s"
    return found


@pytest.mark.parametrize("name", ["fork-die", "fork-setsid-die"])
def test_an_engine_that_dies_leaving_a_child_on_its_pipes_is_crashed_at_once(name):
    with engine("forking", timeout=20.0) as eng:
        first = play(eng, seeded(1, "warm-up"))
        started = time.monotonic()
        outcome = play(eng, seeded(2, name))
        seconds = time.monotonic() - started
        after = play(eng, seeded(3, "after"))
    assert first.status == "trace" and after.status == "trace"
    assert outcome.status == "crashed" and "exited with code 4" in outcome.message
    assert seconds < 5, "a dead engine must not wait for the timeout because its child holds stdout"
    assert wait_dead([_child(outcome)]) == [], "the child the engine left behind survived"


def test_a_descendant_that_left_the_session_dies_with_its_engine():
    eng = engine("forking", timeout=20.0)
    outcome = play(eng, seeded(2, "fork-setsid-live"))
    assert outcome.status == "trace"
    child = int(_stderr_line(eng, r"child pid (\d+)").group(1))
    engine_pid = eng._proc.pid
    assert alive(child)
    eng.close()
    assert wait_dead([child, engine_pid]) == []


# -- Restarts: an engine that crashes now and then ------------------------------------------------------------------


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_an_engine_that_crashes_now_and_then_is_checked_on_every_rule(tmp_path, monkeypatch):
    monkeypatch.setenv("CRASH_EVERY", "5")
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine-cmd", command("crash_every"), "--engine-restarts", "2", "--max-examples", "30",
                     "--no-fixtures", "--report-json", str(report)])
    assert code == 1
    rules = json.loads(report.read_text())["rules"]
    assert len(rules) == RULE_COUNT
    for rule in rules:
        problems_seen = rule["engine_problems"]
        assert problems_seen.get("crashed") == 3, rule  # restarted up to the budget of 2, in every rule
        assert rule["scenarios_run"] == 30 and "earlier rule" not in rule["first_problem"]
        answered = rule["scenarios_run"] - sum(problems_seen.values())
        assert answered >= 12  # runs 1-4, 6-9, 11-14 of each rule were played and judged


def test_a_crash_costs_its_scenario_and_only_the_rules_that_needed_it(tmp_path, monkeypatch):
    """Issue 23 item 6: one crash in 50 scenarios errored every rule. Now a rule keeps its verdict, with the count of
    scenarios lost, unless the reference engine's trace of the lost scenario exercises it."""
    from conformance.running.checking import check_scenario
    from conformance.running.runner import RunConfig, prepare_generated, scenario_builder
    from conformance.generation.stream import explorable_options, stream_source
    from reference_engine.kernel.registry import reference_engine_for

    monkeypatch.setenv("CRASH_EVERY", "32")  # the first process dies on scenario 32 (index 31), the next plays on
    report = tmp_path / "r.json"
    keys = ["mw.summon-package", "mw.nested-package-deferred", "mw.queue-fifo", "mw.empty-before-advance"]
    code = cli.main(["run", "--engine-cmd", command("crash_every"), "--max-examples", "50", "--no-fixtures",
                     "--rules", *keys, "--report-json", str(report)])
    rules = {r["key"]: r for r in json.loads(report.read_text())["rules"]}
    ruleset = get_ruleset("momon-wonder")
    # The scenario the run lost, drawn as `run` draws it: with every option not given explored.
    config = RunConfig(ruleset, "1.0.0", ruleset.resolve_options({}), explored_options=explorable_options(ruleset, {}))
    reference = reference_engine_for("momon-wonder")
    lost = prepare_generated(config, scenario_builder(config, reference)(stream_source(0, 31), "1.0.0"))
    needed = check_scenario(reference, lost, [ruleset.invariant(k) for k in keys]).exercised
    premise = {"mw.summon-package", "mw.queue-fifo", "mw.empty-before-advance"}  # the test's premise
    assert {k for k in keys if needed.get(k)} == premise
    for key, rule in rules.items():
        assert rule["engine_problems"] == {"crashed": 1}, rule
        if needed.get(key):
            assert rule["status"] == "errored" and "scenarios_lost" not in rule
        else:
            assert rule["status"] == "passed" and rule["scenarios_lost"] == 1, rule
    assert code == 1  # the rules that needed the lost scenario have no verdict


# -- Interrupts -------------------------------------------------------------------------------------------------


def _interrupted_run(tmp_path, signum, workers: int):
    import signal
    import subprocess

    from conformance.documents.json_io import validate

    pids, temp = tmp_path / "pids", tmp_path / "tmp"
    pids.mkdir()
    temp.mkdir()
    report = tmp_path / "out" / "report.json"
    report.parent.mkdir()
    env = {**ENV, "PIDS_DIR": str(pids), "TMPDIR": str(temp), "SLOW_SECONDS": "0.03"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "conformance.commands.cli", "run", "--engine-cmd", command("stubborn"), "--max-examples", "40",
         "--no-fixtures", "--report-json", str(report), "--workers", str(workers)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(REPO))
    seen = []
    deadline = time.monotonic() + 120
    for line in proc.stdout:  # wait until some rule has a verdict
        seen.append(line)
        if re.match(r"(PASS|FAIL|ERROR|WARN)\s", line) or time.monotonic() > deadline:
            break
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the harness did not stop within 60 s of the signal")
    name = signal.Signals(signum).name
    assert proc.returncode == 128 + signum, err
    assert f"interrupted by {name}" in err and "Traceback" not in err
    document = json.loads(report.read_text())
    validate(document, "report", "the partial report")
    assert document["interrupted"] == name
    # Every rule keeps what it learnt (issue 23 item 3): those not concluded are partial (no violation so far),
    # never passed, and none is "not checked" (every rule was explored before the first verdict).
    assert len(document["rules"]) == RULE_COUNT and document["not_checked"] == []
    assert any(r["status"] == "partial" for r in document["rules"]) and "PARTIAL" in out
    assert [p.name for p in report.parent.iterdir()] == ["report.json"]  # no temporary file left beside it
    assert list(temp.iterdir()) == [], "a temporary folder was left behind"
    started = [int(p.name) for p in pids.iterdir()]
    assert started and wait_dead(started) == [], "an engine (or its child) outlived the harness"


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_a_signal_leaves_a_partial_report_and_no_process(tmp_path, signame):
    import signal

    _interrupted_run(tmp_path, getattr(signal, signame), workers=1)


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_sigterm_with_workers_stops_workers_and_their_engines(tmp_path):
    import signal

    _interrupted_run(tmp_path, signal.SIGTERM, workers=2)


def test_a_run_that_cannot_start_leaves_no_report_file(tmp_path, capsys):
    report = tmp_path / "r.json"
    assert cli.main(["run", "--engine-cmd", "no-such-program-xyz", "--report-json", str(report)]) == 2
    assert not report.exists()


# -- Trust --------------------------------------------------------------------------------------------------------


@pytest.fixture
def replay_file(tmp_path, capsys):
    failures = tmp_path / "failures"
    assert cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--max-examples", "100",
                     "--no-fixtures", "--failures-dir", str(failures)]) == 1
    capsys.readouterr()
    (path,) = failures.iterdir()
    return path


@pytest.mark.parametrize("spec", ["cmd:touch {marker}", "builtins:exit", "os:abort", "planted:Engine"])
def test_replay_runs_no_engine_because_a_file_names_it(replay_file, tmp_path, monkeypatch, capsys, spec):
    marker = tmp_path / "marker"
    (tmp_path / "planted.py").write_text(f"open({str(marker)!r}, 'w').close()\nEngine = None\n")
    monkeypatch.chdir(tmp_path)
    document = json.loads(replay_file.read_text())
    document["engine"]["spec"] = spec.format(marker=marker)
    replay_file.write_text(json.dumps(document))
    assert cli.main(["replay", str(replay_file)]) == 2
    err = capsys.readouterr().err
    assert f"names the engine {document['engine']['spec']!r}" in err and "--trust-file-engine" in err
    assert ("--engine-cmd" if spec.startswith("cmd:") else f"--engine {spec}") in err
    assert not marker.exists() and "planted" not in sys.modules


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_the_replay_refusal_cannot_be_disguised_by_the_files_text(replay_file, capsys):
    """Issue 23 item 6: the command the refusal shows came with the file's escape codes: a file could erase it and
    show another. Every control character of a document's text reaches the terminal escaped."""
    document = json.loads(replay_file.read_text())
    document["engine"]["spec"] = "cmd:rm -rf ~\x1b[2K\r\x1b[1A\u202etrigger-conformance replay x --engine mutant:mw-lifo\n"
    replay_file.write_text(json.dumps(document))
    assert cli.main(["replay", str(replay_file)]) == 2
    err = capsys.readouterr().err
    assert not CONTROL.search(err), repr(err)
    assert "rm -rf ~\\u001b[2K\\u000d\\u001b[1A\\u202e" in err and "shown escaped" in err


def test_engine_and_document_text_reaches_the_console_escaped(tmp_path, monkeypatch, capsys):
    """Siblings: an engine's name, its stderr, a scenario's ids and an engine's messages, as `check` and `run`
    print them."""
    monkeypatch.setenv("SCRIPTED_NAME", "evil\x1b]0;title\x07\x1b[31m")
    scenario = {**json.loads(json.dumps(TWO_TRIGGERS)), "id": "error\x1b[2J\u202e"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    assert cli.main(["check", str(path), "--engine-cmd", command("scripted")]) == 1
    out, err = capsys.readouterr()
    assert "evil\\u001b]0;title\\u0007" in out and "scripted: run 1 error\\u001b[2J\\u202e" in out
    assert not CONTROL.search(out + err), repr(out + err)
    code = cli.main(["run", "--engine-cmd", command("scripted"), "--rules", "mw.queue-fifo", "--max-examples", "2",
                     "--no-fixtures"])
    out, err = capsys.readouterr()
    assert code in (0, 1) and "evil\\u001b]0;title" in out
    assert not CONTROL.search(out + err), repr(out + err)


def test_replay_with_an_explicit_engine_or_trust(replay_file, capsys):
    assert cli.main(["replay", str(replay_file), "--engine", "reference"]) == 0
    assert cli.main(["replay", str(replay_file), "--trust-file-engine"]) == 1
    assert "STILL FAILING" in capsys.readouterr().out


def test_reproduce_with_names_a_process_engine_explicitly(tmp_path, capsys):
    report = tmp_path / "r.json"
    cmd = f"{sys.executable} -m reference_engine.serve --mutant mw-lifo"
    assert cli.main(["run", "--engine-cmd", cmd, "--rules", "mw.queue-fifo", "--no-fixtures", "--report-json",
                     str(report), "--failures-dir", str(tmp_path / "f")]) == 1
    out = capsys.readouterr().out
    failure = json.loads(report.read_text())["rules"][0]["failure"]
    expected = f"trigger-conformance replay {failure['replay_file']} --engine-cmd '{cmd}'"
    assert failure["replay_command"] == expected and f"Reproduce with: {expected}" in out


def test_engine_module_in_the_current_directory_is_imported_and_said_so(tmp_path):
    import subprocess

    (tmp_path / "my_local_engine.py").write_text(
        "from reference_engine.momon_wonder.engines.reference import MomonWonderEngine as Engine\n")
    script = os.path.join(os.path.dirname(sys.executable), "trigger-conformance")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([script, "run", "--engine", "my_local_engine:Engine", "--rules", "mw.queue-fifo",
                           "--max-examples", "5", "--no-fixtures"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "my_local_engine is not installed; importing it from the current directory" in done.stderr


def test_a_check_that_raises_costs_its_rule_not_the_report(tmp_path, monkeypatch, capsys):
    from conformance.running.session import Session

    original = Session.check_rule

    def check_rule(self, key):
        if key == "mw.queue-fifo":
            raise RuntimeError("a bug in the suite")
        return original(self, key)

    monkeypatch.setattr(Session, "check_rule", check_rule)
    report = tmp_path / "r.json"
    code = cli.main(["run", "--rules", "mw.queue-fifo", "mw.same-event-order", "--max-examples", "5", "--no-fixtures",
                     "--report-json", str(report)])
    assert code == 1
    rules = {r["key"]: r for r in json.loads(report.read_text())["rules"]}
    assert rules["mw.queue-fifo"]["status"] == "errored"
    assert "RuntimeError: a bug in the suite" in rules["mw.queue-fifo"]["check_error"]
    assert rules["mw.same-event-order"]["status"] in ("passed", "unexercised")
