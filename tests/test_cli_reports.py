"""Issue 13: the pytest entry point (JUnit tells failures, errors and skips apart), time budgets, profiles, shards,
the JSON Lines stream and the reports rendered from it (Markdown, JUnit, and HTML read in headless Chromium)."""

from __future__ import annotations

import html as html_module
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.commands import cli
from conformance.documents.json_io import problems
from conformance.reports.render import html, junit, load, markdown

from reference_engine.kernel.registry import get_ruleset

MOMON_RULES = len(get_ruleset("momon-wonder").invariants)  # the rule keys a default run checks

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def _pytest(tmp_path: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    """``python -m pytest ARGS`` in an empty folder, the plugin found through its pytest11 entry point only."""
    # The checkout first: the entry point names the module, found wherever this checkout is (a worktree too).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    # Its own --basetemp: pytest otherwise makes a numbered folder beside the outer run's and removes the oldest,
    # which may be the one holding the other tests' tmp_path.
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'bt'}",
                           *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)


def _cases(path: Path) -> dict[str, ET.Element]:
    return {case.get("name"): case for case in ET.parse(path).getroot().iter("testcase")}


# -- 1. The pytest entry point ------------------------------------------------------------------------------------


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_pytest_entry_point_tells_failures_errors_and_skips_apart_in_junit(tmp_path):
    done = _pytest(tmp_path, "--trigger-ruleset", "momon-wonder", "--trigger-engine", "plugin_engines:MixedLifo",
                   "--trigger-max-examples", "20", "--trigger-shrink-seconds", "0.5", "--trigger-no-fixtures",
                   "-n", "2", "--junitxml", "junit.xml", "--trigger-report-jsonl", "run.jsonl")
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert "seed 0 (repeat with --trigger-seed 0)" in done.stdout
    suite = next(ET.parse(tmp_path / "junit.xml").getroot().iter("testsuite"))
    assert int(suite.get("tests")) == MOMON_RULES and int(suite.get("failures")) >= 1 and int(suite.get("errors")) >= 1
    cases = _cases(tmp_path / "junit.xml")
    assert {case.get("classname") for case in cases.values()} == {"trigger-conformance.momon-wonder"}
    fifo = cases["test_rule[mw.queue-fifo]"]
    failure = fifo.find("failure")
    assert failure is not None and fifo.find("error") is None  # a violation: a failure, with the explanation
    assert "first in, first out" in failure.text and "Reproduce with: trigger-conformance replay" in failure.text
    errored = [name for name, case in cases.items() if case.find("error") is not None]
    assert errored, "the rules MixedLifo did not fail got no verdict: each must be an <error>"
    for name in errored:
        text = cases[name].find("error").text
        assert "no verdict, the engine misbehaved" in text and "refusing scenarios with a multiple of 3" in text
    # Replay files are written by default, as `run` writes them, and the stream holds every verdict.
    replays = list((tmp_path / "trigger-conformance-failures").glob("momon-wonder-mw.queue-fifo-*.json"))
    assert len(replays) == 1
    records = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]
    assert records[0]["record"] == "header" and records[-1]["record"] == "footer"
    verdicts = {r["key"]: r["status"] for r in records if r["record"] == "rule"}
    assert len(verdicts) == MOMON_RULES and verdicts["mw.queue-fifo"] == "failed"
    assert {verdicts[name[len("test_rule["):-1]] for name in errored} == {"errored"}


