"""Writing a failure's replay file (``--failures-dir``), split from :mod:`conformance.session`.

A replay file that cannot be written (a full disk, a folder that cannot be created) loses nothing (issue 34): the
rule's verdict stays failed, its counterexample stays in the report entry (and is printed), and the entry's
``failure.replay_error`` says which file could not be written and why.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.documents import validate, write_json
from conformance.failure_store import replay_command, replay_path


def write_replay(session, result, engine: dict[str, str] | None = None) -> str | None:
    """Write the replay file of ``result``'s failure in ``session``'s ``--failures-dir`` (atomically); returns its
    path, or None without a failures folder. ``engine``: the engine's description, when known (else the engine is
    asked). Raises OSError when the file cannot be written (its ``filename`` the file or folder)."""
    if not session.spec.failures_dir:
        return None
    failure = result.failure
    document = {
        "format": "trigger-conformance/replay/1", "tool_version": __version__,
        "engine": engine or session.check_engine(), "ruleset": session.ruleset.name, "edition": session.edition,
        "rule_key": result.key, "rule_number": result.rule_number, "seed": session.spec.seed,
        "choice_log": failure.log, "messages": failure.messages, "scenario": failure.scenario,
        "actual_trace": failure.actual_trace, "expected_trace": failure.expected_trace,
    }
    validate(document, "replay", "the replay file being written")
    fingerprint = hashlib.sha256(json.dumps(failure.scenario, sort_keys=True).encode()).hexdigest()[:10]
    folder = Path(session.spec.failures_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = replay_path(folder, f"{session.ruleset.name}-{result.key}-{fingerprint}", document["engine"])
    try:
        write_json(path, document)  # atomically: an interrupt never leaves half a replay file
    except OSError as exc:
        exc.filename = str(path)
        raise
    return str(path)


def add_replay(session, result, entry: dict[str, Any]) -> None:
    """Write ``result``'s replay file and note it in the report ``entry`` (``failure.replay_file``, and its
    ``replay_command``); when it cannot be written, ``failure.replay_error`` says which file and why instead."""
    failure = entry["failure"]
    try:
        failure["replay_file"] = write_replay(session, result)
    except OSError as exc:
        failure["replay_file"] = None
        where = exc.filename or session.spec.failures_dir
        failure["replay_error"] = f"the replay file {where} could not be written: {exc.strerror or exc}"
        return
    if failure["replay_file"]:
        failure["replay_command"] = replay_command(failure["replay_file"], session.spec.engine,
                                                   session.spec.engine_timeout)
