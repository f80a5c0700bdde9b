"""Reading a rule text as an editor hands it in: plain file, published web page, or a re-wrapped draft.

A rule text reaches the lint in many forms: the plain files the keys were written from, the pages as their sites
publish them (a link line above, a footer of site boilerplate below, headings, bullets, markdown links), and drafts
re-wrapped by an editor. None of that may change which rule a sentence belongs to, or whether it changed.

* :func:`clean_lines` removes what is page furniture, not rule text: link and quote lines, headings, horizontal
  rules and everything after a footer rule, bullets, and markdown link syntax (its label stays).
* :func:`numbered_paragraphs` reads a text whose rules start with their number (``11.2.4``, ``603.3b.``): rule
  number -> paragraph, each paragraph's wrapped lines joined.
* :func:`split_sentences` cuts a paragraph into sentences (quotations and parentheses are never cut), and
  :func:`sentence_digest` fingerprints one: the lint anchors every key to the sentences it encodes, so a one-word
  edit flags only the keys of that sentence.
* :func:`references` lists the sections and rules a text refers to, and :func:`undefined_terms` the capitalised
  terms it uses but never defines, for the lint to report what the text relies on and does not provide.

Each ruleset's ``judge/sentences.py`` holds its reader (``paragraphs(text) -> {rule number: paragraph}``) and its
``SENTENCES`` table: rule number -> its sentences in order, each as ``(sentence_digest, keys that encode it)``, for
every rule of the text in the ruleset's scope, as read when the keys were written. A rule that no key encodes keeps
its sentences too, with no keys (its reason is in the Ruleset's ``unencoded``), so an edit to it is still reported.
``trigger-conformance lint-rules --rules-text FILE`` compares a draft with the table sentence by sentence: a changed
or removed sentence flags only the keys listed for it, and a new sentence is reported as encoded by no key. After
re-reading the flagged keys, print the new table with ``conformance.editors.matrix.sentence_table(ruleset, text)``
and paste it into sentences.py. The rule texts are not part of the package.
"""

from __future__ import annotations

import hashlib
import re

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_RULE_LINE = re.compile(r"^\s{0,3}(?:-{3,}|\*{3,}|_{3,}|={3,})\s*$")
_BULLET = re.compile(r"^\s{0,3}[-*+•]\s+")