def test_pytest_entry_point_skips_with_the_reason_and_takes_run_options(tmp_path):
    done = _pytest(tmp_path, "--trigger-ruleset", "momon-wonder", "--trigger-engine", "plugin_engines:DeclinesAll",
                   "--trigger-max-examples", "5", "--trigger-rules", "mw.queue-fifo,mw.remedy-front",
                   "--trigger-engine-timeout", "5", "--trigger-engine-restarts", "1", "--trigger-no-fixtures",
                   "--trigger-accept-skips", "-p", "no:xdist", "--junitxml", "junit.xml", "-rs")
    assert done.returncode == 0, done.stdout[-3000:]
    cases = _cases(tmp_path / "junit.xml")
    assert set(cases) == {"test_rule[mw.queue-fifo]", "test_rule[mw.remedy-front]"}  # --trigger-rules
    for case in cases.values():
        skipped = case.find("skipped")
        assert skipped is not None and "no Summon support yet" in skipped.get("message")
    # The console summary counts the skip reasons.
    assert "the engine skipped 5 of the 5 scenarios played, by reason:" in done.stdout
    assert "5  DeclinesAll: no Summon support yet" in done.stdout


def test_the_pytest_plugin_has_every_option_of_run():
    """Issue 13 item 1: `pytest --trigger-...` is the same run as `trigger-conformance run`: each option of run has a
    --trigger- form, but for the two pytest has itself (-n for --workers, --junitxml for --junit-xml)."""
    from conformance.running.pytest_plugin import pytest_addoption

    commands = next(a for a in cli.build_parser()._actions if a.dest == "command")
    run_options = {o[2:] for action in commands.choices["run"]._actions for o in action.option_strings
                   if o.startswith("--") and o != "--help"}
    seen: set[str] = set()

    class Group:
        def addoption(self, *names, **kwargs):
            seen.update(n[len("--trigger-"):] for n in names if n.startswith("--trigger-"))

    class Parser:
        def getgroup(self, name):
            return Group()

    pytest_addoption(Parser())
    assert run_options - seen == {"workers", "junit-xml"}, run_options - seen


def test_the_pytest_plugin_fails_a_run_that_checked_nothing_and_writes_the_json_report(tmp_path):
    base = ["--trigger-ruleset", "momon-wonder", "--trigger-engine", "plugin_engines:DeclinesAll",
            "--trigger-max-examples", "5", "--trigger-rules", "mw.queue-fifo", "--trigger-no-fixtures", "-p",
            "no:xdist"]
    done = _pytest(tmp_path, *base, "--trigger-report-json", "report.json")
    assert done.returncode == 1, done.stdout[-3000:]
    assert "error: nothing checked: the engine skipped 5 of the 5 scenarios" in done.stdout
    report = json.loads((tmp_path / "report.json").read_text())
    assert problems(report, "report") == [] and [r["status"] for r in report["rules"]] == ["skipped"]
    assert _pytest(tmp_path, *base, "--trigger-accept-skips").returncode == 0
    # --trigger-strict-exercise: a rule that never applied fails the run, as with run --strict-exercise.
    strict = _pytest(tmp_path, *base, "--trigger-accept-skips", "--trigger-strict-exercise")
    assert strict.returncode == 1 and "mw.queue-fifo never applied (--trigger-strict-exercise)" in strict.stdout


# -- 2. Time budget, profiles, seeds, shards ----------------------------------------------------------------------


def test_a_time_budget_stops_exploring_and_still_writes_every_verdict(tmp_path, capsys):
    import time

    report, stream = tmp_path / "report.json", tmp_path / "run.jsonl"
    started = time.monotonic()
    code = cli.main(["run", "--max-examples", "1000000", "--time-budget", "3s", "--no-fixtures",
                     "--report-json", str(report), "--report-jsonl", str(stream)])
    elapsed = time.monotonic() - started
    assert code == 0
    assert elapsed < 60, f"a 3 s budget took {elapsed:.0f} s"
    data = json.loads(report.read_text())
    assert problems(data, "report") == []
    assert data["stopped"]["by"] == "time budget" and 0 < data["stopped"]["scenarios_explored"] < 1_000_000
    assert len(data["rules"]) == MOMON_RULES and {r["status"] for r in data["rules"]} <= {"passed", "unexercised"}
    assert {r["scenarios_run"] for r in data["rules"]} == {data["stopped"]["scenarios_explored"]}
    assert "time budget stopped exploration" in capsys.readouterr().out
    assert load(str(stream))["stopped"] == "time budget"


