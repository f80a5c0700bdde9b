"""Issue 27 item 3: the self-check checks each ruleset's generator before its faulty engines (conformance.
generator_check): deterministic (the same seed, the same document), no ``options``, valid under the composed scenario
schema and in its own words; a fault is reported as the generator's, naming the scenario, seed and edition. Likewise
a rule's check that raises is blamed on the file it raised in (a unit's judge), not on the suite."""

from __future__ import annotations

import random

import pytest

from conformance.commands import cli
from conformance.generation import generator_check
from conformance.generation.generator_check import check_generator, verdict_lines
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.schemas import bundled


@pytest.mark.parametrize("name", bundled())
def test_the_bundled_generators_are_sound(name):
    verdict = check_generator(name, scenarios=15)
    assert verdict.ok, verdict.problems
    assert verdict_lines(verdict) == [f"generator {name}: ok (15 scenarios per edition: deterministic, schema-valid, "
                                      f"its own words)"]


def _broken(monkeypatch, change):
    """Momon Wonder's generator, with ``change(document)`` applied to what it builds."""
    build = builder_for("momon-wonder")
    monkeypatch.setattr(generator_check, "builder_for", lambda name: lambda source, edition: change(
        build(source, edition)))


def test_a_nondeterministic_generator_is_reported_as_the_generators_fault(monkeypatch):
    _broken(monkeypatch, lambda document: {**document, "id": f"s{random.randrange(10**9)}"})
    verdict = check_generator("momon-wonder", scenarios=3)
    assert not verdict.ok
    assert verdict.problems[0].startswith("scenario 0 of seed 0 (")
    assert "built twice from the same seed, two different documents: a generator must be a deterministic " \
        "function of its source's answers" in verdict.problems[0]
    assert verdict_lines(verdict)[0] == "generator momon-wonder: FAULT (the generator's, not an engine's):"


def test_a_generator_emitting_what_the_schema_forbids_is_refused(monkeypatch):
    def elsewhere(document):
        document["objects"][0]["zone"] = "sideboard"
        return document

    _broken(monkeypatch, elsewhere)
    verdict = check_generator("momon-wonder", scenarios=2)
    assert verdict.problems and "not valid under the composed scenario schema at $.objects[0].zone" in \
        verdict.problems[0], verdict.problems


def test_a_generator_setting_options_is_refused(monkeypatch):
    _broken(monkeypatch, lambda document: {**document, "options": {}})
    verdict = check_generator("momon-wonder", scenarios=1)
    assert "it sets `options`: a generator never does" in verdict.problems[0]


def test_selftest_prints_the_generators_verdict_first_and_fails_on_a_fault(monkeypatch, capsys):
    _broken(monkeypatch, lambda document: {**document, "id": f"s{random.randrange(10**9)}"})
    code = cli.main(["selftest", "--mutant", "mw-lifo", "--max-examples", "10", "--process", "0"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert out.index("generator momon-wonder: FAULT (the generator's, not an engine's):") < out.index("mw-lifo")


def test_a_check_that_raises_is_blamed_on_the_file_it_raised_in_not_on_the_suite():
    from conformance.reports.text import failure_block

    lines = failure_block({"status": "errored", "key": "hq.play-order", "check_error":
                           'Traceback (most recent call last):\n  File "hearth_queue/judge.py", line 40, in play_order\n'
                           "ZeroDivisionError: division by zero\n"})
    assert lines[0] == ("      the check of hq.play-order itself raised, not the engine: a bug in the file the traceback "
                        "ends in (its ruleset's judge: fix the check there; the suite's conformance/: please report it):")
    assert lines[-1].strip() == "ZeroDivisionError: division by zero"


def test_a_run_validates_a_sample_of_its_generated_scenarios_and_blames_the_generator(monkeypatch, capsys):
    from conformance.running import runner

    original = runner.builder_for

    def builder(name, profile=None):
        build = original(name, profile)

        def elsewhere(source, edition):
            document = build(source, edition)
            document["objects"][0]["zone"] = "sideboard"
            return document
        return elsewhere

    monkeypatch.setattr(runner, "builder_for", builder)
    code = cli.main(["run", "--ruleset", "momon-wonder", "--rules", "mw.queue-fifo", "--max-examples", "5",
                     "--no-fixtures"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert ("the generator of ruleset momon-wonder built scenario 0 of the run stream (seed 0) not valid under the "
            "composed scenario schema at $.objects[0].zone") in err
    assert "(the generator's fault, not the engine's: fix the generator)" in err
