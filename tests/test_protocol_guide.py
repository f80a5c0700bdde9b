"""docs/protocol.md can be followed by a stranger (issue 23, item 4): its example sessions are what the real harness
and real engines say to each other, its recipes run, and its JavaScript engine (docs/examples/redemption-engine.js)
passes a run on the features it declares.

* The example scenario is the page's ``<!-- file: scenario.json -->`` block; the version 1 session
  (``<!-- session: version 1 -->``) is the harness playing it twice (the second time with another option value,
  hence a second ``configure``) on the JavaScript engine, and the version 2 session the same first run on the
  reference server. Both are recorded again here, through a proxy between the harness (``ProcessEngine``, as
  ``trigger-conformance run`` uses it) and the engine, and must be the page's lines message for message. The
  version 1 session is also recorded on the reference server speaking version 1: every line but its ``started``,
  which names the engine, must match (so, without Node.js, all but that line are still checked).
* To regenerate both sessions after a change of the protocol, the harness or the examples (Node.js needed)::

      TRIGGER_CONFORMANCE_REWRITE_DOCS=1 .venv/bin/python -m pytest -q tests/test_protocol_guide.py

  and review the diff.
* Every ``sh`` block of the page is a recipe, marked ``<!-- recipe -->``, and is run here (from a folder holding the
  page's files and a copy of docs/examples/), through ``bash`` with the installed commands on the PATH; the other
  commands the page shows inline parse. Sample outputs (``<!-- output: exit N -->``) are tests/test_doc_outputs.py's.
* The documented server command (``trigger-conformance-reference-server``) runs the installed package whatever the
  current folder holds; ``python -m reference_engine.serve`` would import a stray ``reference_engine.py`` of it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from conformance.adapters.process import ProcessEngine
from conformance.running.checking import check_scenario
from conformance.documents.json_io import problems
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import get_ruleset, reference_engine_for

PAGE = ROOT / "docs" / "protocol.md"
ENGINE_JS = ROOT / "docs" / "examples" / "redemption-engine.js"
BIN = Path(sys.executable).parent
SERVER = str(BIN / "trigger-conformance-reference-server")
NODE = shutil.which("node")
REWRITE = bool(os.environ.get("TRIGGER_CONFORMANCE_REWRITE_DOCS"))
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

# The second run of the version 1 session: the same scenario under another value of one option.
SECOND_OPTIONS = {"trigger_during_resolution": "before-pending"}

# Forwards stdin to the engine (argv[2:]) and the engine's stdout back, logging each line with its direction in
# argv[1]. The protocol alternates strictly (the harness waits for each answer), so the log is in causal order.
PROXY = r"""
import subprocess, sys, threading
log = open(sys.argv[1], "a", encoding="utf-8")
lock = threading.Lock()
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def pump(source, target, prefix):
    for line in iter(source.readline, b""):
        with lock:
            log.write(prefix + line.decode("utf-8").rstrip("\n") + "\n")
            log.flush()
        target.write(line)
        target.flush()
    if prefix == "> ":
        engine.stdin.close()
back = threading.Thread(target=pump, args=(engine.stdout, sys.stdout.buffer, "< "))
back.start()
pump(sys.stdin.buffer, engine.stdin, "> ")
back.join()
sys.exit(engine.wait())
"""


def page() -> str:
    return PAGE.read_text("utf-8")


def block(marker: str) -> str:
    found = re.search(rf"<!-- {re.escape(marker)} -->\n```\w*\n(.*?)```", page(), re.S)
    assert found, f"docs/protocol.md has no block marked <!-- {marker} -->"
    return found.group(1)


def session(name: int | str) -> list[tuple[str, dict]]:
    """A session block's lines as (direction, message): version 1 or 2, or another name."""
    marker = f"session: version {name}" if isinstance(name, int) else f"session: {name}"
    return [(line[:1], json.loads(line[2:])) for line in block(marker).splitlines()]


def example_scenario(options: dict | None = None) -> dict:
    document = json.loads(block("file: scenario.json"))
    if options:
        document["options"] = options
    return prepare_scenario(document, "docs/protocol.md's scenario.json")[1]


