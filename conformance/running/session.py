"""A conformance run as data: what to check (a :class:`RunSpec`), and a :class:`Session` that checks one rule or one
fixture at a time and returns report entries (dicts matching ``schemas/report.schema.json``).

The CLI, the pytest plugin and pytest-xdist workers all build the same Session from the same RunSpec, so a rule's
verdict does not depend on where it ran.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from conformance.adapters.registry import did_you_mean, load_engine
from conformance.running.checking import EngineOutcome
from reference_engine.kernel.errors import ConformanceError, EngineError, signal_name
from conformance.documents.failure_store import example_database, writable_folder
from conformance.running.entries import rule_entry
from conformance.running.replay_files import add_problem_scenario, add_replay, problem_scenario, write_replay
from conformance.running.fixtures import check_fixture
from conformance.documents.fixture_files import bundled_fixtures
from conformance.running.concluding import conclude
from conformance.running.runner import Exploration, PlayMemos, RuleResult, RunConfig, explore, merge, silent_engine
from conformance.generation.stream import explorable_options
from reference_engine.kernel.ruleset import OptionError
from reference_engine.kernel.registry import get_ruleset, units
from reference_engine.kernel.registry import reference_engine_for


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's verdicts. ``engine`` is an engine spec (see conformance.adapters.registry)."""

    ruleset: str = "momon-wonder"
    edition: str | None = None
    engine: str = "reference"
    options: dict[str, Any] = field(default_factory=dict)
    max_examples: int = 100
    seed: int = 0
    database: str | None = None
    failures_dir: str | None = None
    rules: tuple[str, ...] = ()
    fixtures: bool = True
    shrink_seconds: float = 30.0
    engine_timeout: float | None = None  # seconds per scenario, for process engines
    engine_restarts: int | None = None  # restart budget per rule, for process engines
    max_trace_entries: int | None = None  # the bundled engines' loop guard (None: 20,000), the oracle's included
    engine_memory: int | None = None  # the cap on a process engine's data, MB (None: 2,048; 0: none)
    audit: bool = False  # also run the divergence audit (conformance.running.audit)
    explore_options: bool = True  # each scenario draws the options not given in ``options``
    time_budget: float | None = None  # seconds for the whole run (conformance.generation.profiles.EXPLORATION_SHARE); None: none
    shard: tuple[int, int] | None = None  # (i, n): this job checks the i-th of n shares of the rule keys (1-based)
    expectations: str | None = None  # a file of the engine's expected failures (conformance.documents.expectations)
    option_prefix: str = "--"  # how the options are spelt where this run was asked for ("--trigger-" under pytest)


def engine_spec(engine: str | None, engine_cmd: str | None, prefix: str = "--",
                default: str | None = "reference") -> str | None:
    """The engine spec of the options ``PREFIXengine`` (None when not given: then ``default``) and
    ``PREFIXengine-cmd`` (a process engine: ``cmd:PROGRAM ARGS``). Raises ConformanceError when both are given (an
    explicit ``PREFIXengine reference`` too: the option's own default is None, so that it can be told apart), or the
    command is empty."""
    if engine_cmd is not None and engine is not None:
        raise ConformanceError(f"give either {prefix}engine or {prefix}engine-cmd, not both ({prefix}engine "
                               f"{engine} {prefix}engine-cmd {engine_cmd!r})")
    if engine_cmd is not None and not engine_cmd.strip():
        raise ConformanceError(f"{prefix}engine-cmd is empty: give the command that starts the engine")
    return f"cmd:{engine_cmd}" if engine_cmd is not None else engine if engine is not None else default


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value`` from the command line; true/false become booleans, digits integers."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ConformanceError(f"--option {text!r}: expected NAME=VALUE")
    if value in ("true", "false"):
        return name, value == "true"
    if value.isdigit():
        return name, int(value)
    return name, value


# Seconds a failure is still shrunk for once the time budget is spent (it is reported, shrunk or not, with its replay
# file): a moment, so that the run ends near its budget, with workers too.
SHRINK_PAST_DEADLINE = 0.3


