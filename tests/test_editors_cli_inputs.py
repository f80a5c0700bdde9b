"""What the editors' commands (``lint-rules``, ``diff``, ``rules --matrix``) and ``run --rules`` do with bad or
unusual input: one clear line and exit 2, never a traceback, a hang or an unbounded read (a reviewer's findings)."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

import pytest

from conformance.commands.cli import main
from conformance.commands.run_command import rule_keys as _rule_keys
from conformance.editors.commands import MAX_RULES_TEXT_BYTES
from reference_engine.kernel.errors import ConformanceError
from reference_engine.kernel.registry import get_ruleset

DRAFT_MODULES = ("r1_buggy_draft", "r1_other_ruleset_draft", "r1_boom_on_import", "r1_exit_on_import",
                 "r1_cwd_draft")


@pytest.fixture
def drafts(tmp_path, monkeypatch):
    """A folder for an editor's draft modules, on sys.path; the modules are forgotten afterwards."""
    folder = tmp_path / "drafts"
    folder.mkdir()
    monkeypatch.setattr(sys, "path", [str(folder)] + list(sys.path))
    yield folder
    for name in DRAFT_MODULES:
        sys.modules.pop(name, None)


def _draft(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.py").write_text(text)
    import importlib

    importlib.invalidate_caches()


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def _fifo_with_a_writer(path: Path) -> threading.Thread:
    """A FIFO at ``path`` and a thread that writes a line into it once a reader opens it."""
    os.mkfifo(path)

    def write() -> None:
        try:
            with open(path, "w") as stream:  # blocks until some reader opens the FIFO
                stream.write("11.2.1 A triggered ability.\n")
        except OSError:  # the reader went away first
            pass

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _release(path: Path, thread: threading.Thread) -> None:
    """Let the writer of :func:`_fifo_with_a_writer` finish (its open waits for a reader) and wait for it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        thread.join()
    finally:
        os.close(fd)


# -- 1. --rules-text and --report are read bounded: regular files only, a size cap ----------------------------------

def test_rules_text_from_a_device_or_an_oversized_file_is_refused(tmp_path, capsys):
    assert main(["lint-rules", "--ruleset", "mtg", "--rules-text", "/dev/null", "--scenarios", "0"]) == 2
    assert "--rules-text /dev/null: cannot read the file: it is a device; give a regular file" in _error(capsys)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as stream:  # sparse: no disk used
        stream.truncate(MAX_RULES_TEXT_BYTES + 1)
    assert main(["lint-rules", "--ruleset", "mtg", "--rules-text", str(huge), "--scenarios", "0"]) == 2
    err = _error(capsys)
    assert f"--rules-text {huge}" in err and f"{MAX_RULES_TEXT_BYTES + 1} bytes" in err


def test_rules_text_from_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "draft.fifo"
    writer = _fifo_with_a_writer(fifo)
    try:
        code = main(["lint-rules", "--ruleset", "momon-wonder", "--rules-text", str(fifo), "--scenarios", "0"])
    finally:
        _release(fifo, writer)
    assert code == 2
    assert f"--rules-text {fifo}: cannot read the file: it is a FIFO (named pipe)" in _error(capsys)


def test_rules_text_that_is_not_utf8_is_one_line(tmp_path, capsys):
    draft = tmp_path / "draft.txt"
    draft.write_bytes(b"11.2.1 caf\xe9\n")
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--rules-text", str(draft), "--scenarios", "0"]) == 2
    assert f"--rules-text {draft}: not a text file (it is not UTF-8: byte 10)" in _error(capsys)


KEYS = ["red.effect-carried-out", "red.negation-ends"]


@pytest.fixture(scope="module")
def run_files(tmp_path_factory):
    """The JSON Lines stream and the JSON report of one short run of two redemption keys (given as ``a,b``)."""
    folder = tmp_path_factory.mktemp("run")
    stream, report = folder / "run.jsonl", folder / "run.json"
    assert main(["run", "--ruleset", "redemption", "--max-examples", "3", "--no-fixtures", "--rules", ",".join(KEYS),
                 "--report-jsonl", str(stream), "--report-json", str(report), "--database", str(folder / "db")]) == 0
    return stream, report


@pytest.mark.parametrize("content, expected", [
    ("[" * 100_000 + "]" * 100_000, "too deep"),                          # RecursionError before
    ("[1,2]", "not a record of a trigger-conformance stream"),             # AttributeError before
    ("", "no header line"),
])
def test_a_bad_matrix_report_is_one_line(tmp_path, capsys, content, expected):
    report = tmp_path / "report.json"
    report.write_text(content)
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(report)]) == 2
    err = _error(capsys)
    assert str(report) in err and expected in err


def test_a_matrix_report_whose_rules_is_a_string_is_one_line(run_files, tmp_path, capsys):
    capsys.readouterr()
    document = json.loads(run_files[1].read_text())
    document["rules"] = "everything"  # a TypeError before
    report = tmp_path / "report.json"
    report.write_text(json.dumps(document))
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(report)]) == 2
    err = _error(capsys)
    assert str(report) in err and "at $.rules: 'everything' is not of type 'array'" in err


def test_a_matrix_report_that_is_a_device_a_fifo_or_too_big_is_refused(tmp_path, capsys):
    from conformance.reports.render import MAX_STREAM_BYTES

    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", "/dev/null"]) == 2
    assert "/dev/null" in (err := _error(capsys)) and "it is a device" in err
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as stream:
        stream.truncate(MAX_STREAM_BYTES + 1)
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(huge)]) == 2
    assert str(huge) in (err := _error(capsys)) and f"{MAX_STREAM_BYTES + 1} bytes" in err
    fifo = tmp_path / "report.fifo"
    writer = _fifo_with_a_writer(fifo)
    try:
        code = main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(fifo)])
    finally:
        _release(fifo, writer)
    assert code == 2 and "it is a FIFO" in _error(capsys)


@pytest.mark.parametrize("content", ["[1, 2]", '{"scenario": 5}', '"a string"'])
def test_lint_rules_scenario_that_is_not_an_object_is_one_line(tmp_path, capsys, content):
    scenario = tmp_path / "scenario.json"
    scenario.write_text(content)
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--scenario", str(scenario)]) == 2  # AttributeError before
    assert f"--scenario {scenario}: not a scenario (a JSON object) nor a fixture holding one" in _error(capsys)


# -- 2 and 3. --with: an import that raises, a crashing check, another ruleset, the current directory -------------

def test_with_a_module_that_raises_on_import_is_one_line(drafts, capsys):
    _draft(drafts, "r1_boom_on_import", "raise RuntimeError('the draft is unfinished')\n")
    assert main(["lint-rules", "--with", "r1_boom_on_import:DRAFT", "--scenarios", "0"]) == 2
    assert ("--with r1_boom_on_import:DRAFT: cannot import r1_boom_on_import: RuntimeError: the draft is unfinished"
            in _error(capsys))
    _draft(drafts, "r1_exit_on_import", "raise SystemExit(3)\n")
    assert main(["lint-rules", "--with", "r1_exit_on_import:DRAFT", "--scenarios", "0"]) == 2
    assert "cannot import r1_exit_on_import: SystemExit: 3" in _error(capsys)


BUGGY = """
from reference_engine.kernel.invariant import invariant


@invariant(key="mw.draft-buggy", ruleset="momon-wonder", rules={"1.0.0": "11.2.4"}, summary="DRAFT: it crashes",
           exercised=lambda view: 1)
def BUGGY(view):
    return [entry for entry in view.entries][len(view.entries)]  # one past the end: IndexError
"""


def test_a_crashing_invariant_is_an_error_not_a_contradiction(drafts, capsys):
    _draft(drafts, "r1_buggy_draft", BUGGY)
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--with", "r1_buggy_draft:BUGGY", "--scenarios", "2"]) == 2
    out, err = capsys.readouterr()
    assert "CONTRADICTION" not in out and "Traceback" not in err
    assert "the invariant mw.draft-buggy (r1_buggy_draft:BUGGY) raised IndexError" in err
    assert "r1_buggy_draft.py:8" in err and "fix the invariant" in err


def test_with_an_invariant_of_another_ruleset_is_refused(drafts, capsys):
    _draft(drafts, "r1_other_ruleset_draft", BUGGY.replace('"momon-wonder"', '"mtg"').replace("mw.", "mtg."))
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--with", "r1_other_ruleset_draft:BUGGY",
                 "--scenarios", "0"]) == 2
    assert "--with: the invariant mtg.draft-buggy is declared for the ruleset mtg, not momon-wonder" in _error(capsys)


def test_with_imports_from_the_current_directory_and_says_so(tmp_path, monkeypatch, capsys):
    here = tmp_path / "work"
    here.mkdir()
    (here / "r1_cwd_draft.py").write_text("from conformance.editors.drafts import AHEAD_OF_PENDING as DRAFT\n")
    monkeypatch.chdir(here)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(here))])
    try:
        code = main(["lint-rules", "--ruleset", "momon-wonder", "--with", "r1_cwd_draft:DRAFT", "--scenarios", "0"])
    finally:
        sys.modules.pop("r1_cwd_draft", None)
    assert code == 0, capsys.readouterr()
    assert f"r1_cwd_draft is not installed; importing it from the current directory {here}" in _error(capsys)


# -- 4. rules --matrix --report reads the JSON Lines stream, an interrupted one too --------------------------------

def test_the_matrix_reads_a_stream_and_marks_what_an_interrupt_left_unchecked(run_files, tmp_path, capsys):
    stream, report = run_files
    capsys.readouterr()
    for given in (stream, report):
        assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(given)]) == 0
        rows = {line.split("`")[1]: line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")}
        assert len(rows) == len(get_ruleset("redemption").invariants)
        assert all("(passed)" in rows[key] or "(unexercised)" in rows[key] for key in KEYS)
        assert all(row.endswith("| not in this run |") for key, row in rows.items() if key not in KEYS)
    lines = stream.read_text().splitlines()
    verdicts = [n for n, line in enumerate(lines) if json.loads(line)["record"] == "rule"]
    cut = tmp_path / "interrupted.jsonl"
    cut.write_text("\n".join(lines[:verdicts[0] + 1]) + "\n" + lines[verdicts[1]][:20])  # the next line cut short
    checked = json.loads(lines[verdicts[0]])["key"]
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(cut)]) == 0
    rows = {line.split("`")[1]: line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")}
    unchecked = next(key for key in KEYS if key != checked)
    assert rows[unchecked].endswith("| not checked (interrupted) |")
    assert "not checked" not in rows[checked] and "no report" not in rows[checked]


def test_the_matrix_refuses_a_stream_of_another_ruleset(tmp_path, capsys):
    stream = tmp_path / "run.jsonl"
    stream.write_text(json.dumps({"record": "header", "ruleset": "mtg", "rule_keys": []}) + "\n")
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(stream)]) == 2
    assert "is a report of mtg, not redemption" in _error(capsys)


# -- 5. --rules a,b and diff of one side against itself -------------------------------------------------------------

def test_rules_takes_commas_as_well_as_spaces(run_files):
    assert _rule_keys(["a,b", "c", " a , d,"]) == ("a", "b", "c", "d")
    assert _rule_keys(None) == ()
    with pytest.raises(ConformanceError, match="no rule key given"):
        _rule_keys([","])
    assert sorted(r["key"] for r in json.loads(run_files[1].read_text())["rules"]) == KEYS  # given as "a,b"


def test_diff_of_one_side_against_itself_is_a_usage_error(capsys):
    assert main(["diff", "--ruleset", "momon-wonder", "--edition", "1.0.0", "--edition", "1.0.0"]) == 2
    assert "--edition 1.0.0 is given twice" in _error(capsys)
    assert main(["diff", "--ruleset", "mtg", "--option", "a=1", "--option", "a=1"]) == 2
    assert "--option a=1 is given twice" in _error(capsys)


MTG_EDITIONS = ["--edition", "2026-02-27", "--edition", "2021-02-24"]


@pytest.mark.parametrize("argv", [
    ["lint-rules", "--skew", "0.5"],  # a ValueError traceback before
    ["lint-rules", "--skew", "nan"],
    ["lint-rules", "--scenarios", "-1"],
    ["lint-rules", "--max-runs", "0"],
    ["diff", "--ruleset", "mtg", "--skew", "0", *MTG_EDITIONS, "--scenarios", "0"],
    ["diff", "--ruleset", "mtg", "--limit", "0", *MTG_EDITIONS, "--scenarios", "0"],
])
def test_out_of_range_numbers_are_usage_errors(argv, capsys):
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_lint_rules_of_an_unknown_edition_is_refused(capsys):
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--edition", "nope", "--scenarios", "0"]) == 2  # 0 before
    assert "--edition: ruleset momon-wonder has no edition 'nope'" in _error(capsys)


@pytest.mark.parametrize("argv", [
    ["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=1", "--json", "{missing}/s.json"],
    ["lint-rules", "--ruleset", "momon-wonder", "--scenarios", "1", "--report-json", "{missing}/l.json"],
    ["diff", "--ruleset", "momon-wonder", "--option", "sbc_events=false", "--exhaustive", "--bound", "depth=1",
     "--json", "{file}/d.json"],
    ["rules", "--matrix", "--report-html", "{missing}/m.html"],
    ["merge-stats", "{file}", "--json", "{folder}"],
    ["report", "{file}", "--output", "{missing}/r.md"],
], ids=["lint-exhaustive", "lint", "diff", "matrix", "merge-stats", "report"])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(tmp_path, capsys, argv):
    """A fresh user's finding: every editor command did all its work, then ended in a traceback on a bad output
    path. Now each refuses it first, in one line naming the option, exit 2, as ``run`` does."""
    afile = tmp_path / "afile"
    afile.write_text("{}")
    values = {"missing": str(tmp_path / "missing"), "file": str(afile), "folder": str(tmp_path)}
    code = main([part.format(**values) for part in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("trigger-conformance: --"), err
    if "{file}/" in " ".join(argv):
        assert "is a file, not a folder" in err, err


def test_two_outputs_naming_one_file_are_refused(tmp_path, capsys):
    same = str(tmp_path / "same.json")
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=1", "--json", same,
                 "--report-json", same])
    assert code == 2 and "both name" in capsys.readouterr().err
    assert not (tmp_path / "same.json").exists()
