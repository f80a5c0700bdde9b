"""Issue 27 item 6: the contributor's guide is enough. docs/contributing-a-ruleset.md walks the toy ruleset
(tests/toy_ruleset/) file by file, each file's block copied from the real file (rewritten with
TRIGGER_CONFORMANCE_REWRITE_DOCS=1), every file of the toy shown; and the blocks alone, extracted into an empty
folder, install as a ruleset that `run` passes and whose faulty engine `selftest` catches."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "contributing-a-ruleset.md"
TOY = ROOT / "tests" / "toy_ruleset"
BLOCK = re.compile(r"<!-- toy-file: (?P<path>\S+) -->\n(?P<body>.*?)<!-- /toy-file -->\n", re.S)
FENCES = {".py": "python", ".toml": "toml", ".json": "json", ".txt": "text", ".md": "markdown"}
BUILD_ONLY = {"build_toy.py"}  # the toy's build backend: test machinery, not part of the ruleset


def _fenced(path: str, text: str) -> str:
    fence = "````" if "```" in text else "```"
    return f"{fence}{FENCES[Path(path).suffix]}\n{text}{'' if text.endswith(chr(10)) else chr(10)}{fence}\n"


def _unfenced(body: str) -> str:
    lines = body.splitlines(keepends=True)
    return "".join(lines[1:-1])


def _toy_files() -> list[str]:
    return sorted(p.relative_to(TOY).as_posix() for p in TOY.rglob("*") if p.is_file()
                  and "__pycache__" not in p.parts and p.name not in BUILD_ONLY)


def test_every_block_of_the_guide_is_the_toy_file_it_names():
    text = GUIDE.read_text("utf-8")
    if os.environ.get("TRIGGER_CONFORMANCE_REWRITE_DOCS"):
        text = BLOCK.sub(lambda m: f"<!-- toy-file: {m['path']} -->\n"
                         + _fenced(m["path"], (TOY / m["path"]).read_text("utf-8")) + "<!-- /toy-file -->\n", text)
        GUIDE.write_text(text, "utf-8")
    blocks = {m["path"]: _unfenced(m["body"]) for m in BLOCK.finditer(text)}
    stale = [path for path, body in blocks.items() if body != (TOY / path).read_text("utf-8")]
    assert not stale, f"rerun with TRIGGER_CONFORMANCE_REWRITE_DOCS=1: stale blocks {stale}"
    assert sorted(blocks) == _toy_files(), "every file of the toy, and only those, has its block in the guide"


def test_the_guide_alone_builds_a_ruleset_that_runs(tmp_path):
    source, target = tmp_path / "src", tmp_path / "site"
    for m in BLOCK.finditer(GUIDE.read_text("utf-8")):
        path = source / m["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_unfenced(m["body"]), "utf-8")
    for name in BUILD_ONLY:
        shutil.copy(TOY / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "--target", str(target), str(source)], check=True, capture_output=True, timeout=120)
    env = {**os.environ, "PYTHONPATH": str(target)}
    cli = [sys.executable, "-m", "conformance.commands.cli"]
    run = subprocess.run([*cli, "run", "--ruleset", "hearth-queue", "--max-examples", "20"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "hq.newcomers-wait" in run.stdout, run.stdout + run.stderr
    check = subprocess.run([*cli, "selftest", "--mutant", "hq-newcomers-first", "--max-examples", "40"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=300)
    assert check.returncode == 0 and "hq-newcomers-first" in check.stdout, check.stdout + check.stderr
