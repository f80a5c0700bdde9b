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
:class:`~reference_engine.kernel.engine.Skipped`), which :func:`conformance.checking.play` turns into an
:class:`~conformance.checking.EngineOutcome`: the run goes on with the next scenario.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import selectors
import shlex
import signal
import subprocess
import textwrap
import threading
import time
import weakref
from itertools import count
from typing import Any, Iterable, Sequence

from reference_engine.kernel.engine import Chooser, Engine, EngineInfo, Skipped
from conformance.documents import MAX_INTEGER_DIGITS, bound_problems, problems as schema_problems
from reference_engine.kernel.errors import EngineError

PROTOCOL_VERSION = 1  # what ``start`` carries: every harness speaks version 1, so version 1 engines keep working
PROTOCOL_VERSIONS = (1, 2)  # what an engine may answer: 2 is 1 plus choices answered in the engine (local_choices)

DEFAULT_TIMEOUT = 10.0  # seconds for one run request (the whole scenario, choices included)
DEFAULT_START_TIMEOUT = 30.0  # seconds for the handshake (interpreters and JVMs start slowly)
DEFAULT_RESTARTS = 10  # like bowtie
DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024  # one protocol message; a long trace is a few MiB
DEFAULT_STDERR_BYTES = 64 * 1024

_CHUNK = 1 << 20
_PIPE_MAX = 1 << 20  # the largest capacity of a pipe an unprivileged process can ask for (Linux fs.pipe-max-size)

try:  # an optional accelerator: the same JSON, three times faster
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None


def encode_message(message: dict[str, Any]) -> bytes:
    if orjson is not None:
        try:
            return orjson.dumps(message) + b"\n"
        except TypeError:  # e.g. an integer beyond 64 bits: let the standard library say it
            pass
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: written as its escape, which the reader then refuses
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


ENGINE_TOKEN = "TRIGGER_CONFORMANCE_ENGINE"  # environment variable: marks every process of one engine
RUN_TOKEN = "TRIGGER_CONFORMANCE_RUN"  # environment variable: marks every process of one harness run


class _Bounded:
    """What decode_line noticed while parsing: an integer literal too long to be one of the protocol's."""

    def __init__(self):
        self.too_long = 0

    def integer(self, literal: str) -> int:
        digits = len(literal.lstrip("-"))
        if digits > MAX_INTEGER_DIGITS:
            self.too_long = max(self.too_long, digits)
            return 0
        return int(literal)


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON (JSON has no NaN or infinite numbers)")


