"""Issue 27 item 2: the project's own tests hold with any set of installed rulesets. The tests of the bundled three
select them by name (reference_engine.kernel.schemas.bundled); the others hold for every installed unit. This test
installs the toy ruleset (tests/toy_ruleset/) beside the three into a temporary target folder (the test venv is not
touched) and runs, in a subprocess with that folder on PYTHONPATH, the whole quick suite (the README's test command).
It was 12 files that once assumed the installed rulesets were exactly the bundled three; run whole, three more such
assumptions showed (the bundled engines' loop guard, the protocol page's handshake, trace references a fourth
ruleset's engine never writes), now fixed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "toy_ruleset"


def install_toy(folder: Path) -> Path:
    """The toy ruleset installed with pip into ``folder``/site (copied first, so the source stays clean); returns the
    target folder, to put on PYTHONPATH. Raises CalledProcessError when pip fails."""
    source, target = folder / "src", folder / "site"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, capture_output=True,
                   timeout=120)
    return target


@pytest.mark.slow
@pytest.mark.nightly  # the quick suite run again (a few minutes): the nightly workflow's tests job (issue 26)
def test_the_quick_suite_holds_with_a_fourth_ruleset_installed(tmp_path):
    target = install_toy(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(target)}
    listed = subprocess.run([sys.executable, "-c", "from reference_engine.kernel.registry import units; "
                             "print(' '.join(units()))"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert listed.stdout.split() == ["momon-wonder", "redemption", "mtg", "hearth-queue"], listed.stderr
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-m", "not slow", "-p",
                             "no:cacheprovider", "tests"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=3600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