def record(tmp_path: Path, argv: list[str], scenarios: list[dict], protocol_log: str = "session.log"):
    """What the harness and the engine ``argv`` say while the harness plays ``scenarios`` (each answered from its own
    choices, as ``trigger-conformance run`` does): the lines, and each scenario's check."""
    (tmp_path / "proxy.py").write_text(PROXY)
    log = tmp_path / protocol_log
    log.unlink(missing_ok=True)
    invariants = get_ruleset("redemption").invariants_for("reg-glossary")
    with ProcessEngine([sys.executable, str(tmp_path / "proxy.py"), str(log), *argv], timeout=20) as engine:
        checks = [check_scenario(engine, scenario, invariants) for scenario in scenarios]
    lines = [(line[:1], json.loads(line[2:])) for line in log.read_text("utf-8").splitlines()]
    return lines, checks


def rewrite(version: int, lines: list[tuple[str, dict]]) -> None:
    text = "".join(f"{direction} {json.dumps(message)}\n" for direction, message in lines)
    marker = f"<!-- session: version {version} -->\n```text\n"
    start = page().index(marker) + len(marker)
    end = page().index("```", start)
    PAGE.write_text(page()[:start] + text + page()[end:], "utf-8")


# -- The example scenario and sessions ---------------------------------------------------------------------------------


def test_the_example_scenario_is_a_valid_redemption_scenario_with_objects():
    scenario = example_scenario()
    assert scenario["ruleset"] == "redemption" and len(scenario["objects"]) >= 2
    assert all(obj.get("abilities") for obj in scenario["objects"])


@pytest.mark.parametrize("version", [1, 2])
def test_every_message_of_the_sessions_is_valid(version):
    lines = session(version)
    assert lines[0] == (">", {"type": "start", "protocol": 1}) and lines[-1] == (">", {"type": "stop"})
    for direction, message in lines:
        schema = "protocol-harness" if direction == ">" else "protocol-engine"
        assert problems(message, schema) == [], (direction, message)


def test_the_version_1_session_shows_every_kind_of_exchange():
    lines = session(1)
    kinds = [message["type"] for _, message in lines]
    assert kinds.count("configure") == 2 and kinds.count("run") == 2, kinds
    decisions = {message["decision"] for _, message in lines if message["type"] == "choose"}
    assert decisions == {"order", "optional"}
    runs = [m["scenario"] for _, m in lines if m["type"] == "run"]
    assert runs == [example_scenario(), example_scenario(SECOND_OPTIONS)]
    configures = [m for _, m in lines if m["type"] == "configure"]
    assert [c["options"] for c in configures] == [r["options"] for r in runs]


@pytest.mark.parametrize("version", [1, 2])
def test_the_choices_asked_are_about_trace_entries_of_the_scenario(version):
    """``choose.triggers`` (and ``choose.trigger``, and a version 2 result's ``choices``) are whole trace ``trigger``
    entries of that run, whose ability and source are in the scenario."""
    lines = session(version)
    scenario, asked = None, []
    for _, message in lines:
        if message["type"] == "run":
            scenario, asked = message["scenario"], []
        elif message["type"] == "choose":
            asked.append(message)
        elif message["type"] == "result":
            asked += message.get("choices", [])
            entries = [e for e in message["trace"]["entries"] if e["kind"] == "trigger"]
            abilities = {(o["id"], a["id"]) for o in scenario["objects"] for a in o["abilities"]}
            assert asked
            for question in asked:
                for trigger in question.get("triggers", []) + [question.get("trigger")] * ("trigger" in question):
                    assert trigger in entries and (trigger["source"], trigger["ability"]) in abilities


@pytest.mark.parametrize("version", [1, 2])
def test_the_traces_are_the_reference_engines(version):
    scenario = None
    for _, message in session(version):
        if message["type"] == "run":
            scenario = message["scenario"]
        elif message["type"] == "result":
            expected = reference_engine_for("redemption").run(scenario, ScenarioChooser(scenario))
            assert message["trace"] == expected


