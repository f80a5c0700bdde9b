"""The pytest plugin: one test item per rule key and per fixture, so pytest-xdist spreads them over workers and
pytest writes JUnit XML. Registered under the ``pytest11`` entry point (pyproject.toml), so it is active in any
pytest of an environment where trigger-conformance is installed; it does nothing unless ``--trigger-ruleset`` is
given (or ``--conformance-spec``, what the ``trigger-conformance run`` command passes).

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
file is (re)written with every verdict known and each item not run skipped ("the run was interrupted"). Every option of ``trigger-conformance
run`` has a ``--trigger-*`` form here; the older ``--conformance-*`` spellings still work.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from conformance import __version__
from conformance.documents import write_json
from reference_engine.kernel.errors import ConformanceError
from conformance.profiles import EXPLORATION_SHARE, parse_duration, parse_shard, settings
from conformance.session import RunSpec, Session, explore_stream, exploration_from_parts, parse_option

SUITE = Path(__file__).with_name("suite.py").resolve()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("trigger-conformance")

    def add(name: str, **kwargs) -> None:  # --trigger-NAME, and the older --conformance-NAME
        group.addoption(f"--trigger-{name}", f"--conformance-{name}", dest=f"conformance_{name.replace('-', '_')}",
                        **kwargs)

    group.addoption("--conformance-spec", help="a whole RunSpec as JSON (what the trigger-conformance CLI passes)")
    add("ruleset", help="ruleset to check, e.g. momon-wonder (turns the suite on)")
    add("edition", help="rules edition (default: the ruleset's first listed)")
    add("engine", default="reference", help="engine spec: reference, mutant:NAME, an entry-point name, module:attr")
    add("engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    add("engine-timeout", type=float, help="per-scenario timeout of a process engine, seconds (default 10)")
    add("engine-restarts", type=int, help="restarts of a process engine allowed per rule (default 10)")
    add("max-trace-entries", type=int, help="the bundled engines' loop guard, trace entries (default 20000)")
    add("option", action="append", default=[], help="ruleset option NAME=VALUE (repeatable)")
    add("fixed-options", action="store_true", help="options not given keep their defaults (else each scenario draws)")
    add("rules", action="append", default=[], help="check only these rule keys (comma-separated, repeatable)")
    add("no-fixtures", action="store_true", help="skip the golden scenarios")
    add("max-examples", type=int, help="scenarios in the run's stream (default 100, or the profile's)")
    add("seed", help="run seed, or 'random' (default 0, or the profile's); printed in the header")
    add("shrink-seconds", type=float, help="time to shrink each failure (default 30, or the profile's)")
    add("time-budget", help="stop exploring in time to finish within DURATION (90s, 10m, 1h30m)")
    add("profile", choices=["ci", "nightly"], help="documented settings (conformance/profiles.py)")
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
    group.addoption("--conformance-unavailable", help="(what the trigger-conformance CLI passes) the engine's "
                    "handshake failure as JSON: every item errors with it")
    group.addoption("--conformance-results-dir", help="folder where each item writes its report entry as JSON")


def spec_from(config: pytest.Config) -> RunSpec | None:
    text = config.getoption("--conformance-spec")
    if text:
        return RunSpec.from_json(text)
    ruleset = config.getoption("conformance_ruleset")
    if not ruleset:
        return None
    get = config.getoption
    chosen = settings(get("conformance_profile"), {
        "max_examples": get("conformance_max_examples"), "seed": get("conformance_seed"),
        "shrink_seconds": get("conformance_shrink_seconds"),
        "time_budget": parse_duration(get("conformance_time_budget")) if get("conformance_time_budget") else None})
    seed = str(chosen["seed"])
    if seed != "random" and not seed.isdigit():
        raise ConformanceError(f"--trigger-seed: {seed!r}: give a whole number, or 'random'")
    engine_cmd = get("conformance_engine_cmd")
    if engine_cmd is not None and get("conformance_engine") != "reference":
        raise ConformanceError("give either --trigger-engine or --trigger-engine-cmd, not both")
    if engine_cmd is not None and not engine_cmd.strip():
        raise ConformanceError("--trigger-engine-cmd is empty: give the command that starts the engine")
    return RunSpec(
        ruleset=ruleset,
        edition=get("conformance_edition"),
        engine=f"cmd:{engine_cmd}" if engine_cmd is not None else get("conformance_engine"),
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
        audit=get("conformance_audit"),
        explore_options=not get("conformance_fixed_options"),
        time_budget=chosen["time_budget"],
        shard=parse_shard(get("conformance_shard")) if get("conformance_shard") else None,
        expectations=get("conformance_expectations"),
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "trigger_conformance: an item of the trigger-conformance suite")
    worker = getattr(config, "workerinput", None)
    try:
        if worker is not None and worker.get("conformance_spec"):
            spec = RunSpec.from_json(worker["conformance_spec"])  # the controller's (its random seed included)
        else:
            spec = spec_from(config)
        session = Session(spec) if spec else None
        described = None
        if session is not None and worker is None:
            given = config.getoption("--conformance-unavailable")
            if given:  # the trigger-conformance command already found that the engine fails its handshake
                session.unavailable = json.loads(given)
                described = {"name": "(no handshake)", "version": "?", "spec": spec.engine}
            else:  # an engine that fails its handshake errors every item (session.unavailable); a bad spec is usage
                described = session.handshake()
        elif session is not None and worker.get("conformance_unavailable"):
            session.unavailable = json.loads(worker["conformance_unavailable"])
    except ConformanceError as exc:
        raise pytest.UsageError(f"trigger-conformance: {exc}") from None
    config._conformance_session = session  # type: ignore[attr-defined]
    if session is None:
        return
    config._conformance_results = (worker or {}).get("conformance_results") or config.getoption(  # type: ignore
        "--conformance-results-dir") or (None if worker is not None else _scratch(config, "results"))
    if config.option.collectonly:
        return
    if worker is not None and worker.get("conformance_exploration"):
        session.use_exploration(_read_exploration(worker["conformance_exploration"]))
    elif worker is None:
        started = time.time()
        stream = _Stream(config, session, described, started)
        config.pluginmanager.register(stream, "conformance-stream")
        interrupts = _Interrupts()
        config._conformance_interrupts = interrupts  # type: ignore[attr-defined]
        interrupts.start()
        if session.unavailable is not None:  # nothing to explore: every item errors with the engine's problem
            stream.explored({"explored": 0})
            if config.pluginmanager.hasplugin("xdist"):
                config.pluginmanager.register(_ShareWithWorkers(
                    conformance_spec=spec.to_json(), conformance_results=config._conformance_results,
                    conformance_unavailable=json.dumps(session.unavailable)), "conformance-share-unavailable")
            return
        # The stream is explored once, here, before any worker starts: shared out among as many processes as
        # pytest-xdist will run workers; each worker then concludes (shrinks, explains) the rules it is given.
        budget = spec.time_budget
        listeners = [p for p in config.pluginmanager.get_plugins()
                     if hasattr(p, "conformance_explored") and p is not stream]
        under_command = bool(listeners)  # the trigger-conformance command listens, and says what happened itself
        if not listeners:  # plain pytest (the trigger-conformance command shows its own progress)
            stream.progress = _progress(config, session)
            listeners = [stream]
        exploration = explore_stream(spec, _workers(config), started + EXPLORATION_SHARE * budget if budget else None,
                                     progress=(lambda n: [p.conformance_explored(n) for p in listeners])
                                     if listeners else None)
        exploration["deadline"] = started + budget if budget else None
        if stream.progress is not None:
            stream.progress.explored(exploration.get("explored", 0))
            stream.progress.clear()
            stream.progress.live = False  # from here on pytest writes its own lines: plain progress lines only
        session.use_exploration(exploration)
        stream.explored(exploration)
        path = Path(config._conformance_results) / "exploration.json"  # type: ignore[attr-defined]
        write_json(path, _exploration_document(exploration))
        if exploration.get("interrupted"):
            # Interrupted while exploring: every failure found so far is a verdict (unshrunk); pytest then stops,
            # and the stream's footer and the leftovers are seen to in pytest_unconfigure.
            stream.interrupted = exploration["interrupted"]
            stream.record_known_failures()
            if under_command:  # the command prints its own message (pytest.exit's would show as "Exit: ...")
                raise KeyboardInterrupt(stream.interrupted)
            pytest.exit(f"trigger-conformance: interrupted by {stream.interrupted} while exploring, after "
                        f"{exploration.get('explored', 0)} scenarios; verdicts found so far are kept",
                        returncode=_signal_code(stream.interrupted))
        if config.pluginmanager.hasplugin("xdist"):
            config.pluginmanager.register(_ShareWithWorkers(
                conformance_exploration=str(path), conformance_spec=spec.to_json(),
                conformance_results=config._conformance_results), "conformance-share-exploration")


class _Interrupts:
    """On the controller of a plain pytest run: SIGTERM stops the run the way Ctrl-C does (a KeyboardInterrupt), so
    that the report gets every verdict known and its footer, engines and workers are stopped and temporary folders
    removed; every process the run starts is marked (``RUN_TOKEN`` in its environment) so that what outlives the
    run is found and killed. Under ``trigger-conformance run`` the command already does all this, and this does
    nothing."""

    def __init__(self):
        self.received: str | None = None
        self.token: str | None = None
        self._previous = None

    def start(self) -> None:
        import signal

        from conformance.adapters.process import RUN_TOKEN

        if os.environ.get(RUN_TOKEN):  # the trigger-conformance command (or an outer run) marks and cleans up
            return
        self.token = secrets.token_hex(12)
        os.environ[RUN_TOKEN] = self.token
        try:
            if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
                self._previous = signal.signal(signal.SIGTERM, self._handle)
        except (ValueError, OSError):  # not the main thread
            pass

    def _handle(self, signum, frame) -> None:
        if self.received is None:
            self.received = "SIGTERM"
            raise KeyboardInterrupt("SIGTERM")

    def stop(self, interrupted: bool) -> None:
        import signal

        from conformance.adapters.process import RUN_TOKEN, kill_tagged, tagged_processes

        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
            self._previous = None
        if self.token is None:
            return
        if interrupted:  # workers stop their own engines; what is left after a moment is killed
            deadline = time.monotonic() + 2.0
            while tagged_processes(RUN_TOKEN, self.token) and time.monotonic() < deadline:
                time.sleep(0.05)
            kill_tagged(RUN_TOKEN, self.token)
        if os.environ.get(RUN_TOKEN) == self.token:
            del os.environ[RUN_TOKEN]
        self.token = None


class _ShareWithWorkers:
    """Hands the run to every pytest-xdist worker: ``inputs`` are its workerinput entries (the spec, the results
    folder, and the explored stream or the engine's handshake failure)."""

    def __init__(self, **inputs: str):
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


def _signal_code(name: str) -> int:
    """128 + the signal's number, the exit code of a run stopped by it (130 for SIGINT, 143 for SIGTERM)."""
    import signal

    return 128 + signal.Signals[name].value


def _workers(config: pytest.Config) -> int:
    count = getattr(config.option, "numprocesses", None) if config.pluginmanager.hasplugin("xdist") else None
    if count in (None, 0) or getattr(config.option, "dist", "no") == "no":
        return 1
    return int(count) if str(count).isdigit() else (os.cpu_count() or 1)


def _scratch(config: pytest.Config, what: str) -> str:
    folder = tempfile.mkdtemp(prefix=f"trigger-conformance-{what}-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    return folder


def _exploration_document(exploration: dict) -> dict:
    audit = exploration["audit"]
    return {"rules": {key: share.as_dict() for key, share in exploration["rules"].items()},
            "audit": audit.as_dict() if audit is not None else None, "stopped": exploration.get("stopped", ""),
            "explored": exploration.get("explored", 0), "deadline": exploration.get("deadline")}


def _read_exploration(path: str) -> dict:
    return exploration_from_parts([json.loads(Path(path).read_text("utf-8"))])


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    session = getattr(config, "_conformance_session", None)
    if session is None:
        return None
    spec = session.spec
    shard = f", shard {spec.shard[0]}/{spec.shard[1]}" if spec.shard else ""
    budget = f", time budget {spec.time_budget:g} s" if spec.time_budget else ""
    return [f"trigger-conformance {__version__}: {session.ruleset.name} {session.edition} on {spec.engine}, "
            f"{spec.max_examples} scenarios, seed {spec.seed} (repeat with --trigger-seed {spec.seed}){shard}{budget}"]


def pytest_unconfigure(config: pytest.Config) -> None:
    session = getattr(config, "_conformance_session", None)
    if session is not None:
        session.close()
    stream = config.pluginmanager.get_plugin("conformance-stream")
    if stream is not None:  # interrupted before the session started: pytest_sessionfinish never ran
        stream.finish(None)
        stream.write_junit()  # after pytest's own (written in pytest_sessionfinish, if the session started)
    interrupts = getattr(config, "_conformance_interrupts", None)
    if interrupts is not None:
        interrupts.stop(bool(stream is not None and stream.interrupted))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    """Add the suite's items when the command line did not already collect conformance/suite.py."""
    conformance = getattr(config, "_conformance_session", None)
    if conformance is None:
        return
    if not any(Path(str(item.path)).resolve() == SUITE for item in items):
        module = pytest.Module.from_parent(session, path=SUITE,
                                           nodeid=f"trigger-conformance/{conformance.ruleset.name}")
        items.extend(session.genitems(module))
    # No audit (or fixture) item at all when there is none to check, rather than one skipped for an empty
    # parameter set.
    items[:] = [item for item in items if not (Path(str(item.path)).resolve() == SUITE and "NOTSET" in item.name)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    session = getattr(metafunc.config, "_conformance_session", None)
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
    session = getattr(request.config, "_conformance_session", None)
    if session is None:  # a conformance suite that checked nothing must not look green
        pytest.fail("no conformance run configured: give --trigger-ruleset (and --trigger-engine)", pytrace=False)
    return session


@pytest.fixture
def conformance_record(request: pytest.FixtureRequest):
    """Write an item's report entry where the controller (and the CLI) collects it."""
    folder = getattr(request.config, "_conformance_results", None)

    def record(kind: str, entry: dict) -> None:
        if folder:
            write_json(Path(folder) / _entry_name(kind, entry.get("key") or entry.get("id")), entry)  # atomically

    return record


def _entry_name(kind: str, name: str) -> str:
    return f"{kind}-{name}.json"


# -- The JSON Lines report: the source of truth ---------------------------------------------------------------


class _Stream:
    """On the controller: the JSON Lines report (``--trigger-report-jsonl``), one line flushed per verdict as soon as
    it is known, and the console summary of skip reasons."""

    def __init__(self, config: pytest.Config, session: Session, described: dict, started: float):
        self.config, self.session, self.started = config, session, started
        self.entries: dict[str, dict] = {}
        self.interrupted: str | None = None
        self.progress = None  # conformance.reports.progress.Progress, under plain pytest
        self.verdicts: list[str] = []  # why the run fails besides its items (printed in the terminal summary)
        self.described = described
        self.finished = False
        self.exploration: dict = {}
        path = config.getoption("conformance_report_jsonl")
        self.file = None
        header = {"record": "header", "format": "trigger-conformance/stream/1", "tool_version": __version__,
                  "engine": described, "ruleset": session.ruleset.name, "edition": session.edition,
                  "options": session.options, "seed": session.spec.seed, "max_examples": session.spec.max_examples,
                  "shard": list(session.spec.shard) if session.spec.shard else None,
                  "time_budget": session.spec.time_budget, "rule_keys": session.rule_keys(),
                  "fixtures": [f.id for f in session.fixtures()], "started": round(started, 3)}
        if path:
            self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed in pytest_sessionfinish)
            self._write(header)

    def _write(self, record: dict) -> None:
        if self.file is not None:
            self.file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            self.file.flush()  # an interrupted run keeps every line written so far
            os.fsync(self.file.fileno())

    def conformance_explored(self, played: int) -> None:
        if self.progress is not None:
            self.progress.explored(played)

    def explored(self, exploration: dict) -> None:
        self.exploration = exploration
        # "stopped": why exploration ended before the whole stream: "" (it did not), "time budget", or the signal
        # that interrupted the run ("SIGINT", "SIGTERM")
        self._write({"record": "explored", "scenarios": exploration.get("explored", 0),
                     "stopped": exploration.get("stopped") or exploration.get("interrupted") or ""})

    def pytest_runtest_logreport(self, report) -> None:
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        name = report.nodeid.rsplit("[", 1)[-1].rstrip("]")
        kind = "rule" if "test_rule[" in report.nodeid else "audit" if "test_audit[" in report.nodeid else (
            "fixture" if "test_fixture[" in report.nodeid else None)
        if kind is None or name in self.entries:
            return
        try:
            entry = json.loads((Path(self.config._conformance_results) / _entry_name(  # type: ignore[attr-defined]
                kind, name if kind != "audit" else name)).read_text("utf-8"))
        except (OSError, ValueError):
            entry = {"key" if kind != "fixture" else "id": name, "status": "errored",
                     "check_error": report.longreprtext.strip()[-4000:] or "the check did not finish"}
        self.entries[name] = entry
        if self.progress is not None and kind == "rule":
            self.progress.concluded(entry.get("status") == "failed")
        from conformance.expectations import judge

        verdict = judge(entry, self.session.expected, self.session.quarantined) if kind == "rule" else None
        self._write({"record": kind, **entry, **({"expectation": verdict} if verdict else {})})

    def pytest_keyboard_interrupt(self, excinfo) -> None:
        from reference_engine.kernel.errors import signal_name

        self.interrupted = self.interrupted or signal_name(excinfo.value)

    def record_known_failures(self) -> None:
        """In an interrupted run: every rule not concluded whose exploration found a failure gets its verdict,
        failed (unshrunk), in the stream and where the CLI collects report entries."""
        folder = getattr(self.config, "_conformance_results", None)
        for key in self.session.rule_keys():
            if key in self.entries:
                continue
            entry = self.session.known_failure(key)
            if entry is None:
                continue
            self.entries[key] = entry
            if folder:
                write_json(Path(folder) / _entry_name("rule", key), entry)
            self._write({"record": "rule", **entry})

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        self.finish(exitstatus)
        if self.interrupted:  # the exit code says which signal stopped the run, as the command's does
            session.exitstatus = _signal_code(self.interrupted)
            return
        # What `trigger-conformance run` fails a run for besides failed items: rules that never applied, under
        # --trigger-strict-exercise, and an engine that skipped most scenarios, unless --trigger-accept-skips.
        from conformance.session import declined

        rules = self._rules()
        get = self.config.getoption
        if get("conformance_strict_exercise"):
            self.verdicts += [f"error: {rule['key']} never applied (--trigger-strict-exercise)" for rule in rules
                              if rule["status"] in ("unexercised", "skipped")]
        found = declined(rules)
        if found and not get("conformance_accept_skips"):
            skipped, played = found
            self.verdicts.append(
                f"error: nothing checked: the engine skipped {skipped} of the {played} scenarios it was given "
                f"({'all' if skipped == played else 'most'} of them), so these verdicts say little. Give it "
                f"scenarios it supports (its generation_profile), or accept this with --trigger-accept-skips.")
        if self.verdicts and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _rules(self) -> list[dict]:
        order = {key: n for n, key in enumerate(self.session.rule_keys())}
        return sorted((e for e in self.entries.values() if "rule_number" in e and e.get("key") in order),
                      key=lambda e: order[e["key"]])

    def _write_report(self) -> None:
        """The JSON report (--trigger-report-json), written atomically at the end, interrupted or not."""
        path = self.config.getoption("conformance_report_json")
        if not path:
            return
        from conformance.documents import validate

        report = self.report()
        validate(report, "report", "the report being written")
        write_json(path, report)

    def write_junit(self) -> None:
        """After an interrupt, pytest's ``--junitxml`` file (written atomically) from every verdict known: a failure
        found while exploring is a ``<failure>`` (unshrunk), each rule and fixture not checked ``<skipped>`` (the run
        was interrupted). pytest writes none when the signal came while the stream was explored (before its
        session started), and one without the items not run when it came later."""
        path = getattr(self.config.option, "xmlpath", None)
        if not path or not self.interrupted:
            return
        from conformance.documents import write_atomically
        from conformance.reports.render import from_report, junit

        write_atomically(path, junit(from_report(self.report(), self.session.rule_keys())))

    def report(self) -> dict:
        """The run's JSON report (``schemas/report.schema.json``) from every verdict known."""
        from conformance.session import report_document

        fixtures = [e for e in self.entries.values() if "id" in e and "rule_keys" in e]
        report = report_document(self.session, self.described, self._rules(), fixtures, time.time() - self.started)
        audit = next((e for e in self.entries.values() if "compared" in e), None)
        if audit is not None:
            report["audit"] = {k: v for k, v in audit.items() if k != "key"}
        if self.exploration.get("stopped"):
            report["stopped"] = {"by": self.exploration["stopped"],
                                 "scenarios_explored": self.exploration.get("explored", 0)}
        if self.interrupted:
            report["interrupted"] = self.interrupted
            done = {e.get("key") or e.get("id") for e in self.entries.values()}
            report["not_checked"] = [k for k in self.session.rule_keys() + [f.id for f in self.session.fixtures()]
                                     if k not in done]
        return report

    def finish(self, exitstatus) -> None:
        """Write the footer (once): the summary, and for an interrupted run by which signal and what got no
        verdict."""
        if self.finished:
            return
        self.finished = True
        if exitstatus == pytest.ExitCode.INTERRUPTED and not self.interrupted:
            self.interrupted = "SIGINT"
        if self.interrupted:
            self.record_known_failures()
        summary: dict[str, int] = {}
        for entry in self.entries.values():
            prefix = "rules" if "key" in entry and "rule_number" in entry else "fixtures" if "id" in entry else None
            if prefix:
                summary[f"{prefix}_{entry['status']}"] = summary.get(f"{prefix}_{entry['status']}", 0) + 1
        footer = {"record": "footer", "summary": summary, "seconds": round(time.time() - self.started, 2),
                  "scenarios_explored": self.exploration.get("explored", 0),
                  "stopped": self.exploration.get("stopped") or self.interrupted or ""}  # as the explored record's
        if self.interrupted:
            footer["interrupted"] = self.interrupted
            footer["not_checked"] = [k for k in self.session.rule_keys() + [f.id for f in self.session.fixtures()]
                                     if k not in self.entries]
        self._write(footer)
        if self.file is not None:
            self.file.close()
            self.file = None
        self._write_report()

    def pytest_terminal_summary(self, terminalreporter) -> None:
        from conformance.reports.text import skip_summary

        rules = [e for e in self.entries.values() if "rule_number" in e]
        write = terminalreporter.write_line
        if self.session.unavailable is not None:
            write(f"trigger-conformance: every rule errored: the engine failed its handshake: "
                  f"{self.session.unavailable['message']}", red=True)
        stopped = self.exploration.get("stopped")
        if stopped:
            write(f"trigger-conformance: exploration stopped by the {stopped} after "
                  f"{self.exploration.get('explored', 0)} of {self.session.spec.max_examples} scenarios; every rule "
                  f"was concluded from those")
        for n, line in enumerate(skip_summary(rules)):
            write(("trigger-conformance: " if n == 0 else "") + line)
        for line in self.verdicts:
            write(f"trigger-conformance: {line}", red=True)
        write(f"trigger-conformance: seed {self.session.spec.seed} (repeat with --trigger-seed "
              f"{self.session.spec.seed})")

