"""Issue 23, item 5: reports and messages. A failed fixture's reason in every format; the verdicts counted at the top of
the HTML and Markdown reports; a handshake failure said once, not once per rule and fixture; ``--audit`` saying what
it audited when it finds nothing; one word per verdict (conformance/reports/text.MARK) everywhere; "did you mean"
for a misspelt rule key, option, ruleset and engine spec."""

from __future__ import annotations

import json
import re
import sys

import pytest

from conformance.commands import cli
from conformance.reports.render import html, junit, load, markdown
from conformance.adapters.registry import did_you_mean
from conformance.reports.text import MARK
from process_support import ENGINES, TWO_TRIGGERS

PROBLEM = "the engine failed its handshake: the engine exited with code 3"


def _run(rules, fixtures, rule_keys=None, audit=None, not_checked=()):
    return {"header": {"ruleset": "momon-wonder", "edition": "1.0.0", "engine": {"name": "e", "version": "1"},
                       "rule_keys": rule_keys or [r["key"] for r in rules]},
            "rules": rules, "fixtures": fixtures, "audit": audit, "footer": {}, "stopped": "", "explored": None,
            "interrupted": "SIGINT" if not_checked else None, "not_checked": list(not_checked)}


def _rule(key, status, **extra):
    return {"key": key, "rule_number": "11.2.4", "summary": "s", "status": status, "scenarios_run": 3,
            "scenarios_exercised": 3 if status == "passed" else 0, **extra}


def _fixture(name, status, *messages):
    return {"id": name, "status": status, "rule_keys": ["mw.queue-fifo"], "messages": list(messages)}


def test_a_failed_fixture_says_why_in_every_format():
    run = _run([_rule("mw.queue-fifo", "passed")],
               [_fixture("mw-a", "failed", "observable outcome differs at $.resolved[1]"), _fixture("mw-b", "passed")])
    for page in (markdown(run), html(run), junit(run)):
        assert "observable outcome differs at $.resolved[1]" in page


def test_the_verdicts_are_counted_at_the_top_of_markdown_and_html():
    run = _run([_rule("mw.queue-fifo", "passed"), _rule("mw.remedy-front", "failed"),
                _rule("mw.once-per-event", "errored", engine_problems={"errored": 3}, first_problem="boom")],
               [_fixture("mw-a", "failed", "differs"), _fixture("mw-b", "passed")],
               rule_keys=["mw.queue-fifo", "mw.remedy-front", "mw.once-per-event", "mw.removal-reason"],
               not_checked=["mw.removal-reason"])
    counts = "4 rules: 1 PASS, 1 FAIL, 1 ERROR, 1 not checked; 2 fixtures: 1 PASS, 1 FAIL"
    text = markdown(run)
    assert f"**{counts}**" in text and text.index(counts) < text.index("| rule | key |")
    page = html(run)
    assert counts in page and page.index(counts) < page.index("<table id=rules>")


def test_a_handshake_failure_is_said_once():
    keys = ["mw.queue-fifo", "mw.remedy-front", "mw.once-per-event"]
    rules = [_rule(k, "errored", engine_problems={"crashed": 1}, first_problem=PROBLEM, engine_stderr="no rules_core")
             for k in keys]
    run = _run(rules, [_fixture("mw-a", "errored", PROBLEM), _fixture("mw-b", "errored", PROBLEM)])
    for page in (markdown(run), html(run)):
        assert page.count("failed its handshake") == 1, page
        assert page.count("no rules_core") == 1  # its stderr, once
        assert "| rule | key |" not in page and "<table id=rules>" not in page  # no row per rule saying it again
        assert all(k in page for k in keys) and "mw-b" in page


def test_a_real_handshake_failure_report_says_it_once(tmp_path):
    stream = tmp_path / "r.jsonl"
    code = cli.main(["run", "--engine-cmd", f"{sys.executable} {ENGINES / 'bad_start.py'} crash", "--max-examples",
                     "2", "--report-jsonl", str(stream)])
    assert code == 1
    text = markdown(load(str(stream)))
    assert text.count("failed its handshake") == 1 and "ERROR" in text and "| `mw." not in text