def sentence_digest(text: str) -> str:
    """The fingerprint of a sentence or paragraph: sha256 of its text with runs of whitespace collapsed to one
    space, first 16 hex digits (so re-wrapping changes nothing, and any edit to a word does)."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


def clean_lines(text: str, starts_rules: re.Pattern[str] | None = None) -> list[str]:
    """The lines of ``text`` that can be rule text, blank lines kept (they separate paragraphs).

    Dropped: lines quoting or pointing elsewhere (``> ...``, a line that is only a link or a URL), headings and
    horizontal rules; a horizontal rule after the last line matching ``starts_rules`` (a numbered rule) ends the
    text, since what follows it is the page's footer. Kept, cleaned: bulleted lines (without the bullet, after a
    blank line: a bullet starts an item) and markdown links (their label only)."""
    raw = text.splitlines()
    footer = len(raw)
    if starts_rules is not None:
        numbered = [n for n, line in enumerate(raw) if starts_rules.match(_BULLET.sub("", line))]
        if numbered:
            footer = next((n for n in range(numbered[-1] + 1, len(raw)) if _RULE_LINE.match(raw[n])), len(raw))
    out: list[str] = []
    for line in raw[:footer]:
        line = line.rstrip()
        if _RULE_LINE.match(line) or line.lstrip().startswith(">") or _HEADING.match(line):
            out.append("")
            continue
        if _BULLET.match(line):
            out.append("")  # a bullet starts an item of its own
            line = _BULLET.sub("", line)
        line = _LINK.sub(r"\1", line)
        out.append("" if _URL.fullmatch(line.strip()) else line)
    return out


def numbered_paragraphs(text: str, pattern: str, continues=lambda line: True) -> dict[str, str]:
    """Rule number -> paragraph, for a text whose rules start with their number matched by ``pattern`` (group 1 is
    the number). A rule starts at a numbered line that begins a paragraph (after a blank line, or after a line that
    ended a sentence: a number that a re-wrapped sentence carried to the start of a line is no new rule). It runs
    on over the following non-blank lines (a line broken after a hyphen joins without a space), except that after a
    line that ended a sentence only a line for which ``continues(line)`` holds goes on, and ends at a blank line, a heading, a footer or the next rule. Page furniture is removed
    first (:func:`clean_lines`); a markdown link is read as its label even when wrapped over lines."""
    numbered = re.compile(pattern)
    found: dict[str, str] = {}
    current = None
    previous = ""
    for line in clean_lines(text, numbered):
        match = numbered.match(line)
        if match and (not previous.strip() or _ends_sentence(previous)):
            current = match.group(1)
            found[current] = line[match.end():].strip()
        elif current and line.strip() and (not _ends_sentence(previous) or continues(line)):
            found[current] = join_wrapped(found[current], line.strip())
        else:
            current = None
        previous = line
    return {number: _LINK.sub(r"\1", paragraph) for number, paragraph in found.items()}


def join_wrapped(before: str, line: str) -> str:
    """``before`` and the next wrapped ``line`` of the same paragraph: a word broken after its hyphen (``non-`` /
    ``triggered``) joins without a space, anything else with one."""
    return before + line if re.search(r"\w-$", before) else f"{before} {line}"


def _ends_sentence(line: str) -> bool:
    return re.search(r"[.!?:…][”\")\]’]*\s*$", line) is not None


_OPENERS = {"“": "”", "(": ")", "[": "]", '"': '"'}
_END = re.compile(r"[.!?…]")


def split_sentences(paragraph: str) -> list[str]:
    """The sentences of ``paragraph``, in order, whitespace collapsed. A sentence ends at ``.``, ``!``, ``?`` or
    ``…`` (with any closing quotes or brackets after it) followed by a space and a capital letter, a digit or an
    opening quote or bracket, never inside a quotation or brackets, and never after a lone letter or a known
    abbreviation (unless a closing quote follows it) (``e.g.``, ``i.e.``, ``etc.``, ``vs.``)."""
    text = " ".join(paragraph.split())
    sentences: list[str] = []
    stack: list[str] = []
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if stack and ch == stack[-1]:
            stack.pop()
        elif ch in _OPENERS and not (ch == '"' and stack and stack[-1] == '"'):
            stack.append(_OPENERS[ch])
        elif _END.match(ch):
            j = i + 1
            while j < len(text) and text[j] in "”\")]’":
                if stack and text[j] == stack[-1]:
                    stack.pop()
                j += 1
            if (not stack and j + 1 < len(text) and text[j] == " " and re.match(r"[A-Z0-9“\"(\[]", text[j + 1])
                    and (j > i + 1 or not _abbreviation(text[start:i + 1]))):
                sentences.append(text[start:j].strip())
                start = j + 1
                i = j
        i += 1
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def _abbreviation(upto: str) -> bool:
    last = upto.rsplit(" ", 1)[-1].lower()
    return last in {"e.g.", "i.e.", "etc.", "vs.", "cf.", "no."} or re.fullmatch(r"[a-z]\.", last) is not None


_SECTION = re.compile(r"\b(?:[Ss]ections?|[Rr]ules?|[Cc]hapter)\s+(\d+(?:\.\d+)*[a-z]?)")


def references(paragraphs: dict[str, str]) -> dict[str, list[str]]:
    """Section or rule number -> the rule numbers of the paragraphs that refer to it ("Section 9.3", "rule 117",
    "See rule 607"), for every reference the text makes (whether or not it provides it)."""
    found: dict[str, list[str]] = {}
    for number, paragraph in paragraphs.items():
        for match in _SECTION.finditer(paragraph):
            ref = match.group(1).rstrip(".")
            if ref != number and number not in found.setdefault(ref, []):
                found[ref].append(number)
    return found


def provides(paragraphs: dict[str, str], reference: str) -> bool:
    """Whether the text holds the section or rule ``reference``: that number, or a rule numbered under it."""
    return any(n == reference or n.startswith(reference + ".") or (n.startswith(reference) and n[len(reference):]
               .isalpha()) for n in paragraphs)


_TERM = re.compile(r"\b(?:[A-Z][a-zA-Z]*(?:[-’'][A-Za-z]+)*)(?:\s+(?:[A-Z][a-zA-Z]*(?:[-’'][A-Za-z]+)*))+\b")
_CAPS = re.compile(r"\b[A-Z]{2,}(?:\s+[A-Z]{2,})+\b")


def undefined_terms(paragraphs: dict[str, str]) -> dict[str, list[str]]:
    """Term -> the rule numbers using it, for each capitalised term of two or more words (``State-Based
    Conditions``, ``PROCEDURE AND PENALTY GUIDE``) that the text uses but never defines. A term counts as defined
    when some sentence puts it in quotation marks, says it ``is called``/``are called``/``is referred to as`` it,
    or starts with it followed by ``is``/``are``/``means``. A term that starts a sentence loses its first word; one
    inside quotation marks or in an example (card names) does not count."""
    uses: dict[str, list[str]] = {}
    defined: set[str] = set()
    for number, paragraph in paragraphs.items():
        in_example = False
        for sentence in split_sentences(paragraph):
            in_example = in_example or sentence.startswith("Example")
            for quoted in re.findall(r"[“\"]([^”\"]+)[”\"]", sentence):
                defined.add(quoted.strip(" .,").lower())
            if in_example:
                continue  # an example runs to the end of its paragraph, and its card names are no terms
            for term in _candidate_terms(re.sub(r"“[^”]*”|\"[^\"]*\"", " ", sentence)):
                if re.search(rf"(?:is|are) (?:called|referred to as) [“\"]?{re.escape(term)}", sentence) or \
                        re.match(rf"(?:An? |The )?{re.escape(term)}s? (?:is|are|means)\b", sentence):
                    defined.add(term.lower())
                if number not in uses.setdefault(term, []):
                    uses[term].append(number)
    return {term: numbers for term, numbers in sorted(uses.items()) if term.lower() not in defined}


def _candidate_terms(sentence: str) -> list[str]:
    found = []
    for match in [*_TERM.finditer(sentence), *_CAPS.finditer(sentence)]:
        words = match.group(0).split()
        if match.start() == 0:
            words = words[1:] if len(words) > 2 else []  # "Resolve Each" at a sentence start is no term
        if words:
            words[-1] = re.sub(r"[’']s$", "", words[-1])
        if len(words) >= 2 and not all(w.isupper() and len(w) <= 2 for w in words):
            found.append(" ".join(words))
    return found
