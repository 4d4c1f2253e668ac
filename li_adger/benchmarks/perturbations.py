"""Ettinger's (2020) perturbations of the diagnostics: the word-prediction items rewritten.

Each perturbation rewrites the contexts of one set's accuracy items and keeps their expected
completions (Ettinger 2020, §7.1 Table 4 and §8.1 Tables 7–8); the perturbed items are scored
as any cloze unit is and reported as accuracy at k = 1 and 5 (the three tables report nothing
else). Definitions, taken from the paper:

``shuf`` (CPRAG-102, Table 4)
    The words of the item's *first* sentence in a random order; the second sentence, which
    ends at the blank, is kept. Words are the sentence's whitespace-separated tokens, so
    punctuation moves with the word it is attached to. Ettinger reports mean ± sd over 100
    shuffles: shuffle ``k`` of item ``i`` is drawn from ``numpy.random.default_rng([seed, k,
    i])``, so it does not depend on how many shuffles are asked for, nor on the other items.
``trunc`` (CPRAG-102, Table 4)
    The *second* sentence cut to the two words before the blank (the target); the first is kept.
``shuf+trunc`` (CPRAG-102, Table 4)
    Both: the shuffles of ``shuf`` (the same permutations), then the cut of ``trunc``.
``-obj``, ``-sub``, ``-both`` (ROLE-88, Table 7)
    Every ROLE-88 context has the shape ``… which OBJECT the SUBJECT had``; the object noun is
    replaced by ``one``, the subject noun by ``other``, or both (the paper's substitutes).
``bins`` (ROLE-88, Table 8)
    No rewriting: the 88 original contexts binned by their top cloze value (``exp_cloze``)
    at the paper's printed upper edges ≤.17, ≤.23, ≤.33, ≤.77. The edges are printed to two
    decimals and the data's values are thirtieths (1/6 = .1667 falls in ≤.17, 7/30 = .2333 in
    ≤.23), so a value is binned by its rounding to two decimals: the bins then hold 25, 23, 23
    and 17 items, the denominators of every percentage the paper prints in Table 8.

Every perturbed unit's id is the original unit's id with ``@<perturbation>`` (and ``#<k>``
for shuffle ``k``) appended; every perturbation also carries the original items of its set,
under their own ids, so one file gives a table's ``Orig`` column beside its perturbed ones.

Examples
--------
>>> shuffle_words("Justin put a second house.", np.random.default_rng(0))
'a house. second Justin put'
>>> truncate_before_target("He and his sister often spent hours playing")
'hours playing'
>>> remove_roles("the old widower remembered which ghost the villager had", obj=True, sub=True)
'the old widower remembered which one the other had'
>>> constraint_bin(0.166666667), constraint_bin(0.233333333)
('≤.17', '≤.23')
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from li_adger.benchmarks import diagnostics
from li_adger.benchmarks.spec import CLOZE_COMPARISON_COLUMNS, Items, empty_frame
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv

__all__ = [
    "BIN_EDGES",
    "DEFAULT_SHUFFLES",
    "PERTURBATIONS",
    "Perturbation",
    "constraint_bin",
    "parse_perturbations",
    "perturbed_items",
    "remove_roles",
    "shuffle_words",
    "truncate_before_target",
]

PERTURBATIONS: dict[str, str] = {
    "shuf": "CPRAG-102",
    "trunc": "CPRAG-102",
    "shuf+trunc": "CPRAG-102",
    "-obj": "ROLE-88",
    "-sub": "ROLE-88",
    "-both": "ROLE-88",
    "bins": "ROLE-88",
}
"""The perturbations by name (as ``--perturbation`` takes them) → the set they rewrite, in
the order of Ettinger's tables."""

SHUFFLED = ("shuf", "shuf+trunc")
DEFAULT_SHUFFLES = 100
"""Ettinger's number of shuffles (§7.1)."""

BIN_EDGES: tuple[float, ...] = (0.17, 0.23, 0.33, 0.77)
"""Table 8's upper edges of the four constraint bins (top cloze value, two decimals)."""