def test_profiles_fill_in_what_is_not_given_and_a_printed_seed_repeats_the_run(tmp_path, capsys):
    from conformance.generation.profiles import PROFILES, parse_duration, settings

    assert settings("ci", {"max_examples": None, "seed": None, "shrink_seconds": None, "time_budget": None}) == \
        PROFILES["ci"]
    assert settings("nightly", {"max_examples": 7, "seed": None, "shrink_seconds": None, "time_budget": None})[
        "max_examples"] == 7
    assert parse_duration("1h30m") == 5400 and parse_duration("90") == 90 and parse_duration("2.5m") == 150
    assert cli.main(["run", "--time-budget", "soon"]) == 2
    assert cli.main(["run", "--shard", "3/2"]) == 2
    first = tmp_path / "first.json"
    assert cli.main(["run", "--profile", "nightly", "--max-examples", "15", "--rules", "mw.queue-fifo",
                     "--no-fixtures", "--report-json", str(first)]) == 0
    out = capsys.readouterr().out
    seed = json.loads(first.read_text())["seed"]
    assert f"seed {seed} (repeat with --seed {seed})" in out and "time budget 18000 s" in out
    again = tmp_path / "again.json"
    assert cli.main(["run", "--seed", str(seed), "--max-examples", "15", "--rules", "mw.queue-fifo",
                     "--no-fixtures", "--report-json", str(again)]) == 0
    keep = lambda path: [(r["key"], r["status"], r["scenarios_run"], r["scenarios_exercised"])  # noqa: E731
                         for r in json.loads(path.read_text())["rules"]]
    assert keep(first) == keep(again)


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_shards_together_give_the_verdicts_of_one_job(tmp_path, capsys):
    def verdicts(*extra):
        report = tmp_path / f"report{len(list(tmp_path.iterdir()))}.json"
        cli.main(["run", "--engine", "mutant:mw-lifo", "--max-examples", "40", "--shrink-seconds", "0.5",
                  "--failures-dir", str(tmp_path / "failures"), "--report-json", str(report), *extra])
        data = json.loads(report.read_text())
        # (The shrunk scenario is left out: shrinking has a time limit, so on a loaded machine it may stop at
        # another step; the verdict and the counts do not depend on it.)
        rules = {r["key"]: (r["status"], r["scenarios_run"], r["scenarios_exercised"]) for r in data["rules"]}
        return rules, {f["id"]: f["status"] for f in data["fixtures"]}

    whole = verdicts()
    shards = [verdicts("--shard", f"{i}/3") for i in (1, 2, 3)]
    keys = [set(rules) for rules, _ in shards]
    assert all(keys) and not (keys[0] & keys[1] or keys[1] & keys[2] or keys[0] & keys[2])  # disjoint, none empty
    assert {k: v for rules, _ in shards for k, v in rules.items()} == whole[0]
    assert {k: v for _, fixtures in shards for k, v in fixtures.items()} == whole[1]
    assert any(status == "failed" for status, *_ in whole[0].values())


# -- 3. The stream and the reports rendered from it ---------------------------------------------------------------


