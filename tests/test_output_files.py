"""Where `run` writes its reports (review finding 1): a report path that cannot be written is refused before the
run by really creating a file in its folder (root passes every permission check, yet nothing can be created in
/proc); two reports naming one file are refused; and a report that fails to be written at the end of the run is one
line of error on stderr, the other reports still written, and the exit code what the rules said (issue 34: 0
here, every rule passing)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from conformance.commands import cli
from conformance.commands import run_command

RUN = ["run", "--max-examples", "3", "--rules", "mw.queue-fifo", "--no-fixtures"]


@pytest.mark.parametrize("option", ["--report-json", "--junit-xml", "--report-jsonl"])
def test_a_folder_nothing_can_be_created_in_is_refused_before_the_run(option, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main([*RUN, option, "/proc/new-report"]) == 2
    err = capsys.readouterr().err
    assert f"{option}: cannot write in the folder /proc" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_two_reports_naming_one_file_are_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main([*RUN, "--report-json", "same.json", "--junit-xml", str(tmp_path / "same.json")]) == 2
    assert "--report-json and --junit-xml both name" in capsys.readouterr().err
    assert cli.main([*RUN, "--report-jsonl", "a.jsonl", "--report-json", "./a.jsonl"]) == 2


def test_the_probe_leaves_nothing_behind_and_keeps_an_existing_file(tmp_path):
    existing = tmp_path / "old.json"
    existing.write_text("kept")
    run_command.output_file(str(existing), "--report-json")
    run_command.output_file(str(tmp_path / "new.json"), "--report-json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"] and existing.read_text() == "kept"


@pytest.mark.parametrize("broken", ["--junit-xml", "--report-json"])
def test_a_report_that_cannot_be_written_at_the_end_loses_none_of_the_others(broken, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(run_command, "output_file", lambda path, option: None)  # as if the folder went away later
    paths = {"--junit-xml": "r.xml", "--report-json": "r.json", "--report-jsonl": "r.jsonl"}
    paths[broken] = "/proc/late-report"
    code = cli.main([*RUN, *(x for option, path in paths.items() for x in (option, path))])
    out = capsys.readouterr()
    assert code == 0, out
    errors = [line for line in out.err.splitlines() if "could not be written" in line]
    assert len(errors) == 1 and errors[0].startswith(f"trigger-conformance: error: {broken} /proc/late-report")
    assert "Traceback" not in out.out + out.err and "INTERNALERROR" not in out.out + out.err
    assert "report written to /proc" not in out.out
    for option, path in paths.items():
        if option == broken:
            continue
        text = (tmp_path / path).read_text()
        if path.endswith(".xml"):
            assert ET.fromstring(text).iter("testcase")
        elif path.endswith(".json"):
            assert json.loads(text)["rules"][0]["key"] == "mw.queue-fifo"
        else:
            assert json.loads(text.splitlines()[-1])["record"] == "footer"


def test_the_other_commands_writing_files_check_them_first(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    stream = tmp_path / "s.json"
    assert cli.main([*RUN, "--report-json", str(stream)]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(stream), "-o", "/proc/x.md"]) == 2
    assert "--output: cannot write in the folder /proc" in capsys.readouterr().err
    assert cli.main(["selftest", "--mutant", "mw-lifo", "--max-examples", "3", "--process", "0",
                     "--report-json", "/proc/x.json"]) == 2
    out = capsys.readouterr()
    assert "--report-json: cannot write in the folder /proc" in out.err and "selftest" not in out.out
