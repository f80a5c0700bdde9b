"""The judge's shared pass: streamed observations get exactly the entries of the kinds they asked for, in order; the
judge walks a trace once for every rule of an edition; and its verdicts are those of each rule run on its own."""

from __future__ import annotations

import pytest

from conformance.running.checking import play
from conformance.running.runner import RunConfig, prepare_generated, scenario_builder
from conformance.generation.stream import explorable_options, stream_source
from reference_engine.kernel.invariant import Invariant, invariant, judge
from reference_engine.kernel.traceview import TraceView, streamed
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import get_ruleset

RULESETS = ("momon-wonder", "mtg", "redemption")


class CountingList(list):
    """A list that counts how often it is iterated from the start (a pass over the trace)."""

    passes = 0

    def __iter__(self):
        self.passes += 1
        return super().__iter__()


def eventful(name: str):
    """The first (scenario, trace) of the stream whose trace has an event and a trigger."""
    kinds = ({"event", "trigger"}).issubset
    return next(pair for pair in traces(name, 30) if kinds({e["kind"] for e in pair[1]["entries"]}))


def traces(name: str, count: int):
    """(scenario, trace) of the first ``count`` stream scenarios of a ruleset that the reference engine plays."""
    ruleset = get_ruleset(name)
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), seed=7,
                       explored_options=explorable_options(ruleset, {}))
    engine = reference_engine_for(name)
    build = scenario_builder(config, engine)
    out = []
    for n in range(count):
        scenario = prepare_generated(config, build(stream_source(config.seed, n), config.edition))
        outcome = play(engine, scenario)
        if outcome.status == "trace":
            out.append((scenario, outcome.trace))
    return out


def view_of(scenario, trace) -> TraceView:
    return TraceView(scenario, trace, scenario["options"])


def test_a_streamed_observation_sees_only_its_kinds_in_trace_order():
    scenario, trace = eventful("momon-wonder")

    @streamed("event", "trigger")
    def seen(view):
        out = []
        return (lambda i, entry: out.append((i, entry["kind"]))), (lambda: out)

    @streamed()
    def every(view):
        out = []
        return (lambda i, entry: out.append(i)), (lambda: out)

    view = view_of(scenario, trace)
    view.walk([seen, every])
    expected = [(i, e["kind"]) for i, e in enumerate(trace["entries"]) if e["kind"] in ("event", "trigger")]
    assert expected and seen(view) == expected
    assert every(view) == list(range(len(trace["entries"])))


def test_walk_computes_several_observations_in_one_pass_and_never_twice():
    scenario, trace = eventful("momon-wonder")
    calls = []

    def counter(name, *kinds):
        @streamed(*kinds)
        def observation(view):
            calls.append(name)
            total = [0]

            def see(i, entry):
                total[0] += 1

            return see, lambda: total[0]
        observation.key += name  # three distinct observations from one factory
        return observation

    a, b, c = counter("a", "event"), counter("b"), counter("c", "enqueue", "trigger")
    view = view_of(scenario, trace)
    view.entries = CountingList(view.entries)
    view.walk([a, b, c, a])
    assert view.entries.passes == 1
    assert (a(view), b(view), c(view)) == (len(view.by_kind["event"]), len(trace["entries"]),
                                           len(view.by_kind["enqueue"]) + len(view.by_kind["trigger"]))
    view.walk([a, b, c])
    assert view.entries.passes == 1 and calls == ["a", "b", "c"]


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", RULESETS)
def test_the_judge_gives_each_rule_the_verdict_it_gives_on_its_own(name):
    """Same violations and exercised counts as running each rule's check and count alone on a fresh view."""
    ruleset = get_ruleset(name)
    invariants = ruleset.invariants_for(ruleset.default_edition)
    found = traces(name, 25)
    assert len(found) >= 20
    exercised_somewhere = set()
    for scenario, trace in found:
        together = judge(view_of(scenario, trace), invariants)
        assert not together.errors, together.errors
        for inv in invariants:
            alone = view_of(scenario, trace)
            assert inv.check(alone) == [m.split("] ", 1)[1] for m in together.violations.get(inv.key, [])]
            assert inv.exercised(view_of(scenario, trace)) == together.exercised[inv.key]
            if together.exercised[inv.key]:
                exercised_somewhere.add(inv.key)
    assert exercised_somewhere  # the comparison is not vacuous


