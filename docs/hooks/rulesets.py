"""MkDocs hook (mkdocs.yml ``hooks:``): the ruleset pages and the repository's files on the documentation site.

* The repository's README.md is the site's home page (index.md), read from where it lives.
* Every installed ruleset's page (``RulesetUnit.docs``: ``reference_engine/<ruleset>/docs.md`` for the bundled
  ones) is added to the site as ``rulesets/<name>.md`` and to the nav under "Rulesets", read from where it lives:
  nothing is copied into docs/.
* The pages link files by their path in the repository, so that the links work on GitHub as well:
  ``[schemas/trace.schema.json](../schemas/trace.schema.json)`` from docs/, ``../../docs/protocol.md`` from a
  ruleset's folder. Each relative link is resolved against the page's own file on disk. A link to another page of
  the site becomes that page's site path; a link to another file of the repository (a schema, a module) adds the
  file to the site under ``_source/`` and links there; a link to a folder becomes its name in code (or a link
  into ``repo_url``'s tree when mkdocs.yml sets one). A link to nothing is left as written, so that
  ``mkdocs build --strict`` reports it and fails.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.structure.files import File, InclusionLevel

SOURCE = "_source"  # the site folder holding the repository files the pages link to
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")

_pages: dict[Path, str] = {}  # a file of the site on disk (a page, an image) -> its path on the site


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _ruleset_pages() -> dict[str, Path]:
    from reference_engine.kernel.registry import loaded, units

    pages = {}
    for name, unit in units().items():
        if unit.docs is not None:
            pages[name] = loaded(name).resource(unit.docs).resolve()
    return pages


def on_config(config):
    rulesets = [{name: f"rulesets/{name}.md"} for name in _ruleset_pages()]
    if config.nav is not None and rulesets:
        config.nav.append({"Rulesets": rulesets})
    return config


def _target(page_path: Path, link: str) -> tuple[Path, str] | None:
    """What a relative link of the page at ``page_path`` names on disk, and its anchor; None for an address or a
    bare anchor."""
    if _SCHEME.match(link) or link.startswith("#"):
        return None
    path, _, anchor = link.partition("#")
    return (page_path.parent / path).resolve(), anchor


def _links(markdown: str):
    """Every markdown link target outside fenced code blocks, with its span in ``markdown``."""
    fences = [m.span() for m in _FENCE.finditer(markdown)]
    for match in _LINK.finditer(markdown):
        if not any(start <= match.start() < end for start, end in fences):
            yield match


def on_files(files, config):
    root = _root(config)
    _pages.clear()
    for file in files:  # the pages and the other files of docs/ (images)
        if file.abs_src_path and file.inclusion.is_included():
            _pages[Path(file.abs_src_path).resolve()] = file.src_uri
    added = {"index.md": root / "README.md"}
    added.update({f"rulesets/{name}.md": path for name, path in _ruleset_pages().items()})
    for uri, path in added.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
        _pages[path] = uri
    for page_path in [path for path in _pages if path.suffix == ".md"]:
        for match in _links(page_path.read_text("utf-8")):
            found = _target(page_path, match.group(2))
            if found is None or found[0] in _pages or not found[0].is_file() or not found[0].is_relative_to(root):
                continue
            uri = f"{SOURCE}/{found[0].relative_to(root).as_posix()}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(found[0]),
                                            inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def on_page_markdown(markdown, page, config, files):
    root = _root(config)
    here = Path(page.file.abs_src_path).resolve()
    base = os.path.dirname(page.file.src_uri)
    repo_url = (config.repo_url or "").rstrip("/")

    def rewrite(match: re.Match) -> str:
        text, link = match.group(1), match.group(2)
        found = _target(here, link)
        if found is None or not found[0].exists() or not found[0].is_relative_to(root):
            return match.group(0)  # an address, an anchor, or nothing: MkDocs judges it as written
        path, anchor = found
        if path in _pages:
            uri = _pages[path]
        elif path.is_file():
            uri = f"{SOURCE}/{path.relative_to(root).as_posix()}"
        elif repo_url:
            return f"[{text}]({repo_url}/tree/HEAD/{path.relative_to(root).as_posix()})"
        else:  # a folder, with no repo_url to point into: its name, in code
            return text if text.startswith("`") else f"`{text}`"
        target = os.path.relpath(uri, base or ".").replace(os.sep, "/")
        return f"[{text}]({target}{'#' + anchor if anchor else ''})"

    out, last = [], 0
    for match in _links(markdown):
        out.append(markdown[last:match.start()])
        out.append(rewrite(match))
        last = match.end()
    out.append(markdown[last:])
    return "".join(out)
