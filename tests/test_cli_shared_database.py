"""Issue 13: failures shared across machines. The example database is a folder by default and a Redis server on
request (``--database redis://HOST:PORT/DB``, Hypothesis's RedisExampleDatabase): a failure one run found is
replayed first by another run, on any machine sharing the server, before its own stream."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conformance.commands import cli

MUTANT, KEY = "mutant:mw-nested-package-joins", "mw.nested-package-deferred"


def _run(tmp_path, name, *args):
    report = tmp_path / f"{name}.json"
    cli.main(["run", "--engine", MUTANT, "--rules", KEY, "--no-fixtures", "--shrink-seconds", "1",
              "--failures-dir", str(tmp_path / "failures"), "--report-json", str(report), *args])
    (rule,) = json.loads(report.read_text())["rules"]
    return rule


@pytest.fixture
def redis_url(redis_server):
    return redis_server[0]


@pytest.fixture
def redis_server(tmp_path):
    """A redis-server of the test's own on a free port: (its URL, its process)."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (Debian package redis-server; .ci/run installs it)")
    pytest.importorskip("redis", reason="the redis client is the optional extra 'redis' (pip install '.[redis]')")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(host="127.0.0.1", port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.terminate()
        process.wait(10)


def test_a_failure_found_by_one_run_is_replayed_first_by_another_through_redis(tmp_path, redis_url):
    # On its own, the second run's stream (seed 1, one scenario) never even exercises the rule.
    alone = _run(tmp_path, "alone", "--seed", "1", "--max-examples", "1")
    assert alone["status"] == "unexercised", alone
    # The first run (another machine, say) finds the failure and keeps it in the shared Redis database...
    first = _run(tmp_path, "first", "--seed", "0", "--max-examples", "200", "--database", redis_url)
    assert first["status"] == "failed", first
    # ...and the second run replays it before its own stream, so it fails the rule too, from the first run's shrunk
    # failure (the database keeps Hypothesis's minimal log), before any scenario of its own.
    second = _run(tmp_path, "second", "--seed", "1", "--max-examples", "1", "--database", redis_url)
    assert second["status"] == "failed", second
    assert second["scenarios_run"] == 1
    assert second["failure"]["shrunk_size"] <= second["failure"]["original_size"]


def test_a_folder_is_the_default_database_and_an_unreachable_redis_is_a_usage_error(tmp_path):
    folder = tmp_path / "db"
    first = _run(tmp_path, "first", "--seed", "0", "--max-examples", "200", "--database", str(folder))
    assert first["status"] == "failed" and any(folder.rglob("*"))
    second = _run(tmp_path, "second", "--seed", "1", "--max-examples", "1", "--database", str(folder))
    assert second["status"] == "failed"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens there once the probe is closed
    pytest.importorskip("redis")
    assert cli.main(["run", "--database", f"redis://127.0.0.1:{port}/0", "--max-examples", "1"]) == 2


def _warnings(text: str) -> int:
    return text.count("warning: the example database")  # on the console (stdout), once per run


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
def test_a_redis_key_of_another_type_is_done_without(tmp_path, redis_url, capsys):
    """Issue 23 item 6: the shared database holding a key of another type (another tool's, a corrupted one) no
    longer turns every rule into "errored: the check itself raised": the run goes on without the database, says so
    once, and keeps its verdict and replay file."""
    import redis

    first = _run(tmp_path, "first", "--seed", "0", "--max-examples", "200", "--database", redis_url)
    assert first["status"] == "failed", first
    client = redis.Redis.from_url(redis_url)
    keys = client.keys(b"trigger-conformance:*")
    assert keys
    for key in keys:  # every key the suite uses now holds a string
        client.delete(key)
        client.set(key, b"not a sorted set")
    capsys.readouterr()
    second = _run(tmp_path, "second", "--seed", "0", "--max-examples", "200", "--database", redis_url)
    err = capsys.readouterr().out
    assert second["status"] == "failed" and "check_error" not in second, second
    assert second["failure"]["replay_file"] and "WRONGTYPE" in second["database_error"]
    assert _warnings(err) == 1 and "WRONGTYPE" in err and "went on without it" in err, err


def test_a_redis_server_that_goes_away_during_the_run_is_done_without(tmp_path, redis_server, capsys, monkeypatch):
    """The server answers when the run starts, then goes away: every verdict and replay file is kept, one warning."""
    import conformance.running.session as session_module

    url, process = redis_server
    reached = session_module.example_database

    def then_gone(where, check=True, **more):
        database = reached(where, check=check, **more)
        if process.poll() is None:
            process.terminate()
            process.wait(10)
        return database

    monkeypatch.setattr(session_module, "example_database", then_gone)
    rule = _run(tmp_path, "gone", "--seed", "0", "--max-examples", "200", "--database", url)
    err = capsys.readouterr().out
    assert rule["status"] == "failed" and "check_error" not in rule and rule["database_error"], rule
    assert rule["failure"]["replay_file"] and Path(rule["failure"]["replay_file"]).is_file()
    assert _warnings(err) == 1 and "went on without it" in err, err
