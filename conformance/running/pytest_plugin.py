"""The pytest plugin: one test item per rule key and per fixture, so pytest-xdist spreads them over workers and
pytest writes JUnit XML. Registered under the ``pytest11`` entry point (pyproject.toml), so it is active in any
pytest of an environment where trigger-conformance is installed; it does nothing unless ``--trigger-ruleset`` is
given (or the ``trigger-conformance run`` command hands it its :class:`~conformance.running.recorder.RunRecorder`).

Engine authors run the suite inside their own pytest setup::

    pytest --trigger-ruleset momon-wonder --trigger-engine mypkg:Engine -n 2 --junitxml junit.xml
    pytest --trigger-ruleset mtg --trigger-engine-cmd './my-engine --serve'

The items are added to whatever else the command collects. Their ids are stable:
``trigger-conformance/momon-wonder::test_rule[mw.queue-fifo]`` and ``...::test_fixture[mw-nested-packages]``;
in JUnit XML their classname is ``trigger-conformance.<ruleset>``. A rule violation is a failure (with the
explanation and the replay command), an engine that misbehaved (crashed, timed out, answered garbage, answered
differently twice) or a check that raised is an error (the item fails in its setup): an engine that fails its
handshake errors every item, with its problem and stderr (pytest exits 1, not 4); a rule that never applied,
or whose every scenario the engine declined, is skipped with the reason. After SIGINT or SIGTERM the ``--junitxml``
file is (re)written with every verdict known and each item not run skipped ("the run was interrupted"). Every
option of ``trigger-conformance run`` has a ``--trigger-*`` form here; the older ``--conformance-*`` spellings still
work.

The run itself is the command's: the controller builds (or is given) one :class:`~conformance.running.recorder.RunRecorder`,
explores the stream once and records each item's verdict as pytest reports it; pytest-xdist workers get the spec and
the explored stream in their ``workerinput`` and send each verdict back on the item's test report. Its state is in
``config.stash``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import signal
import sys
import time
from pathlib import Path

import pytest

from conformance import __version__
from conformance.running.interrupts import Interrupts, SigintWitness, exit_code
from conformance.generation.profiles import (
    empty_shard, joined_negative_durations, parse_duration, parse_shard, settings,
)
from conformance.running.recorder import RunRecorder, never_applied, nothing_checked, plain
from conformance.running.session import (
    RunSpec, Session, engine_spec, exploration_document, exploration_from_parts, parse_option,
)
from reference_engine.kernel.errors import ConformanceError, signal_name

SUITE = Path(__file__).with_name("suite.py").resolve()
SESSION = pytest.StashKey[Session]()  # the run's session, on the controller and on each worker
RECORDER = pytest.StashKey[RunRecorder]()  # the run's record, on the controller
INTERRUPTS = pytest.StashKey[Interrupts]()  # SIGTERM handling, on the controller of a plain pytest run
ENTRY = pytest.StashKey[dict]()  # on an item: its report entry
NO_DURATION = "\0"  # --trigger-time-budget given no value
WITNESS = pytest.StashKey[SigintWitness]()  # SIGINT recorded (plain pytest): an engine's own KeyboardInterrupt told apart


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("trigger-conformance")

    def add(name: str, **kwargs) -> None:  # --trigger-NAME, and the older --conformance-NAME
        group.addoption(f"--trigger-{name}", f"--conformance-{name}", dest=f"conformance_{name.replace('-', '_')}",
                        **kwargs)

    add("ruleset", help="ruleset to check, e.g. momon-wonder (turns the suite on)")
    add("edition", help="rules edition (default: the ruleset's first listed)")
    add("engine", help="engine spec: reference, mutant:NAME, an entry-point name, module:attr")
    add("engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    add("engine-timeout", type=float, help="per-scenario timeout of a process engine, seconds (default 10)")
    add("engine-restarts", type=int, help="restarts of a process engine allowed per rule (default 10)")
    add("max-trace-entries", type=int, help="the bundled engines' loop guard, trace entries (default 20000)")
    add("engine-memory", type=int, help="the cap on a process engine's data, MB (default 2048; 0 for none)")
    add("option", action="append", default=[], help="ruleset option NAME=VALUE (repeatable)")
    add("fixed-options", action="store_true", help="options not given keep their defaults (else each scenario draws)")
    add("rules", action="extend", nargs="+", default=[], help="check only these rule keys (separated by spaces or "
        "commas, repeatable)")
    add("no-fixtures", action="store_true", help="skip the golden scenarios")
    add("max-examples", type=int, help="scenarios in the run's stream (default 100, or the profile's)")
    add("seed", help="run seed, or 'random' (default 0, or the profile's); printed in the header")
    add("shrink-seconds", type=float, help="time to shrink each failure (default 30, or the profile's)")
    # nargs "?": "--trigger-time-budget -5s" (a value argparse takes for an option) gets past pytest's first parses,
    # to be joined (pytest_load_initial_conftests) and told "give a positive duration"
    add("time-budget", nargs="?", const=NO_DURATION, metavar="DURATION",
        help="stop exploring in time to finish within DURATION (90s, 10m, 1h30m)")
    add("profile", choices=["ci", "nightly"], help="documented settings (conformance/generation/profiles.py)")
    add("shard", help="check the i-th of n shares of the rule keys and fixtures: i/n")
    add("database", help="example database: a folder, or redis://HOST:PORT/DB (needs the 'redis' extra)")
    add("failures-dir", default="trigger-conformance-failures", help="folder for replay files "
        "(default ./trigger-conformance-failures)")
    add("audit", action="store_true", help="also run the divergence audit (a gap in the judge, never a failure)")
    add("expectations", help="a file of the engine's expected failures, each with an issue URL (strict)")
    add("progress-interval", type=float, default=30.0, help="progress line every SECONDS when the output is not a "
        "terminal (default 30); on a terminal the line is live while the stream is explored")
    add("strict-exercise", action="store_true", help="fail the run when a rule never applied (or every scenario "
        "was skipped)")
    add("accept-skips", action="store_true", help="do not fail a run in which the engine skipped every scenario, or "
        "most of them (by default that fails the run: 'nothing checked')")
    add("report-json", help="write the JSON report here at the end (the same as trigger-conformance run's)")
    add("report-jsonl", help="write the JSON Lines report (header, one verdict per line as known, footer)")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args: list[str]) -> None:
    """``--trigger-time-budget -5s`` read as ``--trigger-time-budget=-5s``, as the command reads ``--time-budget -5s``:
    the duration's own message ("give a positive duration"), not argparse's "expected one argument"."""
    args[:] = joined_negative_durations(args, ("--trigger-time-budget", "--conformance-time-budget"))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """A reader of pytest's output that goes away (``pytest ... | head -1``) stops the output quietly, as it does the
    command's (:class:`~conformance.reports.text.QuietStream`): the run goes on, writes its reports and exits with
    the rules' code, not with an INTERNALERROR that pytest cannot print either."""
    from conformance.reports.text import QuietStream

    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    writer = getattr(reporter, "_tw", None)  # pytest's TerminalWriter, what pytest prints with
    if SESSION in session.config.stash and writer is not None and not isinstance(writer._file, QuietStream):
        writer._file = QuietStream(writer._file)


