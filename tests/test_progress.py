"""Issue 13 item 5: progress while a run runs, from ``trigger-conformance run`` and from the pytest plugin. On a
terminal (a real pseudo-terminal here) a live line redrawn in place; when the output is not a terminal, plain lines
every --progress-interval seconds. Each says the rules done of the total, the scenarios played, the failures so far,
the time elapsed and the time estimated to remain. The engine (tests/engines/slow_after.py serving the reference
engine) takes 60 ms a scenario, so that the run lasts a few seconds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from process_support import ENGINES, ENV, REPO

from reference_engine.kernel.registry import get_ruleset

MOMON_RULES = len(get_ruleset("momon-wonder").invariants)

TESTS = Path(__file__).resolve().parent
ENGINE = f"{sys.executable} {ENGINES / 'slow_after.py'}"
SLOW = {"MUTANT": "reference", "SLOW_AFTER": "0", "SLOW_SECONDS": "0.06", "PYTHONPATH": f"{REPO}:{TESTS}"}
LINE = re.compile(r"\[(\d+)/\d+ rules\] (\d+)/30 scenarios, (\d+) failure\(s\), (\d+m)?\d+s elapsed, "
                  r"(\?|~(\d+m)?\d+s( to explore)?) left")
CLI = [sys.executable, "-m", "conformance.commands.cli", "run", "--engine-cmd", ENGINE, "--max-examples", "30",
       "--no-fixtures", "--progress-interval", "0.5"]


def _pytest(tmp_path: Path) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'bt'}", "-p",
            "no:xdist", "--trigger-ruleset", "momon-wonder", "--trigger-engine-cmd", ENGINE,
            "--trigger-max-examples", "30", "--trigger-no-fixtures", "--trigger-progress-interval", "0.5"]


def _piped(argv: list[str], tmp_path: Path) -> str:
    done = subprocess.run(argv, cwd=tmp_path, env={**ENV, **SLOW}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def _on_a_terminal(argv: list[str], tmp_path: Path) -> str:
    """The output of ``argv`` run with a pseudo-terminal as its stdout and stderr."""
    master, slave = os.openpty()
    proc = subprocess.Popen(argv, cwd=tmp_path, env={**ENV, **SLOW, "COLUMNS": "200"}, stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait(timeout=300) == 0, b"".join(chunks).decode(errors="replace")[-3000:]
    return b"".join(chunks).decode(errors="replace")


def _plain_lines(out: str, prefix: str) -> list[re.Match]:
    found = [LINE.search(line) for line in out.splitlines() if line.startswith(prefix)]
    assert len(found) >= 2 and all(found), out[-3000:]
    played = [int(m.group(2)) for m in found]
    assert played == sorted(played) and played[0] < 30, played  # seen while exploring, counting up
    return found


def test_the_command_prints_plain_progress_lines_when_not_on_a_terminal(tmp_path):
    out = _piped(CLI, tmp_path)
    _plain_lines(out, "progress: ")
    assert "\r" not in out and "\x1b[" not in out


def test_the_command_redraws_a_live_line_on_a_terminal(tmp_path):
    out = _on_a_terminal(CLI, tmp_path)
    redraws = [LINE.match(part) for part in out.split("\r\x1b[2K") if part.startswith("[")]
    assert len(redraws) >= 3 and all(redraws), out[-3000:]
    assert "progress: " not in out
    assert {int(m.group(1)) for m in redraws} >= {0, MOMON_RULES}  # while exploring, and rule after rule


def test_pytest_prints_plain_progress_lines_when_not_on_a_terminal(tmp_path):
    out = _piped(_pytest(tmp_path), tmp_path)
    found = _plain_lines(out, "trigger-conformance progress: ")
    assert "\x1b[2K" not in out
    assert int(found[-1].group(2)) == 30


def test_pytest_redraws_a_live_line_on_a_terminal_while_exploring(tmp_path):
    out = _on_a_terminal(_pytest(tmp_path), tmp_path)
    redraws = [LINE.match(part) for part in out.split("\r\x1b[2K") if re.match(r"\[0/\d+ rules\]", part)]
    assert len(redraws) >= 3 and all(redraws), out[-3000:]
    played = [int(m.group(2)) for m in redraws]
    assert played == sorted(played) and played[0] < 30
    assert f"{MOMON_RULES} passed" in out
