"""``report FILE`` reads its input as carefully as ``validate``: only regular files up to a size cap, bounded JSON,
verdict lines checked; a clear error naming the line and exit 2, never a traceback or a hang."""

from __future__ import annotations

import os

import pytest

from conformance.commands import cli


@pytest.fixture
def stream(tmp_path):
    def write(*lines: str):
        path = tmp_path / "run.jsonl"
        path.write_text("\n".join(lines) + "\n", "utf-8")
        return str(path)
    return write


def test_a_fifo_and_a_device_are_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert cli.main(["report", str(fifo), "--format", "markdown"]) == 2
    assert cli.main(["report", "/dev/zero", "--format", "markdown"]) == 2
    err = capsys.readouterr().err
    assert "FIFO" in err and "device" in err


def test_a_made_up_verdict_or_rule_key_is_refused(stream, capsys):
    header = '{"record": "header", "rule_keys": ["mw.queue-fifo"]}'
    assert cli.main(["report", stream(header, '{"record": "rule", "key": "mw.queue-fifo", "status": "weird"}'),
                     "--format", "html"]) == 2
    assert cli.main(["report", stream(header, '{"record": "rule", "key": "mw.nope", "status": "passed"}'),
                     "--format", "html"]) == 2
    err = capsys.readouterr().err
    assert "line 2: at $.status" in err and "line 2: at $.key" in err


def test_deep_nesting_is_refused_with_its_line(stream, capsys):
    assert cli.main(["report", stream('{"record": "header"}', "[" * 100_000 + "]" * 100_000, '{"record": "footer"}'),
                     "--format", "markdown"]) == 2
    assert "line 2" in capsys.readouterr().err
