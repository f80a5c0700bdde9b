"""One scenario through the pipeline: engine (via its adapter) -> trace -> invariants -> per-rule outcome.

Nothing here raises for a misbehaving engine or a buggy check: an engine that raises, returns garbage, crashes,
hangs or speaks another protocol becomes an :class:`EngineOutcome` (the one vocabulary of what an engine did), and a
check that raises becomes a ``check-error`` for that rule alone, so the run goes on and nothing already found is lost.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import sysconfig
import traceback
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable

from reference_engine.kernel.engine import Engine, Skipped
from reference_engine.kernel.choices import ScenarioChooser
from conformance.documents.json_io import problems as schema_problems
from reference_engine.kernel.errors import EngineError
from reference_engine.kernel.invariant import Invariant, judge
from reference_engine.kernel.traceview import TraceView


@dataclass
class EngineOutcome:
    """What an engine did with one scenario. ``status`` is one of :attr:`STATUSES` (the one vocabulary for it).

    Only ``trace`` goes on to the invariants; every other status is a verdict on the engine, never a rule failure.
    ``message`` says what happened in one line, ``context`` holds details (a traceback, an issue URL for
    ``skipped``), ``stderr`` what a process engine wrote on its stderr (bounded).
    """

    STATUSES: ClassVar[dict[str, str]] = {
        "trace": "the engine answered with a valid trace; the invariants judge it",
        "skipped": "the engine declined the scenario (message: its reason, context: an issue URL if given)",
        "errored": "the engine raised or reported an error on this scenario",
        "garbage": "the engine's answer is not a valid trace or protocol message (not JSON, schema violation, "
                   "wrong id, a trace that contradicts itself or its scenario, stdout flooded, stdin or stdout "
                   "closed by a live engine)",
        "crashed": "the engine's process died while playing the scenario (it is restarted for the next one)",
        "out-of-memory": "the engine's process died of running out of memory (its cap, --engine-memory, or the "
                         "machine's); counted like a crash: it is restarted for the next one",
        "timed-out": "the engine did not answer within the timeout; its process group was killed",
        "wrong-protocol": "the engine answered the handshake with another protocol version",
        "nondeterministic": "replaying the same scenario with the same choices gave different answers",
        "unavailable": "the engine could not be started, or used up its restart budget; the scenario was not played",
    }
    MISBEHAVIOURS: ClassVar[frozenset[str]] = frozenset(
        {"garbage", "crashed", "out-of-memory", "timed-out", "wrong-protocol", "nondeterministic", "unavailable"})

    status: str
    trace: dict[str, Any] | None = None
    message: str = ""
    context: str = ""
    stderr: str = ""
    # The trace comes from a bundled reference engine (see :func:`trusts`): it was not schema-checked, and its
    # structure is not re-checked before the invariants judge it. Never set for any other engine.
    trusted: bool = False

    @property
    def misbehaved(self) -> bool:
        """True for an engine fault that is not about the rules (garbage, crashed, timed-out, ...)."""
        return self.status in self.MISBEHAVIOURS


@dataclass
class ScenarioCheck:
    """The verdict of every invariant on one scenario."""

    outcome: EngineOutcome
    violations: dict[str, list[str]] = field(default_factory=dict)  # rule key -> messages (failed rules only)
    exercised: dict[str, int] = field(default_factory=dict)  # rule key -> occasions the trace gave the rule
    check_errors: dict[str, str] = field(default_factory=dict)  # rule key -> traceback of a check that raised

    @property
    def failed(self) -> bool:
        return bool(self.violations)


MAX_TRACE_ENTRIES = 100_000


def trusts(engine: Engine) -> bool:
    """Whether the harness trusts ``engine``'s traces to be schema-valid and well-formed, so that it skips those checks:
    true only for an in-process engine whose own class (not a parent's) declares ``trusted_traces = True``, which the
    bundled reference engines do and their faulty subclasses (the mutants), process and third-party engines do not.
    tests/test_shared_pass.py checks that the reference engines' traces pass both checks on the generated stream."""
    return type(engine).__dict__.get("trusted_traces") is True


def raised_by_code(exc: KeyboardInterrupt) -> bool:
    """Whether ``exc`` was raised by code (an in-process engine's own ``raise KeyboardInterrupt``) rather than by a
    signal: known only while a :class:`conformance.running.interrupts.Interrupts` of this process handles SIGINT (it records
    every signal it turns into a KeyboardInterrupt); otherwise it is taken for the user's Ctrl-C."""
    owner = getattr(signal.getsignal(signal.SIGINT), "__self__", None)
    return bool(getattr(owner, "records_signals", False)) and getattr(owner, "received", True) is None


MAX_MESSAGE = 4096  # characters of an engine's own text (a skip reason, an error message) kept with a verdict


def bounded(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text``, or its first ``limit`` characters and how many more there were."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit} more characters)"


def play(engine: Engine, scenario: dict[str, Any]) -> EngineOutcome:
    """Run ``engine`` on a prepared scenario and classify the answer. Never raises for engine faults.

    The engine plays a private copy of the scenario (unless it declares it never modifies one), so an engine that
    edits what it is given cannot change what the harness judges, reports or replays. The answer of an engine the
    harness :func:`trusts` is not schema-checked (every other engine's is).
    """
    private = copy.deepcopy(scenario) if getattr(engine, "modifies_scenarios", True) else scenario
    try:
        trace = engine.run(private, ScenarioChooser(private))
    except Skipped as exc:  # an engine's text is bounded: a 30 MiB reason is not copied into every report
        return EngineOutcome("skipped", message=bounded(str(exc.reason)), context=bounded(str(exc.issue_url or "")))
    except EngineError as exc:  # an adapter's verdict on its engine: crashed, timed-out, garbage, ...
        return EngineOutcome(exc.outcome, message=bounded(str(exc)), context=exc.context, stderr=exc.stderr)
    except KeyboardInterrupt as exc:
        if not raised_by_code(exc):  # the user's Ctrl-C (or SIGTERM): the run stops
            raise
        return EngineOutcome("errored", message="the engine raised KeyboardInterrupt itself (no signal came): "
                             + bounded(raised_message(exc)), context=engine_traceback(exc))
    except BaseException as exc:  # an engine's own bug (even a SystemExit) is an outcome, not a crash of the run
        return EngineOutcome("errored", message=raised_message(exc), context=engine_traceback(exc))
    # An engine whose own guard allows longer plays (the bundled engines' max_trace_entries) raises the cap with it.
    limit = max(MAX_TRACE_ENTRIES, getattr(engine, "max_trace_entries", 0) or 0)
    if isinstance(trace, dict) and isinstance(trace.get("entries"), list) and len(trace["entries"]) > limit:
        return EngineOutcome("garbage", message=f"the trace has {len(trace['entries'])} entries, more than the "
                             f"harness's budget of {limit} (a scenario that long is rare: raise the budget with "
                             f"--max-trace-entries N)")
    if trusts(engine):
        return EngineOutcome("trace", trace=trace, trusted=True)
    try:
        found = schema_problems(trace, "trace")
    except (ValueError, TypeError, RecursionError) as exc:  # values JSON cannot hold (a set, a datetime...)
        return EngineOutcome("garbage", message=f"the engine's answer is not JSON data: {exc}")
    if found:
        return EngineOutcome("garbage", trace=trace if isinstance(trace, dict) else None,
                             message="the engine's answer is not a valid trace: "
                             + "; ".join(f"at {path}: {msg}" for path, msg in found))
    return EngineOutcome("trace", trace=trace)


# -- An engine's exception, cut to the engine's own frames -----------------------------------------------------

_HERE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# The harness: the conformance package and the kernel the engine calls back into (the chooser, the Engine base class).
_HARNESS = (_HERE + os.sep, os.path.join(os.path.dirname(_HERE), "reference_engine", "kernel") + os.sep)
_STDLIB = tuple(sorted({os.path.realpath(sysconfig.get_paths()[name]) + os.sep for name in ("stdlib", "platstdlib")}))
_INSTALLED = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)


def _foreign(filename: str) -> bool:
    """Whether a frame's file is the harness's or Python's standard library's (not the engine's own code)."""
    path = os.path.realpath(filename) if not filename.startswith("<") else filename
    if path.startswith(_HARNESS):
        return True
    return path.startswith(_STDLIB) and not any(part in path for part in _INSTALLED)


def _shown_path(filename: str) -> str:
    """A frame's file as a user finds it: relative to the current directory when it lies under it."""
    try:
        relative = os.path.relpath(filename)
    except ValueError:  # another drive
        return filename
    return filename if relative.startswith("..") else relative


def engine_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The frames of ``exc``'s traceback that are the engine's own code, outermost first: those of the harness
    (``conformance/``, ``reference_engine/kernel/``) and of Python's standard library are left out. When nothing is
    left (the exception came from the harness or the standard library alone), every frame but the harness's."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if not _foreign(f.filename)]
    return own or [f for f in frames if not os.path.realpath(f.filename).startswith(_HARNESS)]


def raised_message(exc: BaseException) -> str:
    """``KeyError: 'zone' (raised at myengine.py:41 in resolve)``: the exception and the innermost of the engine's
    own frames, what a one-line verdict says of an engine that raised."""
    frames = engine_frames(exc)
    where = f" (raised at {_shown_path(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name})" \
        if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def engine_traceback(exc: BaseException) -> str:
    """``exc`` as a developer needs it: ``Type: message`` and then the engine's own frames (:func:`engine_frames`),
    outermost first, one ``file:line in function`` line each with its source line under it."""
    lines = [f"{type(exc).__name__}: {exc}"]
    for frame in engine_frames(exc):
        lines.append(f"  {_shown_path(frame.filename)}:{frame.lineno} in {frame.name}")
        if frame.line:
            lines.append(f"    {frame.line.strip()}")
    return "\n".join(lines)


def structure_problems(scenario: dict[str, Any], trace: dict[str, Any]) -> list[str]:
    """Referential problems of a schema-valid trace (dangling ids, positions out of order)."""
    return TraceView(scenario, trace, scenario["options"]).structure_problems()


def check_trace(scenario: dict[str, Any], trace: dict[str, Any], invariants: Iterable[Invariant],
                outcome: EngineOutcome | None = None) -> ScenarioCheck:
    """Run ``invariants`` over a schema-valid trace of a prepared scenario."""
    outcome = outcome or EngineOutcome("trace", trace=trace)
    view = TraceView(scenario, trace, scenario["options"])
    structure = [] if outcome.trusted else view.structure_problems()
    if structure:
        return ScenarioCheck(EngineOutcome("garbage", trace=trace, message="the trace contradicts itself: "
                                           + "; ".join(structure[:5])))
    verdicts = judge(view, invariants)
    return ScenarioCheck(outcome, verdicts.violations, verdicts.exercised, verdicts.errors)


def check_scenario(engine: Engine, scenario: dict[str, Any], invariants: Iterable[Invariant]) -> ScenarioCheck:
    """Play a prepared scenario on ``engine`` and judge the trace with ``invariants``."""
    return check_outcome(scenario, play(engine, scenario), invariants)


def check_outcome(scenario: dict[str, Any], outcome: EngineOutcome, invariants: Iterable[Invariant]) -> ScenarioCheck:
    """Judge an engine's answer to a prepared scenario with ``invariants`` (an answer that is no trace: as it is)."""
    if outcome.status != "trace":
        return ScenarioCheck(outcome)
    return check_trace(scenario, outcome.trace, invariants, outcome)


# -- Nondeterminism ------------------------------------------------------------------------------------------------


def canonical_answer(outcome: EngineOutcome) -> str | None:
    """What must be identical between two plays of the same scenario with the same choices, as a string.

    A trace (valid or garbage) compares by its canonical JSON (sorted keys; engine ids included, so an engine must
    number its ids deterministically); ``skipped`` by its reason. A play where the engine raised (``errored``) or
    misbehaved at the process level (crashed, timed-out, ...) is not an answer: None (an engine that raises on one
    play of a scenario and answers another is errored on replay, not nondeterministic).
    """
    if outcome.status in ("trace", "garbage") and outcome.trace is not None:
        return "trace:" + json.dumps(outcome.trace, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if outcome.status == "skipped":
        return "skipped:" + outcome.message
    return None


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """The JSON path of the first place two JSON values differ, with both sides, or None when they are equal."""
    if type(a) is not type(b):
        return f"{path}: {_short(a)} vs {_short(b)}"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}: {'absent' if key not in a else _short(a[key])} vs " \
                       f"{'absent' if key not in b else _short(b[key])}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for n, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{n}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path}: {len(a)} items vs {len(b)} items"
        return None
    return None if a == b else f"{path}: {_short(a)} vs {_short(b)}"


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def _describe(outcome: EngineOutcome) -> str:
    return f"a trace of {len(outcome.trace.get('entries', ()))} entries" if outcome.trace is not None \
        else f"{outcome.status} ({outcome.message[:120]})" if outcome.message else outcome.status