@pytest.fixture(scope="module")
def lifo_stream(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lifo")
    stream = folder / "run.jsonl"
    code = cli.main(["run", "--engine", "mutant:mw-lifo", "--max-examples", "30", "--shrink-seconds", "2",
                     "--failures-dir", str(folder / "failures"), "--report-jsonl", str(stream)])
    assert code == 1
    return stream


def test_the_stream_has_a_header_a_verdict_per_line_and_a_footer(lifo_stream):
    records = [json.loads(line) for line in lifo_stream.read_text().splitlines()]
    assert [r["record"] for r in records[:2]] == ["header", "explored"] and records[-1]["record"] == "footer"
    header = records[0]
    assert header["seed"] == 0 and header["engine"]["spec"] == "mutant:mw-lifo" and len(header["rule_keys"]) == MOMON_RULES
    rules = [r for r in records if r["record"] == "rule"]
    assert sorted(r["key"] for r in rules) == sorted(header["rule_keys"])
    failed = [r for r in rules if r["status"] == "failed"]
    assert failed and all(r["failure"]["messages"] and Path(r["failure"]["replay_file"]).is_file() for r in failed)
    assert records[-1]["summary"]["rules_failed"] == len(failed)


def test_an_interrupted_stream_keeps_what_it_found(lifo_stream, tmp_path):
    lines = lifo_stream.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:6]) + "\n" + lines[6][:40])  # no footer, the last line cut short
    run = load(str(cut))
    assert run["interrupted"] and len(run["rules"]) == 4
    assert len(run["not_checked"]) == MOMON_RULES - 4 + len(json.loads(lines[0])["fixtures"])
    text = markdown(run)
    assert "INTERRUPTED" in text and "not checked" in text
    xml = ET.fromstring(junit(run).split("\n", 1)[1])
    assert sum(1 for s in xml.iter("skipped") if "interrupted" in s.get("message")) == len(run["not_checked"])


def test_a_signal_just_after_the_footer_leaves_reports_that_agree(tmp_path, monkeypatch, capsys):
    """Issue 23 item 6: a signal that came once the JSON Lines footer said "not interrupted" made the JSON report say
    "interrupted". Once the footer is written the run's account is settled: every report says what the footer says."""
    import signal

    from conformance.running.recorder import RunRecorder

    finish = RunRecorder.finish

    def finish_then_signal(self, *args, **kwargs):
        finish(self, *args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # the command's handler turns it into a KeyboardInterrupt here

    monkeypatch.setattr(RunRecorder, "finish", finish_then_signal)
    stream, report, xml = tmp_path / "run.jsonl", tmp_path / "r.json", tmp_path / "junit.xml"
    code = cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "mw.group-position",
                     "--no-fixtures", "--max-examples", "10", "--report-jsonl", str(stream), "--report-json",
                     str(report), "--junit-xml", str(xml)])
    err = capsys.readouterr().err
    footer = json.loads(stream.read_text().splitlines()[-1])
    document = json.loads(report.read_text())
    assert footer["record"] == "footer" and "interrupted" not in footer and footer["stopped"] == ""
    assert "interrupted" not in document and "not_checked" not in document
    assert {r["key"]: r["status"] for r in document["rules"]} == {"mw.queue-fifo": "failed",
                                                                  "mw.group-position": "passed"}
    assert code == 1  # the verdicts' exit code: the run was complete
    assert "SIGINT came after every verdict was recorded" in err and "Traceback" not in err
    assert len(_cases(xml)) == 2


def test_report_command_renders_markdown_and_junit(lifo_stream, tmp_path, capsys):
    assert cli.main(["report", str(lifo_stream), "--format", "markdown"]) == 0
    text = capsys.readouterr().out
    assert "| 11.2.4 | `mw.queue-fifo` | FAIL |" in text and "**first difference**" in text
    assert "Reproduce with: `trigger-conformance replay" in text
    out = tmp_path / "junit.xml"
    assert cli.main(["report", str(lifo_stream), "--format", "junit", "-o", str(out)]) == 0
    cases = _cases(out)
    assert cases["test_rule[mw.queue-fifo]"].find("failure") is not None
    assert cases["test_rule[mw.remedy-front]"].find("failure") is None
    assert {c.get("classname") for c in cases.values()} == {"trigger-conformance.momon-wonder"}
    assert cli.main(["report", str(tmp_path / "missing.jsonl")]) == 2


EVIL = "<img src=x onerror=alert(1)> *em* _u_ ~~s~~ | `tick` [link](http://e.invalid) \x1b[31m&amp;"


