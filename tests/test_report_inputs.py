"""`report FILE` on hand-made streams whose header fields have the wrong types: one line naming the field, exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEADERS = {
    "keys-a-string": ('{"record":"header","format":"trigger-conformance/stream/1","rule_keys":"abc"}', "$.rule_keys"),
    "keys-nested": ('{"record":"header","format":"trigger-conformance/stream/1","rule_keys":[["x"]]}',
                    "$.rule_keys[0]"),
    "engine-a-list": ('{"record":"header","format":"trigger-conformance/stream/1","engine":[1]}', "$.engine"),
    "engine-name-a-number": ('{"record":"header","format":"trigger-conformance/stream/1","engine":{"name":5}}',
                             "$.engine.name"),
}


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", sorted(HEADERS))
def test_a_mistyped_stream_header_is_one_line_naming_the_field(name, tmp_path):
    line, field = HEADERS[name]
    path = tmp_path / "run.jsonl"
    path.write_text(line + "\n", "utf-8")
    done = subprocess.run([sys.executable, "-m", "conformance.commands.cli", "report", str(path), "--format", "markdown"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and f"at {field}:" in done.stderr
