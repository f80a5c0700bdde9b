"""Where a run keeps what it finds: the example database (a folder, or a Redis server many machines share), the
failures folder for replay files, and the command that replays one.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from conformance.documents.json_io import write_json
from reference_engine.kernel.errors import ConformanceError


def example_database(where: str | None, option: str = "--database", check: bool = True,
                     warnings: list[str] | None = None):
    """The example database ``--database`` names: a folder (created if missing), or ``redis://HOST:PORT/DB`` for a
    Redis server that many machines share (Hypothesis's RedisExampleDatabase; needs the ``redis`` extra:
    ``pip install 'trigger-conformance[redis]'``), as an :class:`OptionalDatabase`. None for none. Raises
    ConformanceError when it cannot be used at the start of a run (``check``; a worker of a run that started does
    not check again: a server gone since then is warned about and done without). A folder that cannot be written is
    used read-only (the failures it holds are still replayed), and ``warnings``, if given, gets a line saying so.
    Messages name ``option``, as the caller spells it (``--trigger-database`` under pytest)."""
    if not where:
        return None
    if where.startswith(("redis://", "rediss://", "unix://")):
        return OptionalDatabase(_redis_database(where, check, option), where)
    if Path(where).exists() and not Path(where).is_dir():
        kind = "a file" if Path(where).is_file() else "a device or other special file" if not Path(
            where).is_symlink() else "a link to something that is not a folder"
        raise ConformanceError(f"{option}: {where} is {kind}, not a folder")
    try:
        writable_folder(where, option)
    except ConformanceError as exc:
        from hypothesis.database import ReadOnlyDatabase

        if warnings is not None:
            warnings.append(f"{exc}: the failures this run finds are not kept there; those it already holds are "
                            f"replayed")
        return OptionalDatabase(ReadOnlyDatabase(FolderDatabase(where)), where)
    return OptionalDatabase(FolderDatabase(where), where)


MAX_DATABASE_ENTRY_BYTES = 1 << 20  # an entry is a choice sequence of a few KiB; anything this large is not one


class FolderDatabase(DirectoryBasedExampleDatabase):
    """Hypothesis's folder database, reading only what it could have written (issue 23 item 6): an entry that is not
    a regular file (a FIFO, a socket, a folder, a link, to a device or anywhere else) or is over
    ``MAX_DATABASE_ENTRY_BYTES`` is skipped without being opened, and never blocks or costs unbounded memory (a
    folder shared between machines holds what others put there). :attr:`warning` says what was skipped, for the
    one warning of the run."""

    def __init__(self, path):
        super().__init__(path)
        self.skipped: dict[Path, str] = {}  # each entry skipped, and why

    @property
    def warning(self) -> str:
        if not self.skipped:
            return ""
        first, why = next(iter(self.skipped.items()))
        count = len(self.skipped)
        return (f"the example database {self.path} holds {count} entr{'y' if count == 1 else 'ies'} it could not "
                f"have written, skipped unread (first: {first}: {why}); the run uses the rest")

    def fetch(self, key: bytes):
        folder = self._key_path(key)
        try:
            names = os.listdir(folder)
        except OSError:  # no entry under this key yet (or the folder went away)
            return
        for name in names:
            value = self._entry(folder / name)
            if value is not None:
                yield value

    def _entry(self, path: Path) -> bytes | None:
        from conformance.documents.json_io import read_bytes
        from reference_engine.kernel.errors import DocumentError

        try:
            info = os.lstat(path)
        except OSError:  # deleted meanwhile (another run's shrink)
            return None
        why = ""
        if not stat.S_ISREG(info.st_mode):
            why = "a link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
        elif info.st_size > MAX_DATABASE_ENTRY_BYTES:
            why = f"{info.st_size} bytes, more than the {MAX_DATABASE_ENTRY_BYTES} an entry needs"
        else:
            try:  # opened without blocking and checked again: it may have been replaced since
                return read_bytes(path, MAX_DATABASE_ENTRY_BYTES)
            except DocumentError as exc:
                why = exc.problems[0][1] if exc.problems else str(exc)
        self.skipped.setdefault(path, why)
        return None


class OptionalDatabase(ExampleDatabase):
    """The example database as the optimisation it is (issue 23 item 6): when it fails (a Redis server that went
    away, a key holding another type, a folder that cannot be read), the run goes on without it and keeps every
    verdict and replay file; :attr:`error` then says what happened (each rule concluded without the database
    carries it in its verdict as ``database_error``, and the console warns once)."""

    def __init__(self, inner: ExampleDatabase, where: str):
        super().__init__()
        self.inner, self.where = inner, where
        self.error = ""
        self._oversized = False  # an entry over MAX_DATABASE_ENTRY_BYTES was fetched (and dropped)

    @property
    def warning(self) -> str:
        """What the database skipped while it still worked (see :class:`FolderDatabase`; any database's entries over
        ``MAX_DATABASE_ENTRY_BYTES``, e.g. a Redis value another machine wrote), or ""."""
        folder = getattr(getattr(self.inner, "_wrapped", self.inner), "warning", "")  # read-only: Hypothesis's wrapper
        if folder or not self._oversized:
            return folder
        return (f"the example database {self.where} holds entries over {MAX_DATABASE_ENTRY_BYTES} bytes, more than "
                f"any entry needs: they were skipped; the run uses the rest")

    def _failed(self, exc: Exception) -> None:
        self.inner = None
        self.error = (f"the example database {self.where} failed ({type(exc).__name__}: {str(exc)[:300]}); the run "
                      f"went on without it (failures found are not shared or remembered there)")

    def fetch(self, key: bytes):
        try:
            values = list(self.inner.fetch(key)) if self.inner is not None else []
        except Exception as exc:  # noqa: BLE001 (any failure of the database: an optimisation, never a verdict)
            self._failed(exc)
            return []
        kept = [value for value in values if len(value) <= MAX_DATABASE_ENTRY_BYTES]
        self._oversized = self._oversized or len(kept) < len(values)
        return kept

    def _do(self, method: str, *args) -> None:
        try:
            if self.inner is not None:
                getattr(self.inner, method)(*args)
        except Exception as exc:  # noqa: BLE001
            self._failed(exc)

    def save(self, key: bytes, value: bytes) -> None:
        self._do("save", key, value)

    def delete(self, key: bytes, value: bytes) -> None:
        self._do("delete", key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._do("move", src, dest, value)


def _redis_database(where: str, check: bool, option: str) -> ExampleDatabase:
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise ConformanceError(f"{option}: a Redis database needs the redis client: "
                               "pip install 'trigger-conformance[redis]'") from None
    client = redis.Redis.from_url(where, socket_connect_timeout=5, socket_timeout=30)
    try:
        if check:
            client.ping()
    except redis.RedisError as exc:
        raise ConformanceError(f"{option}: cannot reach the Redis server {where}: {exc}") from None
    # Failures are kept a year: a nightly run replays what any machine found since.
    return RedisExampleDatabase(client, expire_after=datetime.timedelta(days=365), key_prefix=b"trigger-conformance:")


# How many times a folder is made again when another process removed it meanwhile: each process removes at most the
# folders it made to try (writable_folder), once, so a few processes starting together settle in a few tries.
FOLDER_ATTEMPTS = 20
# What making or writing in a folder raises when another process removes it meanwhile: not found, or (os.makedirs
# made it, another process too, and that one removed it again) "exists" for a folder no longer there. A lasting
# cause (a file where the folder should be) raises the same at every attempt, and is reported after the last.
VANISHED = (FileNotFoundError, FileExistsError)


def writable_folder(folder: str, option: str) -> None:
    """Fail before the run when ``folder`` cannot be written, and leave nothing behind: folders made to try are
    removed again, and made for real only when there is something to write (no empty failures folder per run).

    Safe when several processes try the same new folder at once (a run's workers, each at its start): each writes a
    probe file of its own name, and one whose folder another process removed meanwhile (having made it only to try)
    makes it again. Raises ConformanceError naming ``option`` when the folder cannot be made or written in."""
    path = Path(folder)
    for attempt in range(FOLDER_ATTEMPTS):
        made = [p for p in (path, *path.parents) if not p.exists()]
        try:
            path.mkdir(parents=True, exist_ok=True)
            handle, probe = tempfile.mkstemp(prefix=".trigger-conformance-write-test-", dir=path)
            os.close(handle)
            os.unlink(probe)
            return
        except OSError as exc:
            if not isinstance(exc, VANISHED) or attempt + 1 == FOLDER_ATTEMPTS:
                raise ConformanceError(f"{option}: cannot write in {folder}: {exc.strerror or exc}") from None
        finally:
            for created in made:  # deepest first; one another process writes in is not empty, and stays
                try:
                    created.rmdir()
                except OSError:
                    break


def write_in_folder(path: Path, document: Any) -> None:
    """:func:`write_json` of ``document`` to ``path``, its folder made first, and made again if another process
    removed it meanwhile (a run's worker that made it only to try, :func:`writable_folder`). Raises OSError: naming
    the folder when it cannot be made, else naming ``path``."""
    for attempt in range(FOLDER_ATTEMPTS):
        last = attempt + 1 == FOLDER_ATTEMPTS
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except VANISHED:
            if last:
                raise
            continue
        try:
            write_json(path, document)
            return
        except OSError as exc:
            if not isinstance(exc, VANISHED) or last:
                exc.filename = str(path)
                raise


def replay_command(file: str, spec: str, timeout: float | None = None) -> str:
    """The command that replays ``file`` against the engine ``spec``, naming the engine explicitly (``replay`` runs
    no engine just because a file names it), with the run's ``timeout`` for a process engine when it set one."""
    import shlex

    engine = ["--engine-cmd", spec[len("cmd:"):]] if spec.startswith("cmd:") else ["--engine", spec]
    if timeout is not None and spec.startswith("cmd:"):
        engine += ["--engine-timeout", f"{timeout:g}"]
    return shlex.join(["trigger-conformance", "replay", file, *engine])


def replay_path(folder: Path, stem: str, engine: dict[str, str]) -> Path:
    """Where the replay file ``stem`` of ``engine`` (its description: name, version, spec) goes: ``STEM.json``,
    unless that file holds another engine's replay (another name or spec; a new version of the same engine
    replaces its own), which is never overwritten: then ``STEM-ENGINE-HASH.json``, named after the engine and
    its spec, the same for that engine every time."""
    plain = folder / f"{stem}.json"
    try:
        other = json.loads(plain.read_text("utf-8")).get("engine") or {}
    except (OSError, ValueError, AttributeError):
        return plain  # none there (or no replay file of anyone's)
    if (other.get("name"), other.get("spec")) == (engine.get("name"), engine.get("spec")):
        return plain
    identity = hashlib.sha256(json.dumps([engine.get("name"), engine.get("spec")]).encode()).hexdigest()[:8]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(engine.get("name") or "engine"))[:40]
    return folder / f"{stem}-{name}-{identity}.json"
