"""An engine running as its own process, in any language, speaking protocol version 1 or 2 (docs/protocol.md).

:class:`ProcessEngine` is an ordinary :class:`~reference_engine.kernel.engine.Engine`: the harness calls ``info``,
``run`` and ``close`` and never sees the process. Behind ``run`` sits a watchdog:

* the command is an argv list (a string is split with :func:`shlex.split`; never a shell), started in its own
  session so that the whole process group (the engine and anything it spawned) can be killed with SIGKILL;
* every request has a deadline (``timeout``; ``start_timeout`` for the handshake): an engine that does not answer
  in time, or does not read its stdin, is killed and the scenario is ``timed-out``;
* stdout is read in chunks with a cap on the length of one line (``max_line_bytes``): flooding it is ``garbage``
  and never costs unbounded memory;
* every message is parsed and validated against ``schemas/protocol-engine.schema.json``, and must echo the id of
  the pending run request and be of a type expected at that point; anything else is ``garbage``;
* an engine that dies is ``crashed``, with its exit status: the process itself is watched (a pidfd, else polling),
  so a death is seen at once even when a child it left behind still holds its stdout open;
* its memory is capped (``memory_mb``, 2,048 MB by default; 0 for no cap): the limit on its data (``RLIMIT_DATA``,
  set in the child before the engine's program starts, inherited by every process it starts), which counts what a
  leak grows and not the address space runtimes such as the JVM reserve; an engine that dies of it (a
  ``MemoryError`` or another runtime's out-of-memory message on its stderr, or a peak resident size at the cap) is
  ``out-of-memory``, counted like a crash;
* every process the engine started is killed with it: its process group, and any descendant that left the group
  (or its session): each is found by a token in its environment (``TRIGGER_CONFORMANCE_ENGINE``), inherited from
  the engine (a descendant that clears its environment is out of reach; see docs/harness.md);
* engine text of any content is handled: a line that is not UTF-8 or not JSON, a lone surrogate (``"\\ud800"``),
  an integer of more than 20 digits, a non-finite number or nesting too deep to parse is ``garbage``;
* a handshake answered with a protocol version other than 1 or 2 is ``wrong-protocol``; the engine is not used
  again. With a version 2 engine, a run whose chooser answers from the scenario itself (the harness's
  ``ScenarioChooser``) is sent with ``local_choices``: the engine answers the player choices from the scenario's
  ``choices`` by the documented rules and lists them in its result, one message each way per scenario instead of
  one per choice; every answer it lists is checked against the chooser's, and one that differs is ``garbage``;
* stderr is drained by a background thread into a bounded buffer (the last ``stderr_bytes`` bytes) and attached to
  every misbehaviour and ``errored`` outcome, after letting the thread catch up (everything written before the
  answer is kept; a successful run never waits for it);
* after a misbehaviour the process is killed, and the next request starts a new one, replaying the handshake and the
  current configuration, within a restart budget (``restarts``). Once the budget is spent, scenarios are
  ``unavailable`` without starting anything.

Each misbehaviour is raised as :class:`~reference_engine.kernel.errors.EngineError` with its outcome (or
:class:`~reference_engine.kernel.engine.Skipped`), which :func:`conformance.running.checking.play` turns into an
:class:`~conformance.running.checking.EngineOutcome`: the run goes on with the next scenario.

The package: this module (the engine and its watchdog), :mod:`~conformance.adapters.process.wire` (the JSON lines and
the player choices, shared with the reference server) and :mod:`~conformance.adapters.process.processes` (the engine's
processes: tokens, killing, exit status, the stderr tail).
"""

from __future__ import annotations

import json
import math
import os
import secrets
import selectors
import shlex
import subprocess
import textwrap
import time
import weakref
from itertools import count
from typing import Any, Iterable, Sequence

from reference_engine.kernel.engine import Chooser, Engine, EngineInfo, Skipped
from conformance.adapters.process.processes import (ENGINE_TOKEN, RUN_TOKEN, StderrTail, exit_status, kill_group,
                                                    exited, kill_tagged, memory_cap, out_of_memory_sign, reap,
                                                    tagged_processes)