def spec_from(config: pytest.Config) -> RunSpec | None:
    """The RunSpec the ``--trigger-*`` options describe; None without ``--trigger-ruleset``."""
    ruleset = config.getoption("conformance_ruleset")
    if not ruleset:
        return None
    get = config.getoption
    if get("conformance_time_budget") == NO_DURATION:
        raise ConformanceError("--trigger-time-budget: give a duration (e.g. 90s, 10m, 1h30m)")
    chosen = settings(get("conformance_profile"), {
        "max_examples": get("conformance_max_examples"), "seed": get("conformance_seed"),
        "shrink_seconds": get("conformance_shrink_seconds"),
        "time_budget": parse_duration(get("conformance_time_budget"), "--trigger-time-budget") if get("conformance_time_budget") else None})
    seed = str(chosen["seed"])
    if seed != "random" and not seed.isdigit():
        raise ConformanceError(f"--trigger-seed: {seed!r}: give a whole number, or 'random'")
    return RunSpec(
        ruleset=ruleset,
        edition=get("conformance_edition"),
        engine=engine_spec(get("conformance_engine"), get("conformance_engine_cmd"), "--trigger-"),
        options=dict(parse_option(o) for o in get("conformance_option")),
        max_examples=int(chosen["max_examples"]),
        seed=secrets.randbits(32) if seed == "random" else int(seed),
        database=get("conformance_database"),
        failures_dir=get("conformance_failures_dir") or None,
        rules=tuple(k.strip() for arg in get("conformance_rules") for k in arg.split(",") if k.strip()),
        fixtures=not get("conformance_no_fixtures"),
        shrink_seconds=float(chosen["shrink_seconds"]),
        engine_timeout=get("conformance_engine_timeout"),
        engine_restarts=get("conformance_engine_restarts"),
        max_trace_entries=get("conformance_max_trace_entries"),
        engine_memory=get("conformance_engine_memory"),
        audit=get("conformance_audit"),
        explore_options=not get("conformance_fixed_options"),
        time_budget=chosen["time_budget"],
        shard=parse_shard(get("conformance_shard")) if get("conformance_shard") else None,
        expectations=get("conformance_expectations"),
        option_prefix="--trigger-",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "trigger_conformance: an item of the trigger-conformance suite")
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        _configure_worker(config, worker)
        return
    # Under `trigger-conformance run`, the command's own recorder (its session, handshake done); else one built from
    # the --trigger-* options, if they name a ruleset.
    recorder = next((p for p in config.pluginmanager.get_plugins() if isinstance(p, RunRecorder)), None)
    under_command = recorder is not None
    try:
        if recorder is None:
            spec = spec_from(config)
            if spec is None:
                return
            started = time.time()
            session = Session(spec)
            for warning in session.warnings:  # said once, here on the controller (workers make their own session)
                print(f"trigger-conformance: warning: {warning}", file=sys.stderr)
            # An engine that fails its handshake errors every item (session.unavailable); a bad spec is usage.
            recorder = RunRecorder(session, session.handshake(), config.getoption("conformance_report_jsonl"),
                                   started=started)
    except ConformanceError as exc:
        raise pytest.UsageError(f"trigger-conformance: {exc}") from None
    session = recorder.session
    config.stash[SESSION] = session
    if config.option.collectonly:
        return
    config.stash[RECORDER] = recorder
    recorder.start()
    config.pluginmanager.register(_Controller(config, recorder), "conformance-controller")
    if not under_command:  # the command writes pytest's JUnit XML in its own folder, and sees to its failure itself
        config.pluginmanager.register(_JunitGuard(), "conformance-junit-guard")
    # On the controller of a plain pytest run, SIGTERM stops the run the way Ctrl-C does (the command sees to
    # both signals itself, and its Interrupts marks every process of the run).
    config.stash[INTERRUPTS] = Interrupts((signal.SIGTERM,), forward=False, outermost=False).start()
    config.stash[WITNESS] = SigintWitness(config.stash[INTERRUPTS]).start()  # none under the command (its own)
    share = {"conformance_spec": dataclasses.asdict(session.spec)}
    if session.unavailable is not None:  # nothing to explore: every item errors with the engine's problem
        recorder.explored({"explored": 0})
        _share_with_workers(config, conformance_unavailable=plain(session.unavailable), **share)
        return
    # The stream is explored once, here, before any worker starts: shared out among as many processes as
    # pytest-xdist will run workers; each worker then concludes (shrinks, explains) the rules it is given.
    if not under_command:  # the command shows its own progress
        recorder.progress = _progress(config, session)
    exploration = recorder.explore(_workers(config))
    if not under_command and recorder.progress is not None:
        recorder.progress.explored(exploration.get("explored", 0))
        recorder.progress.clear()
        recorder.progress.live = False  # from here on pytest writes its own lines: plain progress lines only
    if exploration.get("interrupted"):
        # Interrupted while exploring: every failure found so far is a verdict (unshrunk); pytest then stops, and
        # the stream's footer and the leftovers are seen to in pytest_unconfigure.
        recorder.interrupted = exploration["interrupted"]
        recorder.record_interrupted()
        if under_command:  # the command prints its own message (pytest.exit's would show as "Exit: ...")
            raise KeyboardInterrupt(recorder.interrupted)
        lines = recorder.interrupted_lines(config.getoption("conformance_report_json"),
                                           getattr(config.option, "xmlpath", None))
        pytest.exit("trigger-conformance: " + "\ntrigger-conformance: ".join(lines),
                    returncode=exit_code(recorder.interrupted))
    _share_with_workers(config, conformance_exploration=plain(exploration_document(exploration)), **share)