def replay_for_determinism(engine: Engine, scenario: dict[str, Any], times: int = 3,
                           first: EngineOutcome | None = None,
                           unanswered: list[tuple[str, EngineOutcome]] | None = None) -> EngineOutcome | None:
    """Play a prepared scenario ``times`` more times and compare the answers with ``first`` (or the first replay).

    The chooser is rebuilt from the scenario for every play, so every play gets the same choices. Returns a
    ``nondeterministic`` :class:`EngineOutcome` naming the plays that differ and the first JSON path where their
    traces differ, or None when every answer agrees. A play that misbehaves at the process level (crashed,
    timed-out, ...) or raises (errored) is no answer and is not compared: it says nothing about determinism, and it
    must not hide a rule failure already found. ``unanswered``, if given, gets appended ``(label, outcome)`` for each
    replay that gave no answer (``label``: "replay N"), so that a caller can say the engine errored on replay.
    """
    answers: list[tuple[str, EngineOutcome]] = []
    if first is not None and canonical_answer(first) is not None:
        answers.append(("the first play", first))
    for n in range(1, times + 1):
        outcome = play(engine, scenario)
        if canonical_answer(outcome) is not None:
            answers.append((f"replay {n}", outcome))
        elif unanswered is not None:
            unanswered.append((f"replay {n}", outcome))
    if not answers:
        return None
    label0, reference = answers[0]
    expected = canonical_answer(reference)
    for label, outcome in answers[1:]:
        if canonical_answer(outcome) == expected:
            continue
        if reference.trace is not None and outcome.trace is not None:
            where = first_difference(reference.trace, outcome.trace) or "the traces differ"
            detail = f"first difference at {where}"
        else:
            detail = f"{label0} gave {_describe(reference)}, {label} gave {_describe(outcome)}"
        distinct = len({canonical_answer(o) for _, o in answers})
        return EngineOutcome(
            "nondeterministic", trace=reference.trace,
            message=f"the same scenario with the same choices got {distinct} different answers in {len(answers)} "
                    f"plays ({label0} vs {label}): {detail}",
            context=detail, stderr=outcome.stderr or reference.stderr)
    return None
