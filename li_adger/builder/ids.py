"""Sentence ids of LI-Adger: parse them, rank their expert marks, name conditions.

An id encodes the design of the experiment it comes from:

- LI ids (Sprouse, Schütze & Almeida 2013) read ``volume.issue.author.example.MARK.token``,
  e.g. ``32.3.Culicover.7a.g.01``: Linguistic Inquiry volume 32, issue 3, an article by
  Culicover, example (7a), marked acceptable (``g``), lexicalisation 1 of 8.
- Adger ids (Sprouse & Almeida 2012) read ``chapter.example.MARK.token``, e.g.
  ``ch8.150.*.01``: chapter 8 of Adger's *Core Syntax*, example (150), marked unacceptable.

``MARK`` is the expert's judgement as printed in the source: ``g`` (no mark, acceptable),
``*`` (unacceptable) or a marginal mark (``?``, ``??``, ``??(*)``, ``?*`` …). A *condition*
(sentence type) is an id without its token; its tokens are lexicalisations of one structure.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "LI_OFFICIAL_PAIR_ALIASES",
    "MARK_ORDER",
    "SentenceId",
    "condition_of",
    "expert_acceptable",
    "li_year",
    "mark_rank",
    "parse_id",
]

#: Expert marks from best to worst. ``g`` is the only mark read as expert-acceptable.
MARK_ORDER: tuple[str, ...] = ("g", "?", "??", "??(*)", "?*", "*?", "*")

_LI_PREFIX = re.compile(
    r"^(?P<volume>\d+)\.(?P<issue>\d+)\.(?P<author>[A-Za-z]+)\.(?P<example>.+)$"
)
_ADGER_PREFIX = re.compile(r"^(?P<chapter>ch\d+)\.(?P<example>.+)$")
_MARK = re.compile(r"^[g*?()]+$")
_TOKEN = re.compile(r"^\d+$")

#: The official LI condition pairs (``sprouse2013/LI.conditions.csv``, as ``(bad, good)``
#: conditions) whose ids are spelled differently in the LI-Adger files, mapped to the
#: LI-Adger conditions. ``32.2.nunes.3a.g`` and ``33.2.bowers.31a.g`` are control conditions
#: shared by two official pairs; LI-Adger keeps their two sets of sentences apart as
#: ``3a1``/``3a2`` and ``31a1``/``31a2`` (and renames the bad member of the bowers pairs).
LI_OFFICIAL_PAIR_ALIASES: dict[tuple[str, str], tuple[str, str]] = {
    ("32.2.nunes.3b.*", "32.2.nunes.3a.g"): ("32.2.nunes.3b.*", "32.2.nunes.3a1.g"),
    ("32.2.nunes.3c.*", "32.2.nunes.3a.g"): ("32.2.nunes.3c.*", "32.2.nunes.3a2.g"),
    ("32.3.Culicover.22b7.*", "32.3.Culicover.22b7.g"): (
        "32.3.Culicover.22b.*",
        "32.3.Culicover.22b.g",
    ),
    ("33.2.bowers.31b.*", "33.2.bowers.31a.g"): ("33.2.bowers.31b1.*", "33.2.bowers.31a1.g"),
    ("33.2.bowers.31c.*", "33.2.bowers.31a.g"): ("33.2.bowers.31c2.*", "33.2.bowers.31a2.g"),
    ("33.2.bowers.7b.i.*", "33.2.bowers.7b.i.g"): ("33.2.bowers.7b.*", "33.2.bowers.7b.g"),
    ("35.3.hazout.75a.*", "35.3.hazout.75a.g"): ("35.3.hazout.75.*", "35.3.hazout.75.g"),
}


class SentenceId(NamedTuple):
    """The parts of a sentence id."""

    id: str
    source: str  # "LI" or "Adger"
    prefix: str  # "32.3.Culicover" (volume.issue.author) or "ch8" (chapter)
    example: str  # "7a", "150", "84-86" (surrounding spaces removed)
    mark: str  # "g", "*", "??" ...
    token: int  # 1 ... 9
    condition: str  # the id without its token, verbatim

    @property
    def expert_acceptable(self) -> bool:
        """Whether the expert mark is ``g``."""
        return expert_acceptable(self.mark)


def parse_id(sentence_id: str) -> SentenceId:
    """Split a sentence id into source, prefix, example, mark and token.

    Raises ``ValueError`` naming the id when it follows neither the LI nor the Adger design.

    Examples
    --------
    >>> parse_id("32.3.Culicover.7a.g.01")
    SentenceId(id='32.3.Culicover.7a.g.01', source='LI', prefix='32.3.Culicover', example='7a', mark='g', token=1, condition='32.3.Culicover.7a.g')
    >>> parse_id("ch8.150.*.01").source, parse_id("ch8.150.*.01").mark
    ('Adger', '*')
    >>> parse_id("41.1.Muller.25b.??(*).03").mark
    '??(*)'
    >>> parse_id("ch5. 43-44.g.02").example
    '43-44'
    >>> parse_id("32.3.Culicover.7a.g")
    Traceback (most recent call last):
    ValueError: sentence id '32.3.Culicover.7a.g': expected <condition>.<mark>.<token> with a numeric token (got token 'g')
    """
    parts = sentence_id.rsplit(".", 2)
    if len(parts) != 3:
        raise ValueError(f"sentence id {sentence_id!r}: expected <condition>.<mark>.<token>")
    stem, mark, token = parts
    if not _TOKEN.match(token):
        raise ValueError(
            f"sentence id {sentence_id!r}: expected <condition>.<mark>.<token> "
            f"with a numeric token (got token {token!r})"
        )
    if not _MARK.match(mark):
        raise ValueError(
            f"sentence id {sentence_id!r}: expected an expert mark made of g, *, ?, ( and ) "
            f"(got {mark!r})"
        )
    adger = _ADGER_PREFIX.match(stem)
    li = _LI_PREFIX.match(stem)
    if adger:
        source, prefix, example = "Adger", adger["chapter"], adger["example"]
    elif li:
        source = "LI"
        prefix = f"{li['volume']}.{li['issue']}.{li['author']}"
        example = li["example"]
    else:
        raise ValueError(
            f"sentence id {sentence_id!r}: expected volume.issue.author.example (LI) or "
            f"chN.example (Adger) before the mark (got {stem!r})"
        )
    return SentenceId(
        id=sentence_id,
        source=source,
        prefix=prefix,
        example=example.strip(),
        mark=mark,
        token=int(token),
        condition=f"{stem}.{mark}",
    )


def condition_of(sentence_id: str) -> str:
    """The condition (sentence type) of a sentence id: the id without its token.

    Examples
    --------
    >>> condition_of("33.2.bowers.7b.g.05")
    '33.2.bowers.7b.g'
    """
    return parse_id(sentence_id).condition


def mark_rank(mark: str) -> int:
    """Position of an expert mark in :data:`MARK_ORDER` (0 is best).

    Examples
    --------
    >>> [mark_rank(m) for m in ("g", "?", "??", "*")]
    [0, 1, 2, 6]
    >>> mark_rank("!")
    Traceback (most recent call last):
    ValueError: expert mark '!': expected one of g, ?, ??, ??(*), ?*, *?, *
    """
    try:
        return MARK_ORDER.index(mark)
    except ValueError:
        raise ValueError(f"expert mark {mark!r}: expected one of {', '.join(MARK_ORDER)}") from None


def expert_acceptable(mark: str) -> bool:
    """Whether an expert mark says acceptable: only the unmarked ``g`` does.

    Examples
    --------
    >>> expert_acceptable("g"), expert_acceptable("?"), expert_acceptable("*")
    (True, False, False)
    """
    mark_rank(mark)
    return mark == "g"


def li_year(volume: int) -> int:
    """Publication year of a Linguistic Inquiry volume (volume 32 appeared in 2001).

    Examples
    --------
    >>> li_year(32), li_year(41)
    (2001, 2010)
    """
    return 1969 + volume