ROLE_OBJECT, ROLE_SUBJECT = "one", "other"
"""Ettinger's substitutes for ROLE-88's object and subject nouns (§8.1)."""

_ROLE = re.compile(r"(?P<head>.* which) (?P<obj>\S+) the (?P<sub>\S+) (?P<aux>\S+)")


def shuffle_words(sentence: str, rng: np.random.Generator) -> str:
    """The whitespace-separated words of ``sentence`` in the order of a permutation drawn
    from ``rng`` (one call of ``rng.permutation``).

    Examples
    --------
    >>> s = "“Checkmate,” Rosaline announced with glee."
    >>> out = shuffle_words(s, np.random.default_rng(1))
    >>> sorted(out.split()) == sorted(s.split())
    True
    >>> shuffle_words("Alone.", np.random.default_rng(1))
    'Alone.'
    """
    words = sentence.split()
    return " ".join(words[i] for i in rng.permutation(len(words)))


def truncate_before_target(sentence: str, n_words: int = 2) -> str:
    """The last ``n_words`` words of the sentence before a blank (all of it when shorter).

    Examples
    --------
    >>> truncate_before_target("She was getting to be really good at")
    'good at'
    >>> truncate_before_target("Go", 2)
    'Go'
    >>> truncate_before_target("a b c", 0)
    Traceback (most recent call last):
    ValueError: n_words must be >= 1 (got 0)
    """
    if n_words < 1:
        raise ValueError(f"n_words must be >= 1 (got {n_words})")
    return " ".join(sentence.split()[-n_words:])


def remove_roles(context: str, *, obj: bool, sub: bool) -> str:
    """A ROLE-88 context (``… which OBJECT the SUBJECT had``) with its object noun replaced by
    ``one`` and/or its subject noun by ``other``.

    Examples
    --------
    >>> c = "The librarian documented which journalist the celebrities had"
    >>> remove_roles(c, obj=True, sub=False)
    'The librarian documented which one the celebrities had'
    >>> remove_roles(c, obj=False, sub=True)
    'The librarian documented which journalist the other had'
    >>> remove_roles("The cat sat", obj=True, sub=False)
    Traceback (most recent call last):
    ValueError: expected a ROLE-88 context '… which OBJECT the SUBJECT had' (got 'The cat sat')
    """
    m = _ROLE.fullmatch(context.strip())
    if m is None:
        raise ValueError(
            f"expected a ROLE-88 context '… which OBJECT the SUBJECT had' (got {context!r})"
        )
    o = ROLE_OBJECT if obj else m["obj"]
    s = ROLE_SUBJECT if sub else m["sub"]
    return f"{m['head']} {o} the {s} {m['aux']}"


def constraint_bin(top_cloze: float) -> str:
    """Table 8's bin of a top cloze value: the first edge of :data:`BIN_EDGES` not below the
    value rounded to two decimals, written as the paper does (``≤.17``).

    Examples
    --------
    >>> [constraint_bin(x) for x in (0.066666667, 0.2, 0.3, 0.766666667)]
    ['≤.17', '≤.23', '≤.33', '≤.77']
    >>> constraint_bin(0.9)
    Traceback (most recent call last):
    ValueError: top cloze value 0.9 is above Table 8's last edge 0.77
    """
    value = round(float(top_cloze), 2)
    for edge in BIN_EDGES:
        if value <= edge:
            return bin_label(edge)
    raise ValueError(f"top cloze value {top_cloze} is above Table 8's last edge {BIN_EDGES[-1]}")


def bin_label(edge: float) -> str:
    """How Table 8 heads a bin: ``≤.17``.

    Examples
    --------
    >>> bin_label(0.77)
    '≤.77'
    """
    return "≤" + f"{edge:.2f}".removeprefix("0")