def test_audit_says_what_it_audited_when_it_finds_nothing(tmp_path, capsys):
    stream = tmp_path / "r.jsonl"
    assert cli.main(["run", "--audit", "--max-examples", "4", "--no-fixtures", "--rules", "mw.queue-fifo",
                     "--report-jsonl", str(stream)]) == 0
    said = "audit: the observable outcomes of 4 of 4 scenarios compared with the reference engine's"
    out = capsys.readouterr().out
    assert said in out and "none unexplained" in out.split(said, 1)[1].splitlines()[0]
    run = load(str(stream))
    assert said in markdown(run) and said in html(run).replace("&#x27;", "'")


def test_one_word_per_verdict_in_every_format(tmp_path, capsys):
    stream = tmp_path / "r.jsonl"
    assert cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "mw.remedy-front",
                     "--max-examples", "30", "--shrink-seconds", "1", "--report-jsonl", str(stream)]) == 1
    out = capsys.readouterr().out
    run = load(str(stream))
    text, page = markdown(run), html(run)
    for shown in (out, text, page):
        assert not re.search(r"\bFAILED\b|\bERRORED\b|\bPASSED\b", shown)
    words = set(MARK.values())
    table = [line.split(" | ")[2] for line in text.splitlines() if line.startswith("| 11.")]
    fixture_table = [line.split(" | ")[1] for line in text.splitlines() if line.startswith("| `mw-")]
    assert table and fixture_table and set(table + fixture_table) <= words
    assert set(re.findall(r"<td class=status>([^<]*)</td>", page)) <= words
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(TWO_TRIGGERS), "utf-8")
    fixture = next((p for p in (ENGINES.parent.parent / "fixtures" / "momon-wonder").glob("*.json")))
    assert cli.main(["check", str(fixture)]) == 0
    assert f": {MARK['passed']}" in capsys.readouterr().out.splitlines()[-1]


def test_did_you_mean():
    assert did_you_mean("mw.queue-fif", ["mw.queue-fifo", "mw.remedy-front"]) == " (did you mean 'mw.queue-fifo'?)"
    assert did_you_mean("zzz", ["mw.queue-fifo"]) == ""


@pytest.mark.parametrize("argv,words", [
    (["run", "--rules", "mw.queue-fif"], "did you mean 'mw.queue-fifo'?"),
    (["run", "--option", "same_event_ordr=object-order"], "did you mean 'same_event_order'"),
    (["run", "--ruleset", "momon-wondr"], "did you mean 'momon-wonder'?"),
    (["rules", "--ruleset", "mgt"], "did you mean 'mtg'?"),
    (["explain", "mw.queue-fif"], "did you mean 'mw.queue-fifo'?"),
    (["run", "--engine", "mutant:mw-lif"], "did you mean 'mw-lifo'?"),
    (["run", "--engine", "referense"], "did you mean 'reference'?"),
    (["run", "--engine", "plugin_engines.py:MixedLifo"], "did you mean 'plugin_engines:MixedLifo'?"),
    (["run", "--engine", "plugin_engines:MixedLifu"], "did you mean 'MixedLifo'?"),
], ids=["rule", "option", "ruleset", "rules-ruleset", "explain", "mutant", "entry-point", "file", "attribute"])
def test_a_misspelt_name_gets_a_suggestion(argv, words, capsys):
    assert cli.main([*argv, "--max-examples", "1", "--no-fixtures"] if argv[0] == "run" else argv) == 2
    assert words in capsys.readouterr().err


def test_side_by_side_columns_wrap_at_words_and_lose_nothing():
    """A fresh user's finding: the console's side-by-side cut long lines mid-word at the column's width. Each cell
    now wraps at word boundaries onto continuation rows, the mark only on the first."""
    from conformance.reports.text import two_columns

    left = "Watcher's 2nd ability (set off when the signal “s0” is given) resolves after everything else"
    rows = two_columns(left, "short", 30)
    assert [x.rstrip() for x, _ in rows] == ["Watcher's 2nd ability (set off", "when the signal “s0” is given)",
                                            "resolves after everything else"]
    assert [y for _, y in rows] == ["short", "", ""] and all(len(x) == 30 for x, _ in rows)
    assert " ".join(x.strip() for x, _ in rows) == left
