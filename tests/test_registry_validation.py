"""The registry validates each ruleset unit when it loads (issue 19, item 1): every part present, editions consistent
between the judge and the engines, faulty engines expecting keys that exist, prefix-safe keys that exist, schema
fragments that compose; an entry point must name a RulesetUnit. Each fault raises a UnitError naming the unit and the
part, and the CLI reports it in one line (exit code 2), not a traceback. The units here are variants of the toy
ruleset of tests/toy_ruleset/ (imported from its source, not installed)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from reference_engine.kernel import unit as unit_module
from reference_engine.kernel.registry import ENTRY_POINT_GROUP, LoadedUnit, units
from reference_engine.kernel.unit import UnitError

TOY = Path(__file__).resolve().parent / "toy_ruleset"

BROKEN_PARTS = '''
import dataclasses
from hearth_queue.engines import MUTANTS, HearthQueueEngine

class OtherEditionEngine(HearthQueueEngine):
    editions = ("toy-2",)

UNKNOWN_KEY = (dataclasses.replace(MUTANTS[0], expected_rule_key="hq.no-such-key"),)
OTHER_EDITION = (dataclasses.replace(MUTANTS[0], edition="toy-2"),)
NOT_A_UNIT = object()

class NoRulesetEngine(HearthQueueEngine):
    ruleset = None

class NoGuardEngine(HearthQueueEngine):
    def __init__(self):
        super().__init__()

class NotAnEngine:
    ruleset, editions = "hearth-queue", ("toy-1",)

def build_with_options(source, edition, options, profile=None):
    raise AssertionError("never called at load")

def build_without_edition(source):
    raise AssertionError("never called at load")

from hearth_queue.judge import HEARTH_QUEUE
from reference_engine.kernel.ruleset import Option
BAD_DEFAULT = dataclasses.replace(HEARTH_QUEUE, options=(
    Option("hq_order", "newest", {"play": "play order", "oldest": "oldest first"}, "HQ.2", "The order."),))
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy's manifest, with the toy and a module of broken parts (``broken_parts``) importable."""
    monkeypatch.syspath_prepend(str(TOY))
    (tmp_path / "broken_parts.py").write_text(BROKEN_PARTS, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "package", raising=False)  # each test's own tmp_path/package (_package)
    from hearth_queue import UNIT

    return UNIT


def test_the_toy_unit_is_valid(toy):
    loaded = LoadedUnit(toy)
    assert loaded.ruleset.name == "hearth-queue" and [m.name for m in loaded.faulty_engines] == ["hq-newcomers-first"]


