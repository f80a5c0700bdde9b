"""Writing a failure's replay file (``--failures-dir``), split from :mod:`conformance.running.session`.

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
from conformance.documents.json_io import validate
from conformance.documents.failure_store import replay_command, replay_path, write_in_folder


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
    path = replay_path(folder, f"{session.ruleset.name}-{result.key}-{fingerprint}", document["engine"])
    write_in_folder(path, document)  # atomically: an interrupt never leaves half a replay file
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


def problem_scenario(config, engine, result, exploration) -> dict[str, Any] | str | None:
    """For a rule errored because the engine gave no answer (it raised, crashed, hung, wrote garbage) on a scenario of
    the stream: that scenario (the first such one), prepared, built again as the stream built it, for ``engine``'s
    generation profile; a string saying why when it cannot be built again; None when the rule is not errored or no
    lost scenario is one of the stream's (a replay of the example database's)."""
    from conformance.running.runner import UNKNOWN_INDEX, prepare_generated, scenario_builder
    from conformance.generation.stream import stream_source

    lost = [n for n in getattr(exploration, "lost", ()) if n != UNKNOWN_INDEX]
    if result.status != "errored" or not lost:
        return None
    try:
        build = scenario_builder(config, engine)
        return prepare_generated(config, build(stream_source(config.seed, lost[0]), config.edition))
    except Exception as exc:  # the scenario cannot be rebuilt: said, the verdict kept
        return f"scenario {lost[0]} of the stream could not be built again: {exc}"


def add_problem_scenario(session, scenario: dict[str, Any] | str | None, entry: dict[str, Any]) -> None:
    """Write ``scenario`` (:func:`problem_scenario`) as a scenario file in ``--failures-dir`` and note it in the
    report ``entry`` (``problem_scenario``, and ``problem_command``: the ``check`` command that plays it again on the
    engine); when it cannot be built or written, ``problem_scenario_error`` says which file and why (and the scenario
    that cannot be written is kept in ``problem_scenario_kept``). Nothing without
    a failures folder or a scenario."""
    if not session.spec.failures_dir or scenario is None:
        return
    if isinstance(scenario, str):
        entry["problem_scenario_error"] = scenario
        return
    validate(scenario, "scenario", "the problem scenario being written")
    fingerprint = hashlib.sha256(json.dumps(scenario, sort_keys=True).encode()).hexdigest()[:10]
    # named after the scenario alone: the rules one problem left without a verdict share the file
    path = Path(session.spec.failures_dir) / f"{session.ruleset.name}-problem-{fingerprint}.json"
    try:
        write_in_folder(path, scenario)
    except OSError as exc:
        entry["problem_scenario_error"] = f"the scenario file {path} could not be written: {exc.strerror or exc}"
        entry["problem_scenario_kept"] = scenario  # not lost with its file: in the report, and printed
        return
    entry["problem_scenario"] = str(path)
    entry["problem_command"] = check_command(str(path), session.spec.engine, session.spec.engine_timeout)


def check_command(file: str, spec: str, timeout: float | None = None) -> str:
    """The ``check`` command that plays the scenario ``file`` on the engine ``spec`` (as :func:`replay_command`)."""
    return replay_command(file, spec, timeout).replace(" replay ", " check ", 1)
