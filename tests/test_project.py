"""Project-level checks, test262-style: metadata of every rule key linted, the README's promises kept, rule texts
paraphrased rather than copied, documents shipped inside the package."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from conformance.documents.json_io import load_schema, schema_names
from conformance.documents.fixture_files import bundled_fixtures
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.registry import RULESETS
from conftest import ROOT, SHARED_RULES
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.schemas import bundled

BUNDLED = [RULESETS[name] for name in bundled()]  # the rulesets this project ships: its README and docs list them

KEY = re.compile(r"^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$")


@pytest.mark.parametrize("ruleset", BUNDLED, ids=lambda r: r.name)
def test_rule_key_metadata(ruleset):
    """The bundled rulesets' keys follow the project's style (an installed ruleset's keys have their own)."""
    keys = [inv.key for inv in ruleset.invariants]
    assert len(keys) == len(set(keys)), "rule keys are unique"
    prefixes = {key.split(".")[0] for key in keys}
    assert len(prefixes) == 1, f"one key prefix per ruleset, got {prefixes}"
    for inv in ruleset.invariants:
        assert KEY.match(inv.key), inv.key
        assert inv.ruleset == ruleset.name
        assert set(inv.rule_numbers) <= set(ruleset.editions) and inv.rule_numbers, inv.key
        assert inv.summary and inv.summary[0].isupper() and inv.summary.endswith("."), inv.key
        module = __import__(inv.check.__module__, fromlist=["_"])
        assert module.__doc__, f"{inv.check.__module__} paraphrases its rule in a docstring"


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.name)
def test_every_ruleset_has_a_generator_fixtures_and_documented_options(ruleset):
    assert builder_for(ruleset.name)
    fixtures = bundled_fixtures(ruleset.name)
    assert fixtures, f"fixtures/{ruleset.name}/ holds golden scenarios"
    known = {inv.key for inv in ruleset.invariants}
    for fixture in fixtures:
        assert set(fixture.rule_keys) <= known, fixture.id
    readme = (ROOT / "README.md").read_text("utf-8")
    for option in ruleset.options:
        assert option.default in option.values
        assert option.doc and option.stands_for
        if ruleset.name not in bundled():
            continue  # the README lists the options of the rulesets this project ships
        assert f"`{option.name}`" in readme, f"README lists option {option.name}"
        default = json.dumps(option.default).strip('"')
        assert re.search(rf"`{option.name}` \| `{re.escape(default)}`", readme), f"README gives {option.name}'s default"


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text("utf-8")
    commands = re.findall(r"```sh\n(.+?)\n```", readme)
    test_command = commands[1]
    assert "pytest" in test_command
    assert test_command in (ROOT / ".ci" / "run").read_text("utf-8").splitlines()


def test_schemas_ship_inside_the_package_and_are_draft_2020_12():
    shipped = {p.name for p in resources.files("conformance").joinpath("schemas").iterdir()}
    for name in ("scenario", "trace", "fixture", "report", "replay"):
        assert f"{name}.schema.json" in shipped
    for name in schema_names():
        assert load_schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.skipif(not SHARED_RULES.is_dir(), reason="the rule texts are not beside this checkout")
def test_rule_texts_are_paraphrased_not_copied():
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9’']+", text.lower())

    shingles = set()
    for path in sorted(p for p in SHARED_RULES.rglob("*") if p.is_file()):
        w = words(path.read_text("utf-8", errors="replace"))
        shingles.update(" ".join(w[i:i + 10]) for i in range(len(w) - 9))
    copied = []
    for path in [*ROOT.glob("conformance/**/*.py"), *ROOT.glob("reference_engine/**/*.py"), *ROOT.glob("docs/**/*.md"), *ROOT.glob("reference_engine/**/*.md"),
                 *ROOT.glob("docs/**/*.py"), *ROOT.glob("benchmarks/*.py"),
                 ROOT / "README.md", *ROOT.glob("fixtures/**/*.json"), *ROOT.glob("schemas/*.json")]:
        w = words(path.read_text("utf-8", errors="replace"))
        runs = [" ".join(w[i:i + 10]) for i in range(len(w) - 9) if " ".join(w[i:i + 10]) in shingles]
        if runs:
            copied.append((str(path.relative_to(ROOT)), runs[0]))
    assert not copied, copied


