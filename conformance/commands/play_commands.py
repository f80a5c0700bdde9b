"""``trigger-conformance replay`` and ``trigger-conformance check``: play one file (a replay file; a scenario or a
fixture) on an engine and say what the rules make of its answer."""

from __future__ import annotations

import argparse
import json
import sys

from conformance.reports.text import MARK, describe_entry, describe_scenario, outcome_lines, shown, side_by_side
from conformance.documents.failure_store import replay_command
from conformance.running.session import engine_spec
from reference_engine.kernel.errors import ConformanceError, EngineError
from reference_engine.kernel.registry import reference_engine_for

PASSED, FAILED = 0, 1


def _engine_for(spec: str, ruleset, edition: str, timeout: float | None = None, restarts: int | None = None,
                max_trace_entries: int | None = None, memory: int | None = None):
    """The engine ``spec`` loaded (a process engine with ``timeout``, ``restarts`` and ``memory``, its cap in MB
    (None: the default; 0: none), when given), and what it says it is; raises ConformanceError when it cannot say, or
    does not implement ``ruleset`` ``edition`` (the engine is then closed). ``max_trace_entries``: the bundled
    engines' loop guard (None: the default)."""
    from conformance.adapters.registry import load_engine

    engine = load_engine(spec, ruleset.name, timeout, restarts, max_trace_entries, memory)
    try:
        try:
            info = engine.info
            supported = info.supports(ruleset.name, edition)
        except ConformanceError:
            raise
        except Exception as exc:
            raise ConformanceError(f"engine {spec!r} could not say what it is: {type(exc).__name__}: {exc}") from None
        if not supported:
            raise ConformanceError(f"engine {info.name} {info.version} does not implement {ruleset.name} {edition} "
                                   f"(it implements: {json.dumps(info.rulesets)})")
    except BaseException:
        _close(engine)
        raise
    return engine, info


def _handshake_failed(exc: EngineError) -> int:
    """An engine that started but failed its handshake (crashed, answered garbage or the wrong protocol, hung): the
    problem said on stderr, exit 1 as in ``run`` (the engine's to fix). One that never ran (a command not found, a
    module that cannot be loaded) is the user's to fix: raised again (exit 2)."""
    if exc.outcome == "unavailable":
        raise exc
    print(f"trigger-conformance: the engine failed its handshake ({exc.outcome}): {exc}", file=sys.stderr)
    return FAILED


def _close(engine) -> None:
    try:
        engine.close()
    except Exception:
        pass


def replay(args: argparse.Namespace) -> int:
    from conformance.documents.json_io import read_json
    from conformance.documents.semantics import check_replay_document

    document = read_json(args.file, "replay")
    ruleset, scenario, _ = check_replay_document(document, args.file)  # the same checks as `validate --as replay`
    spec = engine_spec(args.engine, args.engine_cmd, default=None)
    if spec is None and not args.trust_file_engine:
        # A replay file is data: the engine it names (a command, a module to import) is run only when asked.
        named, command = document["engine"]["spec"], replay_command(args.file, document["engine"]["spec"])
        hidden = shown(command) != command  # control characters: the command is shown escaped, and said so
        raise ConformanceError(f"{shown(args.file)} names the engine {shown(repr(named))}; replay runs no engine "
                               f"because a file says so. Say which engine to replay against:\n  {shown(command)}\n"
                               + ("(the file's text holds control characters, shown escaped as \\uXXXX: this command "
                                  "is not the file's as written)\n" if hidden else "")
                               + "or add --trust-file-engine to run the one the file names")
    try:
        engine, info = _engine_for(spec or document["engine"]["spec"], ruleset, scenario["edition"],
                                   args.engine_timeout, args.engine_restarts, args.max_trace_entries,
                                   args.engine_memory)
    except EngineError as exc:
        return _handshake_failed(exc)
    try:
        return _replay(args.file, document, ruleset, scenario, engine, info, args.max_trace_entries)
    finally:
        _close(engine)


def _replay(file: str, document: dict, ruleset, scenario: dict, engine, info,
            max_trace_entries: int | None = None) -> int:
    from conformance.running.checking import check_scenario, play, replay_for_determinism

    key = document["rule_key"]
    checked = check_scenario(engine, scenario, ruleset.invariants_for(scenario["edition"]))
    print(f"replaying {file}: rule {key} [{document['rule_number']}] on {info.name} {info.version}")
    for line in describe_scenario(scenario):
        print("  " + line)
    expected = play(reference_engine_for(ruleset.name, max_trace_entries), scenario)
    for line in side_by_side(expected.trace, checked.outcome.trace):
        print(line)
    if checked.outcome.status != "trace":
        print(f"{MARK['errored']}: " + "\n".join(outcome_lines(checked.outcome)))
        return FAILED
    differs = replay_for_determinism(engine, scenario, 4, first=checked.outcome)  # more than two plays
    if differs is not None:
        print(f"NONDETERMINISTIC: the engine answers this scenario differently each time: {differs.message}")
        return FAILED
    if key in checked.violations:
        print(f"STILL FAILING: {key}")
        for message in checked.violations[key]:
            print(f"  -> {message}")
        return FAILED
    others = sorted(checked.violations)
    but = f" (but {', '.join(others)} {'fails' if len(others) == 1 else 'fail'})" if others else ""
    if not checked.exercised.get(key):
        # Nothing the rule speaks of happened in the engine's trace (an empty trace, say): no verdict on the fix.
        print(f"NOT EXERCISED: {key} did not apply to the engine's trace of this scenario, so it is not shown "
              f"fixed{but}")
        return FAILED
    print(f"FIXED: {key} now holds{but}")
    return FAILED if others else PASSED


