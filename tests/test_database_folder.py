"""A ``--database`` folder holds what anyone (another run, another machine, a stray link) put there (issue 23 item 6):
an entry that is not a regular file, or is larger than any entry needs, is skipped unread, with one warning, and never
blocks the run or costs unbounded memory (a FIFO would block a plain read forever, a link to /dev/zero read without
end)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.documents.failure_store import MAX_DATABASE_ENTRY_BYTES, FolderDatabase, example_database

MUTANT, KEY = "mutant:mw-nested-package-joins", "mw.nested-package-deferred"
CLI = [sys.executable, "-c", "import sys; from conformance.commands.cli import main; sys.exit(main())"]


def plant(folder: Path) -> list[Path]:
    """A FIFO, a link to /dev/zero, a link to a regular file, a folder and a file over the cap in ``folder``."""
    target = folder.parent / f"{folder.name}-outside"
    target.write_bytes(b"outside")
    planted = [folder / "fifo", folder / "zero", folder / "link", folder / "sub", folder / "huge"]
    os.mkfifo(planted[0])
    os.symlink("/dev/zero", planted[1])
    os.symlink(target, planted[2])
    planted[3].mkdir()
    with open(planted[4], "wb") as stream:
        stream.truncate(MAX_DATABASE_ENTRY_BYTES + 1)  # sparse: large, not on disk
    return planted


def test_entries_that_are_not_regular_files_or_too_large_are_skipped_unread(tmp_path):
    database = FolderDatabase(tmp_path / "db")
    database.save(b"key", b"a value")
    folder = database._key_path(b"key")
    plant(folder)
    started = time.monotonic()
    assert list(database.fetch(b"key")) == [b"a value"]
    assert time.monotonic() - started < 5
    assert list(database.fetch(b"key")) == [b"a value"]  # fetched again: the same five, counted once
    assert len(database.skipped) == 5
    assert "holds 5 entries it could not have written, skipped unread" in database.warning
    assert "the run uses the rest" in database.warning
    # The same through the database a run uses (wrapped so that a failure never stops a run).
    wrapped = example_database(str(tmp_path / "db"))
    assert wrapped.fetch(b"key") == [b"a value"] and not wrapped.error and "skipped unread" in wrapped.warning
    # And through the read-only database a folder that cannot be written gives.
    (tmp_path / "db").chmod(0o555)
    try:
        said: list[str] = []
        read_only = example_database(str(tmp_path / "db"), warnings=said)
        if said:  # (not as root, who writes anywhere)
            assert read_only.fetch(b"key") == [b"a value"] and "skipped unread" in read_only.warning
    finally:
        (tmp_path / "db").chmod(0o755)


def test_a_regular_file_is_read_as_before_and_nothing_is_said(tmp_path):
    database = FolderDatabase(tmp_path / "db")
    for value in (b"one", b"two", b""):
        database.save(b"key", value)
    assert sorted(database.fetch(b"key")) == [b"", b"one", b"two"]
    assert list(database.fetch(b"another key")) == [] and database.warning == "" and not database.skipped


def test_an_entry_of_any_database_over_the_cap_is_skipped_with_a_warning():
    """A sibling: a Redis value another machine wrote is read by the client whole, but is not used (no scenario's
    choice log is that long), and the run says so."""
    from hypothesis.database import InMemoryExampleDatabase

    from conformance.documents.failure_store import OptionalDatabase

    inner = InMemoryExampleDatabase()
    inner.save(b"key", b"small")
    inner.save(b"key", b"x" * (MAX_DATABASE_ENTRY_BYTES + 1))
    database = OptionalDatabase(inner, "redis://example")
    assert database.warning == ""
    assert database.fetch(b"key") == [b"small"]
    assert "holds entries over" in database.warning and "redis://example" in database.warning
    assert not database.error


def _run(tmp_path: Path, name: str, database: Path, timeout: float = 300) -> tuple[dict, str, float]:
    report = tmp_path / f"{name}.json"
    started = time.monotonic()
    done = subprocess.run([*CLI, "run", "--engine", MUTANT, "--rules", KEY, "--no-fixtures", "--shrink-seconds", "1",
                           "--seed", "0", "--max-examples", "200", "--failures-dir", str(tmp_path / "failures"),
                           "--database", str(database), "--report-json", str(report)],
                          capture_output=True, text=True, timeout=timeout, cwd=tmp_path)
    (rule,) = json.loads(report.read_text())["rules"]
    return rule, done.stdout + done.stderr, time.monotonic() - started


def test_a_run_with_a_fifo_and_a_link_to_dev_zero_in_its_database_finishes_and_says_so(tmp_path):
    folder = tmp_path / "db"
    first, _, took = _run(tmp_path, "first", folder)
    assert first["status"] == "failed" and "database_warning" not in first, first
    keys = [p for p in folder.iterdir() if p.is_dir()]
    assert keys
    for key in keys:  # every entry folder the run wrote now also holds what it could not have written
        plant(key)
    second, out, took = _run(tmp_path, "second", folder)
    assert second["status"] == "failed" and "check_error" not in second, second
    assert "skipped unread" in second["database_warning"], second
    assert out.count("warning: the example database") == 1 and "skipped unread" in out, out
    assert took < 240


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_database_folder_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path, kind):
    """The folder itself (not an entry): refused before the run, with a one-line reason (exit 2)."""
    path = tmp_path / "db"
    os.mkfifo(path) if kind == "fifo" else os.symlink("/dev/zero", path)
    done = subprocess.run([*CLI, "run", "--max-examples", "1", "--no-fixtures", "--database", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and "not a folder" in done.stderr, done.stderr
