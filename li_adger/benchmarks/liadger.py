"""LI-Adger as a benchmark: its minimal pairs with human judgements, and its expert labels.

Read from the built dataset (:func:`li_adger.load`, which builds it from the verified sources
when needed). Nothing the dataset has is lost:

- ``units``: all 4,178 sentences under the dataset's own ids (``32.1.martin.1a.g.01``). Unlike
  the other benchmarks, repeated texts are *not* merged: the 45 texts that occur twice are
  distinct items of the design with their own judgements, and the ADC z-scores a model over
  all 4,178 sentences, as the thesis does.
- ``comparisons``: the 2,365 pairs the thesis evaluates (the 28 discarded pairs left out),
  ``pair_id`` the dataset's pair id as a string, with ``source`` (LI / Adger), ``phenomenon``,
  and the human ``good_judgement``, ``bad_judgement`` and ``human_delta``.
- ``labels``: every sentence with its expert label (``expert_acceptable``: the mark ``g``;
  marginal marks count as unacceptable), one split ``li_adger`` — the thesis's check of
  classifiers, MCC against the expert labels — and with its ``phenomenon`` and human
  ``judgement`` (the mean z-scored rating; NaN where there is none), what the metric reads
  about single sentences (sentence-level correlations, the fitted linking function).

:func:`from_tables` is the one place the dataset's tables become these items (the discarded
pairs left out here and nowhere else): :func:`read` gives it the package's build, the Space
the published copy on the Hub.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from li_adger.benchmarks.spec import Items
from li_adger.sources import BUILD_FILES

__all__ = ["FILES", "GROUPS", "from_tables", "read"]

FILES: tuple[str, ...] = BUILD_FILES
GROUPS: tuple[str, ...] = ("source", "phenomenon")
_HUMAN = ("good_judgement", "bad_judgement", "human_delta")


def read(paths: Mapping[str, Path]) -> Items:
    """LI-Adger's pairs and expert labels from the built dataset.

    ``paths`` are the verified build sources; when the dataset is not built yet it is built
    from the folder holding them.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> items = read(find_sources(FILES))
    >>> len(items.units), len(items.comparisons), int(items.labels["label"].sum())
    (4178, 2365, 2089)
    >>> items.comparisons.iloc[0][["pair_id", "good_id", "bad_id", "source"]].tolist()
    ['0', '32.1.martin.1a.g.01', '32.1.martin.2c.*.01', 'LI']
    """
    import li_adger
    from li_adger.builder.build import is_built

    if not is_built():
        # the folder with the layout of shared/data that holds the verified sources
        li_adger.build(source=Path(paths[FILES[0]]).parents[1])
    from li_adger.loader import load_table

    return from_tables(load_table("sentences").to_pandas(), load_table("pairs").to_pandas())


def from_tables(sentences: pd.DataFrame, pairs: pd.DataFrame) -> Items:
    """LI-Adger's items from the dataset's ``sentences`` and ``pairs`` tables (as
    :func:`li_adger.load` gives them, or the published copy's): the evaluable pairs and every
    sentence's expert label, phenomenon and judgement.

    Examples
    --------
    >>> sentences = pd.DataFrame({"id": ["a", "b", "c"], "sentence": ["A.", "*B.", "C."],
    ...     "expert_acceptable": [True, False, True], "phenomenon": ["p", "p", "q"],
    ...     "judgement": [0.8, -0.4, None]})
    >>> pairs = pd.DataFrame({"pair_id": [0, 1], "good_id": ["a", "c"], "bad_id": ["b", "b"],
    ...     "source": ["LI", "LI"], "phenomenon": ["p", "q"], "good_judgement": [0.8, None],
    ...     "bad_judgement": [-0.4, -0.4], "human_delta": [1.2, None],
    ...     "discarded": [False, True]})
    >>> items = from_tables(sentences, pairs)
    >>> items.comparisons[["pair_id", "good_id", "bad_id"]].values.tolist()
    [['0', 'a', 'b']]
    >>> items.labels["judgement"].tolist()[:2], items.labels["label"].tolist()
    ([0.8, -0.4], [True, False, True])
    """
    pairs = pairs[~pairs["discarded"].astype(bool)].reset_index(drop=True)
    units = pd.DataFrame({"id": sentences["id"], "sentence": sentences["sentence"]})
    comparisons = pd.DataFrame(
        {
            "pair_id": pairs["pair_id"].astype(str),
            "good_id": pairs["good_id"],
            "bad_id": pairs["bad_id"],
            **{g: pairs[g] for g in GROUPS},
            **{h: pairs[h] for h in _HUMAN},
        }
    )
    labels = pd.DataFrame(
        {
            "id": sentences["id"],
            "label": sentences["expert_acceptable"].astype(bool),
            "split": "li_adger",
            "phenomenon": sentences["phenomenon"],
            "judgement": sentences["judgement"].astype(float),
        }
    )
    return Items("li_adger", "pairs", units, comparisons, labels=labels)