@pytest.mark.parametrize("name", RULESETS)
def test_the_judge_walks_a_trace_once_for_every_rule_of_the_edition(name):
    ruleset = get_ruleset(name)
    invariants = ruleset.invariants_for(ruleset.default_edition)
    for scenario, trace in traces(name, 10):
        view = view_of(scenario, trace)
        view.entries = CountingList(view.entries)
        judge(view, invariants)
        assert view.entries.passes == 1


def test_an_observation_that_raises_is_charged_to_the_rules_that_read_it_alone():
    scenario, trace = eventful("momon-wonder")

    @streamed("event")
    def broken(view):
        def see(i, entry):
            raise ValueError("boom")
        return see, lambda: None

    @streamed("event")
    def events(view):
        out = []
        return (lambda i, entry: out.append(i)), (lambda: out)

    reads_broken = Invariant("x.broken", "momon-wonder", {"1.0.0": "0"}, "", lambda v: broken(v) or [],
                             lambda v: 0, passes=(broken,))
    counts_events = invariant(key="x.events", ruleset="momon-wonder", rules={"1.0.0": "0"}, summary="",
                              exercised=lambda v: len(events(v)), passes=(events, broken))(lambda v: [])
    old_style = invariant(key="x.old", ruleset="momon-wonder", rules={"1.0.0": "0"}, summary="",
                          exercised=lambda v: len(v.triggers))(lambda v: ["a message"] if v.triggers else [])
    result = judge(view_of(scenario, trace), [reads_broken, counts_events, old_style])
    assert set(result.errors) == {"x.broken"} and "boom" in result.errors["x.broken"]
    assert result.exercised["x.events"] == len(view_of(scenario, trace).by_kind["event"])
    assert result.exercised["x.old"] == len(view_of(scenario, trace).triggers)
    assert result.violations.get("x.old") == (["[0] a message"] if result.exercised["x.old"] else None)


def test_only_the_bundled_reference_engines_are_trusted_and_their_traces_pass_the_checks_they_skip():
    from conformance.running.checking import trusts
    from conformance.documents.json_io import problems
    from reference_engine.kernel.registry import MUTANTS

    for name in RULESETS:
        engine = reference_engine_for(name)
        assert trusts(engine)
        for scenario, trace in traces(name, 20):
            assert problems(trace, "trace") == []
            assert view_of(scenario, trace).structure_problems() == []
    assert MUTANTS and not any(trusts(m.factory()) for m in MUTANTS.values())


def test_momon_segments_read_from_the_kind_index_match_an_entry_by_entry_walk():
    """package_open_at and phase_at read only the boundary entries; on generated traces, and on the same entries
    shuffled (an untrusted engine may write anything), they agree with the plain walk that defines them."""
    import random

    from reference_engine.momon_wonder.judge.observations import package_open_at, phase_at

    def walk(entries):
        package = phase = None
        packages, phases = [], []
        for entry in entries:
            kind = entry["kind"]
            if kind == "package_open":
                package = entry["package"]
            if kind in ("on_summon_begin", "snatch_check_begin", "post_snatch_begin"):
                phase = kind[: -len("_begin")]
            packages.append(package)
            phases.append(phase)
            if kind == "package_close" and entry["package"] == package:
                package = None
            if kind in ("on_summon_end", "snatch_check_end", "post_snatch_end", "package_close"):
                phase = None
        return packages, phases

    with_packages = 0
    for n, (scenario, trace) in enumerate(traces("momon-wonder", 60)):
        with_packages += any(e["kind"] == "package_open" for e in trace["entries"])
        for entries in (trace["entries"], random.Random(n).sample(trace["entries"], len(trace["entries"]))):
            view = view_of(scenario, {"entries": entries})
            assert (package_open_at(view), phase_at(view)) == walk(entries)
    assert with_packages
