"""Issue 34: the edges of `run` and of the pytest plugin's options. A shard holding none of the chosen rules is a
clean, explicit result (exit 0, one line saying so), not pytest's "no tests ran"; ``--trigger-rules a b`` (space
separated) works with and without ``-n 2``; pytest's "collected N" is what runs; the header names the engine's name
and version, not its spec."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.commands import cli

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
RULES = ["mw.queue-fifo", "mw.no-interruption"]


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'bt'}",
                           "--trigger-ruleset", "momon-wonder", "--trigger-max-examples", "5", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)


def test_run_with_a_shard_holding_none_of_the_chosen_rules_exits_0_and_says_so(tmp_path, capsys):
    report = tmp_path / "r.json"
    code = cli.main(["run", "--rules", "mw.no-interruption", "--shard", "2/2", "--max-examples", "3", "--no-fixtures",
                     "--report-json", str(report)])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    assert "shard 2/2 is empty: it holds none of the 1 rule(s) chosen with --rules" in captured.out
    assert "no tests ran" not in captured.out + captured.err and "pytest exit code" not in captured.err
    assert json.loads(report.read_text("utf-8"))["rules"] == []
    # The other shard holds it, and checks it.
    assert cli.main(["run", "--rules", "mw.no-interruption", "--shard", "1/2", "--max-examples", "3",
                     "--no-fixtures"]) == 0
    assert "is empty" not in capsys.readouterr().out


def test_the_plugin_with_an_empty_shard_exits_0_and_says_so(tmp_path):
    done = _pytest(tmp_path, "--trigger-rules", "mw.no-interruption", "--trigger-shard", "2/2", "-p", "no:xdist",
                   "--trigger-no-fixtures")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "shard 2/2 is empty" in done.stdout


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "two-workers"])
def test_trigger_rules_separated_by_spaces_runs_those_rules_and_collects_what_runs(tmp_path, workers):
    done = _pytest(tmp_path, "--trigger-rules", *RULES, "--trigger-no-fixtures", "-v", "-rA",
                   *(workers or ["-p", "no:xdist"]))
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    ran = set(re.findall(r"test_rule\[([\w.-]+)\]\s+PASSED|PASSED .*test_rule\[([\w.-]+)\]", out))
    ran = {name for pair in ran for name in pair if name}
    assert ran == set(RULES), out
    passed = int(re.search(r"(\d+) passed", out)[1])
    assert passed == len(RULES)
    collected = re.search(r"collected (\d+) items|(\d+) workers \[(\d+) items\]", out)
    assert collected, out
    assert int(collected[1] or collected[3]) == passed, out  # no audit or fixture item collected and then skipped


def test_the_header_names_the_engines_name_and_version(tmp_path):
    done = _pytest(tmp_path, "--trigger-engine", "plugin_engines:MixedLifo", "--trigger-rules", "mw.queue-fifo",
                   "--trigger-no-fixtures", "--trigger-shrink-seconds", "0.5", "-p", "no:xdist")  # a header: no shrink
    header = next(line for line in done.stdout.splitlines() if line.startswith("trigger-conformance ") and " on " in line)
    assert "plugin_engines:MixedLifo" not in header, header
    assert re.search(r" on \S+ \S+, ", header), header


def test_every_subcommands_help_says_what_it_does_and_ruleset_has_help(capsys):
    commands = next(a for a in cli.build_parser()._actions if a.dest == "command")
    for name, parser in commands.choices.items():
        assert parser.description, f"`{name} --help` opens with no description"
        for action in parser._actions:
            if "--ruleset" in action.option_strings:
                assert action.help and "momon-wonder" in action.help, name
    assert cli.main(["--help"]) == 0  # the command itself says what it is for, in words (no reST markup)
    top = capsys.readouterr().out
    assert "rules engine's triggered abilities" in top and "``" not in top and "exit codes:" in top
    assert cli.main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Check an engine against every rule of a ruleset." in out and "the ruleset: one of" in out


def test_a_huge_skip_reason_is_not_kept_whole_in_the_reports(tmp_path, capsys):
    report, stream = tmp_path / "r.json", tmp_path / "r.jsonl"
    code = cli.main(["run", "--engine", "plugin_engines:HugeSkipReason", "--rules", "mw.queue-fifo", "--max-examples",
                     "10", "--accept-skips", "--report-json", str(report), "--report-jsonl", str(stream)])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    assert report.stat().st_size < 1024 * 1024 and stream.stat().st_size < 1024 * 1024
    assert len(captured.out) < 1024 * 1024
    assert "more characters)" in report.read_text("utf-8")  # said to be cut, with how much was left out


def test_an_in_process_engine_raising_keyboard_interrupt_is_an_engine_error_not_a_ctrl_c(tmp_path, capsys):
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine", "plugin_engines:RaisesKeyboardInterrupt", "--rules", "mw.queue-fifo",
                     "--max-examples", "10", "--no-fixtures", "--report-json", str(report)])
    captured = capsys.readouterr()
    assert code == 1, captured.out + captured.err  # errored, not 130
    document = json.loads(report.read_text("utf-8"))
    assert "interrupted" not in document
    assert document["rules"][0]["status"] == "errored"
    assert "raised KeyboardInterrupt itself" in document["rules"][0]["first_problem"]


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("how", ["pytest", "command-two-workers", "pytest-two-workers"])
def test_an_engine_raising_keyboard_interrupt_is_no_ctrl_c_in_exploring_workers_or_under_pytest(tmp_path, how):
    """The same where the engine runs in the command's exploring pool workers (``--workers 2``) or under plain pytest
    (the plugin, serial or ``-n 2``), where Python's own handler, not the command's, stands for SIGINT."""
    engine = "plugin_engines:RaisesKeyboardInterrupt"
    if how == "command-two-workers":
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
        done = subprocess.run([sys.executable, "-m", "conformance.commands.cli", "run", "--engine", engine, "--rules",
                               "mw.queue-fifo", "--max-examples", "10", "--no-fixtures", "--workers", "2"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    else:
        done = _pytest(tmp_path, "--trigger-engine", engine, "--trigger-rules", "mw.queue-fifo", "--trigger-no-fixtures",
                       "--trigger-max-examples", "10", *(["-n", "2"] if how.endswith("workers") else ["-p", "no:xdist"]))
    out = done.stdout + done.stderr
    assert done.returncode == 1, out  # the rule errored, not 130
    assert "interrupted" not in out and "KeyboardInterrupt" in out, out