from conformance.adapters.process.wire import (DECISIONS, answer_choice, context_text, decode_line, encode_message,
                                               excerpt, made_choice_problem)
from conformance.documents.json_io import problems as schema_problems
from reference_engine.kernel.errors import EngineError

PROTOCOL_VERSION = 1  # what ``start`` carries: every harness speaks version 1, so version 1 engines keep working
PROTOCOL_VERSIONS = (1, 2)  # what an engine may answer: 2 is 1 plus choices answered in the engine (local_choices)

DEFAULT_TIMEOUT = 10.0  # seconds for one run request (the whole scenario, choices included)
DEFAULT_START_TIMEOUT = 30.0  # seconds for the handshake (interpreters and JVMs start slowly)
DEFAULT_RESTARTS = 10  # like bowtie
DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024  # one protocol message; a long trace is a few MiB
DEFAULT_STDERR_BYTES = 64 * 1024
DEFAULT_MEMORY_MB = 2048  # the cap on an engine process's data (RLIMIT_DATA), MB; 0: no cap

_CHUNK = 1 << 20


def _seconds(value: Any, name: str) -> float:
    """A timeout in seconds: a positive, finite number (not a bool); anything else makes the engine unavailable."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise EngineError("unavailable", f"the engine {name} must be a positive, finite number of seconds; "
                                         f"got {value!r}")
    return float(value)


def _megabytes(value: Any) -> int:
    """A memory cap in MB: a whole number, 0 for none; anything else makes the engine unavailable."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EngineError("unavailable", f"the engine memory cap must be a whole number of MB (0 for none); "
                                         f"got {value!r}")
    return value


