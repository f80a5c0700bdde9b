"""Issue 34: the first ``run --workers 2`` in a fresh folder once ended in an INTERNALERROR "--failures-dir: cannot
write in ...": each worker checks at its start that the failures folder can be written (making it, writing a probe
file, then removing both, so that a run with nothing to keep leaves no empty folder), and two workers doing that at
once removed each other's probe file or folder. Now each probe has a name of its own and a folder that vanishes
meanwhile is made again, also when a replay file is written while another worker is still checking."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from conformance.documents import failure_store
from conformance.documents.failure_store import writable_folder, write_in_folder
from reference_engine.kernel.errors import ConformanceError

WORKERS = 4
ROUNDS = 60


def at_once(tasks) -> list[BaseException]:
    """Run the callables together (threads released by one barrier); what they raised."""
    barrier = threading.Barrier(len(tasks))
    raised: list[BaseException] = []

    def run(task):
        barrier.wait()
        try:
            task()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            raised.append(exc)

    threads = [threading.Thread(target=run, args=(task,)) for task in tasks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return raised


def test_workers_checking_the_same_new_failures_folder_at_once_all_find_it_writable(tmp_path):
    for n in range(ROUNDS):
        folder = tmp_path / f"run{n}" / "failures"
        raised = at_once([lambda: writable_folder(str(folder), "--failures-dir")] * WORKERS)
        assert raised == [], raised[:3]
    # No probe file left behind. (A folder may be: one that another worker was probing in when its maker removed
    # what it made; a run's own workers no longer check it, the run did when it started.)
    assert [p for p in tmp_path.rglob("*") if not p.is_dir()] == []


def test_a_replay_written_while_other_workers_check_the_new_folder_is_written(tmp_path):
    for n in range(ROUNDS):
        folder = tmp_path / f"run{n}" / "failures"
        replay = folder / "redemption-red.active-player-first-0123456789.json"
        raised = at_once([lambda: write_in_folder(replay, {"n": n})]
                         + [lambda: writable_folder(str(folder), "--failures-dir")] * (WORKERS - 1))
        assert raised == [], raised[:3]
        assert json.loads(replay.read_text("utf-8")) == {"n": n}


@pytest.mark.parametrize("in_the_way", ["failures", "failures/deeper"])
def test_a_lasting_problem_is_still_said_after_the_attempts(tmp_path, in_the_way):
    (tmp_path / "failures").write_text("a file where the folder goes")
    with pytest.raises(ConformanceError) as raised:
        writable_folder(str(tmp_path / in_the_way), "--failures-dir")
    cause = "File exists" if in_the_way == "failures" else "Not a directory"
    assert str(raised.value) == f"--failures-dir: cannot write in {tmp_path / in_the_way}: {cause}"
    with pytest.raises(OSError) as written:
        write_in_folder(tmp_path / in_the_way / "r.json", {})
    assert written.value.strerror == cause


def test_a_folder_that_keeps_vanishing_is_given_up_after_the_attempts(tmp_path, monkeypatch):
    made = []

    def vanishing_write(path, document):  # the folder another process removes every time, just before the write
        made.append(path)
        Path(path).parent.rmdir()
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(failure_store, "write_json", vanishing_write)
    with pytest.raises(FileNotFoundError) as raised:
        write_in_folder(tmp_path / "failures" / "r.json", {})
    assert len(made) == failure_store.FOLDER_ATTEMPTS
    assert raised.value.filename == str(tmp_path / "failures" / "r.json")


def test_a_runs_workers_leave_the_failures_folder_to_the_check_the_run_made_when_it_started(tmp_path):
    """The run (the CLI's process, or pytest's controller) checks ``--failures-dir`` before its workers start; a
    worker's session (``worker=True``: it was handed the run's spec) does not probe it again."""
    from conformance.running.session import RunSpec, Session

    (tmp_path / "failures").write_text("a file where the folder goes")
    spec = RunSpec(failures_dir=str(tmp_path / "failures"), max_examples=1, fixtures=False)
    with pytest.raises(ConformanceError, match="--failures-dir: cannot write in"):
        Session(spec)
    Session(spec, worker=True)  # no probe: the run would have stopped already
