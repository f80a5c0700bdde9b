"""The docs stay true. The rule-key tables are generated from the code (issue 9, item 6): each ruleset's page
embeds, between ``<!-- rule-keys:NAME -->`` and ``<!-- /rule-keys -->``, exactly what
``trigger-conformance rules --ruleset NAME --format markdown`` prints, so a paraphrase cannot drift from the
invariant it describes. The links of the README and docs/ resolve, and the documentation site builds with
``mkdocs build --strict`` (issue 19, item 7). The sample outputs are tests/test_doc_outputs.py's."""

from __future__ import annotations

import re

import pytest

from conformance.commands import cli
from conformance.reports.text import rule_keys_markdown
from conftest import ROOT
from reference_engine.kernel.registry import RULESETS, get_ruleset, loaded
from reference_engine.kernel.schemas import bundled


@pytest.mark.parametrize("name", bundled())
def test_the_docs_embed_the_generated_rule_key_table(name):
    """The bundled rulesets' pages embed their generated rule-key table (an installed unit's page is its own)."""
    where = loaded(name).resource(loaded(name).manifest.docs)
    page = where.read_text("utf-8")
    assert page.count("<!-- /rule-keys -->") == page.count("<!-- rule-keys:") == 1, f"{where}: one table, one pair of markers"
    found = re.search(rf"<!-- rule-keys:{re.escape(name)} -->\n(.*?)\n<!-- /rule-keys -->", page, re.S)
    assert found, f"{where} has no generated rule-key table"
    expected = "\n".join(rule_keys_markdown(get_ruleset(name)))
    assert found.group(1) == expected, (
        f"{where} is out of date: regenerate its table with "
        f"`trigger-conformance rules --ruleset {name} --format markdown`")


def test_every_key_is_in_its_table_once():
    for name in RULESETS:
        table = "\n".join(rule_keys_markdown(get_ruleset(name)))
        for inv in get_ruleset(name).invariants:
            assert table.count(f"`{inv.key}`") == 1 and inv.summary.replace("|", "/") in table


def test_the_command_prints_the_table(capsys):
    assert cli.main(["rules", "--ruleset", "mtg", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!-- rule-keys:mtg -->\n") and out.rstrip().endswith("<!-- /rule-keys -->")


def test_the_readme_and_docs_relative_links_resolve():
    """A fresh user's report: README linked ``../schemas/...`` from the top of the repository. Every relative link
    of README.md and docs/**/*.md (markdown ``[text](target)``, anchors and web addresses aside) names a file or
    directory that exists, relative to the page."""
    broken = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = re.sub(r"```.*?```", "", page.read_text("utf-8"), flags=re.S)  # code blocks hold no links
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#")[0]).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_docs_site_builds_strict(tmp_path):
    """The documentation site (mkdocs.yml: docs/, the README as its home page, each ruleset's docs.md added by
    docs/hooks/rulesets.py) builds with ``--strict``: a link to a page, an anchor or a repository file that does
    not exist fails the build."""
    import subprocess
    import sys

    from reference_engine.kernel.registry import units

    site = tmp_path / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f",
                            str(ROOT / "mkdocs.yml"), "-d", str(site)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    for name in units():
        assert (site / "rulesets" / f"{name}.html").is_file(), name
    home = (site / "index.html").read_text("utf-8")
    assert 'href="checking.html#partial-engines-profiles"' in home and 'href="rulesets/mtg.html"' in home