class ProcessEngine(Engine):
    """An engine behind the JSON-lines protocol, version 1, with a watchdog (see the module docstring).

    ``command`` is an argv list, or a string split with :func:`shlex.split` (never run through a shell).
    ``timeout`` and ``start_timeout`` are positive, finite numbers of seconds; anything else raises an
    ``unavailable`` :class:`~reference_engine.kernel.errors.EngineError`; so is a ``memory_mb`` that is not a whole
    number of MB (0 for no cap).
    Construction starts nothing; the first ``info`` or ``run`` starts the process and performs the handshake.
    ``local_choices`` (default True) lets a version 2 engine answer the player choices itself when the run's chooser
    answers from the scenario (see the module docstring); False asks every choice through the protocol.
    """

    # It only serialises the scenario it is given, never modifies it: the harness need not hand it a private copy.
    modifies_scenarios = False

    timeout_option = "--engine-timeout"  # the option named when a scenario times out (load_engine spells it)

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        restarts: int = DEFAULT_RESTARTS,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        stderr_bytes: int = DEFAULT_STDERR_BYTES,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        local_choices: bool = True,
        memory_mb: int = DEFAULT_MEMORY_MB,
    ):
        if isinstance(command, str):
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise EngineError("unavailable", f"cannot split the engine command {command!r}: {exc}") from None
        else:
            argv = [str(part) for part in command]
        if not argv:
            raise EngineError("unavailable", "the engine command is empty")
        self.argv = argv
        self.timeout = _seconds(timeout, "timeout")
        self.start_timeout = _seconds(start_timeout, "start_timeout")
        self.restarts = restarts
        self.max_line_bytes = max_line_bytes
        self.stderr_bytes = stderr_bytes
        self.env = env
        self.cwd = cwd
        self.local_choices = local_choices
        self.memory_mb = _megabytes(memory_mb)
        self._protocol: int | None = None  # the version the running engine answered the handshake with

        self.restarts_used = 0
        self.log: list[str] = []  # what the watchdog did (starts, kills, restarts), for reports
        self._proc: subprocess.Popen | None = None
        self._token: str | None = None  # the ENGINE_TOKEN of the running process and all it starts
        self._pidfd: int | None = None  # readable once the running process has exited (Linux), else polled
        self._finalizer: weakref.finalize | None = None
        self._stderr: StderrTail | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = bytearray()
        self._scanned = 0  # bytes of _buffer known to hold no newline
        self._starts = 0
        self._info: EngineInfo | None = None
        self._broken: EngineError | None = None  # a permanent failure: every later request reports it
        self._profiles: dict[str, dict[str, Any]] = {}  # per ruleset, from the handshake's 'profiles'
        self._configuration: tuple[str, str, dict] | None = None  # what the running process was configured with
        self._configured: dict[str, Any] | None = None  # its answer
        self._ids = count(1)

    # -- The Engine interface ----------------------------------------------------------------------------------

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @property
    def info(self) -> EngineInfo:
        """The engine's handshake answer. Starts the process the first time; raises EngineError if that fails."""
        if self._info is None:
            self._ensure_running()
        assert self._info is not None
        return self._info

    @property
    def protocol(self) -> int:
        """The protocol version the engine answered the handshake with (1 or 2). Starts the process the first time."""
        self.info  # the handshake, once
        assert self._protocol is not None
        return self._protocol

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        """The profile the engine declared for ``ruleset`` in its ``started`` message (``profiles``), if any."""
        self.info  # the handshake, once
        return self._profiles.get(ruleset)

    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        ruleset, edition = scenario["ruleset"], scenario["edition"]
        info = self.info
        if not info.supports(ruleset, edition):
            implemented = "; ".join(f"{r} {', '.join(e)}" for r, e in sorted(info.rulesets.items())) or "nothing"
            raise Skipped(f"{info.name} {info.version} does not implement {ruleset} {edition} (it implements: {implemented})")
        self._ensure_running()
        options = scenario.get("options", {})
        configuration = (ruleset, edition, options)
        if self._configuration != configuration:
            self._configure(ruleset, edition, options)
            self._configuration = (ruleset, edition, dict(options))
        answer = self._configured or {}
        if not answer.get("ok", True):
            raise Skipped(answer.get("reason", "the engine declined this configuration"), answer.get("issue_url"))

        run_id = next(self._ids)
        what = f"run request {run_id}"
        mark = self._stderr.mark if self._stderr else 0
        deadline = time.monotonic() + self.timeout
        completed = False
        request = {"type": "run", "id": run_id, "scenario": scenario}
        local = self.local_choices and (self._protocol or 1) >= 2 and getattr(chooser, "answers_from", None) is scenario
        if local:
            request["local_choices"] = True  # version 2: one message each way, the engine answering from the scenario
        try:
            self._send(request, deadline, what)
            expected_request = 1
            while True:
                message = self._receive(deadline, ("choose", "result"), what, run_id)
                if message["type"] == "result":
                    break
                if message["request"] != expected_request:
                    self._fail("garbage", f"choice request numbered {message['request']} during {what}; "
                                          f"the next one is {expected_request} (they count from 1 within a run)")
                expected_request += 1
                self._send({"type": "chosen", "id": run_id, "request": message["request"],
                            "answer": self._choose(message, chooser, what)}, deadline, what)
            if "choices" in message:
                self._check_made_choices(message["choices"], chooser, local, what)
            completed = True
        finally:
            if not completed and self._proc is not None:
                # Interrupted half-way (by the harness itself, e.g. a chooser that raised or Ctrl-C): the engine's
                # state is unknown, so it is not used again.
                self._kill("the harness abandoned " + what)
        result = message["result"]
        if result == "trace":
            return message["trace"]
        if result == "skipped":
            raise Skipped(message["reason"], message.get("issue_url"))
        context = message["context"]
        if isinstance(context, dict):
            text = context.get("message") or context_text(context)[:500]
            rest = {k: v for k, v in context.items() if k != "message"} if context.get("message") else context
            details = context.get("traceback") or (context_text(rest, indent=2) if rest else "")
        else:
            text, details = context.splitlines()[0] if context else "", context
        if self._stderr:
            self._stderr.settle()  # the engine is alive: let the drain thread catch up with what it wrote
        raise EngineError("errored", f"the engine reported an error: {text}", context=details,
                          stderr=self._stderr.text(mark) if self._stderr else "")

    def _check_made_choices(self, made: list[dict[str, Any]], chooser: Chooser, local: bool, what: str) -> None:
        """The choices a version 2 engine answered itself must be those ``chooser`` makes; else ``garbage``."""
        if not local:
            self._fail("garbage", f"the engine's result of {what} lists choices it answered itself, but the request "
                                  "did not carry local_choices: every choice of this run must be asked with 'choose'")
        for number, item in enumerate(made, 1):
            problem = made_choice_problem(chooser, item)
            if problem:
                self._fail("garbage", f"choice {number} the engine answered itself during {what} ({item['decision']} "
                                      f"for {item['player']}): {problem}")

    def close(self) -> None:
        """Send ``stop``, give the engine a moment to exit cleanly, then kill whatever is left of its group."""
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.poll() is None:
                self._send({"type": "stop"}, time.monotonic() + 1.0, "stop")
                proc.stdin.close()
                proc.wait(timeout=2.0)
        except (EngineError, OSError, subprocess.TimeoutExpired, ValueError):
            pass
        self._kill("closed", reap_only=True)

    def __enter__(self) -> "ProcessEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- Process lifecycle ---------------------------------------------------------------------------------------

    def _ensure_running(self) -> None:
        if self._proc is not None:
            return
        if self._broken is not None:  # a fresh exception each time, so that tracebacks do not pile up
            raise EngineError(self._broken.outcome, str(self._broken), self._broken.context, self._broken.stderr)
        if self._starts:
            if self.restarts_used >= self.restarts:
                self._broken = EngineError(
                    "unavailable",
                    f"the engine was not restarted again: it already used its restart budget of {self.restarts} "
                    f"(see the earlier crashed, out-of-memory, timed-out or garbage outcomes)")
                raise self._broken
            self.restarts_used += 1
            self.log.append(f"restart {self.restarts_used} of {self.restarts}")
        self._spawn()
        try:
            self._handshake()
        except EngineError as exc:  # say why at once: a handshake failure is often an import error on stderr
            tail = "\n".join(exc.stderr.strip().splitlines()[-15:])
            if not tail:
                raise
            error = EngineError(exc.outcome, f"{exc}\nthe engine's stderr ends with:\n" + textwrap.indent(tail, "  "),
                                exc.context, exc.stderr)
            if self._broken is exc:
                self._broken = error
            raise error from None

    def _spawn(self) -> None:
        self._starts += 1
        token = secrets.token_hex(12)
        env = dict(os.environ if self.env is None else self.env)
        env[ENGINE_TOKEN] = token
        if os.environ.get(RUN_TOKEN):  # set by the CLI for one whole run, workers included
            env[RUN_TOKEN] = os.environ[RUN_TOKEN]
        try:
            proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                start_new_session=True, bufsize=0, close_fds=True, env=env, cwd=self.cwd,
                preexec_fn=memory_cap(self.memory_mb),
            )
        except OSError as exc:
            self._broken = EngineError(
                "unavailable", f"cannot start the engine command {self.command}: {exc.strerror or exc}")
            raise self._broken from None
        except subprocess.SubprocessError as exc:  # the memory cap could not be set in the child
            self._broken = EngineError(
                "unavailable", f"cannot start the engine command {self.command} with a memory cap of "
                               f"{self.memory_mb} MB ({exc}); --engine-memory 0 starts it without one")
            raise self._broken from None
        self._proc = proc
        self._token = token
        self._finalizer = weakref.finalize(self, kill_group, proc, token)  # no orphan if the harness forgets close()
        self._stderr = StderrTail(proc.stderr, self.stderr_bytes)
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(proc.stdout.fileno(), selectors.EVENT_READ)
        try:
            self._pidfd = os.pidfd_open(proc.pid)
            self._selector.register(self._pidfd, selectors.EVENT_READ)
        except (AttributeError, OSError):  # not Linux 5.3+: the process is polled instead
            self._pidfd = None
        self._buffer.clear()
        self._scanned = 0
        self._configuration = None
        self._configured = None
        self.log.append(f"started pid {proc.pid}: {self.command}")

    def _handshake(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        self._send({"type": "start", "protocol": PROTOCOL_VERSION}, deadline, "the handshake")
        message = self._receive(deadline, ("started",), "the handshake")
        if message["protocol"] not in PROTOCOL_VERSIONS:
            error = self._error("wrong-protocol", f"the engine speaks protocol version {message['protocol']}; "
                                                  f"this harness speaks versions "
                                                  f"{' and '.join(map(str, PROTOCOL_VERSIONS))} only")
            self._broken = error  # restarting would not change its mind
            raise error
        self._protocol = message["protocol"]
        info = EngineInfo(name=message["name"], version=message["version"],
                          rulesets={r: list(e) for r, e in message["rulesets"].items()})
        self._profiles = {r: dict(p) for r, p in message.get("profiles", {}).items()}
        if self._info is None:
            self._info = info
        elif info != self._info:
            self.log.append(f"after a restart the engine describes itself differently: {info} (was {self._info})")

    def _configure(self, ruleset: str, edition: str, options: dict[str, Any]) -> None:
        deadline = time.monotonic() + self.timeout
        what = f"configure {ruleset} {edition}"
        self._send({"type": "configure", "ruleset": ruleset, "edition": edition, "options": options}, deadline, what)
        self._configured = self._receive(deadline, ("configured",), what)

    def _kill(self, why: str, reap_only: bool = False) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if not reap_only:
            self.log.append(f"killed pid {proc.pid}: {why}")
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        kill_group(proc, self._token)
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        if self._stderr is not None:
            self._stderr.finish()
        self._configuration = None
        self._configured = None

    def _error(self, outcome: str, message: str) -> EngineError:
        """Kill the process (its state is unknown after any misbehaviour) and describe what happened."""
        proc = self._proc
        self._kill(f"{outcome}: {message}")
        stderr = self._stderr.text() if self._stderr else ""
        if proc is not None:
            message = f"{message} [engine: {self.command}, pid {proc.pid}]"
        return EngineError(outcome, message, stderr=stderr)

    def _fail(self, outcome: str, message: str):
        raise self._error(outcome, message)

    # -- Reading and writing messages -------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any], deadline: float, what: str) -> None:
        data = memoryview(encode_message(message))
        fd = self._proc.stdin.fileno()
        while data:
            try:
                written = os.write(fd, data)
                data = data[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
                self._crashed(what, "stdin")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail("timed-out", f"the engine stopped reading its stdin during {what} "
                                        f"(no progress within {self._limit_for(what)} s); its process group was killed")
            if exited(self._proc):  # dead, while a process it left behind holds its stdin open
                self._crashed(what)
            with selectors.DefaultSelector() as writable:
                writable.register(fd, selectors.EVENT_WRITE)
                if self._pidfd is not None:
                    writable.register(self._pidfd, selectors.EVENT_READ)
                writable.select(min(remaining, 0.2))

    def _limit_for(self, what: str) -> float:
        return self.start_timeout if what == "the handshake" else self.timeout

    def _crashed(self, what: str, stream: str = "stdout"):
        """The engine's ``stream`` (its stdout, or its stdin) was closed: crashed if it died (``out-of-memory`` when
        that is what it died of); an engine that closed it but lives on broke the protocol (nothing more can pass that
        way): garbage, and its process group is killed."""
        proc = self._proc
        peak_kib = reap(proc, 1.0)  # its peak memory, when it died
        if proc.poll() is None:
            self._fail("garbage", f"the engine closed its {stream} during {what} but is still running (protocol "
                                  f"messages pass through its stdin and stdout until the harness stops it); its "
                                  f"process group was killed")
        error = self._error("crashed", f"the engine died during {what}: {exit_status(proc)}")
        sign = out_of_memory_sign(error.stderr, peak_kib, self.memory_mb)
        if sign:
            cap = (f"its cap is {self.memory_mb} MB of data: --engine-memory MB raises it, 0 for none"
                   if self.memory_mb else "it had no memory cap")
            error = EngineError("out-of-memory", f"the engine ran out of memory during {what} ({sign}; {cap}): "
                                                 f"{exit_status(proc)} [engine: {self.command}, pid {proc.pid}]",
                                stderr=error.stderr)
        raise error

    def _read_line(self, deadline: float, what: str) -> bytes:
        buffer = self._buffer
        while True:
            newline = buffer.find(b"\n", self._scanned)
            if newline >= 0:
                line = bytes(buffer[:newline])
                del buffer[: newline + 1]
                self._scanned = 0
                if line.strip():
                    return line
                continue
            self._scanned = len(buffer)
            if len(buffer) > self.max_line_bytes:
                self._fail("garbage", f"the engine wrote more than {self.max_line_bytes} bytes on stdout without a "
                                      f"line break during {what} (flooding; one message per line): starts with "
                                      f"{excerpt(bytes(buffer[:200]))}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                hint = ("no option raises the handshake's limit: make the engine answer `start` with `started` "
                        "sooner, before it loads anything slow, and flush its stdout after the line"
                        if what == "the handshake" else f"{self.timeout_option} SECONDS raises it if the engine is "
                                                        f"only slow")
                self._fail("timed-out", f"no answer to {what} within {self._limit_for(what)} s; the engine's process "
                                        f"group was killed ({hint})")
            # Wakes up for output, for the engine's exit (its pidfd), or to poll it where there is no pidfd.
            self._selector.select(min(remaining, 0.2) if self._pidfd is None else remaining)
            try:
                chunk = os.read(self._proc.stdout.fileno(), _CHUNK)
            except BlockingIOError:
                chunk = None
            except OSError:
                chunk = b""
            if chunk:
                buffer += chunk
                continue
            # End of stdout, or nothing to read: a dead engine is crashed at once, even when a process it left
            # behind still holds its stdout open (no end of file would ever come).
            if chunk == b"" or exited(self._proc):
                self._crashed(what)

    def _receive(self, deadline: float, expected: Iterable[str], what: str, run_id: Any = None) -> dict[str, Any]:
        """The next message: JSON, valid against the protocol, of an expected type, echoing ``run_id``."""
        line = self._read_line(deadline, what)
        try:
            message = decode_line(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self._fail("garbage", f"the engine wrote a line that is not JSON during {what} ({exc}): {excerpt(line)}. "
                                  "stdout carries protocol messages only; write logs to stderr")
        except (ValueError, RecursionError, MemoryError) as exc:  # JSON the protocol cannot carry
            self._fail("garbage", f"the engine wrote a message the protocol cannot carry during {what} ({exc}): "
                                  f"{excerpt(line)}")
        found = schema_problems(message, "protocol-engine")  # never raises, whatever the message holds
        if found:
            details = "; ".join(f"at {path}: {msg}" for path, msg in found)
            self._fail("garbage", f"the engine's message during {what} is not a valid protocol message: {details} "
                                  f"(message: {excerpt(line)})")
        if message["type"] not in expected:
            wanted = " or ".join(repr(t) for t in expected)
            self._fail("garbage", f"the engine sent a {message['type']!r} message during {what}; expected {wanted}")
        if run_id is not None and message["id"] != run_id:
            self._fail("garbage", f"the engine's {message['type']!r} message carries id {message['id']!r} during "
                                  f"{what}; it must echo the pending request's id {run_id!r}")
        return message

    def _choose(self, message: dict[str, Any], chooser: Chooser, what: str) -> Any:
        decision = message["decision"]
        if decision not in DECISIONS:
            self._fail("garbage", f"the engine asked a {decision!r} choice during {what}, which no installed ruleset "
                                  f"declares (known: {', '.join(DECISIONS)}); a ruleset's own choices are its "
                                  "manifest's choice_kinds")
        missing = [f for f in DECISIONS[decision][1] if f not in message]
        if missing:
            self._fail("garbage", f"the engine's {decision!r} choice during {what} lacks {', '.join(missing)}")
        try:
            return answer_choice(chooser, message)
        except ValueError as exc:  # a harness bug, but say so clearly
            raise ValueError(f"{exc} (choice {message['request']} of {what})") from None


# The package's interface (the wire format and the process tools are used by the CLI, the pytest plugin and the
# reference server as well).
__all__ = ["DECISIONS", "DEFAULT_MAX_LINE_BYTES", "DEFAULT_MEMORY_MB", "DEFAULT_RESTARTS", "DEFAULT_START_TIMEOUT", "DEFAULT_STDERR_BYTES",
           "DEFAULT_TIMEOUT", "ENGINE_TOKEN", "PROTOCOL_VERSION", "PROTOCOL_VERSIONS", "ProcessEngine", "RUN_TOKEN",
           "StderrTail", "answer_choice", "decode_line", "encode_message", "kill_tagged", "made_choice_problem",
           "tagged_processes"]
