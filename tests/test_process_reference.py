"""The reference engine served over the process protocol (``python -m reference_engine.serve``) gives the same
verdicts and traces as in-process, for every ruleset it serves; the server itself treats bad input clearly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.adapters.process import ProcessEngine
from conformance.running.checking import check_scenario, play
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import SeededSource
from process_support import ENV, REPO, TWO_TRIGGERS, engine, named, server
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import RULESETS
from reference_engine.kernel.registry import reference_engine_for

MOMON_WONDER = RULESETS["momon-wonder"]


def option_variants(ruleset):
    """The defaults, then each option set in turn to each of its other values."""
    variants = [{}]
    for option in ruleset.options:
        variants += [{option.name: value} for value in option.values if value != option.default]
    return [ruleset.resolve_options(v) for v in variants]


def scenarios(ruleset, edition, count, first_seed=0):
    build = builder_for(ruleset.name)
    variants = option_variants(ruleset)
    for n in range(count):
        document = build(SeededSource(first_seed + n), edition)
        yield {**document, "options": variants[n % len(variants)]}


def same_verdicts(in_process, over_protocol, scenario_list, invariants):
    differences = []
    for scenario in scenario_list:
        a = check_scenario(in_process, scenario, invariants)
        b = check_scenario(over_protocol, scenario, invariants)
        if (a.outcome.status, a.outcome.trace, a.violations, a.exercised, a.check_errors) != \
           (b.outcome.status, b.outcome.trace, b.violations, b.exercised, b.check_errors):
            differences.append((scenario.get("id"), a.outcome.status, b.outcome.status, b.outcome.message[:300]))
    return differences


def test_momon_wonder_suite_gives_the_same_verdicts_and_traces_through_the_server():
    invariants = MOMON_WONDER.invariants_for("1.0.0")
    scenario_list = list(scenarios(MOMON_WONDER, "1.0.0", 300))
    with server() as remote:
        assert same_verdicts(reference_engine_for(MOMON_WONDER.name), remote, scenario_list, invariants) == []
        assert remote.restarts_used == 0
        # several option sets were configured over one process
        assert sum("started" in line for line in remote.log) == 1


def test_the_server_serves_every_ruleset():
    with server() as remote:
        assert remote.info.name == "reference"
        assert remote.info.rulesets == {name: list(r.editions) for name, r in RULESETS.items()}
        for name, ruleset in RULESETS.items():
            try:
                builder_for(name)
            except KeyError:
                continue  # a ruleset without a generator yet
            edition = ruleset.editions[0]
            found = same_verdicts(reference_engine_for(ruleset.name), remote, list(scenarios(ruleset, edition, 40, 1000)),
                                  ruleset.invariants_for(edition))
            assert found == [], name


@pytest.mark.parametrize("protocol", [1, 2])
def test_choices_are_asked_through_the_protocol(protocol):
    # Version 1: the scenario's choices reach the server only as the harness's answers. Version 2: the server answers
    # them from the scenario, and the harness checks each answer. Either way, reversing the preference reverses the
    # resolution order in the served trace exactly as in-process.
    for order in (["A1", "A2"], ["A2", "A1"]):
        scenario = named(dict(TWO_TRIGGERS, choices={"trigger_order": order}), "two-triggers")
        with server("--protocol", str(protocol)) as remote:
            served = play(remote, scenario)
            assert remote.protocol == protocol
        local = play(reference_engine_for(MOMON_WONDER.name), scenario)
        assert served.trace == local.trace
        resolved = [e["trigger"] for e in served.trace["entries"] if e["kind"] == "resolve_begin"]
        first = next(e for e in served.trace["entries"] if e["kind"] == "trigger" and e["ability"] == order[0])
        assert resolved[0] == first["id"]


def test_version_1_and_version_2_give_the_same_verdicts():
    # The harness speaks both: a version 1 engine (every choice a round trip) gets exactly the version 2 verdicts.
    invariants = MOMON_WONDER.invariants_for("1.0.0")
    scenario_list = list(scenarios(MOMON_WONDER, "1.0.0", 60, 500))
    with server("--protocol", "1") as old, server() as new:
        assert (old.info.name, old.protocol, new.protocol) == ("reference", 1, 2)
        assert same_verdicts(old, new, scenario_list, invariants) == []
        assert old.restarts_used == new.restarts_used == 0


def test_a_choice_the_engine_answers_itself_against_the_scenario_is_garbage():
    scenario = named(dict(TWO_TRIGGERS, choices={"trigger_order": ["A2", "A1"]}), "two-triggers")
    with engine("contrary_v2", timeout=10.0, cwd=str(REPO)) as contrary:
        outcome = play(contrary, scenario)
        assert outcome.status == "garbage"
        assert "choice 1 the engine answered itself" in outcome.message and "order for P1" in outcome.message
        assert "the scenario's choices answer [1, 0]" in outcome.message

        class Backwards:  # a chooser of the caller's own: the run asks every choice through the protocol
            def order(self, player, triggers):
                return list(reversed(range(len(triggers))))

        trace = contrary.run(scenario, Backwards())
    resolved = [e["trigger"] for e in trace["entries"] if e["kind"] == "resolve_begin"]
    abilities = {e["id"]: e["ability"] for e in trace["entries"] if e["kind"] == "trigger"}
    assert [abilities[t] for t in resolved] == ["A2", "A1"]  # Backwards's answer, asked and used


def test_choices_listed_in_a_run_without_local_choices_are_garbage():
    scenario = named(TWO_TRIGGERS, "two-triggers")
    with engine("contrary_v2", env={**ENV, "CONTRARY_UNASKED": "1"}, cwd=str(REPO), local_choices=False) as eng:
        outcome = play(eng, scenario)
    assert outcome.status == "garbage" and "did not carry local_choices" in outcome.message


def test_a_declined_option_is_skipped_with_the_servers_reason():
    scenario = named(TWO_TRIGGERS, "two-triggers")
    scenario["options"] = dict(scenario["options"], same_event_order="backwards")
    with server() as remote:
        outcome = play(remote, scenario)
    assert outcome.status == "skipped" and "same_event_order" in outcome.message and "backwards" in outcome.message


@pytest.mark.parametrize("name", sorted(MUTANTS)[:2])
def test_mutants_are_served_over_the_protocol(name):
    mutant = MUTANTS[name]
    ruleset = RULESETS[mutant.ruleset]
    with server("--mutant", name) as remote:
        assert remote.info.name == f"mutant:{name}"
        assert remote.info.rulesets == {mutant.ruleset: [mutant.edition]}
        found = same_verdicts(mutant.factory(), remote, list(scenarios(ruleset, mutant.edition, 40)),
                              ruleset.invariants_for(mutant.edition))
    assert found == []


def run_server(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference_engine.serve", *args], input=stdin, text=True,
                          capture_output=True, env=ENV, cwd=REPO, timeout=60)


def test_the_server_explains_a_harness_that_breaks_the_protocol():
    done = run_server(stdin='{"type": "start", "protocol": 1}\nnot json\n')
    assert done.returncode == 2
    assert json.loads(done.stdout.splitlines()[0])["type"] == "started"
    assert "line 2 of stdin is not JSON" in done.stderr and "Traceback" not in done.stderr

    done = run_server(stdin='{"type": "run", "id": 1}\n')
    assert done.returncode == 2
    assert "at $: 'scenario' is a required property" in done.stderr

    done = run_server(stdin='{"type": "configure", "ruleset": "momon-wonder", "edition": "1.0.0", "options": {}}\n')
    assert done.returncode == 2 and "the first message must be 'start'" in done.stderr


def test_the_server_stops_cleanly_and_names_unknown_mutants():
    done = run_server(stdin='{"type": "start", "protocol": 1}\n{"type": "stop"}\n')
    assert done.returncode == 0 and done.stderr == ""
    done = run_server("--mutant", "no-such-mutant", stdin="")
    assert done.returncode != 0 and "no mutant 'no-such-mutant'" in done.stderr and "Traceback" not in done.stderr


def test_the_console_script_is_declared():
    text = (REPO / "pyproject.toml").read_text()
    assert re.search(r'^trigger-conformance-reference-server = "reference_engine.serve:main"$', text, re.M)


def test_cli_run_through_the_server_gives_the_in_process_verdicts(tmp_path):
    def run(*extra: str) -> dict:
        report = tmp_path / f"report-{len(extra)}.json"
        done = subprocess.run([sys.executable, "-m", "conformance.commands.cli", "run", "--ruleset", "momon-wonder",
                               "--max-examples", "40", "--report-json", str(report),
                               "--failures-dir", str(tmp_path / "failures"), *extra],
                              capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=300)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        return json.loads(report.read_text())

    local = run()
    served = run("--engine-cmd", f"{sys.executable} -m reference_engine.serve")
    assert served["engine"]["name"] == "reference" and served["engine"]["spec"].startswith("cmd:")

    def verdicts(report):
        return [{k: v for k, v in rule.items() if k != "seconds"} for rule in report["rules"]], report["fixtures"]

    assert verdicts(served) == verdicts(local)
