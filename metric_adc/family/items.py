"""The benchmarks' items as the metric reads them: once per process.

Every part of the metric that needs a benchmark's items (the scores-file checks, the pair
table of LI-Adger, the reports, the human ceiling's pairs) reads them through :func:`items_of`,
so that one command reads each benchmark once, with the one reader of
:mod:`li_adger.benchmarks`.
"""

from __future__ import annotations

import functools

from li_adger.benchmarks import BENCHMARKS, Items, load_items

__all__ = ["items_of", "needed_ids"]


@functools.cache
def items_of(name: str) -> Items:
    """The benchmark's items (:func:`li_adger.benchmarks.load_items`), read once per process.

    Examples
    --------
    >>> items_of("npi") is items_of("npi")
    True
    >>> len(items_of("li_adger").comparisons)
    2365
    """
    return load_items(name)


def needed_ids(items: Items) -> list[str]:
    """The units a model must score to be evaluated on ``items``: the members of every
    comparison and every labelled sentence, each once, in order (units in no item may be left
    out). LI-Adger is evaluated on its pairs: its labels (every sentence's judgement) are not
    needed, so its 56 sentences in no evaluable pair may be left out.

    Examples
    --------
    >>> import pandas as pd
    >>> units = pd.DataFrame({"id": ["a", "b", "c"], "sentence": ["A.", "B.", "C."]})
    >>> pairs = pd.DataFrame({"pair_id": ["p"], "good_id": ["a"], "bad_id": ["b"]})
    >>> needed_ids(Items("toy", "pairs", units, pairs))
    ['a', 'b']
    """
    # a judged benchmark's labels (LI-Adger's expert labels) are another section's, scored apart
    spec = BENCHMARKS.get(items.benchmark)
    labelled = [] if spec is not None and spec.judged else list(items.labels["id"])
    return list(
        dict.fromkeys([*items.comparisons["good_id"], *items.comparisons["bad_id"], *labelled])
    )