def _configure_worker(config: pytest.Config, worker: dict) -> None:
    """A pytest-xdist worker: the controller's spec (its random seed included), and the stream it explored or the
    engine's handshake failure, all through xdist's own channel (``workerinput``)."""
    try:
        spec = RunSpec(**worker["conformance_spec"]) if worker.get("conformance_spec") else spec_from(config)
        session = Session(spec, worker=bool(worker.get("conformance_spec"))) if spec else None
    except ConformanceError as exc:
        raise pytest.UsageError(f"trigger-conformance: {exc}") from None
    if session is None:
        return
    if worker.get("conformance_unavailable"):
        session.unavailable = dict(worker["conformance_unavailable"])
    config.stash[SESSION] = session
    config.stash[WITNESS] = SigintWitness().start()
    if not config.option.collectonly and worker.get("conformance_exploration"):
        session.use_exploration(exploration_from_parts([worker["conformance_exploration"]]))


def _share_with_workers(config: pytest.Config, **inputs) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_ShareWithWorkers(**inputs), "conformance-share-with-workers")


class _ShareWithWorkers:
    """Hands the run to every pytest-xdist worker: ``inputs`` are its workerinput entries (the spec, and the explored
    stream or the engine's handshake failure)."""

    def __init__(self, **inputs):
        self.inputs = inputs

    def pytest_configure_node(self, node) -> None:
        node.workerinput.update(self.inputs)


