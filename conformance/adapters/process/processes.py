"""The processes of an engine: the tokens that mark them, its memory cap, killing every one of them, how the engine
ended (out of memory included), and the tail of its stderr (see :mod:`conformance.adapters.process`)."""

from __future__ import annotations

import functools
import math
import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time

_PIPE_MAX = 1 << 20  # the largest capacity of a pipe an unprivileged process can ask for (Linux fs.pipe-max-size)


ENGINE_TOKEN = "TRIGGER_CONFORMANCE_ENGINE"  # environment variable: marks every process of one engine
RUN_TOKEN = "TRIGGER_CONFORMANCE_RUN"  # environment variable: marks every process of one harness run



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


def kill_group(proc: subprocess.Popen, token: str | None = None) -> None:
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


def exit_status(proc: subprocess.Popen) -> str:
    code = proc.returncode
    if code is None:
        return "it is still running"
    if code < 0:
        try:
            return f"it was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"it was killed by signal {-code}"
    return f"it exited with code {code}"


def memory_cap(megabytes: int):
    """The ``preexec_fn`` that caps a child's data at ``megabytes`` MB (``RLIMIT_DATA``, soft and hard, inherited by
    every process it starts), or None for no cap (0) or where there are no resource limits.

    The data limit, not the address space (``RLIMIT_AS``): it counts the private writable memory a leak grows (the
    heap, anonymous mappings), not what runtimes reserve without using (the JVM does not start under a 2 GiB address
    space; node and python start under either). A limit the harness already runs under is never raised. The
    function is a bound C call: nothing is imported or allocated in the child before ``exec``.
    """
    if not megabytes:
        return None
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    limit = megabytes << 20
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    lower = [limit if now == resource.RLIM_INFINITY else min(limit, now) for now in (soft, hard)]
    return functools.partial(resource.setrlimit, resource.RLIMIT_DATA, (min(lower), lower[1]))


def exited(proc: subprocess.Popen) -> bool:
    """Whether ``proc`` has exited, without reaping it (so that :func:`reap` still gets its resource usage)."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except (AttributeError, OSError):  # no waitid (not Linux or BSD), or reaped elsewhere
        return proc.poll() is not None


def reap(proc: subprocess.Popen, timeout: float) -> int | None:
    """Wait up to ``timeout`` seconds for ``proc`` to exit and reap it (its ``returncode`` is then set). Returns its
    peak resident size in KiB, or None when that is unknown (still running, reaped before, no ``wait4``)."""
    if proc.returncode is not None:
        return None
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        except AttributeError:  # pragma: no cover - no wait4
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
            return None
        except ChildProcessError:  # reaped elsewhere
            proc.poll()
            return None
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss  # macOS counts bytes
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


# What runtimes write when an allocation fails: Python (MemoryError), C (strerror(ENOMEM)), C++ (std::bad_alloc),
# Rust ("memory allocation of N bytes failed"), Go and node ("out of memory"), Java (OutOfMemoryError), Ruby
# (NoMemoryError: "failed to allocate memory"), V8's "Allocation failed".
_OUT_OF_MEMORY = re.compile(r"\bMemoryError\b|out of memory|OutOfMemory|Cannot allocate memory|\bENOMEM\b|bad_alloc|"
                            r"memory allocation of \d+ bytes failed|failed to allocate memory|NoMemoryError|allocation failed",
                            re.IGNORECASE)
_LAST_WORDS = 8192  # how much of the end of a dead engine's stderr is searched for an out-of-memory message


def out_of_memory_sign(stderr: str, peak_kib: int | None, cap_mb: int) -> str:
    """Why a dead engine is taken to have run out of memory ("" when it is not): an out-of-memory message of a
    runtime in the last lines of its stderr, or a peak resident size that reached 90% of its cap (an engine that
    died without a word, e.g. a C engine that used the null pointer its allocator gave it)."""
    found = _OUT_OF_MEMORY.search(stderr[-_LAST_WORDS:])
    if found:
        return f"{found.group(0)!r} on its stderr"
    if cap_mb and peak_kib is not None and peak_kib >= 0.9 * cap_mb * 1024:
        return f"its peak resident size, {peak_kib // 1024} MB, reached the cap"
    return ""


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


