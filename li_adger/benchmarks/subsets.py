"""Whole groups of a benchmark: BLiMP's paradigms, NPI's environments, the diagnostic sets.

A subset is a list of whole groups of one grouping column (:data:`SUBSET_COLUMNS`):
``python -m baselines score --subset`` scores the units they need (:func:`select_groups`,
:func:`parse_subset`), and ``python -m metric_adc report`` reports a file that scores whole
groups as those groups (:func:`covered_groups`). A group is all of its comparisons (and, for a
cloze benchmark, all of its accuracy items): its statistics need every unit of them.

Examples
--------
>>> from li_adger.benchmarks import load_items
>>> items = load_items("npi")
>>> sub = select_groups(items, parse_subset(items, "only,adverbs"))
>>> sorted(sub.comparisons["environment"].unique()), len(sub.units) < len(items.units)
(['adverbs', 'only'], True)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

import pandas as pd

from li_adger.benchmarks.spec import Items

__all__ = [
    "SUBSET_COLUMNS",
    "SUBSET_WORDS",
    "covered_groups",
    "group_units",
    "missing_ids_hint",
    "parse_subset",
    "select_groups",
    "subset_column",
    "subset_names",
]

SUBSET_COLUMNS: dict[str, str] = {
    "blimp": "UID",
    "npi": "environment",
    "npi_cloze": "set",
    "diagnostics": "set",
}
"""Benchmark → the group column whose levels a subset names."""

SUBSET_WORDS: dict[str, str] = {
    "blimp": "paradigm",
    "npi": "environment",
    "npi_cloze": "environment",
    "diagnostics": "diagnostic set",
}
"""Benchmark → what one of its groups is called."""


def subset_column(benchmark: str) -> str:
    """The group column a subset of ``benchmark`` names, or an error naming those that have one.

    Examples
    --------
    >>> subset_column("blimp")
    'UID'
    >>> subset_column("cola")
    Traceback (most recent call last):
    ...
    ValueError: cola has no subsets: --subset applies to blimp, npi, npi_cloze, diagnostics (their paradigms, environments, environments, diagnostic sets)
    """
    try:
        return SUBSET_COLUMNS[benchmark]
    except KeyError:
        words = ", ".join(f"{w}s" for w in SUBSET_WORDS.values())
        raise ValueError(
            f"{benchmark} has no subsets: --subset applies to {', '.join(SUBSET_COLUMNS)} "
            f"(their {words})"
        ) from None


def _column(items: Items) -> str:
    return subset_column(items.benchmark)


def subset_names(items: Items) -> list[str]:
    """The benchmark's groups, in the order of its comparisons.

    Examples
    --------
    >>> from li_adger.benchmarks import load_items
    >>> subset_names(load_items("diagnostics"))
    ['CPRAG-102', 'ROLE-88', 'NEG-136-SIMP', 'NEG-136-NAT']
    """
    return [str(g) for g in pd.unique(items.comparisons[_column(items)].to_numpy(object))]


def parse_subset(items: Items, text: str) -> list[str]:
    """The groups ``text`` names (comma-separated, each once, in the benchmark's order); an
    unknown name is refused with the valid ones.

    Examples
    --------
    >>> from li_adger.benchmarks import load_items
    >>> items = load_items("diagnostics")
    >>> parse_subset(items, "ROLE-88, CPRAG-102,ROLE-88")
    ['CPRAG-102', 'ROLE-88']
    >>> parse_subset(items, "ROLE-88,role")
    Traceback (most recent call last):
    ...
    ValueError: --subset: unknown diagnostic set 'role' of diagnostics; expected names from: CPRAG-102, ROLE-88, NEG-136-SIMP, NEG-136-NAT
    """
    valid = subset_names(items)
    asked = [t.strip() for t in str(text).split(",") if t.strip()]
    word = SUBSET_WORDS[items.benchmark]
    if not asked:
        raise ValueError(f"--subset: name at least one {word} of {items.benchmark}")
    unknown = [t for t in dict.fromkeys(asked) if t not in valid]
    if unknown:
        names = ", ".join(repr(u) for u in unknown)
        raise ValueError(
            f"--subset: unknown {word}{'s' if len(unknown) > 1 else ''} {names} of "
            f"{items.benchmark}; expected names from: {', '.join(valid)}"
        )
    return [g for g in valid if g in set(asked)]


def group_units(items: Items) -> dict[str, list[str]]:
    """Each group → the unit ids its comparisons (and accuracy items) need, in unit order.

    Examples
    --------
    >>> from li_adger.benchmarks import load_items
    >>> units = group_units(load_items("npi"))
    >>> len(units), sum(map(len, units.values())) >= 7717
    (9, True)
    """
    column = _column(items)
    c, a = items.comparisons, items.accuracy
    needed: dict[str, set] = {}
    for group, frame in c.groupby(column, sort=False):
        needed[str(group)] = set(frame["good_id"]) | set(frame["bad_id"])
    if len(a) and column in a.columns:
        for group, frame in a.groupby(column, sort=False):
            needed.setdefault(str(group), set()).update(frame["expected_id"])
    position = {i: k for k, i in enumerate(items.units["id"].tolist())}
    return {g: sorted(ids, key=position.__getitem__) for g, ids in needed.items()}


def select_groups(items: Items, groups: Collection[str]) -> Items:
    """The items of the groups ``groups`` only: their comparisons, accuracy items and units.

    Examples
    --------
    >>> from li_adger.benchmarks import load_items
    >>> sub = select_groups(load_items("diagnostics"), ["ROLE-88"])
    >>> sorted(set(sub.comparisons["set"])), sorted(set(sub.accuracy["set"]))
    (['ROLE-88'], ['ROLE-88'])
    """
    column = _column(items)
    wanted = {str(g) for g in groups}
    c = items.comparisons[items.comparisons[column].isin(wanted)].reset_index(drop=True)
    a = items.accuracy
    if len(a) and column in a.columns:
        a = a[a[column].isin(wanted)].reset_index(drop=True)
    keep = set(c["good_id"]) | set(c["bad_id"]) | set(a["expected_id"])
    units = items.units[items.units["id"].isin(keep)].reset_index(drop=True)
    labels = items.labels[items.labels["id"].isin(keep)].reset_index(drop=True)
    return replace(items, units=units, comparisons=c, accuracy=a, labels=labels)


def covered_groups(items: Items, scored: Collection[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Which groups the unit ids ``scored`` cover: ``(whole, partial)``.

    ``whole`` lists the groups with every unit scored, in the benchmark's order; ``partial``
    maps each group that has a scored unit no whole group explains to its unscored unit ids.

    Examples
    --------
    >>> from li_adger.benchmarks import load_items
    >>> items = load_items("diagnostics")
    >>> units = group_units(items)
    >>> whole, partial = covered_groups(items, units["ROLE-88"] + units["CPRAG-102"][:3])
    >>> whole, list(partial), len(partial["CPRAG-102"]) == len(units["CPRAG-102"]) - 3
    (['ROLE-88'], ['CPRAG-102'], True)
    """
    scored = set(scored)
    needed = group_units(items)
    whole = [g for g, ids in needed.items() if all(i in scored for i in ids)]
    explained = {i for g in whole for i in needed[g]}
    stray = scored - explained
    partial = {
        g: [i for i in ids if i not in scored]
        for g, ids in needed.items()
        if g not in whole and any(i in stray for i in ids)
    }
    return whole, partial


def missing_ids_hint(
    benchmark: str, partial: dict[str, Sequence[str]], *, limit: int | None = None
) -> str:
    """The sentence that names the groups a file covers in part, their missing ids, and
    ``--subset`` (and, for a file made with ``--limit``, why).

    Examples
    --------
    >>> print(missing_ids_hint("npi", {"only": ["a", "b"]}, limit=10))
    it covers part of 1 environment: 'only' (2 unit id(s) missing, e.g. 'a'), as --limit 10 scores the first 10 units whatever their environment; score whole environments with `python -m baselines score --dataset npi --subset only ...`
    """
    word = SUBSET_WORDS[benchmark]
    parts = "; ".join(
        f"{g!r} ({len(ids)} unit id(s) missing, e.g. {ids[0]!r})"
        for g, ids in list(partial.items())[:3]
    )
    more = f"; and {len(partial) - 3} more" if len(partial) > 3 else ""
    why = (
        f", as --limit {limit} scores the first {limit} units whatever their {word}"
        if limit is not None
        else ""
    )
    names = ",".join(list(partial)[:3])
    plural = word if len(partial) == 1 else f"{word}s"
    return (
        f"it covers part of {len(partial)} {plural}: {parts}{more}{why}; score whole {word}s "
        f"with `python -m baselines score --dataset {benchmark} --subset {names} ...`"
    )