def test_engine_and_document_text_is_literal_in_markdown_and_html(lifo_stream):
    """Issue 23 item 6: the Markdown report wrote the engine's name as it came. Every string a report holds (the
    engine's name, messages, ids, a scenario, traces, stderr) is text in Markdown and HTML, whatever it holds."""
    markdown_it = pytest.importorskip("markdown_it")
    run = load(str(lifo_stream))
    run["header"]["engine"]["name"] = EVIL
    run["header"]["seed"] = "# " + EVIL
    failed = next(r for r in run["rules"] if r.get("failure"))
    failed["failure"]["messages"] = ["# " + EVIL, "```\n# heading\n" + EVIL]
    failed["failure"]["scenario"]["objects"][0]["id"] = "```\n# out of the fence " + EVIL
    failed["failure"]["replay_command"] = "trigger-conformance replay `x` " + EVIL
    run["fixtures"] = [{"id": "`" + EVIL, "status": "failed", "rule_keys": [EVIL], "messages": [EVIL]}]
    run["rules"].append({**failed, "key": EVIL + "k", "status": "errored", "failure": None,
                         "first_problem": "- " + EVIL, "engine_stderr": "```\n" + EVIL, "engine_problems": {"x": 1}})
    text = markdown(run)
    assert "\x1b" not in text
    rendered = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)
    for made in ("<img", "<em>", "<a ", "<s>", "<h1>", "<ul>\n<li>-", "<blockquote"):
        assert made not in rendered.replace("<h1>trigger-conformance", ""), made
    sections = sum(1 for r in run["rules"] if r.get("failure")) + 1  # each failure and the engine's problem
    assert rendered.count("<h2>") == sections and rendered.count("<h1>") == 1
    assert "&lt;img src=x onerror=alert(1)&gt; *em* _u_ ~~s~~ | <code>tick</code>" not in rendered
    assert "&lt;img src=x onerror=alert(1)&gt; *em* _u_ ~~s~~ | " in rendered  # the text, as it was
    page = html(run)
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def probed_in_chromium(page: str, probe: str, folder: Path, *flags: str) -> tuple[subprocess.CompletedProcess, dict]:
    """Open ``page`` in headless Chromium with the ``probe`` script added before ``</body>`` (it writes a JSON object
    into ``<pre id="probe">``), and return the browser's run and that object, read from the dumped DOM."""
    target = folder / "report.html"
    target.write_text(page.replace("</body>", probe + "</body>"), "utf-8")
    done = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", *flags, "--dump-dom",
                           target.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    start = done.stdout.index('<pre id="probe">') + len('<pre id="probe">')
    return done, json.loads(html_module.unescape(done.stdout[start:done.stdout.index("</pre>", start)]))


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (Debian package `chromium`; .ci/run "
                                                  "installs it): the HTML report cannot be opened in a browser here")
def test_the_html_report_reads_right_in_headless_chromium(lifo_stream, tmp_path):
    page = html(load(str(lifo_stream)))
    assert "<script" not in page and "http://" not in page and "https://" not in page  # one self-contained file
    # What a reader sees: the page's rendered text (innerText leaves out what is not displayed) and the colour of
    # the first difference, measured by the browser and written where --dump-dom shows them.
    probe = ("<script>addEventListener('load',()=>{const r=document.querySelector('tr.first-difference td');"
             "const o=document.createElement('pre');o.id='probe';o.textContent=JSON.stringify({text:"
             "document.body.innerText,firstBg:getComputedStyle(r).backgroundColor,sameBg:getComputedStyle("
             "document.querySelector('tr.same td')).backgroundColor,failures:document.querySelectorAll("
             "'section.failure').length});document.body.appendChild(o)})</script>")
    done, seen = probed_in_chromium(page, probe, tmp_path)
    text = seen["text"]
    assert "trigger-conformance: momon-wonder 1.0.0 on mutant:mw-lifo" in text
    assert "mw.queue-fifo" in text and "FAIL" in text and "PASS" in text
    assert "the queue is first in, first out" in text  # the explanation
    assert "expected (reference engine)" in text and "actual (engine under test)" in text
    assert "First difference at entry" in text
    assert "trigger-conformance replay" in text and "--engine mutant:mw-lifo" in text
    assert '"players"' not in text  # the scenario's JSON stays folded away until asked for
    assert seen["failures"] == sum(1 for line in lifo_stream.read_text().splitlines()
                                   if '"status": "failed"' in line and '"record": "rule"' in line)
    assert seen["firstBg"] == "rgb(255, 179, 179)" and seen["firstBg"] != seen["sameBg"]