def decode_line(line: bytes) -> Any:
    """Parse one line; the standard library's semantics and error messages, orjson's speed when it agrees.

    Raises ValueError (``json.JSONDecodeError`` for text that is not JSON) for anything the protocol cannot carry,
    before it reaches any code that could choke on it: an integer of more than ``MAX_INTEGER_DIGITS`` digits (the
    standard library would parse up to 4,300 digits, then raise), NaN or Infinity, a lone surrogate in a string or
    key (text that cannot be written as UTF-8), nesting too deep to parse. RecursionError cannot escape.
    """
    if orjson is not None:
        try:
            message = orjson.loads(line)  # it refuses integers beyond 64 bits and NaN
        except orjson.JSONDecodeError:
            pass
        else:
            return _surrogate_free(line, message)
    bounded = _Bounded()
    try:
        message = json.loads(line, parse_int=bounded.integer, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply to be parsed") from None
    if bounded.too_long:
        raise ValueError(f"an integer of {bounded.too_long} digits; the protocol's integers have at most "
                         f"{MAX_INTEGER_DIGITS} digits")
    return _surrogate_free(line, message)


def _surrogate_free(line: bytes, message: Any) -> Any:
    # Lone surrogates come only from \\u escapes (raw ones are not UTF-8), so most lines need no walk. Depth needs
    # no bound here: the parser stops at the interpreter's recursion limit, the schema of a message is shallow, and
    # what takes free-form content (an errored context) is rendered without recursion limits (_context_text).
    if b"\\ud" in line or b"\\uD" in line:
        found = [p for p in bound_problems(message, limit=50) if "surrogate" in p[1]]
        if found:
            raise ValueError(f"at {found[0][0]}: {found[0][1]}")
    return message


def _index_into(field: str):
    def valid(answer: Any, question: dict[str, Any]) -> bool:
        return type(answer) is int and 0 <= answer < len(question[field])
    return valid


# Every player choice an engine can ask (one per Chooser method): decision -> (Chooser method, the fields of the
# question passed to it after the player, a check of the answer). Shared by the harness and the reference server.
DECISIONS: dict[str, tuple[str, tuple[str, ...], Any]] = {
    "order": ("order", ("triggers",),
              lambda answer, q: isinstance(answer, list) and sorted(answer) == list(range(len(q["triggers"])))),
    "optional": ("optional", ("trigger",), lambda answer, q: isinstance(answer, bool)),
    "target": ("target", ("trigger", "candidates"), _index_into("candidates")),
    "occurrence": ("occurrence", ("delayed", "events"), _index_into("events")),
}


def answer_choice(chooser: Chooser, question: dict[str, Any]) -> Any:
    """Ask ``chooser`` the ``choose`` message ``question``; raises ValueError if its answer does not fit."""
    method, fields, valid = DECISIONS[question["decision"]]
    answer = getattr(chooser, method)(question["player"], *(question[f] for f in fields))
    if question["decision"] == "optional":
        answer = bool(answer)
    elif question["decision"] == "order":
        answer = [int(k) for k in answer]
    if not valid(answer, question):
        raise ValueError(f"the chooser's answer {answer!r} does not fit a {question['decision']!r} choice")
    return answer


def _excerpt(data: bytes | str, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return repr(text if len(text) <= limit else text[:limit] + "...")


def tagged_processes(variable: str, value: str) -> list[int]:
    """Pids of the processes (of this user) whose environment holds ``variable=value``, this process excluded.

    Read from ``/proc/PID/environ`` (Linux); elsewhere, or for processes of other users, nothing is found. The
    environment a process was started with is what ``/proc`` shows, so this finds every descendant of a process
    started with the variable, wherever it went (another process group or session, reparented to init), unless it
    replaced its environment when it started its own program.
    """
    needle = f"{variable}={value}".encode()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    me = os.getpid()
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as stream:
                environ = stream.read()
        except OSError:  # gone, or not ours
            continue
        if needle + b"\0" in environ or environ.endswith(needle):
            found.append(int(entry))
    return found


def kill_tagged(variable: str, value: str, rounds: int = 5) -> int:
    """SIGKILL every process tagged ``variable=value`` (see :func:`tagged_processes`), until none is left (a process
    may fork while the others are being killed). Returns how many were killed."""
    killed: set[int] = set()
    for _ in range(rounds):
        found = [pid for pid in tagged_processes(variable, value) if not _is_zombie(pid)]
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)
    return len(killed)


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def _kill_group(proc: subprocess.Popen, token: str | None = None) -> None:
    """SIGKILL the engine's whole process group (it leads its own session) and every process carrying the engine's
    token (descendants that left the group), then reap the engine."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if token is not None:
        kill_tagged(ENGINE_TOKEN, token)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not wait for anyone
        pass
    for stream in (proc.stdin, proc.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


def _context_text(context: Any, indent: int | None = None) -> str:
    """An engine's free-form error context as JSON text, whatever its depth (it is the engine's, not ours)."""
    try:
        return json.dumps(context, indent=indent, ensure_ascii=False)
    except (ValueError, RecursionError):
        return _excerpt(repr(context), 2000)


def _exit_status(proc: subprocess.Popen) -> str:
    code = proc.returncode
    if code is None:
        return "it closed its stdout but is still running"
    if code < 0:
        try:
            return f"it was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"it was killed by signal {-code}"
    return f"it exited with code {code}"


def _seconds(value: Any, name: str) -> float:
    """A timeout in seconds: a positive, finite number (not a bool); anything else makes the engine unavailable."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise EngineError("unavailable", f"the engine {name} must be a positive, finite number of seconds; "
                                         f"got {value!r}")
    return float(value)


