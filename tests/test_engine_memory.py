"""A process engine's memory cap (issue 23 item 6): the engine's data is capped (RLIMIT_DATA, 2,048 MB by default,
``--engine-memory MB``, 0 for none), and an engine that dies of it is ``out-of-memory``: counted like a crash (the
scenario is lost, the engine restarted), never taken for anything else."""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance.commands import cli
from conformance.adapters.process import DEFAULT_MEMORY_MB, ProcessEngine
from conformance.adapters.process.processes import out_of_memory_sign
from conformance.running.checking import EngineOutcome, play
from conformance.running.pytest_plugin import spec_from
from process_support import ENGINES, ENV, REPO, engine, seeded
from reference_engine.kernel.errors import EngineError

CAP = 200  # MB: small enough that the leaking engine reaches it in a fraction of a second
NODE = shutil.which("node")


def data_limit(pid: int) -> str:
    """The engine process's 'Max data size' soft limit, as /proc shows it (bytes, or 'unlimited')."""
    line = next(l for l in Path(f"/proc/{pid}/limits").read_text().splitlines() if l.startswith("Max data size"))
    return line.split()[3]


def leak_command() -> str:
    return f"{sys.executable} {ENGINES / 'leak.py'}"


def test_out_of_memory_is_a_misbehaviour_of_its_own():
    assert "out-of-memory" in EngineOutcome.STATUSES and EngineOutcome("out-of-memory").misbehaved
    assert DEFAULT_MEMORY_MB == 2048


def test_an_engine_that_outgrows_its_cap_is_out_of_memory_and_restarted_for_the_next_scenario():
    with engine("leak", memory_mb=CAP) as eng:
        started = time.monotonic()
        outcomes = [play(eng, s) for s in (seeded(1), seeded(2, "leak-here"), seeded(3))]
        assert time.monotonic() - started < 60
        assert eng.restarts_used == 1  # counted like a crash: a new process for the next scenario
    assert [o.status for o in outcomes] == ["trace", "out-of-memory", "trace"]
    message = outcomes[1].message
    assert "ran out of memory during run request 2" in message and "'MemoryError' on its stderr" in message
    assert f"its cap is {CAP} MB" in message and "--engine-memory MB raises it, 0 for none" in message
    assert "exited with code 1" in message
    assert "allocating until it fails" in outcomes[1].stderr and "MemoryError" in outcomes[1].stderr


def test_an_engine_that_dies_at_its_cap_without_a_word_is_out_of_memory_by_its_peak():
    with engine("leak", memory_mb=CAP, env={**ENV, "LEAK_SILENT": "1"}) as eng:
        outcome = play(eng, seeded(2, "leak-silently"))
    assert outcome.status == "out-of-memory", outcome
    assert re.search(r"its peak resident size, \d+ MB, reached the cap", outcome.message)
    assert "exited with code 9" in outcome.message


def test_a_death_that_is_not_about_memory_stays_crashed():
    with engine("crash_third", memory_mb=CAP) as eng:
        statuses = [play(eng, seeded(n)).status for n in range(3)]
    assert statuses == ["trace", "trace", "crashed"]


@pytest.mark.parametrize("stderr, peak, sign", [
    ("Traceback (most recent call last):\n  ...\nMemoryError\n", None, "'MemoryError' on its stderr"),
    ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n", None, "on its stderr"),
    ("RangeError: Array buffer allocation failed\n", None, "on its stderr"),
    ("fatal error: runtime: out of memory\n", None, "on its stderr"),
    ('Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n', None, "on its stderr"),
    ("memory allocation of 1073741824 bytes failed\n", None, "on its stderr"),
    ("terminate called after throwing an instance of 'std::bad_alloc'\n", None, "on its stderr"),
    ("engine: mmap: Cannot allocate memory\n", None, "on its stderr"),
    ("", 1900 * 1024, "its peak resident size, 1900 MB, reached the cap"),
    ("Traceback (most recent call last):\n  ...\nKeyError: 'zone'\n", 100 * 1024, ""),
    ("", 1000 * 1024, ""),
    ("MemoryError long ago\n" + "x" * 10000, None, ""),  # only the last words of its stderr count
])
def test_what_is_taken_for_running_out_of_memory(stderr, peak, sign):
    found = out_of_memory_sign(stderr, peak, 2048)
    assert (sign in found if sign else found == ""), found
    assert out_of_memory_sign("", 10 ** 9, 0) == ""  # no cap: a large peak alone says nothing


