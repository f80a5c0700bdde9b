"""One run's record, the same under ``trigger-conformance run`` and under plain pytest: the stream explored once, each
verdict as it comes (with the command, one row printed per verdict), the JSON Lines report flushed line by line, the
JSON report built from every verdict known (interrupted or not), and the checks that fail a run besides its verdicts
("nothing checked", and rules that never applied under strict exercise).

The pytest plugin (:mod:`conformance.running.pytest_plugin`) drives a :class:`RunRecorder`: the command builds one and hands
it to pytest, plain pytest gets one built from its ``--trigger-*`` options.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.documents.json_io import dump_json, validate, write_atomically
from conformance.generation.profiles import EXPLORATION_SHARE
from conformance.reports.text import MARK
from conformance.running.session import Session, explore_stream


class RunRecorder:
    """The record of one run of ``session`` on the engine ``described`` (the report's engine description).

    ``report_jsonl``: where the JSON Lines report goes (opened by :meth:`start`); ``out``: where a row per verdict is
    printed (the command's console; None under pytest); ``progress``: a :class:`conformance.reports.progress.Progress`,
    told how far exploration is and of each rule concluded. ``interrupted`` names the signal that stopped the run.
    ``started`` (a ``time.time()``, default now): when the run started, its handshake included, from which the
    report's seconds and the time budget count.
    Once the JSON Lines footer is written, the run's account is settled: a signal that comes later (``late_signal``)
    does not make the reports call the run interrupted when the footer does not.
    """

    def __init__(self, session: Session, described: dict[str, str], report_jsonl: str | None = None, out=None,
                 progress=None, started: float | None = None):
        self.session, self.described = session, described
        self.report_jsonl, self.out, self.progress = report_jsonl, out, progress
        self.started = time.time() if started is None else started  # before the handshake, when the caller knows
        self.entries: dict[str, dict] = {}  # item name (rule key, fixture id, audit) -> its report entry
        self.exploration: dict[str, Any] = {}
        self._interrupted: str | None = None
        self.late_signal: str | None = None  # a signal that came after the footer said the run was not interrupted
        self.finished = False
        self.footer_written = False
        self.junit_written = False
        self.junit_failed = False  # the JUnit XML could not be copied where asked (said on stderr)
        self.database_warned = ""  # the example database's failure, once warned about
        self.file = None
        self.jsonl_error = ""  # why the JSON Lines report could not be written during the run (a full disk)
        self.jsonl_bytes = 0  # how much of it is whole lines on disk
        self.lines: list[str] = []  # the JSON Lines report's lines

    @property
    def interrupted(self) -> str | None:
        """The signal that stopped the run (None: it was not stopped)."""
        return self._interrupted

    @interrupted.setter
    def interrupted(self, name: str | None) -> None:
        if self.footer_written and not self._interrupted:  # the footer already says the run was not interrupted
            self.late_signal = self.late_signal or name
            return
        self._interrupted = name

    # -- The JSON Lines report --------------------------------------------------------------------------------

    def start(self) -> None:
        """Open the JSON Lines report and write its header (when the run starts, not before)."""
        session = self.session
        if self.report_jsonl:
            self.file = open(self.report_jsonl, "w", encoding="utf-8")  # noqa: SIM115 (closed by finish)
            self._write({
                "record": "header", "format": "trigger-conformance/stream/1", "tool_version": __version__,
                "engine": self.described, "ruleset": session.ruleset.name, "edition": session.edition,
                "options": session.options, "seed": session.spec.seed, "max_examples": session.spec.max_examples,
                "shard": list(session.spec.shard) if session.spec.shard else None,
                "time_budget": session.spec.time_budget, "rule_keys": session.rule_keys(),
                "fixtures": [f.id for f in session.fixtures()], "started": round(self.started, 3)})

    def _write(self, record: dict) -> None:
        if self.file is not None or self.jsonl_error:
            line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
            self.lines.append(line)  # to write again elsewhere if the file's folder is removed during the run
            if self.file is None:  # it failed earlier: the lines are kept, written elsewhere by finish
                return
            try:
                self.file.write(line)
                self.file.flush()  # an interrupted run keeps every line written so far
                os.fsync(self.file.fileno())
                self.jsonl_bytes += len(line.encode("utf-8"))
            except OSError as exc:  # a full disk: one line now, the run goes on, every line kept for the end
                self.jsonl_error = exc.strerror or str(exc)
                with contextlib.suppress(OSError):
                    self.file.close()
                with contextlib.suppress(OSError):  # no half line left in the file: whole records, as if stopped
                    os.truncate(self.report_jsonl, self.jsonl_bytes)
                self.file = None
                print(f"trigger-conformance: error: {self.session.spec.option_prefix}report-jsonl {self.report_jsonl}"
                      f" could not be written: {self.jsonl_error}; the run goes on, its lines kept to be written "
                      f"elsewhere at the end", file=sys.stderr)

    # -- Exploring -------------------------------------------------------------------------------------------

    def explore(self, workers: int) -> dict[str, Any]:
        """Explore the run's stream once, shared out among ``workers`` processes (as many as pytest-xdist runs
        workers), within the share of the time budget exploration has; the session then concludes from it."""
        spec = self.session.spec
        budget = spec.time_budget
        progress = self.progress.explored if self.progress is not None else None
        exploring = time.time()
        exploration = explore_stream(spec, workers, self.started + EXPLORATION_SHARE * budget if budget else None,
                                     progress=progress)
        exploration["deadline"] = self.started + budget if budget else None
        exploration["seconds"] = round(time.time() - exploring, 3)
        self.session.use_exploration(exploration)
        self.explored(exploration)
        return exploration

    def explored(self, exploration: dict[str, Any]) -> None:
        self.exploration = exploration
        # "stopped": why exploration ended before the whole stream: "" (it did not), "time budget", or the signal
        # that interrupted the run ("SIGINT", "SIGTERM")
        self._write({"record": "explored", "scenarios": exploration.get("explored", 0),
                     "stopped": exploration.get("stopped") or exploration.get("interrupted") or ""})

    # -- Verdicts --------------------------------------------------------------------------------------------

    def record(self, kind: str, name: str, entry: dict | None, why: str = "") -> None:
        """The verdict of item ``name`` (``kind``: rule, fixture or audit): its report ``entry``, or None when its
        check did not finish (a bug in the suite: ``why`` says what happened; a rule is then reported errored)."""
        if name in self.entries:
            return
        unfinished = entry is None
        if entry is None:
            entry = self._unfinished(kind, name, why.strip()[-4000:] or "the check did not finish")
        self.entries[name] = entry  # kept (and written) before it is shown: a signal may come at any moment
        from conformance.documents.expectations import judge

        verdict = judge(entry, self.session.expected, self.session.quarantined) if kind == "rule" else None
        self._write({"record": kind, **entry, **({"expectation": verdict} if verdict else {})})
        if self.out is not None:
            if self.progress is not None:
                self.progress.clear()
            if unfinished:
                print(f"ERROR {name:<34} the check did not finish: {why.strip()[:500]}", file=self.out)
            else:
                self._print_row(kind, entry, verdict)
        said = entry.get("database_error") or entry.get("database_warning")
        if said and not self.database_warned:  # once per run, on the console
            self.database_warned = said
            if self.out is not None:
                print(f"warning: {said}", file=self.out)
        if kind == "rule" and self.progress is not None:
            self.progress.concluded(entry.get("status") == "failed")
        if self.out is not None:
            self.out.flush()
            if self.progress is not None and self.progress.live:
                self.progress.show(force=True)

    def _unfinished(self, kind: str, name: str, why: str) -> dict[str, Any]:
        if kind != "rule" or name not in self.session.rule_keys():
            return {"key" if kind != "fixture" else "id": name, "status": "errored", "check_error": why}
        inv = self.session.ruleset.invariant(name)
        return {"key": name, "rule_number": inv.rule_number(self.session.edition), "summary": inv.summary,
                "status": "errored", "scenarios_run": 0, "scenarios_exercised": 0, "seconds": 0, "check_error": why}

    def _print_row(self, kind: str, entry: dict, verdict: str | None = None) -> None:
        from conformance.reports.text import audit_row, rule_row

        if kind == "rule":
            print(rule_row(entry, verdict), file=self.out)
        elif kind == "audit":
            print(audit_row(entry), file=self.out)
        else:
            mark = MARK[entry["status"]]
            print(f"{mark:5} fixture {entry['id']:<26} covers {', '.join(entry['rule_keys'])}", file=self.out)

    def record_interrupted(self) -> None:
        """In an interrupted run: every rule not concluded gets what exploration learnt of it
        (:mod:`conformance.running.partial`): failed (unshrunk, with its replay file) when a failure was found, else partial
        ("no violation in N scenarios"); a rule no scenario was explored for stays not checked."""
        for key in self.session.rule_keys():
            if key in self.entries:
                continue
            entry = self.session.interrupted_verdict(key)
            if entry is not None:
                self.entries[key] = entry = plain(entry)
                self._write({"record": "rule", **entry})
                if self.out is not None:
                    from conformance.reports.text import rule_row

                    if self.progress is not None:
                        self.progress.clear()
                    print(rule_row(entry), file=self.out, flush=True)

    def interrupted_lines(self, report_json: str | None = None, junit_xml: str | None = None) -> list[str]:
        """What the console says of an interrupted run: by which signal and after how many scenarios, every verdict
        it keeps counted (partial verdicts are not passes), and where each report and replay file went."""
        from conformance.reports.text import verdict_counts

        keys = set(self.session.rule_keys())
        missing = self.not_checked()
        counts = verdict_counts(self.report()["summary"], {"rules": sum(1 for k in missing if k in keys),
                                                           "fixtures": sum(1 for k in missing if k not in keys)})
        lines = [f"interrupted by {self.interrupted} after {self.exploration.get('explored', 0)} scenario(s) "
                 f"explored: {counts}"]
        if any(e.get("status") == "partial" for e in self.entries.values()):
            lines.append("PARTIAL: no violation in the scenarios explored so far, but not concluded: not a pass")
        replays = sorted({str(Path(f).parent) for e in self.entries.values()
                          if (f := (e.get("failure") or {}).get("replay_file"))})
        written = [f"the JSON Lines report is in {self.report_jsonl}" if self.report_jsonl else "",
                   f"the partial report in {report_json}" if report_json else "",
                   f"the JUnit XML in {junit_xml}" if junit_xml else "",
                   f"the replay files of the failures found in {', '.join(replays)}" if replays else ""]
        if any(written):
            lines.append("; ".join(w for w in written if w))
        return lines

    def rules(self) -> list[dict]:
        """The rule entries known, in the ruleset's order."""
        order = {key: n for n, key in enumerate(self.session.rule_keys())}
        return sorted((e for e in self.entries.values() if "rule_number" in e and e.get("key") in order),
                      key=lambda e: order[e["key"]])

    def not_checked(self) -> list[str]:
        """The rule keys and fixtures that got no verdict."""
        return [k for k in self.session.rule_keys() + [f.id for f in self.session.fixtures()]
                if k not in self.entries]

    # -- The reports -----------------------------------------------------------------------------------------

    def report(self) -> dict[str, Any]:
        """The run's JSON report (``schemas/report.schema.json``) from every verdict known."""
        rules, fixtures = self.rules(), [e for e in self.entries.values() if "id" in e and "rule_keys" in e]
        summary: dict[str, int] = {}
        for prefix, items in (("rules", rules), ("fixtures", fixtures)):
            for item in items:
                summary[f"{prefix}_{item['status']}"] = summary.get(f"{prefix}_{item['status']}", 0) + 1
        session = self.session
        report = {
            "format": "trigger-conformance/report/1", "tool_version": __version__, "engine": self.described,
            "ruleset": session.ruleset.name, "edition": session.edition, "options": session.options,
            "seed": session.spec.seed, "max_examples": session.spec.max_examples,
            "seconds": round(time.time() - self.started, 2), "rules": rules, "fixtures": fixtures,
            "summary": summary, "time_split": time_split(self.exploration, rules),
        }
        audit = next((e for e in self.entries.values() if "compared" in e), None)
        if audit is not None:
            report["audit"] = {k: v for k, v in audit.items() if k != "key"}
        if self.exploration.get("stopped"):
            report["stopped"] = {"by": self.exploration["stopped"],
                                 "scenarios_explored": self.exploration.get("explored", 0)}
        if self.interrupted:
            report["interrupted"] = self.interrupted
            report["not_checked"] = self.not_checked()
        return report

    def write_report(self, path: str | None, report: dict[str, Any] | None = None) -> str | None:
        """Write the JSON report (``report``, else :meth:`report`) to ``path``, validated, atomically; returns where
        it went (:func:`write_somewhere`), None without a path."""
        if not path:
            return None
        report = report or self.report()
        validate(report, "report", "the report being written")
        # atomically: never half a report
        return write_somewhere(path, dump_json(report), "JSON report", f"{self.session.spec.option_prefix}report-json")

    def write_junit(self, path: str | None, complete: bool = False) -> None:
        """After an interrupt, the JUnit XML file (written atomically) from every verdict known: a failure found
        while exploring is a ``<failure>`` (unshrunk), each rule and fixture not checked ``<skipped>`` (the run was
        interrupted). pytest writes none when the signal came while the stream was explored (before its session
        started), and one without the items not run when it came later. ``complete``: written for a run that was not
        interrupted too (a signal came after every verdict was recorded, maybe before pytest wrote its own)."""
        if not path or not (self.interrupted or complete):
            return
        from conformance.reports.render import from_report, junit

        went = write_somewhere(path, junit(from_report(self.report(), self.session.rule_keys())), "JUnit XML",
                               "--junitxml" if self.session.spec.option_prefix == "--trigger-" else "--junit-xml")
        self.junit_written = True
        self.junit_failed = went != path  # written elsewhere (or to stderr), not where asked

    def finish(self, interrupted: bool = False) -> None:
        """Write the JSON Lines report's footer (once): the summary, and for an interrupted run by which signal and
        what got no verdict."""
        if self.finished:
            return
        self.finished = True
        if interrupted and not self.interrupted:
            self.interrupted = "SIGINT"
        if self.interrupted:
            self.record_interrupted()
        summary: dict[str, int] = {}
        for entry in self.entries.values():
            prefix = "rules" if "key" in entry and "rule_number" in entry else "fixtures" if "id" in entry else None
            if prefix:
                summary[f"{prefix}_{entry['status']}"] = summary.get(f"{prefix}_{entry['status']}", 0) + 1
        footer = {"record": "footer", "summary": summary, "seconds": round(time.time() - self.started, 2),
                  "scenarios_explored": self.exploration.get("explored", 0),
                  "stopped": self.exploration.get("stopped") or self.interrupted or ""}  # as the explored record's
        if self.interrupted:
            footer["interrupted"] = self.interrupted
            footer["not_checked"] = self.not_checked()
        self._write(footer)
        self.footer_written = True
        if self.jsonl_error:
            partial = self.report_jsonl
            self.report_jsonl = write_somewhere(partial, "".join(self.lines), "JSON Lines report",
                                                f"{self.session.spec.option_prefix}report-jsonl")
            if self.report_jsonl is not None and self.report_jsonl != partial:  # whole elsewhere: no stale part
                with contextlib.suppress(OSError):  # left to read as a run stopped half-way
                    os.unlink(partial)
        elif self.file is not None:
            self.file.close()
            self.file = None
            if not Path(self.report_jsonl).is_file():  # its folder (or the file) was removed during the run
                self.report_jsonl = write_somewhere(self.report_jsonl, "".join(self.lines), "JSON Lines report",
                                                    f"{self.session.spec.option_prefix}report-jsonl")


def write_somewhere(path: str, text: str, what: str, option: str) -> str | None:
    """Write ``text`` (the ``what``, asked for with ``option``) to ``path`` atomically; when that fails (the folder
    was removed during the run, the disk is full...), say so in one line on stderr and write it to the current folder
    instead, or, failing that, to stderr itself: what a run found is never lost to a traceback, and the other reports
    are still written. Returns where it went (None: stderr)."""

    try:
        write_atomically(path, text)
        return path
    except OSError as exc:
        problem = exc.strerror or str(exc)
    removed = not Path(path).parent.is_dir()  # the cause is the folder only when it is gone, not a full disk
    fallback = unused_name(Path.cwd() / Path(path).name)  # never over a file already there
    said = f"trigger-conformance: error: {option} {path} could not be written: {problem}" + \
           (" (its folder was removed during the run)" if removed else "")
    try:
        if fallback.resolve() == Path(path).resolve():
            raise OSError(problem)
        write_atomically(fallback, text)
    except OSError:
        print(f"{said}; nor can the {what} be written to the current folder; here it is:\n{text}", file=sys.stderr)
        return None
    print(f"{said}; the {what} is written to {fallback} instead", file=sys.stderr)
    return str(fallback)


def unused_name(path: Path) -> Path:
    """``path``, or when a file is there already ``STEM-1.EXT``, ``STEM-2.EXT``... the first name not taken."""
    candidate, n = path, 0
    while candidate.exists() or candidate.is_symlink():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate


def plain(value: Any) -> Any:
    """``value`` as the JSON data a file would hold (a lone surrogate an engine put in its text becomes U+FFFD): what
    a report entry is, and what pytest-xdist's channel can carry."""
    return json.loads(dump_json(value))


def never_applied(rules: list[dict]) -> list[str]:
    """The rule keys that never applied in the run, or whose every scenario was skipped: their pass says nothing
    (``--strict-exercise`` fails the run for them)."""
    return [rule["key"] for rule in rules if rule["status"] in ("unexercised", "skipped")]


def unexercised_advice(excluded: list[str], max_examples_flag: str, silent: bool = False) -> str:
    """What to do about rules that never applied: raise ``max_examples_flag``, unless the engine's traces showed
    nothing of the scenarios (``silent``: no trace it gave held an event, see
    :func:`conformance.running.runner.silent_engine`), or its
    generation profile leaves out features (``excluded``), which may be what those rules need: then that is said."""
    if silent:
        return ("the engine's traces show nothing of the scenarios: is it playing them? No trace it gave held an "
                "event, so more examples will not help")
    if not excluded:
        return f"raise {max_examples_flag}"
    return (f"the engine's generation profile excludes {', '.join(excluded)}, so no scenario has them: a rule that "
            f"needs them cannot apply until the engine supports them; otherwise raise {max_examples_flag}")


def declined(rules: list[dict]) -> tuple[int, int] | None:
    """(skipped, played) when the engine skipped most (more than half) of the stream's scenarios, else None: such a
    run checked next to nothing, and fails unless the user accepts it (``--accept-skips``). Every rule sees the same
    stream, so the rule that ran the most scenarios tells."""
    widest = max(rules, key=lambda r: r["scenarios_run"], default=None)
    if widest is None or widest["scenarios_run"] == 0:
        return None
    skipped = (widest.get("engine_problems") or {}).get("skipped", 0)
    return (skipped, widest["scenarios_run"]) if skipped * 2 > widest["scenarios_run"] else None


def nothing_checked(rules: list[dict], accept_skips_flag: str) -> str | None:
    """The message that fails a run in which the engine skipped most scenarios (:func:`declined`), naming the flag
    that accepts it; None when it did not."""
    found = declined(rules)
    if found is None:
        return None
    skipped, played = found
    return (f"error: nothing checked: the engine skipped {skipped} of the {played} scenarios it was given "
            f"({'all' if skipped == played else 'most'} of them), so these verdicts say little. Give it scenarios "
            f"it supports (its generation_profile), or accept this with {accept_skips_flag}.")


def time_split(exploration: dict[str, Any], rules: list[dict[str, Any]]) -> dict[str, float]:
    """Where a run's time went (the report's ``time_split``): exploring the stream, then shrinking and explaining
    each failure, in wall seconds (the failures' summed over rules and workers)."""
    failures = [rule["failure"].get("seconds", {}) for rule in rules if rule.get("failure")]
    return {"exploring": round(exploration.get("seconds", 0.0), 2),
            "shrinking": round(sum(f.get("shrinking", 0.0) for f in failures), 2),
            "explaining": round(sum(f.get("explaining", 0.0) for f in failures), 2)}