class Session:
    """Checks rules and fixtures of one RunSpec. Raises ConformanceError for a bad spec (exit code 2). ``worker``: a
    worker's session of a run already started (its example database is not checked again, see
    :func:`conformance.documents.failure_store.example_database`; nor its failures folder, which the run checked
    when it started: workers checking it at once used to remove each other's probe)."""

    def __init__(self, spec: RunSpec, worker: bool = False):
        self.spec = spec
        p = spec.option_prefix  # the options named as the caller spells them ("--trigger-" under pytest)
        try:
            self.ruleset = get_ruleset(spec.ruleset)
        except KeyError as exc:
            raise ConformanceError(f"{p}ruleset: {exc.args[0]}{did_you_mean(spec.ruleset, units())}") from None
        self.edition = spec.edition or self.ruleset.default_edition
        if self.edition not in self.ruleset.editions:
            raise ConformanceError(f"{p}edition: ruleset {self.ruleset.name} has no edition {self.edition!r} "
                                   f"(known: {', '.join(self.ruleset.editions)})")
        try:
            self.options = self.ruleset.resolve_options(spec.options)
        except OptionError as exc:
            names = [o.name for o in self.ruleset.options]
            close = "".join(did_you_mean(name, names) for name in spec.options if name not in names)
            raise ConformanceError(f"{p}option: {exc}{close}") from None
        self.invariants = self.ruleset.invariants_for(self.edition)
        known = {inv.key for inv in self.invariants}
        unknown = [key for key in spec.rules if key not in known]
        if unknown:
            unknown = [key + did_you_mean(key, known) for key in unknown]
            raise ConformanceError(f"{p}rules: unknown rule keys {', '.join(unknown)} for {self.ruleset.name} "
                                   f"{self.edition} (see `trigger-conformance rules --ruleset {self.ruleset.name}`)")
        from conformance.documents.expectations import load_expectations, load_quarantine

        self.expected = load_expectations(spec.expectations, known)  # rule key -> Expectation
        self.quarantined = load_quarantine(known)
        self._engine = None
        self._reference = None
        self._exploration: dict[str, Any] | None = None  # see explore_stream
        self._plays = PlayMemos()  # answers already given while shrinking, shared by this worker's rules
        self._gave_up = ""  # why the engine was found unusable during an earlier rule, if it was
        self.unavailable: dict[str, str] | None = None  # see handshake(): the engine failed its handshake
        self._described: dict[str, str] | None = None  # what check_engine found, once it has
        self.deadline: float | None = None  # wall-clock end of the run's time budget (time.time()), once started
        if spec.shard is not None and not (1 <= spec.shard[0] <= spec.shard[1]):
            raise ConformanceError(f"{p}shard: {spec.shard[0]}/{spec.shard[1]} is not a share i/n with 1 <= i <= n")
        self.warnings: list[str] = []  # what the user should know before the run (one line each), said once by it
        self._database = example_database(spec.database, check=not worker, warnings=self.warnings,
                                          option=f"{p}database")
        if spec.failures_dir and not worker:
            writable_folder(spec.failures_dir, f"{p}failures-dir")
        if spec.audit and not self.audits() and not worker:  # said, not silently left out
            self.warnings.append(f"{p}audit runs in shard 1 only: shard {spec.shard[0]}/{spec.shard[1]} does not "
                                 f"audit")

    # -- What there is to check --------------------------------------------------------------------------------

    def rule_keys(self) -> list[str]:
        """The rule keys this job checks: those asked for (``--rules``), and of them this job's shard (``--shard
        i/n``: every n-th key from the i-th, in the ruleset's order). A rule's verdict depends only on the run's
        stream and that rule, so the shards' verdicts together are those of one job."""
        keys = [inv.key for inv in self.invariants if not self.spec.rules or inv.key in self.spec.rules]
        return _share(keys, self.spec.shard)

    def audits(self) -> bool:
        """Whether this job runs the divergence audit (with ``--audit``: the first shard only)."""
        return self.spec.audit and (self.spec.shard is None or self.spec.shard[0] == 1)

    def fixtures(self):
        """The golden scenarios of this ruleset and edition (only those covering ``--rules``, when given)."""
        if not self.spec.fixtures:
            return []
        return _share([f for f in bundled_fixtures(self.ruleset.name) if f.scenario["edition"] == self.edition
                       and (not self.spec.rules or set(f.rule_keys) & set(self.spec.rules))], self.spec.shard)

    # -- Engines ---------------------------------------------------------------------------------------------

    def new_engine(self):
        return load_engine(self.spec.engine, self.ruleset.name, self.spec.engine_timeout, self.spec.engine_restarts,
                           self.spec.max_trace_entries, self.spec.engine_memory, self.spec.option_prefix)

    @property
    def engine(self):
        if self._engine is None:
            self._engine = self.new_engine()
        return self._engine

    def check_engine(self) -> dict[str, str]:
        """Ask the engine what it is; raises ConformanceError if it cannot say, or does not implement this ruleset
        and edition. Returns the report's engine description."""
        try:
            info = self.engine.info
            described = {"name": str(info.name), "version": str(info.version), "spec": self.spec.engine}
            supported = info.supports(self.ruleset.name, self.edition)
            rulesets = json.dumps(info.rulesets)
        except ConformanceError:
            raise
        except Exception as exc:
            raise ConformanceError(f"engine {self.spec.engine!r} could not say what it is (its info raised or is "
                                   f"not an EngineInfo): {type(exc).__name__}: {exc}") from None
        if not supported:
            raise ConformanceError(f"engine {described['name']} {described['version']} does not implement "
                                   f"{self.ruleset.name} {self.edition} (it implements: {rulesets})")
        self._described = described
        return described

    def handshake(self) -> dict[str, str]:
        """:meth:`check_engine`, except that an engine that fails its handshake (crashes or exits at start, answers
        garbage or the wrong protocol, hangs past its timeout) does not stop the run: the problem is kept in
        :attr:`unavailable` (``{"outcome", "message", "stderr"}``), every rule and fixture is then reported errored
        with it (:meth:`unavailable_rule`, :meth:`unavailable_fixture`), and the engine is described as
        ``{"name": "(no handshake)", "version": "?", "spec": ...}``. Still raises ConformanceError for what is the
        user's to fix: an engine that cannot be loaded or started at all (an unknown name or module, a command that
        is not found or not executable: outcome ``unavailable``) or does not implement this ruleset and edition
        (exit 2)."""
        self.engine  # loading it: an unknown engine raises here  # noqa: B018
        try:
            described = self.check_engine()
        except EngineError as exc:
            if exc.outcome == "unavailable":  # it never ran: no such program, not executable, cannot be loaded
                raise
            self.unavailable = {"outcome": exc.outcome, "message": str(exc), "stderr": exc.stderr or ""}
            _close(self._engine)
            self._engine = None
            return {"name": "(no handshake)", "version": "?", "spec": self.spec.engine}
        problem = self.profile_problem()
        if problem is not None:  # the engine's to fix: every rule errors with it, once
            self.unavailable = problem
            _close(self._engine)
            self._engine = None
        return described

    def excluded_features(self) -> list[str]:
        """The features the engine's generation profile leaves out of this run's scenarios (none when it has none,
        or cannot say)."""
        if self.unavailable is not None:
            return []
        try:
            profile = self.engine.generation_profile(self.ruleset.name)
        except Exception:
            return []
        excluded = profile.get("exclude") if isinstance(profile, dict) else None
        return [str(f) for f in excluded] if isinstance(excluded, list) else []

    def silent_engine(self) -> bool:
        """Whether the engine's traces showed nothing of the stream's scenarios (:func:`runner.silent_engine`)."""
        return silent_engine(self._exploration)

    def profile_problem(self) -> dict[str, str] | None:
        """What is wrong with the engine's generation profile (:func:`conformance.generation.engine_profile.handshake_problem`),
        or None. Checked once, at the handshake."""
        from conformance.generation.engine_profile import handshake_problem

        return handshake_problem(self.engine, self.ruleset.name, self.spec.engine.startswith("cmd:"))

    def unavailable_rule(self, key: str) -> dict[str, Any]:
        """The report entry of a rule when the engine failed its handshake (:meth:`handshake`): errored, with the
        engine's problem (``engine_problems`` counts it under its outcome: crashed, garbage, timed-out...), and its
        stderr attached."""
        inv = self.ruleset.invariant(key)
        problem = self.unavailable or {"outcome": "unavailable", "message": "", "stderr": ""}
        return rule_entry(RuleResult(key, inv.rule_number(self.edition), inv.summary, "errored",
                                     engine_problems={problem["outcome"]: 1},
                                     first_problem=f"the engine failed its handshake: {problem['message']}",
                                     engine_stderr=problem["stderr"]))

    def unavailable_fixture(self, fixture_id: str) -> dict[str, Any]:
        """A fixture's entry when the engine failed its handshake: errored, with the engine's problem."""
        fixture = next(f for f in self.fixtures() if f.id == fixture_id)
        problem = self.unavailable or {"message": ""}
        return {"id": fixture.id, "status": "errored", "rule_keys": list(fixture.rule_keys),
                "messages": [f"the engine failed its handshake: {problem['message']}"]}

    @property
    def reference(self):
        if self._reference is None:
            self._reference = reference_engine_for(self.ruleset.name, self.spec.max_trace_entries)
        return self._reference

    def close(self) -> None:
        for engine in (self._engine, self._reference):
            _close(engine)
        self._engine = self._reference = None

    # -- Checking --------------------------------------------------------------------------------------------

    def run_config(self) -> RunConfig:
        """The runner's configuration: the options the user gave are pinned; unless ``explore_options`` is off, each
        scenario draws every other option's value (the defaults fill ``options``)."""
        explored = explorable_options(self.ruleset, self.spec.options) if self.spec.explore_options else ()
        shrink_seconds = self.spec.shrink_seconds
        if self.deadline is not None:  # a time budget: each shrink gets what is left of it (a moment, once spent)
            import time

            shrink_seconds = max(SHRINK_PAST_DEADLINE, min(shrink_seconds, self.deadline - time.time()))
        return RunConfig(self.ruleset, self.edition, self.options, self.spec.max_examples, self.spec.seed,
                         self._database, self.spec.engine, shrink_seconds, explored, plays=self._plays)

    def explored_invariants(self):
        """What the stream is judged by: the rules asked for, or every rule of the edition when auditing (a
        divergence is explained only if no invariant at all objects)."""
        keys = set(self.rule_keys())
        return [inv for inv in self.invariants if self.audits() or inv.key in keys]

    def exploration(self) -> dict[str, Any]:
        """The run's stream explored (:func:`explore_stream`), once per session, unless a precomputed one was set
        with :meth:`use_exploration` (the pytest plugin explores once, in parallel, before its workers start)."""
        if self._exploration is None:
            self._exploration = explore_stream(self.spec, 1)
        if self._exploration.get("interrupted"):
            raise KeyboardInterrupt(self._exploration["interrupted"])
        return self._exploration

    def interrupted_verdict(self, key: str) -> dict[str, Any] | None:
        """For an interrupted run: what exploration learnt of a rule not concluded (its failure as found, or a
        partial verdict), or None when it learnt nothing (:func:`conformance.running.partial.interrupted_verdict`)."""
        from conformance.running.partial import interrupted_verdict

        return interrupted_verdict(self, key, (self._exploration or {}).get("rules") or {}, self._described)

    def use_exploration(self, exploration: dict[str, Any]) -> None:
        self._exploration = exploration
        if exploration.get("deadline") is not None:
            self.deadline = exploration["deadline"]

    def check_rule(self, key: str) -> dict[str, Any]:
        """Conclude one rule key from the explored stream; a failure is shrunk and written as a replay file. Returns
        the report entry."""
        inv = self.ruleset.invariant(key)
        if self.unavailable is not None:
            return self.unavailable_rule(key)
        if self._gave_up:
            # A circuit breaker: an engine that could not be started, or used up its restarts, on an earlier rule of
            # this worker is not started again for every rule (an always-hanging engine would cost hours).
            return rule_entry(RuleResult(key, inv.rule_number(self.edition), inv.summary, "errored",
                                         engine_problems={"unavailable": 1}, first_problem=self._gave_up))
        exploration = self.exploration()["rules"][key]
        # A fresh engine for each rule's shrinking: a process engine's restart budget, and whatever state an engine
        # keeps, then belong to one rule, so a rule's verdict does not depend on the rules concluded before it. The
        # answers it gave are shared (RunConfig.plays): a candidate another rule's shrink already played is not played
        # again; for an engine that answers a scenario the same way every time (checked on each counterexample) that
        # changes no verdict, only the time.
        engine = self.new_engine()
        try:
            result = conclude(engine, self.reference, self.run_config(), inv, exploration)
            # built for this engine's generation profile, as the stream built it, while the engine is at hand
            problem = problem_scenario(self.run_config(), engine, result, exploration) \
                if self.spec.failures_dir and result.failure is None else None
        finally:
            _close(engine)
        # The breaker trips only for an engine that never answered in this rule (it cannot start, or hangs on
        # everything); one that answers but crashes now and then gets a fresh restart budget for every rule.
        answered = result.scenarios_run - sum(n for status, n in result.engine_problems.items()
                                              if status in EngineOutcome.MISBEHAVIOURS)
        if result.engine_problems.get("unavailable") and answered <= 0:
            self._gave_up = f"not checked: the engine was unavailable during an earlier rule ({result.first_problem})"
        entry = rule_entry(result)
        if getattr(self._database, "error", ""):  # concluded without the example database (an optimisation)
            entry["database_error"] = self._database.error
        elif getattr(self._database, "warning", ""):  # entries of a --database folder skipped unread
            entry["database_warning"] = self._database.warning
        if result.failure is not None:
            add_replay(self, result, entry)
        else:
            add_problem_scenario(self, problem, entry)
        return entry

    def check_audit(self) -> dict[str, Any]:
        """The divergence audit's verdict (:mod:`conformance.running.audit`) over the explored stream, its first unexplained
        divergence shrunk. Returns the report's ``audit`` entry."""
        from conformance.running.audit import AuditTally, conclude_audit

        tally = self.exploration()["audit"] or AuditTally()
        engine = self.new_engine()
        try:
            return conclude_audit(engine, self.reference, self.run_config(), tally).as_dict()
        finally:
            _close(engine)

    def check_fixture(self, fixture_id: str) -> dict[str, Any]:
        if self.unavailable is not None:
            return self.unavailable_fixture(fixture_id)
        fixture = next(f for f in self.fixtures() if f.id == fixture_id)
        result = check_fixture(self.engine, fixture, self.ruleset.invariants_for(fixture.scenario["edition"]))
        entry = {"id": result.id, "status": result.status, "rule_keys": result.rule_keys, "messages": result.messages}
        if result.determinism != "deterministic":
            entry["determinism"] = result.determinism
        return entry

    def write_replay(self, result: RuleResult, engine: dict[str, str] | None = None) -> str | None:
        """:func:`conformance.running.replay_files.write_replay` of this session."""
        return write_replay(self, result, engine)