def _progress(config: pytest.Config, session: Session):
    """The progress shown by a plain pytest run (conformance.reports.progress): live on a terminal while the stream
    is explored, and plain lines every --trigger-progress-interval seconds otherwise and while rules are
    concluded. None with -q -q (or quieter)."""
    import sys

    from conformance.reports.progress import Progress

    if config.getoption("verbose") < -1:
        return None
    return Progress(_TerminalLines(config, sys.stdout), len(session.rule_keys()), session.spec.max_examples,
                    config.getoption("conformance_progress_interval"), prefix="trigger-conformance progress: ")


class _TerminalLines:
    """A text stream for Progress: raw writes (the live line) go to ``out``; whole lines, once pytest's terminal
    reporter is there, through it (so they never land in the middle of its line of dots)."""

    def __init__(self, config: pytest.Config, out):
        self.config, self.out = config, out

    def isatty(self) -> bool:
        return bool(getattr(self.out, "isatty", lambda: False)())

    def write(self, text: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None and text.endswith("\n") and "\r" not in text:
            reporter.write_line(text.rstrip("\n"))
        else:
            self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def _workers(config: pytest.Config) -> int:
    count = getattr(config.option, "numprocesses", None) if config.pluginmanager.hasplugin("xdist") else None
    if count in (None, 0) or getattr(config.option, "dist", "no") == "no":
        return 1
    return int(count) if str(count).isdigit() else (os.cpu_count() or 1)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    session = config.stash.get(SESSION, None)
    if session is None:
        return None
    spec = session.spec
    shard = f", shard {spec.shard[0]}/{spec.shard[1]}" if spec.shard else ""
    budget = f", time budget {spec.time_budget:g} s" if spec.time_budget else ""
    recorder = config.stash.get(RECORDER, None)
    described = getattr(recorder, "described", None) or {}
    engine = f"{described['name']} {described['version']}" if described.get("name") else spec.engine
    return [f"trigger-conformance {__version__}: {session.ruleset.name} {session.edition} on {engine}, "
            f"{spec.max_examples} scenarios, seed {spec.seed} (repeat with --trigger-seed {spec.seed}){shard}{budget}"]


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(SESSION, None)
    if session is not None:
        session.close()
    recorder = config.stash.get(RECORDER, None)
    if recorder is not None:  # interrupted before the session started: pytest_sessionfinish never ran
        _finish(config, recorder)
        guard = config.pluginmanager.get_plugin("conformance-junit-guard")
        # after pytest's own (if it wrote one); instead of it when a full disk stopped it half-way
        xmlpath = getattr(config.option, "xmlpath", None)
        recorder.write_junit(xmlpath, complete=bool(getattr(guard, "failed", False)))
        if getattr(guard, "failed", False) and recorder.junit_failed:  # not where asked: no half file left there
            with contextlib.suppress(OSError):
                os.unlink(xmlpath)
    interrupts = config.stash.get(INTERRUPTS, None)
    if interrupts is not None:
        interrupts.stop(bool(recorder is not None and recorder.interrupted))
    witness = config.stash.get(WITNESS, None)
    if witness is not None:
        witness.stop()


def _finish(config: pytest.Config, recorder: RunRecorder, interrupted: bool = False) -> None:
    """The JSON Lines report's footer and the JSON report (``--trigger-report-json``), once, interrupted or not."""
    if not recorder.finished:
        try:
            recorder.finish(interrupted)
        finally:  # a signal just after the footer: the JSON report is written all the same, and agrees with it
            if recorder.footer_written:
                recorder.write_report(config.getoption("conformance_report_json"))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    """Add the suite's items when the command line did not already collect conformance/running/suite.py."""
    conformance = config.stash.get(SESSION, None)
    if conformance is None:
        return
    if not any(Path(str(item.path)).resolve() == SUITE for item in items):
        module = pytest.Module.from_parent(session, path=SUITE,
                                           nodeid=f"trigger-conformance/{conformance.ruleset.name}")
        items.extend(session.genitems(module))
    # No audit (or fixture) item at all when there is none to check, rather than one skipped for an empty
    # parameter set.
    items[:] = [item for item in items if not (Path(str(item.path)).resolve() == SUITE and "NOTSET" in item.name)]


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name: str, obj) -> list | None:
    """No item at all for a suite function with nothing to check (no audit, no fixture, no rule of this shard), so
    that pytest's "collected N" is what runs (an empty parameter set would collect one skipped item)."""
    session = collector.config.stash.get(SESSION, None)
    if session is None or getattr(collector, "path", None) is None or Path(str(collector.path)).resolve() != SUITE:
        return None
    empty = {"test_rule": lambda: not session.rule_keys(), "test_fixture": lambda: not session.fixtures(),
             "test_audit": lambda: not session.audits()}.get(name)
    return [] if empty is not None and empty() else None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    session = metafunc.config.stash.get(SESSION, None)
    if "conformance_rule_key" in metafunc.fixturenames:
        # Unconfigured, one item that fails (in conformance_session) rather than an empty, green-looking suite.
        keys = session.rule_keys() if session else ["not-configured"]
        metafunc.parametrize("conformance_rule_key", keys, ids=keys)
    if "conformance_audit" in metafunc.fixturenames:
        audits = ["unexplained-divergence"] if session and session.audits() else []
        metafunc.parametrize("conformance_audit", audits, ids=audits)
    if "conformance_fixture_id" in metafunc.fixturenames:
        ids = [f.id for f in session.fixtures()] if session else []
        metafunc.parametrize("conformance_fixture_id", ids, ids=ids)


