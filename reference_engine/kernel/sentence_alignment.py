"""Aligning an editor's draft with the sentences the rule keys were encoded from, sentence by sentence.

A ruleset records, per rule number, the fingerprints of the sentences its keys were written from
(``judge/sentences.py``'s ``SENTENCES``; :func:`reference_engine.kernel.ruletext.sentence_digest`). A draft is read
by the ruleset's own reader into paragraphs and cut into sentences; this module says what became of each recorded
sentence with a sequence alignment of the two lists of fingerprints (:class:`difflib.SequenceMatcher`, the longest
matching blocks first), so that deleting one sentence never makes the unchanged sentences after it look changed:

* ``unchanged``: the same sentence, maybe at another position because others were added or deleted before it;
* ``changed``: a recorded sentence rewritten in place (aligned one to one with a sentence of the draft);
* ``merged``: several recorded sentences rewritten into fewer sentences of the draft;
* ``split``: one recorded sentence rewritten into several;
* ``removed``: a recorded sentence the draft no longer has anywhere;
* ``moved``: a recorded sentence the draft has, unchanged, elsewhere: later or earlier in its rule, or in another
  rule (a paragraph merged into another, or split off);
* ``new``: a sentence of the draft that is none of the recorded ones and takes no recorded sentence's place.

Only ``changed``, ``merged``, ``split`` and ``removed`` sentences make their keys stale
(:attr:`Alignment.drops_keys`); the keys of every other sentence stay in force. Fingerprints are all the ruleset
records (the rule texts are not part of the package), so a rewrite is known by its place, not by its words: a
merge is "these recorded sentences gave way to that one sentence".
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Mapping, Sequence

from reference_engine.kernel.ruletext import sentence_digest, split_sentences

Recorded = Sequence[tuple[str, Sequence[str]]]  # (digest, keys) per recorded sentence, in order

STALE = ("changed", "merged", "split", "removed")


@dataclass(frozen=True)
class Alignment:
    """What became of one sentence. ``number`` is the rule the sentence was recorded under (for a ``new`` sentence,
    the rule of the draft it is in); ``index`` its 1-based place among the recorded sentences of that rule (for a
    ``new`` sentence, its place in the draft's rule); ``keys`` the keys recorded for it; ``what`` one of the kinds
    above; ``now`` the 1-based places of the draft's sentences it became, in rule ``to`` (the same rule unless
    moved); ``text`` those sentences of the draft, joined."""

    number: str
    index: int
    keys: tuple[str, ...]
    what: str
    text: str = ""
    now: tuple[int, ...] = ()
    to: str = ""

    @property
    def drops_keys(self) -> bool:
        """Whether the sentence's keys no longer hold as encoded (its wording changed or it is gone)."""
        return self.what in STALE

    def describe(self) -> str:
        """In words: ``"sentence 3 of 603.3b removed"``, ``"sentence 2 of TA.5 moved to TA.4, sentence 3"``."""
        where = f"sentence {self.index} of {self.number}"
        places = ", ".join(str(n) for n in self.now)
        if self.what == "moved":
            target = f"{self.to}, " if self.to != self.number else ""
            return f"{where} moved to {target}sentence {places}"
        if self.what == "merged":
            return f"{where} merged with its neighbours into sentence {places} of the draft"
        if self.what == "split":
            return f"{where} split into sentences {places} of the draft"
        if self.what == "changed":
            return f"{where} changed (now sentence {places})" if self.now != (self.index,) else f"{where} changed"
        if self.what == "new":
            return f"new sentence {self.index} of {self.number}"
        return f"{where} {self.what}"


def align_rule(number: str, recorded: Recorded, now: Sequence[str]) -> list[Alignment]:
    """Every recorded sentence of rule ``number`` and every sentence of its draft paragraph ``now``, aligned. A
    recorded sentence the draft lacks here is ``removed`` (:func:`align` turns it into ``moved`` when another rule
    has it); a draft sentence not recorded here is ``new`` (or ``moved`` from elsewhere, by :func:`align`)."""
    old = [digest for digest, _ in recorded]
    new = [sentence_digest(s) for s in now]
    found: list[Alignment] = []
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            found += [Alignment(number, i + 1, tuple(recorded[i][1]), "unchanged", now[j], (j + 1,), number)
                      for i, j in zip(range(i1, i2), range(j1, j2))]
        elif tag == "delete":
            found += [Alignment(number, i + 1, tuple(recorded[i][1]), "removed") for i in range(i1, i2)]
        elif tag == "insert":
            found += [Alignment(number, j + 1, (), "new", now[j], (j + 1,), number) for j in range(j1, j2)]
        else:
            found += _replaced(number, recorded, now, range(i1, i2), range(j1, j2))
    return found


def _replaced(number, recorded, now, old: range, new: range) -> list[Alignment]:
    """A block of recorded sentences that gave way to a block of the draft's: one to one as far as both go (each
    ``changed``), the rest as a merge (more recorded than draft sentences) or a split (fewer)."""
    if len(old) == len(new):
        return [Alignment(number, i + 1, tuple(recorded[i][1]), "changed", now[j], (j + 1,), number)
                for i, j in zip(old, new)]
    places = tuple(j + 1 for j in new)
    text = " ".join(now[j] for j in new)
    what = "merged" if len(old) > len(new) else "split"
    return [Alignment(number, i + 1, tuple(recorded[i][1]), what, text, places, number) for i in old]


def align(recorded: Mapping[str, Recorded], paragraphs: Mapping[str, str]) -> list[Alignment]:
    """Every recorded sentence of every rule ``paragraphs`` has, and every sentence of those paragraphs and of the
    draft's rules nothing was recorded for, aligned; then a recorded sentence removed from its rule but present,
    unchanged, in another place of the draft is ``moved`` there (and that place is no ``new`` sentence). A rule
    the draft lacks altogether counts as removed only if none of its sentences moved: a paragraph merged into its
    neighbour keeps its keys. Rules ``paragraphs`` lacks whose sentences appear nowhere are left out here (the
    lint reports a missing rule by itself)."""
    found: list[Alignment] = []
    for number in sorted(set(recorded) | set(paragraphs)):
        if number in paragraphs:
            found += align_rule(number, recorded.get(number, ()), split_sentences(paragraphs[number]))
        else:
            found += [Alignment(number, i + 1, tuple(keys), "missing") for i, (_, keys) in enumerate(recorded[number])]
    digest_of = {(r, i + 1): d for r, listed in recorded.items() for i, (d, _) in enumerate(listed)}
    arrived: dict[str, list[Alignment]] = {}
    for a in found:
        if a.what == "new":
            arrived.setdefault(sentence_digest(a.text), []).append(a)
    out: list[Alignment] = []
    taken: set[int] = set()
    for a in found:
        if a.what in ("removed", "missing"):
            landing = arrived.get(digest_of[(a.number, a.index)])
            if landing:
                place = landing.pop(0)
                taken.add(id(place))
                a = Alignment(a.number, a.index, a.keys, "moved", place.text, place.now, place.number)
            elif a.what == "missing":
                continue
        out.append(a)
    return [a for a in out if id(a) not in taken]