@pytest.mark.parametrize("change, message", [
    ({"judge": "hearth_queue.judge:NO_SUCH_JUDGE"},
     "ruleset unit 'hearth-queue': its judge 'hearth_queue.judge:NO_SUCH_JUDGE' cannot be loaded"),
    ({"generator": "hearth_queue.no_such_module:build"},
     "ruleset unit 'hearth-queue': its generator 'hearth_queue.no_such_module:build' cannot be loaded"),
    ({"reference_engine": "broken_parts:OtherEditionEngine"},
     "ruleset unit 'hearth-queue' is inconsistent: its reference engine plays editions ['toy-2'], its judge has "
     "['toy-1']"),
    ({"faulty_engines": "broken_parts:OTHER_EDITION"},
     "ruleset unit 'hearth-queue' is inconsistent: faulty engine 'hq-newcomers-first' is for hearth-queue toy-2"),
    ({"faulty_engines": "broken_parts:UNKNOWN_KEY"},
     "ruleset unit 'hearth-queue' is inconsistent: faulty engine 'hq-newcomers-first' expects unknown rule key "
     "'hq.no-such-key'"),
    ({"prefix_safe": frozenset({"hq.newcomers-wait", "hq.no-such-key"})},
     "ruleset unit 'hearth-queue' is inconsistent: prefix-safe key 'hq.no-such-key' is not one of its rule keys"),
    ({"docs": "no-such-page.md"},
     "ruleset unit 'hearth-queue' is inconsistent: its docs page 'no-such-page.md' does not exist"),
    ({"fixtures": "no-such-folder"},
     "ruleset unit 'hearth-queue' is inconsistent: its fixtures folder 'no-such-folder' does not exist"),
    ({"rule_scope": "HQ.(1"},
     "ruleset unit 'hearth-queue' is inconsistent: its rule scope 'HQ.(1' is not a regular expression"),
    ({"name": "hearth-queue-2"}, "ruleset unit 'hearth-queue-2' is inconsistent: its judge is named 'hearth-queue'"),
    ({"reference_engine": "broken_parts:NoRulesetEngine"},
     "its reference engine NoRulesetEngine sets no class attribute `ruleset`: set ruleset = 'hearth-queue'"),
    ({"reference_engine": "broken_parts:NoGuardEngine"},
     "its reference engine NoGuardEngine cannot be built as NoGuardEngine(max_trace_entries=n): accept that keyword"),
    ({"reference_engine": "broken_parts:NotAnEngine"},
     "its reference engine NotAnEngine is not a class deriving from reference_engine.kernel.engine.Engine"),
    ({"generator": "broken_parts:build_with_options"},
     "its generator build_with_options takes `options`: a generator never reads the options"),
    ({"generator": "broken_parts:build_without_edition"},
     "its generator build_without_edition cannot be called as build(source, edition, profile=None)(source)"),
    ({"permissive_game": None}, "its manifest names no permissive engine (permissive_game): `diff`, `lint-rules`"),
    ({"judge": "broken_parts:BAD_DEFAULT"},
     "its option 'hq_order' defaults to \"newest\", not one of its values (\"play\", \"oldest\"): make the default "
     "one of them"),
    ({"rule_scope": r"603\.\d+"},
     "its rule scope '603\\\\.\\\\d+' matches none of the rule numbers its keys encode (HQ.1, HQ.2, HQ.3)"),
], ids=["missing judge", "missing generator", "engine editions", "faulty edition", "faulty key", "prefix-safe key",
        "docs page", "fixtures folder", "rule scope", "judge name", "engine without ruleset",
        "engine without loop guard", "engine not an Engine", "generator reads options", "generator signature",
        "permissive engine missing", "option default", "rule scope matches nothing"])
def test_an_inconsistent_unit_is_rejected_naming_the_unit_and_the_part(toy, change, message):
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(toy, **change))
    assert message in str(caught.value)


def test_a_missing_folder_is_reported_with_the_path_looked_at_and_the_fix(toy):
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(toy, fixtures="no-such-folder"))
    import hearth_queue  # the source's, or an installed copy's when the toy is installed (tests/test_installed_rulesets.py)

    looked_at = Path(hearth_queue.__file__).parent / "no-such-folder"
    assert f"its fixtures folder 'no-such-folder' does not exist (looked at {looked_at}): ship it as package data" \
        in str(caught.value)


def _package(tmp_path: Path, files: dict[str, object]) -> None:
    """An importable ``package`` under ``tmp_path`` (already on sys.path) holding ``files`` (JSON-dumped)."""
    for relative, content in {"__init__.py": "", **files}.items():
        path = tmp_path / "package" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")


def test_a_rule_key_without_a_fixture_is_rejected(toy, tmp_path):
    fixture = json.loads((TOY / "hearth_queue" / "fixtures" / "hq-newcomer-waits.json").read_text("utf-8"))
    _package(tmp_path, {"fixtures/only.json": {**fixture, "rule_keys": ["hq.play-order"]}})
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(toy, fixtures="package:fixtures"))
    assert "its rule key 'hq.every-trigger-resolves' has no fixture: add a golden scenario naming it in `rule_keys` " \
        "to its fixtures folder 'package:fixtures'" in str(caught.value)
    assert "'hq.newcomers-wait' has no fixture" in str(caught.value) and "'hq.play-order' has" not in str(caught.value)