@pytest.fixture(scope="session")
def conformance_session(request: pytest.FixtureRequest) -> Session:
    session = request.config.stash.get(SESSION, None)
    if session is None:  # a conformance suite that checked nothing must not look green
        pytest.fail("no conformance run configured: give --trigger-ruleset (and --trigger-engine)", pytrace=False)
    return session


@pytest.fixture
def conformance_record(request: pytest.FixtureRequest):
    """Keep an item's report entry with the item: its test report carries it to the controller (through
    pytest-xdist's own channel when the item ran on a worker)."""

    def record(kind: str, entry: dict) -> None:
        request.node.stash[ENTRY] = plain(entry)

    return record


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    report = yield
    entry = item.stash.get(ENTRY, None)
    if entry is not None and (report.when == "call" or (report.when == "setup" and report.failed)):
        report.conformance_entry = entry
    return report


class _JunitGuard:
    """Plain pytest with ``--junitxml``: when pytest cannot write its JUnit XML (a full disk), its OSError would end
    the run in a traceback before the summary; the run goes on instead, and the file is written from the verdicts at
    the end (``pytest_unconfigure``), or said in one line where it could not be."""

    failed = False

    @pytest.hookimpl(wrapper=True, trylast=True)  # the innermost wrapper: pytest's summary is printed all the same
    def pytest_sessionfinish(self, session, exitstatus):
        try:
            return (yield)
        except OSError:
            self.failed = True
            return None