# -- 6. The nightly workflow and the docs' nightly command -----------------------------------------------------


def _folded_command(text: str, after: str) -> list[str]:
    """The command of a YAML folded block (``run: >-``) following the line containing ``after``."""
    import shlex

    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) + 1
    assert lines[start].strip() == "run: >-"
    body = []
    for line in lines[start + 1:]:
        if not line.startswith(" " * 10):
            break
        body.append(line.strip())
    return shlex.split(" ".join(body))


def test_the_nightly_workflow_shares_redis_between_shards_and_uploads_reports():
    text = (ROOT / ".github" / "workflows" / "nightly.yml").read_text()
    assert "services:" in text and "image: redis" in text and "shard: [1, 2, 3, 4]" in text
    assert "actions/upload-artifact" in text and "failures/" in text and "report.html" in text
    matrix = text.replace("${{ matrix.ruleset }}", "mtg").replace("${{ matrix.shard }}", "2")  # one job of it
    argv = _folded_command(matrix, "- name: Run shard")
    assert argv[:2] == [".venv/bin/trigger-conformance", "run"]
    args = cli.build_parser().parse_args(argv[1:])  # every option the workflow uses exists
    assert args.ruleset == "mtg" and args.shard == "2/4"
    assert args.database == "redis://localhost:6379/0" and args.profile == "nightly" and args.report_jsonl


def test_the_docs_nightly_command_parses_and_names_the_ruleset():
    import re
    import shlex

    page = (ROOT / "docs" / "ci.md").read_text()
    block = re.search(r"# Nightly fuzzing.*?```sh\n(.*?)```", page, re.S).group(1)
    first = block.split("\n")
    command = []
    for line in first:
        command.append(line.rstrip("\\").strip())
        if not line.endswith("\\"):
            break
    argv = shlex.split(" ".join(command))
    args = cli.build_parser().parse_args(argv[1:])
    assert args.ruleset == "momon-wonder" and args.engine_cmd == ".venv/bin/trigger-conformance-reference-server"


def test_a_report_folder_removed_during_the_run_costs_no_report(tmp_path, monkeypatch, capsys):
    """Issue 23 item 6: the folder of the reports removed while the run goes on ends in no traceback and no lost
    report: each report that cannot be written where asked is written to the current folder, and the console says
    so (the JSON report, and the JSON Lines report, whose lines are kept to be written again)."""
    from conformance.running.recorder import RunRecorder

    out, work = tmp_path / "out", tmp_path / "work"
    out.mkdir()
    work.mkdir()
    monkeypatch.chdir(work)
    explored = RunRecorder.explored

    def then_removed(self, exploration):
        explored(self, exploration)
        shutil.rmtree(out)

    monkeypatch.setattr(RunRecorder, "explored", then_removed)
    code = cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--no-fixtures",
                     "--max-examples", "10", "--shrink-seconds", "0.5", "--failures-dir", str(work / "failures"),
                     "--report-json", str(out / "report.json"), "--report-jsonl", str(out / "run.jsonl")])
    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err + captured.out, captured.err
    assert not out.exists()
    report = json.loads((work / "report.json").read_text())
    assert report["rules"][0]["status"] == "failed"
    lines = [json.loads(line) for line in (work / "run.jsonl").read_text().splitlines()]
    assert [r["record"] for r in lines] == ["header", "explored", "rule", "footer"]
    assert f"--report-json {out / 'report.json'} could not be written" in captured.err
    assert f"written to {work / 'report.json'} instead" in captured.err and f"report written to {work / 'report.json'}" in captured.out
    assert f"written to {work / 'run.jsonl'} instead" in captured.err
