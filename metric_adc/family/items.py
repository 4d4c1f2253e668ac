"""The benchmarks' items as the metric reads them: once per process.

Every part of the metric that needs a benchmark's items (the scores-file checks, the pair
table of LI-Adger, the reports, the human ceiling's pairs) reads them through :func:`items_of`,
so that one command reads each benchmark once, with the one reader of
:mod:`li_adger.benchmarks`.
"""

from __future__ import annotations

import functools

from li_adger.benchmarks import Items, load_items

__all__ = ["items_of"]


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
