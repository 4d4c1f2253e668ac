"""NPI licensing minimal pairs (Warstadt et al. 2019): 5,500 pairs over 9 environments.

``npi/npi_minimal_pairs.tsv`` has no header and five tab-separated columns: environment
(``NPI-adverbs``, …), sentence A, sentence B, label, paradigm code
(``env=adverbs_licensor=0_scope=0_npi_present=1-0``).

**Which member is acceptable.** Each environment crosses three features — licensor, NPI and
scope — and a minimal pair varies one of them, holding the others fixed (Warstadt et al.
2019, §4 and Table 2). The paradigm code names the varied feature by two values, ``X-Y``,
written from the unacceptable value to the acceptable one (``npi_present=1-0``: with the NPI
it is unacceptable; ``licensor=0-1``: without the licensor it is unacceptable;
``scope=0-1``: an NPI outside the licensor's scope is unacceptable) — the arrows of the
paper's Table 2, which point from the unacceptable to the acceptable sentence. The order of A
and B is shuffled, and ``label`` says which is which: **label 0: A is acceptable; label 1: B
is acceptable.** This was checked on the file: in every ``npi_present`` pair the NPI (*any*,
*ever*) is in the unacceptable member, and in every ``licensor`` pair the licensor (*rarely*,
*not*, *no*, *whether*, *only*, *If*, *every*, …) is in the acceptable one (see the tests).

Group columns: ``environment`` (the first column without ``NPI-``, e.g. ``adverbs``;
the paper's abbreviations are in :data:`ENVIRONMENTS`), ``contrast`` (the varied feature:
``npi_present``, ``licensor`` or ``scope``; the three sections of the paper's Figures 2–3)
and ``paradigm`` (the code without its ``env=…`` part, e.g.
``licensor=0_scope=0_npi_present=1-0``; 5 per environment, 2 for simple questions).

Comparison ids are ``<environment>.<paradigm>.<k>``, ``k`` counting from 0 in file order
within the (environment, paradigm) cell; a sentence's unit id is that of its first
occurrence, ``<pair id>.good`` or ``.bad``. Sentences recur across pairs (5,500 pairs hold
7,717 different sentences): each is one unit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from li_adger.benchmarks.spec import Items
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv
from li_adger.benchmarks.units import minimal_pairs

__all__ = ["ENVIRONMENTS", "FILE", "GROUPS", "paradigm_of", "read"]

FILE = "npi/npi_minimal_pairs.tsv"
GROUPS: tuple[str, ...] = ("environment", "contrast", "paradigm")
ENVIRONMENTS: dict[str, str] = {
    "adverbs": "ADV",
    "conditionals": "COND",
    "determiner_negation_biclausal": "D-NEG",
    "sentential_negation_biclausal": "S-NEG",
    "only": "ONLY",
    "quantifiers": "QNT",
    "questions": "QUES",
    "simplequestions": "SMP-Q",
    "superlative": "SUP",
}
"""The 9 environments as named in the file → the paper's abbreviations (Table 1)."""

_FEATURE = re.compile(r"(licensor|scope|npi_present)=([01](?:-[01])?)")
_CODE = re.compile(
    r"env=(?P<env>[a-z_]+?)_(?P<paradigm>licensor=[01](?:-[01])?_scope=[01](?:-[01])?"
    r"_npi_present=[01](?:-[01])?)$"
)


def _contrast(paradigm: str) -> str:
    """The feature a paradigm varies: the one whose value is written ``X-Y``."""
    varied = [name for name, value in _FEATURE.findall(paradigm) if "-" in value]
    if len(varied) != 1:
        raise ValueError(f"paradigm {paradigm!r} must vary exactly one feature (varies {varied})")
    return varied[0]


def paradigm_of(code: str) -> tuple[str, str]:
    """A paradigm code's paradigm (without ``env=…``) and the feature it varies.

    Examples
    --------
    >>> paradigm_of("env=only_licensor=0-1_scope=1_npi_present=1")
    ('licensor=0-1_scope=1_npi_present=1', 'licensor')
    >>> paradigm_of("licensor=1")
    Traceback (most recent call last):
    ValueError: expected a paradigm code 'env=…_licensor=…_scope=…_npi_present=…' (got 'licensor=1')
    """
    match = _CODE.match(code)
    if match is None:
        raise ValueError(
            f"expected a paradigm code 'env=…_licensor=…_scope=…_npi_present=…' (got {code!r})"
        )
    return match["paradigm"], _contrast(match["paradigm"])


def read(paths: Mapping[str, Path]) -> Items:
    """The 5,500 NPI pairs, each with its acceptable member as ``good``.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> items = read(find_sources([FILE]))
    >>> len(items.comparisons), len(items.units), items.comparisons["environment"].nunique()
    (5500, 7717, 9)
    >>> first = items.comparisons.iloc[0]
    >>> first["pair_id"], first["contrast"]
    ('adverbs.licensor=0_scope=0_npi_present=1-0.0', 'npi_present')
    >>> items.units.set_index("id").loc[first["good_id"], "sentence"]
    'A cashier obviously thought that the boys often read.'
    """
    path = Path(paths[FILE])
    counts: dict[tuple[str, str], int] = {}
    rows = []
    for number, (env_name, a, b, label, code) in read_tsv(path, 5):
        match = _CODE.match(code)
        if match is None or not env_name.startswith("NPI-"):
            raise SourceFormatError(
                f"{path}:{number}: expected an environment 'NPI-…' and a paradigm code "
                f"'env=…_licensor=…_scope=…_npi_present=…' (got {env_name!r}, {code!r})"
            )
        if label not in ("0", "1"):
            raise SourceFormatError(f"{path}:{number}: label must be 0 or 1 (got {label!r})")
        environment = env_name.removeprefix("NPI-")
        if environment not in ENVIRONMENTS:
            raise SourceFormatError(
                f"{path}:{number}: unknown environment {env_name!r}; expected one of "
                f"{['NPI-' + e for e in ENVIRONMENTS]}"
            )
        paradigm = match["paradigm"]
        k = counts.get((environment, paradigm), 0)
        counts[environment, paradigm] = k + 1
        good, bad = (a, b) if label == "0" else (b, a)
        rows.append(
            (f"{environment}.{paradigm}.{k}", good, bad, environment, _contrast(paradigm), paradigm)
        )
    pair_ids, good, bad, *groups = zip(*rows, strict=True)
    units, comparisons = minimal_pairs(pair_ids, good, bad, dict(zip(GROUPS, groups, strict=True)))
    return Items("npi", "pairs", units, comparisons)