def explore_stream(spec: RunSpec, workers: int = 1, deadline: float | None = None,
                   progress=None) -> dict[str, Any]:
    """Explore the run's stream of ``spec.max_examples`` scenarios once, judged by every rule asked for (and audited
    with ``spec.audit``), shared out in consecutive ranges among ``workers`` processes, each with its own engine.

    Returns ``{"rules": {key: Exploration}, "audit": AuditTally or None, "explored": int, "stopped": str}``: the
    same whatever ``workers`` is, since scenario n depends only on the seed and n and the ranges merge in stream
    order. ``deadline`` (a ``time.time()``): no scenario is started after it (``stopped`` is then "time budget",
    and ``explored`` says how many scenarios were played). ``progress(count)``, if given, hears now and then how many
    scenarios have been played in all. Never raises for engine faults.
    """
    count = spec.max_examples
    workers = max(1, min(workers, count))
    bounds = [(count * w // workers, count * (w + 1) // workers) for w in range(workers)]
    if workers == 1:
        parts = [explore_range(spec, 0, count, deadline, progress)]
    else:
        import multiprocessing
        from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

        # spawn, not fork: the harness may already hold threads (a process engine's watchdog) that fork would copy.
        context = multiprocessing.get_context("spawn")
        played = context.Value("q", 0)  # scenarios played by all workers, for progress
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_PoolWorker.install, initargs=(played,))
        futures = []
        try:
            if deadline is not None:  # the workers that conclude the rules must still start within the budget
                deadline = _minus_worker_start(pool, workers, deadline)
            futures = [pool.submit(explore_range, spec, start, stop, deadline) for start, stop in bounds]
            while wait(futures, timeout=0.5, return_when=FIRST_EXCEPTION).not_done:
                if progress is not None:
                    progress(played.value)
            parts = [future.result() for future in futures]
        except KeyboardInterrupt as exc:
            # Each worker is told to stop (SIGINT: it closes its engine and hands back what it judged so far); what
            # they found is kept, and a worker that does not answer within a few seconds is killed.
            parts = _interrupted_workers(pool, futures, signal_name(exc))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return exploration_from_parts(parts)


# After exploration, the pytest-xdist workers that conclude the rules start (Python, pytest, execnet, the plugin):
# about twice as slowly as this exploration's own worker processes, measured as they start on this machine at its
# present load. Exploration leaves them that time, so that a run with workers still ends within its time budget.
WORKER_START_RESERVE = 2.0


def _pool_ready() -> bool:
    """A task that only shows a pool process has started (and imported what it explores with)."""
    return True


def _minus_worker_start(pool, workers: int, deadline: float) -> float:
    """The exploration's ``deadline`` less the time the concluding workers will take to start
    (:data:`WORKER_START_RESERVE` times what ``pool``'s ``workers`` processes took to start, waited for here), but
    never less than half the time left to explore: a budget too short for that still explores."""
    import time
    from concurrent.futures import wait

    began = time.time()
    wait([pool.submit(_pool_ready) for _ in range(workers)])
    now = time.time()
    return max(deadline - WORKER_START_RESERVE * (now - began), now + (deadline - now) / 2)


def _interrupted_workers(pool, futures, name: str, grace: float = 10.0) -> list[dict[str, Any]]:
    """Stop the worker processes of an exploration after an interrupt; returns the parts they handed back."""
    import signal
    from concurrent.futures import wait

    processes = list((getattr(pool, "_processes", None) or {}).values())  # CPython's ProcessPoolExecutor
    for process in processes:
        try:
            os.kill(process.pid, signal.SIGINT)
        except (OSError, TypeError):
            pass
    done, _ = wait(futures, timeout=grace)
    for process in processes:  # a worker stuck past the grace period (and its engine, closed by the OS pipes)
        if process.is_alive():
            process.kill()
    parts = []
    for future in done:
        try:
            parts.append(future.result())
        except BaseException:  # a worker killed or broken: its share of the stream is simply not explored
            pass
    if not parts:
        return [{"rules": {}, "audit": None, "explored": 0, "stopped": "", "interrupted": name}]
    for part in parts:
        part["interrupted"] = name
    return parts


def exploration_from_parts(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Merge the JSON-ready results of :func:`explore_range` (also the format of an exploration file)."""
    from conformance.running.audit import AuditTally, merge_tallies

    rules = merge([{k: Exploration.from_dict(v) for k, v in part["rules"].items()} for part in parts])
    tallies = [AuditTally.from_dict(part["audit"]) for part in parts if part.get("audit") is not None]
    stopped = next((part["stopped"] for part in parts if part.get("stopped")), "")
    return {"rules": rules, "audit": merge_tallies(tallies) if tallies else None, "stopped": stopped,
            "explored": sum(part.get("explored", 0) for part in parts),
            "interrupted": next((part["interrupted"] for part in parts if part.get("interrupted")), ""),
            "deadline": next((part["deadline"] for part in parts if part.get("deadline") is not None), None)}


def exploration_document(exploration: dict[str, Any]) -> dict[str, Any]:
    """An explored stream (:func:`explore_stream`) as plain data, what :func:`exploration_from_parts` reads back (how
    the pytest plugin hands it to its pytest-xdist workers)."""
    audit = exploration["audit"]
    return {"rules": {key: share.as_dict() for key, share in exploration["rules"].items()},
            "audit": audit.as_dict() if audit is not None else None, "stopped": exploration.get("stopped", ""),
            "explored": exploration.get("explored", 0), "deadline": exploration.get("deadline")}


class _PoolWorker:
    """A worker process of :func:`explore_stream`: the shared count of scenarios played (for progress), and whether
    it is exploring. Installed as the process's SIGINT and SIGTERM handler (where :func:`explore_range` finds it):
    a signal (Ctrl-C reaches the whole process group; the harness forwards it) stops its exploration, which hands
    back what it judged; a worker with nothing to do ignores it."""

    records_signals = True  # conformance.running.checking.raised_by_code: an engine's own KeyboardInterrupt is no signal

    def __init__(self, played):
        self.played = played
        self.exploring = False
        self.received: str | None = None

    @classmethod
    def install(cls, played) -> None:
        import signal

        worker = cls(played)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, worker)

    @staticmethod
    def current() -> "_PoolWorker | None":
        import signal

        handler = signal.getsignal(signal.SIGINT)
        return handler if isinstance(handler, _PoolWorker) else None

    def __call__(self, signum, frame) -> None:
        self.received = self.received or str(signum)  # a signal came (its number): not an engine's own raise
        if self.exploring:  # once: a second signal must not cut short the handing back of what was found
            self.exploring = False
            raise KeyboardInterrupt(signum)

    def count(self, _count: int) -> None:
        with self.played.get_lock():
            self.played.value += 1


def explore_range(spec: RunSpec, start: int, stop: int, deadline: float | None = None,
                  progress=None) -> dict[str, Any]:
    """Explore scenarios ``start`` to ``stop - 1`` of the stream of ``spec``, with a fresh engine (in a worker
    process of :func:`explore_stream`, or in this one). Returns JSON-ready data for :func:`exploration_from_parts`."""
    from conformance.running.audit import StreamAudit

    session = Session(spec, worker=True)
    worker = _PoolWorker.current()
    played: list = []
    engine = None
    try:
        if worker is not None:
            worker.exploring = True
        engine = session.new_engine()
        observer = StreamAudit(session.reference, start) if session.audits() else None
        found = explore(engine, session.run_config(), session.explored_invariants(), range(start, stop),
                        observe=observer, deadline=deadline, played=played,
                        progress=progress or (worker.count if worker is not None else None))
    except KeyboardInterrupt as exc:  # before the first scenario (while the engine started): nothing judged
        found, observer, played = {}, None, [0, False, signal_name(exc)]
    finally:
        if worker is not None:
            worker.exploring = False
        _close(engine)
        session.close()
    stopped = "time budget" if played and played[1] else ""
    return {"rules": {key: share.as_dict() for key, share in found.items()},
            "audit": observer.tally.as_dict() if observer else None,
            "explored": played[0] if played else 0, "stopped": stopped, "deadline": deadline,
            "interrupted": played[2] if played else ""}


def _close(engine) -> None:
    if engine is None:
        return
    try:
        engine.close()
    except Exception:  # an engine that cannot close cleanly has already given its verdicts
        pass


def _share(items: list, shard: tuple[int, int] | None) -> list:
    """The ``i``-th of ``n`` shares of ``items`` (every n-th from the i-th), or all of them."""
    if shard is None:
        return list(items)
    index, count = shard
    return list(items[index - 1::count])