def without_started(lines: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The lines but ``started``, each ``configured`` without its default ``"ok": true``."""
    return [(d, {k: v for k, v in m.items() if (m["type"], k, v) != ("configured", "ok", True)})
            for d, m in lines if m["type"] != "started"]


@needs_node
def test_the_version_1_session_is_what_the_harness_and_the_javascript_engine_say(tmp_path):
    lines, checks = record(tmp_path, [NODE, str(ENGINE_JS)], [example_scenario(), example_scenario(SECOND_OPTIONS)])
    assert all(c.outcome.status == "trace" and not c.violations for c in checks), checks
    if REWRITE:
        rewrite(1, lines)
    assert lines == session(1), "docs/protocol.md's version 1 session is stale (see this module's docstring)"


def test_the_version_1_session_differs_from_the_reference_servers_only_in_its_started_line(tmp_path):
    """As the page says; and so, without Node.js, every line of the session but ``started`` is still checked."""
    lines, checks = record(tmp_path, [SERVER, "--protocol", "1"], [example_scenario(), example_scenario(SECOND_OPTIONS)])
    assert all(c.outcome.status == "trace" and not c.violations for c in checks), checks
    assert without_started(lines) == without_started(session(1))


def test_the_other_results_are_valid():
    lines = session("other results")
    assert {message["result"] for _, message in lines} == {"skipped", "errored"}
    assert all(direction == "<" and problems(message, "protocol-engine") == [] for direction, message in lines)


def _bundled_only(lines: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The session as the page shows it: the reference server's ``started`` lists every installed ruleset, the page
    the bundled three (a fourth installed beside them is no staleness of the page)."""
    from reference_engine.kernel.schemas import bundled

    shown = set(bundled())
    return [(d, {**m, "rulesets": {k: v for k, v in m["rulesets"].items() if k in shown}}
             if m.get("type") == "started" else m) for d, m in lines]


def test_the_version_2_session_is_what_the_harness_and_the_reference_server_say(tmp_path):
    lines, checks = record(tmp_path, [SERVER], [example_scenario()])
    lines = _bundled_only(lines)
    assert checks[0].outcome.status == "trace" and not checks[0].violations
    if REWRITE:
        rewrite(2, lines)
    assert lines == session(2), "docs/protocol.md's version 2 session is stale (see this module's docstring)"
    assert any(m.get("local_choices") for _, m in lines) and any(m.get("choices") for _, m in lines)


# -- The recipes ---------------------------------------------------------------------------------------------------------


def recipes() -> list[str]:
    return re.findall(r"<!-- recipe -->\n```sh\n(.*?)```", page(), re.S)


def test_every_shell_block_of_the_page_is_a_recipe():
    shell_blocks = re.findall(r"```sh\n", page())
    assert len(recipes()) == len(shell_blocks) >= 4


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("number", range(len(recipes())))
def test_each_recipe_runs(number, tmp_path):
    recipe = recipes()[number]
    if "node " in recipe and NODE is None:
        pytest.skip("Node.js is not installed")
    (tmp_path / "scenario.json").write_text(block("file: scenario.json"))
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", recipe], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"recipe:\n{recipe}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"


def test_every_trigger_conformance_command_the_page_shows_parses():
    from conformance.commands import cli

    text = page()
    shown = [line for recipe in recipes() for line in recipe.splitlines()]
    shown += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    commands = [shlex.split(c) for c in shown if c.startswith("trigger-conformance ")]
    assert len(commands) >= 5, commands

    def refused(argv: list[str]) -> bool:
        try:
            cli.build_parser().parse_args(argv[1:])
        except SystemExit:
            return True
        return False

    bad = [shlex.join(argv) for argv in commands if refused(argv)]
    assert not bad, f"docs/protocol.md shows commands the CLI refuses: {bad}"


def test_the_page_tells_how_to_validate_each_direction():
    text = page()
    assert "trigger-conformance validate --as protocol-engine" in text
    assert "trigger-conformance validate --as protocol-harness" in text
    assert "python -m jsonschema" not in text


# -- The JavaScript engine -----------------------------------------------------------------------------------------------


@needs_node
def test_the_javascript_engine_passes_a_run_on_what_it_plays(tmp_path):
    """All its rules pass; the ones its profile leaves nothing to exercise are flagged unexercised (WARN), and the
    fixtures using excluded features are skipped, as docs/protocol.md says."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([str(BIN / "trigger-conformance"), "run", "--ruleset", "redemption", "--engine-cmd",
                           f"node {shlex.quote(str(ENGINE_JS))}", "--max-examples", "20"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if re.match(r"[A-Z]{3,5} ", line)]
    assert rows and not [r for r in rows if r.split()[0] not in ("PASS", "WARN", "SKIP")], done.stdout
    unexercised = {r.split()[1] for r in rows if r.startswith("WARN")}
    assert unexercised == {"red.if-x-y-never-waits", "red.if-x-y-checks-now", "red.negation-ends",
                           "red.mandatory-after-phase"}, done.stdout
    assert re.search(r"^PASS  fixture ", done.stdout, re.M), done.stdout
    assert "minimal-redemption-js" in done.stdout


def test_the_profile_the_page_shows_is_the_one_the_javascript_engine_declares():
    started = next(message for _, message in session(1) if message["type"] == "started")
    assert json.loads(block("profile: javascript")) == started["profiles"]


@needs_node
def test_the_javascript_engine_declines_what_it_does_not_play(tmp_path):
    scenario = example_scenario()
    scenario["objects"][0]["abilities"][0]["effect"] = [{"do": "negate", "object": "P2c1"}]
    with ProcessEngine([NODE, str(ENGINE_JS)], timeout=20) as engine:
        assert engine.generation_profile("redemption")["exclude"]
        from conformance.running.checking import play

        outcome = play(engine, scenario)
    assert (outcome.status, outcome.message) == ("skipped", "the action 'negate' is not implemented")


# -- The reference server's documented command and a stray module ------------------------------------------------------------


STRAY = "open({marker!r}, 'a').write(__name__ + '\\n')\nraise SystemExit('a stray module was imported')\n"


def test_a_stray_module_in_the_current_folder_does_not_change_the_documented_server(tmp_path):
    """The page runs the reference server as ``trigger-conformance-reference-server`` (a console script: the current
    folder is not on its import path); ``python -m reference_engine.serve`` would put it first and import the folder's
    own ``reference_engine.py`` (or ``conformance.py``) instead."""
    marker = tmp_path / "imported.txt"
    for name in ("reference_engine.py", "conformance.py"):
        (tmp_path / name).write_text(STRAY.format(marker=str(marker)))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([str(BIN / "trigger-conformance"), "run", "--ruleset", "redemption", "--rules",
                           "red.optional-choice", "--max-examples", "5", "--no-fixtures", "--engine-cmd",
                           "trigger-conformance-reference-server"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^PASS  red\.optional-choice .* on reference|^PASS  red\.optional-choice", done.stdout, re.M)
    assert not marker.exists(), marker.read_text()
    # What the page no longer shows: the folder's module is imported in place of the package.
    stray = subprocess.run([sys.executable, "-m", "reference_engine.serve"], cwd=tmp_path, env=env, input="",
                           capture_output=True, text=True, timeout=60)
    assert stray.returncode != 0 and "reference_engine" in marker.read_text()


def test_no_page_runs_the_server_with_python_m():
    """Every command the README, the docs and the workflows show runs the console script; a page may still name
    ``python -m reference_engine.serve`` in prose (to warn against it), never in a code block or an engine command."""
    shown = []
    for where in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / ".github").rglob("*.yml"))]:
        text = where.read_text("utf-8")
        code = [text] if where.suffix == ".yml" else re.findall(r"```.*?```", text, re.S) + [
            span for span in re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
            if "--engine-cmd" in span or "|" in span]
        if any("-m reference_engine.serve" in piece for piece in code):
            shown.append(str(where.relative_to(ROOT)))
    assert not shown, f"these run `python -m reference_engine.serve`; show trigger-conformance-reference-server: {shown}"


def test_selftest_runs_its_process_mutants_whatever_the_current_folder_holds(tmp_path):
    """The sibling inside the tool: ``trigger-conformance selftest`` serves some mutants over the protocol with the
    harness's own Python; ``-P`` keeps the user's folder off that server's import path."""
    from conformance.commands.selftest import server_command, server_environment

    marker = tmp_path / "imported.txt"
    for name in ("reference_engine.py", "conformance.py"):
        (tmp_path / name).write_text(STRAY.format(marker=str(marker)))
    with ProcessEngine(server_command("mw-lifo"), env=server_environment(), cwd=str(tmp_path), timeout=20) as engine:
        assert engine.info.name == "mutant:mw-lifo"
    assert not marker.exists()
