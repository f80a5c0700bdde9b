"""docs/protocol.md stays true: its schema excerpt is the schema, its session is valid, and its adapter examples
work as written (and, given a real engine, give the reference verdicts)."""

from __future__ import annotations

import json
import re
import sys

from conformance.adapters.process import ProcessEngine
from conformance.running.checking import check_scenario, play
from conformance.documents.json_io import problems
from process_support import ENV, REPO, TWO_TRIGGERS, named, seeded
from reference_engine.kernel.registry import RULESETS
from reference_engine.kernel.registry import reference_engine_for

DOC = (REPO / "docs" / "protocol.md").read_text("utf-8")


def example(language: str) -> str:
    return re.search(rf"<!-- example: {language} -->\n```{language}\n(.*?)```", DOC, re.S).group(1)


def test_schema_excerpts_are_the_schema():
    schema = json.loads((REPO / "schemas" / "protocol.schema.json").read_text("utf-8"))
    excerpts = re.findall(r"<!-- excerpt: #/\$defs/(\w+) -->\n```json\n(.*?)```", DOC, re.S)
    assert excerpts
    for name, text in excerpts:
        assert json.loads(text) == schema["$defs"][name], f"docs/protocol.md's excerpt of {name} is stale"


def test_the_session_is_valid_protocol():
    session = re.search(r"## A session.*?```text\n(.*?)```", DOC, re.S).group(1)
    for line in session.splitlines():
        direction, message = line[:2], json.loads(line[2:])
        schema = "protocol-harness" if direction == "> " else "protocol-engine"
        assert problems(message, schema) == [], line


def test_the_version_2_session_is_valid_protocol_and_its_choices_follow_the_rules():
    from conformance.adapters.process import made_choice_problem
    from reference_engine.kernel.choices import ScenarioChooser

    session = re.search(r"<!-- session: version 2 -->\n```text\n(.*?)```", DOC, re.S).group(1)
    messages = []
    for line in session.splitlines():
        direction, message = line[:2], json.loads(line[2:])
        schema = "protocol-harness" if direction == "> " else "protocol-engine"
        assert problems(message, schema) == [], line
        messages.append(message)
    run = next(m for m in messages if m["type"] == "run")
    result = next(m for m in messages if m["type"] == "result")
    assert run["local_choices"] is True and result["choices"]
    for made in result["choices"]:
        assert made_choice_problem(ScenarioChooser(run["scenario"]), made) is None


def test_python_example_as_written_skips_everything(tmp_path):
    (tmp_path / "my_adapter.py").write_text(example("python"))
    with ProcessEngine([sys.executable, str(tmp_path / "my_adapter.py")], timeout=10) as eng:
        assert eng.info.name == "my-engine"
        outcomes = [play(eng, seeded(n)) for n in range(3)]
    assert {(o.status, o.message) for o in outcomes} == {("skipped", "not implemented yet")}


def test_python_example_with_a_real_engine_gives_the_reference_verdicts(tmp_path):
    (tmp_path / "my_adapter.py").write_text(example("python"))
    (tmp_path / "wrapped.py").write_text(
        "import my_adapter\n"
        "from reference_engine.momon_wonder.engines.reference import MomonWonderEngine\n\n"
        "class Ask:\n"
        "    def __init__(self, choose):\n"
        "        self.choose = choose\n"
        "    def order(self, player, triggers):\n"
        "        return self.choose('order', player, triggers=triggers)\n"
        "    def optional(self, player, trigger):\n"
        "        return self.choose('optional', player, trigger=trigger)\n\n"
        "my_adapter.play = lambda scenario, choose: MomonWonderEngine().run(scenario, Ask(choose))\n"
        "my_adapter.main()\n")
    ruleset = RULESETS["momon-wonder"]
    invariants = ruleset.invariants_for("1.0.0")
    scenarios = [seeded(n) for n in range(40)] + [named(dict(TWO_TRIGGERS, choices={"trigger_order": ["A2"]}), "x")]
    with ProcessEngine([sys.executable, str(tmp_path / "wrapped.py")], timeout=10, env=ENV) as eng:
        for scenario in scenarios:
            local = check_scenario(reference_engine_for(ruleset.name), scenario, invariants)
            remote = check_scenario(eng, scenario, invariants)
            assert (remote.outcome.status, remote.outcome.trace, remote.violations) == \
                   (local.outcome.status, local.outcome.trace, local.violations)


# The JavaScript engine of the page (docs/examples/redemption-engine.js), its sessions and recipes: tests/test_protocol_guide.py.