class _Controller:
    """On the controller: each item's verdict to the run's recorder as pytest reports it, the run's exit status,
    and the console summary of skip reasons."""

    def __init__(self, config: pytest.Config, recorder: RunRecorder):
        self.config, self.recorder = config, recorder
        self.verdicts: list[str] = []  # why the run fails besides its items (printed in the terminal summary)
        self.empty: str | None = None  # the line saying this job's shard is empty (a clean result)

    def pytest_runtest_logreport(self, report) -> None:
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        name = report.nodeid.rsplit("[", 1)[-1].rstrip("]")
        kind = "rule" if "test_rule[" in report.nodeid else "audit" if "test_audit[" in report.nodeid else (
            "fixture" if "test_fixture[" in report.nodeid else None)
        if kind is not None:
            self.recorder.record(kind, name, getattr(report, "conformance_entry", None), report.longreprtext)

    def pytest_keyboard_interrupt(self, excinfo) -> None:
        self.recorder.interrupted = self.recorder.interrupted or signal_name(excinfo.value)

    @pytest.hookimpl(tryfirst=True)  # before pytest's JUnit XML, which a full disk may stop with an OSError
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        recorder = self.recorder
        self.empty = empty_shard(recorder.session, "--trigger-rules")
        if self.empty and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:  # a clean result, not "no tests ran"
            session.exitstatus = pytest.ExitCode.OK
        _finish(self.config, recorder, exitstatus == pytest.ExitCode.INTERRUPTED)
        if recorder.interrupted:  # the exit code says which signal stopped the run, as the command's does
            session.exitstatus = exit_code(recorder.interrupted)
            return
        # What fails a run besides failed items: rules that never applied, under --trigger-strict-exercise, and an
        # engine that skipped most scenarios, unless --trigger-accept-skips.
        rules = recorder.rules()
        get = self.config.getoption
        if get("conformance_strict_exercise"):
            self.verdicts += [f"error: {key} never applied (--trigger-strict-exercise)" for key in never_applied(rules)]
        message = None if get("conformance_accept_skips") else nothing_checked(rules, "--trigger-accept-skips")
        if message:
            self.verdicts.append(message)
        if self.verdicts and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter) -> None:
        from conformance.reports.text import skip_summary

        session, exploration = self.recorder.session, self.recorder.exploration
        write = terminalreporter.write_line
        if self.empty:
            write(f"trigger-conformance: {self.empty}")
        if session.unavailable is not None:
            write(f"trigger-conformance: every rule errored: the engine failed its handshake: "
                  f"{session.unavailable['message']}", red=True)
        stopped = exploration.get("stopped")
        if stopped:
            write(f"trigger-conformance: exploration stopped by the {stopped} after "
                  f"{exploration.get('explored', 0)} of {session.spec.max_examples} scenarios; every rule "
                  f"was concluded from those")
        rules = [e for e in self.recorder.entries.values() if "rule_number" in e]
        for n, line in enumerate(skip_summary(rules)):
            write(("trigger-conformance: " if n == 0 else "") + line)
        if self.recorder.database_warned:
            write(f"trigger-conformance: warning: {self.recorder.database_warned}", yellow=True)
        for line in self.verdicts:
            write(f"trigger-conformance: {line}", red=True)
        if self.recorder.interrupted:  # every verdict kept, partial ones too, and where the reports went
            from conformance.reports.text import rule_row

            for rule in self.recorder.rules():
                if rule["status"] == "partial":
                    write(f"trigger-conformance: {rule_row(rule)}", yellow=True)
            for line in self.recorder.interrupted_lines(self.config.getoption("conformance_report_json"),
                                                        getattr(self.config.option, "xmlpath", None)):
                write(f"trigger-conformance: {line}", yellow=True)
        write(f"trigger-conformance: seed {session.spec.seed} (repeat with --trigger-seed {session.spec.seed})")