def _rename_engine_ids(value, scenario_ids):
    """Rename every engine-assigned id (an upper-case letter and digits that is not a scenario id) to another name."""
    if isinstance(value, dict):
        return {k: _rename_engine_ids(v, scenario_ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename_engine_ids(v, scenario_ids) for v in value]
    if isinstance(value, str) and re.fullmatch(r"[A-Z]\d+", value) and value not in scenario_ids:
        return f"engine-{value.lower()}-id"
    return value


def _ids_in(value):
    """Every ``id`` the scenario itself defines, at any depth (objects, abilities, abilities created by effects)."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            yield value["id"]
        for v in value.values():
            yield from _ids_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from _ids_in(v)


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.name)
def test_fixtures_compare_whatever_ids_an_engine_chooses(ruleset):
    from conformance.documents.fixture_files import first_difference

    for fixture in bundled_fixtures(ruleset.name):
        scenario_ids = set(fixture.scenario["players"]) | set(_ids_in(fixture.scenario))
        renamed = _rename_engine_ids(fixture.expected_trace, scenario_ids)
        assert renamed != fixture.expected_trace or fixture.id
        assert first_difference(fixture.expected_trace, renamed) is None, fixture.id


def test_the_readme_fits_on_a_screen_or_two_and_its_code_is_tested():
    """Issue 19 item 7: the README is what the tool is, the set-up commands, checking an engine in five minutes, the
    options and links (about 200 lines at most); everything else is in docs/. Its one Python example is the engine
    tests/test_doc_outputs.py saves and runs (the process adapters are docs/protocol.md's, run by
    tests/test_process_docs.py)."""
    readme = (ROOT / "README.md").read_text("utf-8")
    assert len(readme.splitlines()) <= 200
    assert re.findall(r"```python\n", readme) == ["```python\n"]
    assert "<!-- file: my_engine.py -->\n```python\n" in readme
    assert "](docs/protocol.md)" in readme


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.name)
def test_engines_that_say_they_never_modify_a_scenario_do_not(ruleset):
    import copy

    from reference_engine.kernel.choices import ScenarioChooser
    from reference_engine.kernel.source import SeededSource
    from conformance.running.runner import prepare_generated, RunConfig
    from reference_engine.kernel.registry import MUTANTS

    engines = [reference_engine_for(ruleset.name)] + [m.factory() for m in MUTANTS.values() if m.ruleset == ruleset.name]
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}))
    for engine in engines:
        assert engine.modifies_scenarios is False, type(engine).__name__
        for seed in range(40):
            scenario = prepare_generated(config, builder_for(ruleset.name)(SeededSource(seed), ruleset.default_edition))
            before = copy.deepcopy(scenario)
            engine.run(scenario, ScenarioChooser(scenario))
            assert scenario == before, (type(engine).__name__, seed)


def test_the_docs_list_every_profile_feature():
    """docs/checking.md lists every feature a profile may exclude, each with what it stands for, as generated from the
    rulesets' feature docs (rewrite with TRIGGER_CONFORMANCE_REWRITE_DOCS=1)."""
    import os

    from conformance.commands.trace_reference import profile_features_markdown
    from reference_engine.kernel.registry import loaded

    path = ROOT / "docs" / "checking.md"
    page = path.read_text("utf-8")
    block = re.search(r"<!-- profile-features -->\n(.*?)<!-- /profile-features -->", page, re.S)
    expected = profile_features_markdown(bundled())
    if os.environ.get("TRIGGER_CONFORMANCE_REWRITE_DOCS") and block.group(1) != expected:
        path.write_text(page[:block.start(1)] + expected + page[block.end(1):], "utf-8")
        return
    assert block.group(1) == expected, "docs/checking.md's feature list is stale (TRIGGER_CONFORMANCE_REWRITE_DOCS=1)"
    for name in bundled():  # the page lists the bundled rulesets' features
        part = loaded(name)
        assert part.profile_features <= set(part.feature_docs), name
        assert all(part.feature_docs.values()), f"{name}: a feature with no description"