def parse_perturbations(text: str) -> tuple[str, ...]:
    """The perturbations a comma-separated list names (``all``: every one), in
    :data:`PERTURBATIONS` order, each once.

    Examples
    --------
    >>> parse_perturbations("trunc,shuf")
    ('shuf', 'trunc')
    >>> len(parse_perturbations("all"))
    7
    >>> parse_perturbations("shuffle")
    Traceback (most recent call last):
    ValueError: unknown perturbation 'shuffle'; expected 'all' or names from ['shuf', 'trunc', 'shuf+trunc', '-obj', '-sub', '-both', 'bins'], comma-separated
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return tuple(PERTURBATIONS)
    unknown = [n for n in names if n not in PERTURBATIONS]
    if unknown or not names:
        raise ValueError(
            f"unknown perturbation {(unknown or [text])[0]!r}; expected 'all' or names from "
            f"{list(PERTURBATIONS)}, comma-separated"
        )
    return tuple(n for n in PERTURBATIONS if n in names)


class Perturbation:
    """The perturbations of one run and their settings: names, seed and number of shuffles.

    Examples
    --------
    >>> p = Perturbation(("shuf",), seed=3, shuffles=2)
    >>> p.metadata()
    {'perturbation': ['shuf'], 'perturbation_seed': 3, 'shuffles': 2}
    >>> Perturbation.from_metadata(p.metadata()) == p
    True
    >>> Perturbation(("shuf",), shuffles=0)
    Traceback (most recent call last):
    ValueError: shuffles must be >= 1 (got 0)
    """

    def __init__(
        self, names: Sequence[str], *, seed: int = 0, shuffles: int = DEFAULT_SHUFFLES
    ) -> None:
        self.names = parse_perturbations(",".join(names))
        if isinstance(shuffles, bool) or not isinstance(shuffles, int) or shuffles < 1:
            raise ValueError(f"shuffles must be >= 1 (got {shuffles!r})")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be an integer >= 0 (got {seed!r})")
        self.seed, self.shuffles = seed, shuffles

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Perturbation) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Perturbation({self.names!r}, seed={self.seed}, shuffles={self.shuffles})"

    @property
    def key(self) -> tuple:
        return (self.names, self.seed, self.shuffles)

    @property
    def sets(self) -> tuple[str, ...]:
        """The diagnostic sets the perturbations rewrite, in the benchmark's order."""
        used = {PERTURBATIONS[n] for n in self.names}
        return tuple(s for s in diagnostics.SETS if s in used)

    def metadata(self) -> dict:
        """What a scores file records of the run (and :meth:`from_metadata` reads back)."""
        return {
            "perturbation": list(self.names),
            "perturbation_seed": self.seed,
            "shuffles": self.shuffles,
        }

    @classmethod
    def from_metadata(cls, metadata: Mapping) -> Perturbation:
        """The perturbations a scores file's metadata records (a ``ValueError`` naming the
        field when it is malformed)."""
        names = metadata.get("perturbation")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"metadata 'perturbation' must be a list of names (got {names!r})")
        return cls(
            names,
            seed=metadata.get("perturbation_seed", 0),
            shuffles=metadata.get("shuffles", DEFAULT_SHUFFLES),
        )


_ACCURACY_COLUMNS = [
    "item_id", "expected_id", "set", "condition", "perturbation", "shuffle", "top_cloze",
]  # fmt: skip


class _Rows:
    def __init__(self) -> None:
        self.units: dict[str, tuple[str, str]] = {}
        self.accuracy: list[tuple] = []

    def add(self, unit_id, context, completion, item_id, set_, perturbation, shuffle, cloze):
        text = (context.strip(), completion)
        if self.units.setdefault(unit_id, text) != text:
            raise ValueError(f"unit id {unit_id!r} is given to two texts")
        self.accuracy.append((item_id, unit_id, set_, "", perturbation, shuffle, cloze))