def test_the_cap_is_set_in_the_engine_process_and_0_means_none():
    default = engine("crash_third")
    capped = engine("crash_third", memory_mb=CAP)
    none = engine("crash_third", memory_mb=0)
    try:
        for eng in (default, capped, none):
            eng.info  # started and answered the handshake under its cap
        assert data_limit(default._proc.pid) == str(DEFAULT_MEMORY_MB << 20)
        assert data_limit(capped._proc.pid) == str(CAP << 20)
        assert data_limit(none._proc.pid) == data_limit("self")  # the harness's own limit, untouched
    finally:
        for eng in (default, capped, none):
            eng.close()


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_a_node_engine_starts_under_the_default_cap():
    """node (and python, above) start under the data cap; the address-space cap (RLIMIT_AS) would stop a JVM. The
    documented JavaScript engine plays a whole run under it in test_protocol_guide.py."""
    with ProcessEngine([NODE, str(REPO / "docs" / "examples" / "redemption-engine.js")], timeout=20) as eng:
        assert "redemption" in eng.info.rulesets
        assert data_limit(eng._proc.pid) == str(DEFAULT_MEMORY_MB << 20)


@pytest.mark.parametrize("value", [-1, 1.5, "2048", True])
def test_a_cap_that_is_not_a_whole_number_of_mb_makes_the_engine_unavailable(value):
    with pytest.raises(EngineError) as raised:
        ProcessEngine(["true"], memory_mb=value)
    assert raised.value.outcome == "unavailable" and "whole number of MB" in str(raised.value)


# -- The knob: run, check, replay and the pytest plugin --------------------------------------------------------------


def test_engine_memory_is_a_knob_of_run_check_replay_and_the_pytest_plugin():
    parser = cli.build_parser()
    for argv in (["run"], ["check", "f.json"], ["replay", "f.json"]):
        assert parser.parse_args([*argv, "--engine-memory", "512"]).engine_memory == 512
        assert parser.parse_args([*argv, "--engine-memory", "0"]).engine_memory == 0
        assert parser.parse_args(argv).engine_memory is None  # the engine's default, 2048
    assert cli.main(["run", "--engine-memory", "-5"]) == 2
    options = {"conformance_ruleset": "momon-wonder", "conformance_engine": "reference", "conformance_option": [],
               "conformance_rules": [], "conformance_engine_memory": 300}
    config = SimpleNamespace(getoption=lambda name: options.get(name))
    assert spec_from(config).engine_memory == 300
    from conformance.adapters.registry import load_engine

    assert load_engine(f"cmd:{leak_command()}", "momon-wonder", memory=300).memory_mb == 300
    assert load_engine(f"cmd:{leak_command()}", "momon-wonder").memory_mb == DEFAULT_MEMORY_MB


def test_run_counts_out_of_memory_and_goes_on(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LEAK_AT", "4")  # each process leaks on its fourth run request
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine-cmd", leak_command(), "--engine-memory", str(CAP), "--max-examples", "10",
                     "--no-fixtures", "--rules", first_rule(), "--report-json", str(report)])
    out = capsys.readouterr().out
    rules = json.loads(report.read_text())["rules"]
    assert len(rules) == 1 and rules[0]["scenarios_run"] == 10, rules
    assert rules[0]["engine_problems"].get("out-of-memory", 0) >= 2, rules[0]
    assert "out-of-memory" in out, out
    assert code in (0, 1)


def test_check_says_the_engine_ran_out_of_memory(tmp_path, capsys):
    scenario = tmp_path / "leak.json"
    document = seeded(5, "leak-in-check")
    scenario.write_text(json.dumps(document))
    code = cli.main(["check", str(scenario), "--engine-cmd", leak_command(), "--engine-memory", str(CAP)])
    out = capsys.readouterr().out
    assert code == 1
    assert "the engine gave no trace: out-of-memory: the engine ran out of memory" in out, out


def first_rule() -> str:
    from reference_engine.kernel.registry import get_ruleset

    return get_ruleset("momon-wonder").invariants_for("1.0.0")[0].key


def test_replay_plays_under_the_cap_it_is_given(tmp_path, monkeypatch, capsys):
    """``replay FILE --engine-memory MB``: the cap reaches the engine (and replay works again: it used to raise a
    NameError before playing the reference engine's expected trace)."""
    failures = tmp_path / "failures"
    cli.main(["run", "--engine", "mutant:mw-nested-package-joins", "--rules", "mw.nested-package-deferred",
              "--no-fixtures", "--shrink-seconds", "1", "--max-examples", "200", "--failures-dir", str(failures)])
    (replay_file,) = failures.iterdir()
    capsys.readouterr()
    monkeypatch.setenv("MUTANT", "mw-nested-package-joins")
    assert cli.main(["replay", str(replay_file), "--engine-cmd", leak_command(), "--engine-memory", str(CAP)]) == 1
    assert "STILL FAILING: mw.nested-package-deferred" in capsys.readouterr().out
    monkeypatch.setenv("LEAK_AT", "1")
    assert cli.main(["replay", str(replay_file), "--engine-cmd", leak_command(), "--engine-memory", str(CAP)]) == 1
    out = capsys.readouterr().out
    assert "the engine gave no trace: out-of-memory" in out and f"its cap is {CAP} MB" in out, out
