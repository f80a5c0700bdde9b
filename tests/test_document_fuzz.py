"""Issue 11: malformed documents. Every generated malformed document given to `validate` (as its kind) and to `replay`
ends with exit code 2 and a JSON path, never a traceback or a hang; files that are not regular files, or too big,
are refused before they are read.

The fuzz test mutates real documents (the bundled fixtures, their scenarios and traces, and replay files built from
them) in ways that each make the document invalid for sure: a required key dropped, a wrong type, a wrong format,
nesting beyond the bound, an integer of thousands of digits, a lone surrogate, a duplicate key, NaN, truncated text,
bytes that are not UTF-8, a byte-order mark, and the semantic faults `replay` and `run` reject (an unknown rule key,
a ruleset, edition or rule number that does not match, a trace that contradicts its scenario).

Its size: FUZZ_DOCUMENTS examples (default 150, for CI; the goal run of issue 11 is FUZZ_DOCUMENTS=10000).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conformance.commands import cli
from conformance.documents.json_io import MAX_DEPTH, MAX_DOCUMENT_BYTES, load_schema
from conformance.documents.semantics import check_replay_document
from reference_engine.kernel.registry import get_ruleset

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures").glob("*/*.json"))
FUZZ_DOCUMENTS = int(os.environ.get("FUZZ_DOCUMENTS", "150"))
STATS: dict[str, int] = {}


def _entry(trace: dict, kind: str) -> dict:
    """The first entry of ``kind`` in ``trace``."""
    return next(entry for entry in trace["entries"] if entry["kind"] == kind)


def _replay_of(fixture: dict) -> dict:
    """A valid replay file built from a fixture (the form `run` writes for a failure)."""
    scenario = fixture["scenario"]
    inv = get_ruleset(scenario["ruleset"]).invariant(fixture["rule_keys"][0])
    return {"format": "trigger-conformance/replay/1", "tool_version": "0", "engine":
            {"name": "reference", "version": "0", "spec": "reference"}, "ruleset": scenario["ruleset"],
            "edition": scenario["edition"], "rule_key": inv.key, "rule_number": inv.rule_number(scenario["edition"]),
            "seed": 0, "choice_log": [1, 2, 3], "messages": ["m"], "scenario": scenario,
            "actual_trace": fixture["expected_trace"], "expected_trace": fixture["expected_trace"]}


def _report_of(fixture: dict) -> dict:
    """A valid report with one failed rule, built from a fixture (the form `run --report-json` writes)."""
    replay = _replay_of(fixture)
    rule = {"key": replay["rule_key"], "rule_number": replay["rule_number"], "summary": "s", "status": "failed",
            "scenarios_run": 3, "scenarios_exercised": 1, "seconds": 0.5, "failure": {
                "messages": ["m"], "scenario": replay["scenario"], "original_size": 3, "shrunk_size": 2,
                "actual_trace": replay["actual_trace"], "expected_trace": replay["expected_trace"],
                "determinism": "deterministic", "replay_file": "f.json",
                "replay_command": "trigger-conformance replay f.json --engine reference"}}
    return {"format": "trigger-conformance/report/1", "tool_version": "0", "engine": replay["engine"],
            "ruleset": replay["ruleset"], "edition": replay["edition"], "options": {}, "seed": 0, "max_examples": 3,
            "rules": [rule], "fixtures": [], "summary": {"rules_failed": 1}}


def _documents() -> list[tuple[str, dict]]:
    out = []
    for n, path in enumerate(FIXTURES):
        fixture = json.loads(path.read_text("utf-8"))
        out += [("fixture", fixture), ("scenario", fixture["scenario"]), ("trace", fixture["expected_trace"]),
                ("replay", _replay_of(fixture))]
        if n % 4 == 0:
            out.append(("report", _report_of(fixture)))
    return out


DOCUMENTS = _documents()


def test_the_base_documents_are_valid(tmp_path, capsys):
    """The fuzz mutates valid documents, so that every failure comes from the mutation."""
    for n, (kind, document) in enumerate(DOCUMENTS[::7] + [d for d in DOCUMENTS if d[0] == "report"][:3]):
        path = tmp_path / f"{n}.json"
        path.write_text(json.dumps(document))
        assert cli.main(["validate", str(path), "--as", kind]) == 0, capsys.readouterr().err
    check_replay_document(DOCUMENTS[3][1], "a replay built from a fixture")


def _paths(document) -> list[tuple]:
    """Every path to a value in ``document`` (iteratively)."""
    found, stack = [], [((), document)]
    while stack:
        path, value = stack.pop()
        found.append(path)
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            stack.append((path + (key,), item))
    return found


def _put(document, path, value):
    if not path:
        return value
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return document


PLACEHOLDER = "@@FUZZ-PLACEHOLDER@@"


@st.composite
def malformed(draw):
    """``(kind, bytes, mutation)``: a document of ``kind`` made invalid by ``mutation``."""
    kind, base = draw(st.sampled_from(DOCUMENTS))
    document = copy.deepcopy(base)
    paths = _paths(document)
    mutations = ["drop-required", "wrong-type", "wrong-format", "too-deep", "huge-integer", "lone-surrogate",
                 "lone-surrogate-key", "duplicate-key", "nan", "truncated", "not-utf8", "bom", "empty"]
    if kind == "replay":
        mutations += ["unknown-rule-key", "other-ruleset", "other-edition", "wrong-rule-number", "not-a-byte",
                      "trace-contradicts-scenario"]
    if kind == "fixture":
        mutations += ["unknown-rule-key", "trace-contradicts-scenario"]
    mutation = draw(st.sampled_from(mutations))
    raw: str | None = None
    if mutation == "drop-required":
        required = load_schema(kind)["required"]
        del document[draw(st.sampled_from(required))]
    elif mutation == "wrong-type":
        schema = load_schema(kind)
        name = draw(st.sampled_from(schema["required"]))
        declared = schema["properties"][name].get("type", "object")
        document[name] = 5 if declared in ("object", "array", "string") else "five"
    elif mutation == "wrong-format":
        document["format"] = draw(st.sampled_from(["trigger-conformance/other/1", "", "trigger-conformance/trace/2"]))
    elif mutation == "too-deep":
        nested: list = []
        for _ in range(draw(st.integers(MAX_DEPTH, 3 * MAX_DEPTH))):
            nested = [nested]
        document = _put(document, draw(st.sampled_from(paths)), nested)
    elif mutation in ("huge-integer", "nan", "lone-surrogate"):
        document = _put(document, draw(st.sampled_from(paths)), PLACEHOLDER)
        replacement = {"huge-integer": lambda: "9" * draw(st.integers(21, 6000)),
                       "nan": lambda: draw(st.sampled_from(["NaN", "Infinity", "-Infinity"])),
                       "lone-surrogate": lambda: '"text \\u%s and more"' % draw(
                           st.sampled_from(["d800", "dbff", "dc00", "DFFF", "D83D"]))}[mutation]()
        raw = json.dumps(document).replace(json.dumps(PLACEHOLDER), replacement, 1)
    elif mutation in ("lone-surrogate-key", "duplicate-key"):
        objects = [p for p in paths if isinstance(_get(document, p), dict) and _get(document, p)]
        target = _get(document, draw(st.sampled_from(objects)))
        existing = draw(st.sampled_from(sorted(target)))
        target[PLACEHOLDER] = draw(st.sampled_from([1, "x", None, [], {}]))
        key = json.dumps(existing) if mutation == "duplicate-key" else '"\\udc80%s"' % existing
        raw = json.dumps(document).replace(json.dumps(PLACEHOLDER), key, 1)
    elif mutation == "truncated":
        text = json.dumps(document)
        raw = text[: draw(st.integers(0, len(text) - 1))]
    elif mutation == "unknown-rule-key":
        if kind == "replay":
            document["rule_key"] = draw(st.sampled_from(["mw.nope", "", "mtg.unknown-rule", "x" * 300]))
        else:
            document["rule_keys"].append("no.such-rule")
    elif mutation == "other-ruleset":
        document["ruleset"] = "mtg" if document["ruleset"] != "mtg" else "momon-wonder"
    elif mutation == "other-edition":
        document["edition"] = "9.9.9"
    elif mutation == "wrong-rule-number":
        document["rule_number"] = "0.0.0"
    elif mutation == "not-a-byte":
        document["choice_log"] = [1, draw(st.sampled_from([256, -1, 10 ** 6]))]
    elif mutation == "trace-contradicts-scenario":
        field = "expected_trace" if kind == "fixture" else draw(st.sampled_from(["actual_trace", "expected_trace"]))
        entries = document[field]["entries"]
        document[field]["entries"] = entries + [{"kind": "resolve_begin", "trigger": "T-not-there"}]
    data = (raw if raw is not None else json.dumps(document)).encode("utf-8", "surrogatepass")
    if mutation == "not-utf8":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80"])) + data[at:]
    elif mutation == "bom":
        data = b"\xef\xbb\xbf" + data
    elif mutation == "empty":
        data = draw(st.sampled_from([b"", b"   \n", b"null", b"[]", b"42", b'"text"']))
    return kind, data, mutation


def _get(document, path):
    for part in path:
        document = document[part]
    return document


class _Hang(Exception):
    pass


@contextlib.contextmanager
def _watchdog(seconds: float):
    """Raise _Hang in the main thread if the block takes longer than ``seconds``."""
    def alarm(signum, frame):
        raise _Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _main(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), _watchdog(20):
        code = cli.main(argv)
    return code, err.getvalue()


@settings(max_examples=FUZZ_DOCUMENTS, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(case=malformed())
def test_malformed_documents_exit_2_with_a_json_path(tmp_path_factory, case):
    kind, data, mutation = case
    path = tmp_path_factory.mktemp("fuzz") / "document.json"
    path.write_bytes(data)
    runs = [["validate", str(path), "--as", kind]]
    if kind == "replay":
        runs.append(["replay", str(path), "--engine", "reference"])
    for argv in runs:
        code, err = _main(argv)
        assert code == 2, (mutation, argv[0], err)
        assert "Traceback" not in err, (mutation, err)
        assert " $" in err or "at $" in err, (mutation, argv[0], err)
        STATS[mutation] = STATS.get(mutation, 0) + 1


def test_fuzz_covered_every_mutation():
    """Run after the fuzz test (same module): with the CI budget every kind of mutation was tried at least once."""
    if not STATS:
        pytest.skip("the fuzz test did not run in this process")
    print(f"\nmalformed-document runs by mutation ({sum(STATS.values())} in all, every one exit 2 with a path): "
          + json.dumps(dict(sorted(STATS.items()))))
    if FUZZ_DOCUMENTS >= 150:
        assert {"drop-required", "too-deep", "huge-integer", "lone-surrogate", "duplicate-key", "truncated",
                "not-utf8"} <= set(STATS)


# -- Files that are not documents -------------------------------------------------------------------------------


def _in_time(argv: list[str], seconds: float = 10.0) -> tuple[int, str]:
    started = time.monotonic()
    code, err = _main(argv)
    assert time.monotonic() - started < seconds
    return code, err


@pytest.mark.parametrize("command", [["validate"], ["validate", "--as", "replay"], ["replay", "--engine", "reference"]])
def test_a_fifo_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    # Nobody ever writes to it: reading it would wait forever.
    code, err = _in_time([command[0], str(fifo), *command[1:]])
    assert code == 2 and "a FIFO" in err and "at $" in err


def test_a_fifo_with_a_writer_is_refused_too(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def write():
        with contextlib.suppress(OSError), open(fifo, "w") as stream:
            stream.write("{}")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    code, err = _in_time(["validate", str(fifo)])
    assert code == 2 and "a FIFO" in err
    with contextlib.suppress(OSError):  # unblock the writer if it is still waiting for a reader
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    writer.join(5)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    code, err = _in_time(["validate", device])
    assert code == 2 and "a device" in err


def test_a_folder_and_a_missing_file_are_refused(tmp_path):
    assert _in_time(["validate", str(tmp_path)])[0] == 2
    code, err = _in_time(["validate", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read the file" in err


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as stream:  # sparse: the size is there, the disk space is not
        stream.truncate(MAX_DOCUMENT_BYTES + 1)
    code, err = _in_time(["validate", str(big)])
    assert code == 2 and f"more than the {MAX_DOCUMENT_BYTES}" in err


# -- Bounds before recursive work, duplicate keys, semantic checks -------------------------------------------------


def _summon(depth: int) -> dict:
    action = {"do": "summon", "object": "W", "succeeds": True}
    for _ in range(depth):
        action = {"do": "summon", "object": "W", "succeeds": True, "snatch_check": [action]}
    return action


@pytest.mark.parametrize("depth", [5, 19, 40, 300, 5000])
def test_schema_valid_nesting_is_bounded_before_any_recursive_work(tmp_path, depth):
    fixture = json.loads(FIXTURES[0].read_text("utf-8"))
    deep = copy.deepcopy(fixture)
    if depth < 900:
        deep["scenario"]["script"][0]["actions"][0]["effect"] = [_summon(depth)]
    for kind, document, plain in (("scenario", deep["scenario"], fixture["scenario"]),
                                  ("replay", _replay_of(deep), _replay_of(fixture))):
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(document) if depth < 900 else _deep_text(plain, depth))
        code, err = _in_time(["validate", str(path), "--as", kind], 30)
        assert "Traceback" not in err and "RecursionError" not in err
        if depth > MAX_DEPTH // 2:
            assert code == 2 and "levels deep" in err and "at $" in err
        if kind == "replay":
            code, err = _in_time(["replay", str(path), "--engine", "reference"], 60)
            assert code in ((0, 1) if depth <= MAX_DEPTH // 2 - 5 else (2,)) and "Traceback" not in err


def _deep_text(document: dict, depth: int) -> str:
    """json.dumps cannot write a document this deep: write the nesting by hand."""
    inner = '{"do": "summon", "object": "W", "succeeds": true}'
    text = '{"do": "summon", "object": "W", "succeeds": true, "snatch_check": [' * depth + inner + "]}" * depth
    placeholder = {"do": "signal", "name": PLACEHOLDER}
    holder = copy.deepcopy(document)
    scenario = holder["scenario"] if "scenario" in holder else holder
    scenario["script"][0]["actions"][0]["effect"] = [placeholder]
    return json.dumps(holder).replace(json.dumps(placeholder), text, 1)


def test_duplicate_keys_are_rejected_with_their_path(tmp_path):
    text = FIXTURES[0].read_text("utf-8")
    document = json.loads(text)
    document["scenario"]["objects"][0][PLACEHOLDER] = "field"
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(document).replace(json.dumps(PLACEHOLDER), '"zone"'))
    code, err = _in_time(["validate", str(path)])
    assert code == 2 and 'at $.scenario.objects[0].zone: the key "zone" appears more than once' in err


@pytest.mark.parametrize("kind, change, words", [
    ("replay", lambda d: d.update(rule_key="mw.nope"), "at $.rule_key"),
    ("replay", lambda d: d.update(edition="0.0"), "at $.edition"),
    ("replay", lambda d: d.update(rule_number="99"), "at $.rule_number"),
    ("replay", lambda d: d["expected_trace"]["entries"].append({"kind": "resolve_begin", "trigger": "T404"}),
     "at $.expected_trace.entries["),
    # Issue 23 item 6: a trace may not contradict its scenario (objects, abilities, players it does not have).
    ("replay", lambda d: _entry(d["actual_trace"], "trigger").update(source="NOPE"),
     "names object NOPE in its source, which the scenario does not have"),
    ("replay", lambda d: _entry(d["expected_trace"], "trigger").update(ability="A404"),
     "names ability A404 of W, which neither has it printed nor gets it from an effect"),
    ("replay", lambda d: _entry(d["actual_trace"], "event").update(player="P9"),
     "names player P9 in its player, which the scenario does not have"),
    ("fixture", lambda d: _entry(d["expected_trace"], "trigger").update(controller="P9"),
     "at $.expected_trace.entries["),
    ("fixture", lambda d: d["rule_keys"].append("mw.nope"), "at $.rule_keys["),
    ("fixture", lambda d: d["expected_trace"]["entries"].append({"kind": "resolve_begin", "trigger": "T404"}),
     "at $.expected_trace.entries["),
])
def test_validate_as_replay_or_fixture_makes_the_checks_replay_and_run_make(tmp_path, kind, change, words):
    fixture = json.loads(FIXTURES[0].read_text("utf-8"))
    document = _replay_of(fixture) if kind == "replay" else fixture
    change(document)
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    code, err = _in_time(["validate", str(path), "--as", kind])
    assert code == 2 and words in err, err
    if kind == "replay":  # replay refuses the same file for the same reason
        code, replay_err = _in_time(["replay", str(path), "--engine", "reference"])
        assert code == 2 and words in replay_err


@pytest.mark.parametrize("change, words", [
    (lambda sc: _action(sc, "life").update(player="P9"), "actions[0].effect[0].player: 'P9' is not a player"),
    (lambda sc: _action(sc, "damage").update(player="P9"), "player: 'P9' is not a player"),
])
def test_a_scenario_whose_effect_names_a_player_it_does_not_have_is_refused(tmp_path, change, words):
    """Issue 23 item 6: every player an effect names is one of the scenario's (validate, replay, check, run)."""
    scenario = {"format": "trigger-conformance/scenario/1", "id": "ghost", "ruleset": "mtg", "edition": "2026-02-27",
                "players": ["P1", "P2"], "active_player": "P1", "objects": [],
                "script": [{"step": "main", "actions": [{"by": "P1", "effect": [
                    {"do": "life", "player": "P2", "amount": -1}, {"do": "damage", "player": "P1", "amount": 1}]}]}]}
    change(scenario)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    code, err = _in_time(["validate", str(path), "--as", "scenario"])
    assert code == 2 and words in err, err
    code, err = _in_time(["check", str(path), "--engine", "reference"])
    assert code == 2 and words in err, err


def _action(scenario: dict, do: str) -> dict:
    return next(a for a in scenario["script"][0]["actions"][0]["effect"] if a["do"] == do)