def check_file(args: argparse.Namespace) -> int:
    """Play one scenario or fixture file on an engine: the verdict of every rule, the trace, and for a fixture the
    first observable difference from its expected trace."""
    from conformance.running.checking import check_scenario
    from conformance.documents.json_io import loads, read_bytes
    from conformance.documents.scenarios import prepare_scenario
    from conformance.documents.semantics import check_fixture_document
    from reference_engine.kernel.registry import get_ruleset

    spec = engine_spec(args.engine, args.engine_cmd)
    document = loads(read_bytes(args.file), args.file)
    fixture = None
    if isinstance(document, dict) and str(document.get("format", "")).startswith("trigger-conformance/fixture/"):
        fixture = check_fixture_document(document, args.file)  # the checks `run` makes of a fixture
        scenario = fixture.scenario
    else:
        _, scenario = prepare_scenario(document, args.file)
    ruleset = get_ruleset(scenario["ruleset"])
    try:
        engine, info = _engine_for(spec, ruleset, scenario["edition"], args.engine_timeout,
                                   max_trace_entries=args.max_trace_entries, memory=args.engine_memory)
    except EngineError as exc:
        return _handshake_failed(exc)
    try:
        invariants = ruleset.invariants_for(scenario["edition"])
        checked = check_scenario(engine, scenario, invariants)
        print(f"{args.file}: {'fixture ' + fixture.id if fixture else 'scenario'}, {ruleset.name} "
              f"{scenario['edition']}, on {info.name} {info.version}")
        for line in describe_scenario(scenario):
            print("  " + line)
        bad = _print_verdicts(checked, invariants, scenario["edition"])
        if fixture is not None:
            bad = _print_fixture_difference(fixture, scenario, checked.outcome) or bad
        differs = _differs_on_replay(engine, scenario, checked.outcome) if bad else None
        if differs is not None:  # not a verdict on the rules, as in `run`
            print(f"\nNONDETERMINISTIC: the engine answers this scenario differently each time: {differs.message}")
        if fixture is not None:
            verdict = "errored" if differs is not None else "failed" if bad else \
                "skipped" if checked.outcome.status == "skipped" else "passed"
            print(f"\nfixture {fixture.id}: {MARK[verdict]}" + (" (nondeterministic)" if differs is not None else ""))
    finally:
        _close(engine)
    return FAILED if bad else PASSED


def _differs_on_replay(engine, scenario: dict, outcome):
    """The nondeterministic outcome when ``engine``, playing ``scenario`` again with the same choices, does not give
    the answer ``outcome`` holds (a trace), else None."""
    from conformance.running.checking import replay_for_determinism
    from conformance.running.fixtures import FIXTURE_REPLAYS

    return replay_for_determinism(engine, scenario, FIXTURE_REPLAYS, first=outcome) if outcome.status == "trace" \
        else None


def _print_verdicts(checked, invariants, edition: str) -> bool:
    """Print the engine's problem, or every rule's verdict and the trace; returns whether any is bad."""
    outcome = checked.outcome
    if outcome.status != "trace":
        print("\n" + "\n".join(outcome_lines(outcome)))  # with where it raised, and its stderr
        return outcome.status != "skipped"  # an engine declining a scenario gives no verdict, as in `run`
    print("\nverdict of every rule:")
    for inv in invariants:
        if inv.key in checked.check_errors:
            mark, note = "ERROR", "the check raised: " + checked.check_errors[inv.key].strip().splitlines()[-1]
        elif inv.key in checked.violations:
            mark, note = "FAIL", ""
        elif checked.exercised.get(inv.key, 0) > 0:
            mark, note = "PASS", ""
        else:
            mark, note = "N/A", "did not apply to this scenario"
        print(f"  {mark:5} {inv.key:<34} [{inv.rule_number(edition)}] {note}".rstrip())
        for message in checked.violations.get(inv.key, ()):
            print(f"        -> {message}")
    print("\ntrace:")
    for n, entry in enumerate(outcome.trace["entries"]):
        print(f"  {n:>3} {describe_entry(entry)}")
    return bool(checked.violations or checked.check_errors)


def _print_fixture_difference(fixture, scenario: dict, outcome) -> bool:
    """Print where the engine's observable outcome first differs from the fixture's; returns whether it does."""
    from conformance.running.fixtures import observable_difference

    if outcome.status != "trace":
        return False
    where = observable_difference(scenario, fixture.expected_trace, outcome.trace)
    print("\nobservable outcome (what the rules observe: events, resolutions in order, removals and why, triggers "
          "left waiting, steps): " + ("as expected" if where is None else f"first difference at {where}"))
    if where is None:
        return False
    lines = side_by_side(fixture.expected_trace, outcome.trace)
    lines[0] = lines[0].replace("expected (reference engine)", "expected (the fixture)     ")
    for line in lines:
        print(line)
    return True