def test_a_stray_key_in_a_fragment_is_rejected(toy, tmp_path):
    fragment = json.loads((TOY / "hearth_queue" / "schema" / "scenario.json").read_text("utf-8"))
    fragment["$defs"]["action"]["oneof"] = fragment["$defs"]["action"].pop("oneOf")
    _package(tmp_path, {"schema/scenario.json": fragment,
                        "schema/trace.json": (TOY / "hearth_queue" / "schema" / "trace.json").read_text("utf-8")})
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(toy, schema="package:schema"))
    assert ("its scenario schema fragment package:schema/scenario.json has a stray key /$defs/action/oneof (not a "
            "JSON Schema keyword: a typo?)") in str(caught.value)


def test_a_fragment_redefining_another_units_word_is_rejected_naming_it(toy, tmp_path):
    """Its own ``play`` action (Redemption's word, defined otherwise): refused when the unit loads, naming it, not
    later as a Redemption fixture that cannot be validated."""
    fragment = json.loads((TOY / "hearth_queue" / "schema" / "scenario.json").read_text("utf-8"))
    fragment["$defs"]["action"]["oneOf"].append({
        "type": "object", "required": ["do"], "additionalProperties": False,
        "properties": {"do": {"const": "play"}, "minion": {"type": "string"}}})
    _package(tmp_path, {"schema/scenario.json": fragment,
                        "schema/trace.json": (TOY / "hearth_queue" / "schema" / "trace.json").read_text("utf-8")})
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(toy, schema="package:schema"))
    assert str(caught.value).startswith("ruleset unit 'hearth-queue' is inconsistent: its scenario schema fragment "
                                        "does not compose with the other installed units' (its schema fragment "
                                        "defines do 'play' of /$defs/action/oneOf differently")
    assert "use a word of its own, or the other unit's meaning" in str(caught.value)


def test_a_schema_fragment_that_changes_the_kernel_is_rejected(toy, tmp_path):
    schema = tmp_path / "package" / "schema"
    schema.mkdir(parents=True)
    (schema / "scenario.json").write_text(json.dumps({"$defs": {"id": {"maxLength": 8}}}), "utf-8")
    (tmp_path / "package" / "__init__.py").write_text("", "utf-8")
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(toy, schema="package:schema"))
    assert ("ruleset unit 'hearth-queue' is inconsistent: its scenario schema fragment does not compose with the "
            "kernel's (its schema fragment changes /$defs/id/maxLength (64 -> 8))") in str(caught.value)


def test_an_entry_point_naming_a_non_unit_is_rejected(toy, monkeypatch):
    point = EntryPoint("hearth-queue", "broken_parts:NOT_A_UNIT", ENTRY_POINT_GROUP)
    monkeypatch.setattr(unit_module, "entry_points", lambda group: [point])
    units.cache_clear()
    try:
        with pytest.raises(UnitError) as caught:
            units()
    finally:
        monkeypatch.undo()
        units.cache_clear()
    assert "ruleset entry point 'hearth-queue' (broken_parts:NOT_A_UNIT) is not a RulesetUnit" in str(caught.value)


def test_the_cli_reports_a_broken_unit_in_one_line(tmp_path):
    """A distribution whose entry point names no unit (installed by hand: a dist-info folder on PYTHONPATH)."""
    info = tmp_path / "broken_ruleset-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-ruleset\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nbroken = broken_parts:NOT_A_UNIT\n", "utf-8")
    (tmp_path / "broken_parts.py").write_text("NOT_A_UNIT = object()\n", "utf-8")
    script = Path(sys.executable).parent / "trigger-conformance"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "conformance.commands.cli"]
    result = subprocess.run([*command, "run", "--ruleset", "broken", "--max-examples", "1"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.strip().splitlines() == [
        "trigger-conformance: ruleset entry point 'broken' (broken_parts:NOT_A_UNIT) is not a RulesetUnit"]
