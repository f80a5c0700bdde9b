"""The sample outputs in the README and the docs are what the commands print (issue 19, item 7), so they cannot go
stale.

A page marks a sample with ``<!-- output: exit N -->`` before a ```` ```text ```` block whose first line is
``$ COMMAND``; the rest of the block is what COMMAND prints on stdout, and N its exit code. A ``<!-- file: NAME -->``
before a code block saves that block as NAME in the folder the page's commands run in (a fresh one per page, the
commands in page order, so a later command can read what an earlier one wrote). Lines that depend on the clock are
compared loosely: ``progress:`` lines are left out, a duration ``in 1.23 s`` matches any other, and so does the
summary's ``time:`` line (where the time went), and an exhaustive search's ``0.3 s: exhausted``.

To regenerate every sample after a change of output, run this file with TRIGGER_CONFORMANCE_REWRITE_DOCS=1::

    TRIGGER_CONFORMANCE_REWRITE_DOCS=1 .venv/bin/python -m pytest -q tests/test_doc_outputs.py

and review the diff. Keep samples fast: one rule, a small ``--max-examples``, ``--no-fixtures``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from reference_engine.kernel.registry import loaded, units

REWRITE = bool(os.environ.get("TRIGGER_CONFORMANCE_REWRITE_DOCS"))
BIN = Path(sys.executable).parent
SAMPLE = re.compile(r"<!-- output: exit (\d+) -->\n```text\n\$ ([^\n]*)\n(.*?)```", re.S)
FILE = re.compile(r"<!-- file: ([\w.-]+) -->\n```\w*\n(.*?)```", re.S)


def pages() -> list[Path]:
    rulesets = [loaded(name).resource(unit.docs) for name, unit in units().items() if unit.docs]
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *rulesets]


def run(command: str, cwd: Path) -> tuple[int, str]:
    argv = shlex.split(command)
    if (BIN / argv[0]).exists():
        argv[0] = str(BIN / argv[0])
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=300)
    kept = [line for line in done.stdout.splitlines() if not line.startswith("progress:")]
    return done.returncode, "".join(f"{line}\n" for line in kept)


def loose(output: str) -> str:
    output = re.sub(r"^time: exploring .*$", "time: ...", output, flags=re.M)
    output = re.sub(r"\b\d+(\.\d+)? s: (NOT )?exhausted", r"... s: \2exhausted", output)  # --exhaustive's seconds
    return re.sub(r"\bin \d+(\.\d+)? s$", "in ... s", output, flags=re.M)


PAGES_WITH_SAMPLES = [page for page in pages() if SAMPLE.search(page.read_text("utf-8"))]


def test_the_readme_and_docs_have_samples():
    names = {page.name for page in PAGES_WITH_SAMPLES}
    assert {"README.md", "reports.md", "options.md"} <= names, names


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("page", PAGES_WITH_SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_sample_is_what_its_command_prints(page, tmp_path):
    text = page.read_text("utf-8")
    for name, body in FILE.findall(text):
        (tmp_path / name).write_text(body)
    stale, pieces, last = [], [], 0
    for sample in SAMPLE.finditer(text):
        code, command, shown = int(sample.group(1)), sample.group(2), sample.group(3)
        got_code, got = run(command, tmp_path)
        if (got_code, loose(got)) != (code, loose(shown)):
            stale.append(f"{command}: exit {got_code} (shown: {code})\n{got}")
        pieces += [text[last:sample.start()], f"<!-- output: exit {got_code} -->\n```text\n$ {command}\n{got}```"]
        last = sample.end()
    if REWRITE and stale:
        page.write_text("".join(pieces) + text[last:], "utf-8")
        return
    assert not stale, (f"{page.relative_to(ROOT)} shows stale output (regenerate with "
                       f"TRIGGER_CONFORMANCE_REWRITE_DOCS=1, see this module's docstring):\n" + "\n".join(stale))


def test_the_readme_engine_checks_once_run_is_filled_in(tmp_path):
    """The five-minute engine of the README, its ``run`` filled in by a working engine, passes: the interface it
    shows is the one the harness calls."""
    engine = FILE.search((ROOT / "README.md").read_text("utf-8"))
    assert engine and engine.group(1) == "my_engine.py"
    body = engine.group(2).replace(
        'raise Skipped("not implemented yet")',
        "from reference_engine.momon_wonder.engines.reference import MomonWonderEngine\n"
        "        return MomonWonderEngine().run(scenario, chooser)")
    assert body != engine.group(2)
    (tmp_path / "my_engine.py").write_text(body)
    code, out = run("trigger-conformance run --ruleset momon-wonder --engine my_engine:MyEngine --rules mw.queue-fifo "
                    "--max-examples 20", tmp_path)
    assert code == 0, out
    assert re.search(r"^PASS  mw\.queue-fifo .* exercised", out, re.M), out


def test_every_command_the_readme_shows_parses():
    """Every ``trigger-conformance`` command of the README, in a code block or inline (the set-up command's included),
    is one the CLI accepts; the samples above run theirs, the CI runs the test command."""
    from conformance.commands import cli

    readme = (ROOT / "README.md").read_text("utf-8")
    lines = [line for block in re.findall(r"```sh\n(.*?)```", readme, re.S) for line in block.splitlines()]
    lines += re.findall(r"^\$ (.*)$", readme, re.M)  # a sample's command, not its output
    shown = [part.strip() for line in lines for part in line.split("&&")]
    shown += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", readme, flags=re.S))
    commands = [shlex.split(c) for c in shown if re.match(r"(\.venv/bin/)?trigger-conformance ", c)]
    assert len(commands) >= 8, commands
    for argv in commands:
        try:
            cli.build_parser().parse_args(argv[1:])
        except SystemExit:
            pytest.fail(f"the README shows a command the CLI refuses: {shlex.join(argv)}")
