"""One unit per unique text: the deduplication every reader builds its units with."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["minimal_pairs", "unique_units"]


def unique_units(
    candidate_ids: Sequence[str], texts: Mapping[str, Sequence[str]]
) -> tuple[pd.DataFrame, np.ndarray]:
    """Deduplicate occurrences of texts into units; return the units and each occurrence's id.

    ``candidate_ids[i]`` is the id occurrence ``i`` would give its unit, ``texts`` maps each
    text column (``sentence``, or ``context`` and ``completion``) to the occurrences' values.
    Occurrences with the same text (all columns equal) are one unit, whose id is the candidate
    id of its first occurrence. Returns the units frame (``id`` and the text columns, in
    first-occurrence order) and the array of unit ids, one per occurrence.

    Raises
    ------
    ValueError
        A candidate id is given to two different texts, or the lengths differ.

    Examples
    --------
    >>> units, ids = unique_units(["p1.good", "p1.bad", "p2.good"],
    ...                           {"sentence": ["It rains.", "It rain.", "It rains."]})
    >>> units.to_dict("list"), ids.tolist()
    ({'id': ['p1.good', 'p1.bad'], 'sentence': ['It rains.', 'It rain.']}, ['p1.good', 'p1.bad', 'p1.good'])
    >>> unique_units(["a", "a"], {"sentence": ["x", "y"]})
    Traceback (most recent call last):
    ValueError: unit id 'a' is given to two different texts: ('x',) and ('y',)
    """
    ids = np.asarray(candidate_ids, dtype=object)
    columns = {name: np.asarray(values, dtype=object) for name, values in texts.items()}
    for name, values in columns.items():
        if values.shape != ids.shape:
            raise ValueError(
                f"text column {name!r} has {values.size} values, expected {ids.size} (one per id)"
            )
    key = pd.MultiIndex.from_arrays(list(columns.values())) if len(columns) > 1 else None
    codes, _ = pd.factorize(key if key is not None else next(iter(columns.values())))
    _, first = np.unique(codes, return_index=True)  # codes number texts in order of appearance
    resolved = ids[first][codes]
    # a candidate id must not name two texts
    id_codes, id_uniques = pd.factorize(ids)
    clash = np.flatnonzero(pd.Series(codes).groupby(id_codes).nunique().to_numpy() > 1)
    if clash.size:
        name = id_uniques[clash[0]]
        where = np.flatnonzero(ids == name)
        seen = [tuple(columns[c][i] for c in columns) for i in where]
        other = next(t for t in seen if t != seen[0])
        raise ValueError(
            f"unit id {name!r} is given to two different texts: {seen[0]!r} and {other!r}"
        )
    units = pd.DataFrame({"id": ids[first], **{c: v[first] for c, v in columns.items()}})
    return units, resolved


def minimal_pairs(
    pair_ids: Sequence[str],
    good: Sequence[str],
    bad: Sequence[str],
    groups: Mapping[str, Sequence[str]],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Units and comparisons of minimal pairs of sentences.

    Each pair's sentences are candidate units ``<pair id>.good`` and ``<pair id>.bad``,
    deduplicated by :func:`unique_units`; the comparisons frame has ``pair_id, good_id,
    bad_id`` and the ``groups`` columns.

    Examples
    --------
    >>> units, comparisons = minimal_pairs(["p1", "p2"], ["It rains.", "It rains."],
    ...                                    ["It rain.", "Rains it."], {"phenomenon": ["agr", "order"]})
    >>> units["id"].tolist()
    ['p1.good', 'p1.bad', 'p2.bad']
    >>> comparisons.iloc[1].tolist()
    ['p2', 'p1.good', 'p2.bad', 'order']
    """
    n = len(pair_ids)
    candidates = [f"{p}.{side}" for p in pair_ids for side in ("good", "bad")]
    sentences = [s for pair in zip(good, bad, strict=True) for s in pair]
    units, unit_ids = unique_units(candidates, {"sentence": sentences})
    comparisons = pd.DataFrame(
        {
            "pair_id": list(pair_ids),
            "good_id": unit_ids[0 : 2 * n : 2],
            "bad_id": unit_ids[1 : 2 * n : 2],
            **{name: list(values) for name, values in groups.items()},
        }
    )
    return units, comparisons
