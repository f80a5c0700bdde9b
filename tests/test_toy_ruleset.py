"""Proof that a ruleset plugs in as one installed folder (issue 19, item 2): tests/toy_ruleset/ is the source of a toy
fourth ruleset, Hearth Queue (a queue of 'whenever' triggers resolved in play order, three rule keys), as its own
distribution (manifest, judge, reference, faulty and permissive engines, generator, fixture, rule text, docs page,
schema fragments, and a pyproject naming the entry point). The test copies it to a temporary folder, installs it with
pip into a target folder there (the test venv is not touched), and runs the CLI with that folder on PYTHONPATH: run,
selftest, coverage and lint-rules, with no file of the project edited."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "toy_ruleset"
SCRIPT = Path(sys.executable).parent / "trigger-conformance"  # the installed console script, as a user runs it
CLI = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "conformance.commands.cli"]


def _status() -> str | None:
    try:
        return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """(run(*args) -> CompletedProcess, the installed folder): the CLI with the toy ruleset installed."""
    folder = tmp_path_factory.mktemp("toy")
    source, target = folder / "src", folder / "site"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("__pycache__"))
    before = _status()
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, capture_output=True,
                   timeout=120)
    env = {**os.environ, "PYTHONPATH": str(target)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*CLI, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=120)

    yield run, target
    assert _status() == before, "running the toy ruleset changed a file of the project"


def test_it_is_installed_as_a_distribution_of_its_own(toy):
    _, target = toy
    points = next(target.glob("hearth_queue_conformance-*.dist-info")) / "entry_points.txt"
    assert "hearth-queue = hearth_queue:UNIT" in points.read_text("utf-8")
    # The test venv itself does not hold it (another copy may be on the path: the suite is run with the toy beside
    # the three by tests/test_installed_rulesets.py).
    assert not [ep for ep in entry_points(group="trigger_conformance.rulesets") if ep.name == "hearth-queue"
                and ep.dist is not None and _inside(Path(str(ep.dist.locate_file(""))), Path(sys.prefix))]


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def test_run_passes_the_reference_and_its_fixture(toy):
    run, _ = toy
    result = run("run", "--ruleset", "hearth-queue", "--max-examples", "40")
    assert result.returncode == 0, result.stdout + result.stderr
    for key in ("hq.every-trigger-resolves", "hq.play-order", "hq.newcomers-wait"):
        assert f"PASS  {key}" in result.stdout
    assert "PASS  fixture hq-newcomer-waits" in result.stdout
    assert "3 rules: 3 PASS; 1 fixture: 1 PASS" in result.stdout


def test_run_catches_the_faulty_engine_by_its_key(toy):
    run, _ = toy
    result = run("run", "--ruleset", "hearth-queue", "--engine", "mutant:hq-newcomers-first", "--max-examples", "40")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL  hq.newcomers-wait" in result.stdout and "PASS  hq.play-order" in result.stdout
    assert "T3 arose while T2 waited, yet resolves before it" in result.stdout  # its fixture, judged


def test_selftest_catches_the_faulty_engine_in_process_and_served(toy):
    run, _ = toy
    result = run("selftest", "--mutant", "hq-newcomers-first", "--max-examples", "40")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 of 1 mutants caught, 1 by their named rule key (1 through the process protocol)" in result.stdout


def test_coverage_lists_its_situations(toy):
    run, _ = toy
    result = run("coverage", "--ruleset", "hearth-queue", "--max-examples", "60")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    for situation in ("ping-triggers", "ping", "trigger-during-resolution"):
        assert situation in lines and " ok " in lines[situation], result.stdout


def test_lint_rules_reads_its_text(toy, tmp_path):
    run, target = toy
    text = target / "hearth_queue" / "rules.txt"
    result = run("lint-rules", "--ruleset", "hearth-queue", "--rules-text", str(text), "--scenarios", "8")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "lint-rules hearth-queue toy-1: 3 rule keys" in result.stdout
    assert "no contradiction, no ambiguity, the text and the keys agree" in result.stdout
    draft = tmp_path / "draft.txt"
    draft.write_text(text.read_text("utf-8").replace("once.", "at most once.") + "HQ.4 A new rule.\n", "utf-8")
    result = run("lint-rules", "--ruleset", "hearth-queue", "--rules-text", str(draft), "--scenarios", "0")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "hq.every-trigger-resolves: STALE: sentence 1 of HQ.1 changed" in result.stdout
    assert "HQ.4: a numbered rule of the text with no rule key" in result.stdout