def _cprag(path: Path, p: Perturbation, out: _Rows) -> None:
    s = "CPRAG-102"
    wanted = [n for n in ("shuf", "trunc", "shuf+trunc") if n in p.names]
    for i, (number, fields) in enumerate(read_tsv(path, 7, header=diagnostics.HEADERS[s])):
        item, s1, s2, expected = (f.strip() for f in fields[:4])
        base, item_id = f"{s}.{item}.{expected}", f"{s}.{item}"
        out.add(base, f"{s1} {s2}", expected, item_id, s, "orig", -1, np.nan)
        if not s1 or not s2:
            raise SourceFormatError(f"{path}:{number}: expected two context sentences")
        for name in wanted:
            second = truncate_before_target(s2) if "trunc" in name else s2
            if name not in SHUFFLED:
                out.add(f"{base}@{name}", f"{s1} {second}", expected, f"{item_id}@{name}",
                        s, name, -1, np.nan)  # fmt: skip
                continue
            for k in range(p.shuffles):
                first = shuffle_words(s1, np.random.default_rng([p.seed, k, i]))
                out.add(f"{base}@{name}#{k}", f"{first} {second}", expected,
                        f"{item_id}@{name}#{k}", s, name, k, np.nan)  # fmt: skip


_ROLE_SWITCHES = {"-obj": (True, False), "-sub": (False, True), "-both": (True, True)}


def _role(path: Path, p: Perturbation, out: _Rows) -> None:
    s = "ROLE-88"
    wanted = [n for n in _ROLE_SWITCHES if n in p.names]
    for number, fields in read_tsv(path, 7, header=diagnostics.HEADERS[s]):
        item, context, expected, exp_cloze = fields[:4]
        try:
            cloze = float(exp_cloze)
            contexts = {n: remove_roles(context, obj=o, sub=u) for n, (o, u) in
                        _ROLE_SWITCHES.items() if n in wanted}  # fmt: skip
            constraint_bin(cloze)
        except ValueError as exc:
            raise SourceFormatError(f"{path}:{number}: {exc}") from None
        words = dict.fromkeys(e.split()[0] for e in expected.split("|") if e.strip())
        for word in words:
            base, item_id = f"{s}.{item}.{word}", f"{s}.{item}"
            out.add(base, context, word, item_id, s, "orig", -1, cloze)
            for name, text in contexts.items():
                out.add(f"{base}@{name}", text, word, f"{item_id}@{name}", s, name, -1, cloze)


def perturbed_items(
    perturbation: Perturbation, *, source: str | os.PathLike | None = None
) -> Items:
    """The items of ``perturbation``: units and accuracy rows (no sensitivity comparisons).

    ``accuracy`` has the columns ``item_id, expected_id, set, condition, perturbation``
    (``orig`` for an original item), ``shuffle`` (``k``, or −1 for an item not shuffled) and
    ``top_cloze`` (ROLE-88's ``exp_cloze``; NaN on CPRAG-102). The original items' ids and
    texts are those of :func:`li_adger.benchmarks.load_items` ``("diagnostics")``.

    Examples
    --------
    >>> items = perturbed_items(Perturbation(["shuf", "-obj"], shuffles=3))
    >>> items.accuracy.groupby("perturbation", sort=False)["item_id"].nunique().to_dict()
    {'orig': 122, 'shuf': 102, '-obj': 88}
    >>> items.units.set_index("id").loc["ROLE-88.62-a.haunted@-obj", "context"]
    'the old widower remembered which one the ghost had'
    """
    from li_adger.sources import find_sources

    files = [diagnostics.FILES[s] for s in perturbation.sets]
    paths = find_sources(files, source=source)
    out = _Rows()
    if "CPRAG-102" in perturbation.sets:
        _cprag(Path(paths[diagnostics.FILES["CPRAG-102"]]), perturbation, out)
    if "ROLE-88" in perturbation.sets:
        _role(Path(paths[diagnostics.FILES["ROLE-88"]]), perturbation, out)
    units = pd.DataFrame(
        [(i, c, w) for i, (c, w) in out.units.items()], columns=["id", "context", "completion"]
    )
    accuracy = pd.DataFrame(out.accuracy, columns=_ACCURACY_COLUMNS)
    comparisons = empty_frame(CLOZE_COMPARISON_COLUMNS)
    return Items("diagnostics", "cloze", units, comparisons, accuracy)