class StderrTail:
    """Drains a process's stderr on a daemon thread, keeping only the last ``limit`` bytes.

    Why the care: an outcome is built as soon as the engine's answer arrives on stdout, and the thread may not have
    caught up with stderr yet (under load it often has not), so the verdict could miss what the engine wrote *before*
    answering. Hence every read of the (non-blocking) pipe, and its append to the buffer, happens under ``_lock``:
    nothing is ever read but not yet kept, and once any caller has emptied the pipe itself (:meth:`mark`,
    :meth:`settle`, :meth:`finish`) everything written to stderr so far is in the buffer.
    """

    def __init__(self, stream, limit: int):
        self._stream = stream
        self._fd = stream.fileno()
        self._limit = limit
        self._buffer = bytearray()
        self._total = 0  # bytes read so far
        self._eof = False  # end of the pipe seen; the thread then closes it
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)  # notified whenever bytes are read
        os.set_blocking(self._fd, False)
        self._thread = threading.Thread(target=self._drain, name="engine-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        with selectors.DefaultSelector() as readable:
            readable.register(self._fd, selectors.EVENT_READ)
            while not self._eof:  # level-triggered: end of file stays "readable", so this never blocks after it
                readable.select()
                self._pull(budget=math.inf)
        with self._lock:  # only this thread closes the pipe, once it no longer selects on it
            try:
                self._stream.close()
            except OSError:
                pass

    def _pull(self, budget: float = _PIPE_MAX) -> None:
        """Move what the pipe holds into the buffer, without waiting, until it is empty or ``budget`` bytes were read.

        The default budget is at least a pipe's capacity, so everything written before the call is taken even from an
        engine that keeps writing. The lock is held for one chunk at a time: a flood never blocks :meth:`text`.
        """
        got = 0
        while got < budget:
            with self._lock:
                if self._eof:
                    return
                try:
                    chunk = os.read(self._fd, 65536)
                except BlockingIOError:
                    return
                except OSError:
                    chunk = b""
                if not chunk:
                    self._eof = True
                else:
                    self._buffer += chunk
                    self._total += len(chunk)
                    if len(self._buffer) > self._limit:
                        del self._buffer[: len(self._buffer) - self._limit]
                self._arrived.notify_all()
            got += len(chunk)

    @property
    def mark(self) -> int:
        """A position to pass to :meth:`text` later: what was written after it (what is in the pipe now is before)."""
        self._pull()
        with self._lock:
            return self._total

    def settle(self, quiet: float = 0.02, limit: float = 0.5) -> None:
        """Catch up with a live process's stderr before its tail is attached to an outcome.

        First take everything already in the pipe (so all the engine wrote before its last answer is kept), then wait
        until nothing new arrives for ``quiet`` seconds (a log line flushed just after the answer), ``limit`` at most.
        Only misbehaviour and ``errored`` outcomes pay for this; a successful run never waits.
        """
        self._pull()
        deadline = time.monotonic() + limit
        with self._lock:
            while not self._eof:
                seen = self._total
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._arrived.wait(min(quiet, remaining))
                if self._total == seen:
                    break
        self._pull()

    def finish(self, timeout: float = 1.0) -> None:
        """Wait (briefly) until the dead process's stderr is closed, so that nothing it wrote before dying is missed."""
        self._thread.join(timeout)
        self._pull()  # e.g. a grandchild outside the killed group still holds the pipe open: keep what is there

    def text(self, since: int = 0) -> str:
        """What was written after ``since`` (at most the last ``limit`` bytes), as text."""
        with self._lock:
            start = self._total - len(self._buffer)  # offset of buffer[0]
            dropped = max(0, start - since)
            data = bytes(self._buffer[max(0, since - start):])
        text = data.decode("utf-8", "replace")
        if dropped:
            text = f"[... {dropped} earlier bytes of stderr not kept ...]\n" + text
        return text


def made_choice_problem(chooser: Chooser, made: dict[str, Any]) -> str | None:
    """Why the choice ``made`` (an item of a version 2 result's ``choices``: the question's fields and the engine's
    ``answer``) is not the one ``chooser`` makes, or None when the answers agree."""
    question = {key: value for key, value in made.items() if key != "answer"}
    method, fields, valid = DECISIONS[question["decision"]]
    missing = [f for f in fields if f not in question]
    if missing:
        return f"a {question['decision']!r} choice without {', '.join(missing)}"
    if not valid(made["answer"], question):
        return f"the answer {made['answer']!r} does not fit a {question['decision']!r} choice"
    expected = answer_choice(chooser, question)
    if expected != made["answer"]:
        return f"the engine answered {made['answer']!r}; the scenario's choices answer {expected!r}"
    return None


class ProcessEngine(Engine):
    """An engine behind the JSON-lines protocol, version 1, with a watchdog (see the module docstring).

    ``command`` is an argv list, or a string split with :func:`shlex.split` (never run through a shell).
    ``timeout`` and ``start_timeout`` are positive, finite numbers of seconds; anything else raises an
    ``unavailable`` :class:`~reference_engine.kernel.errors.EngineError`.
    Construction starts nothing; the first ``info`` or ``run`` starts the process and performs the handshake.
    ``local_choices`` (default True) lets a version 2 engine answer the player choices itself when the run's chooser
    answers from the scenario (see the module docstring); False asks every choice through the protocol.
    """

    # It only serialises the scenario it is given, never modifies it: the harness need not hand it a private copy.
    modifies_scenarios = False

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
            text = context.get("message") or _context_text(context)[:500]
            details = context.get("traceback") or _context_text(context, indent=2)
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
                    f"(see the earlier crashed, timed-out or garbage outcomes)")
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
            )
        except OSError as exc:
            self._broken = EngineError(
                "unavailable", f"cannot start the engine command {self.command}: {exc.strerror or exc}")
            raise self._broken from None
        self._proc = proc
        self._token = token
        self._finalizer = weakref.finalize(self, _kill_group, proc, token)  # no orphan if the harness forgets close()
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
        _kill_group(proc, self._token)
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
                self._crashed(what)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail("timed-out", f"the engine stopped reading its stdin during {what} "
                                        f"(no progress within {self._limit_for(what)} s); its process group was killed")
            if self._proc.poll() is not None:  # dead, while a process it left behind holds its stdin open
                self._crashed(what)
            with selectors.DefaultSelector() as writable:
                writable.register(fd, selectors.EVENT_WRITE)
                if self._pidfd is not None:
                    writable.register(self._pidfd, selectors.EVENT_READ)
                writable.select(min(remaining, 0.2))

    def _limit_for(self, what: str) -> float:
        return self.start_timeout if what == "the handshake" else self.timeout

    def _crashed(self, what: str):
        proc = self._proc
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
        self._fail("crashed", f"the engine died during {what}: {_exit_status(proc)}")

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
                                      f"{_excerpt(bytes(buffer[:200]))}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                hint = ("the handshake's limit is fixed (ProcessEngine's start_timeout)" if what == "the handshake"
                        else "--engine-timeout SECONDS raises it if the engine is only slow")
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
            if chunk == b"" or self._proc.poll() is not None:
                self._crashed(what)

    def _receive(self, deadline: float, expected: Iterable[str], what: str, run_id: Any = None) -> dict[str, Any]:
        """The next message: JSON, valid against the protocol, of an expected type, echoing ``run_id``."""
        line = self._read_line(deadline, what)
        try:
            message = decode_line(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self._fail("garbage", f"the engine wrote a line that is not JSON during {what} ({exc}): {_excerpt(line)}. "
                                  "stdout carries protocol messages only; write logs to stderr")
        except (ValueError, RecursionError, MemoryError) as exc:  # JSON the protocol cannot carry
            self._fail("garbage", f"the engine wrote a message the protocol cannot carry during {what} ({exc}): "
                                  f"{_excerpt(line)}")
        found = schema_problems(message, "protocol-engine")  # never raises, whatever the message holds
        if found:
            details = "; ".join(f"at {path}: {msg}" for path, msg in found)
            self._fail("garbage", f"the engine's message during {what} is not a valid protocol message: {details} "
                                  f"(message: {_excerpt(line)})")
        if message["type"] not in expected:
            wanted = " or ".join(repr(t) for t in expected)
            self._fail("garbage", f"the engine sent a {message['type']!r} message during {what}; expected {wanted}")
        if run_id is not None and message["id"] != run_id:
            self._fail("garbage", f"the engine's {message['type']!r} message carries id {message['id']!r} during "
                                  f"{what}; it must echo the pending request's id {run_id!r}")
        return message

    def _choose(self, message: dict[str, Any], chooser: Chooser, what: str) -> Any:
        try:
            return answer_choice(chooser, message)
        except ValueError as exc:  # a harness bug, but say so clearly
            raise ValueError(f"{exc} (choice {message['request']} of {what})") from None
