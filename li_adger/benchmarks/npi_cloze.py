"""The NPI cloze test (Warstadt et al. 2019, §3 and Fig. 3): 3,869 minimal pairs that differ in
one word, that word masked.

``npi/npi_cloze_pairs.tsv`` has the layout of the minimal-pair file (:mod:`li_adger.benchmarks.npi`:
environment, sentence A, sentence B, label, paradigm code; label 0: A is acceptable). Its pairs
are the subset of the minimal pairs whose sentences have the same number of words and differ in
exactly one (§3: "both sentences must be equal in length and differ in only one token"); the
reader checks this on every row (words: the sentence split at spaces). The pairs vary the NPI
(``npi_present``) or the licensor (``licensor``), the two sections of Fig. 3; a scope pair
moves words and is never in the file.

A unit is a cloze unit with a blank inside the sentence: ``context`` (the words before the
differing one; empty when it opens the sentence), ``completion`` (the word) and ``after`` (the
words after it, never empty in this file). The two units of a pair share context and after;
identical units are one (ids ``<pair id>.good`` or ``.bad`` of the first occurrence). A
comparison is a pair: ``pair_id`` ``<environment>.<paradigm>.<k>`` as in the minimal-pair file,
``item_id`` the same, and the group columns of the cloze path: ``set`` (the environment, as the
minimal-pair benchmark names it) and ``condition`` (the contrast); ``environment``,
``contrast`` and ``paradigm`` are kept beside them.

The paper's question is whether BERT's MLM head gives the acceptable word the higher
probability at the mask; a causal LM cannot see the words after a blank, and scores the causal
analogue (the whole sentences' log-probabilities; :mod:`baselines.run`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from li_adger.benchmarks.npi import ENVIRONMENTS, paradigm_of
from li_adger.benchmarks.spec import Items
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv
from li_adger.benchmarks.units import unique_units

__all__ = ["FILE", "GROUPS", "blank", "read"]

FILE = "npi/npi_cloze_pairs.tsv"
GROUPS: tuple[str, ...] = ("set", "condition")
"""The cloze path's group columns: ``set`` is the licensing environment, ``condition`` the
contrast (``npi_present`` or ``licensor``)."""


def blank(a: str, b: str) -> tuple[str, str, str, str]:
    """The one word where two sentences differ: ``(context, word in a, word in b, after)``.

    Examples
    --------
    >>> blank("The boys ever read.", "The boys often read.")
    ('The boys', 'ever', 'often', 'read.')
    >>> blank("Rarely do boys read.", "Often do boys read.")
    ('', 'Rarely', 'Often', 'do boys read.')
    >>> blank("The boys read.", "The girls read books.")
    Traceback (most recent call last):
    ValueError: the sentences must have the same number of words and differ in exactly one that is not the last (they have 3 and 4 words)
    """
    x, y = a.split(" "), b.split(" ")
    where = [i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q]
    if len(x) != len(y) or len(where) != 1 or where[0] == len(x) - 1:
        detail = (
            f"they have {len(x)} and {len(y)} words"
            if len(x) != len(y)
            else f"they differ at word(s) {[i + 1 for i in where]} of {len(x)}"
        )
        raise ValueError(
            "the sentences must have the same number of words and differ in exactly one that "
            f"is not the last ({detail})"
        )
    i = where[0]
    return " ".join(x[:i]), x[i], y[i], " ".join(x[i + 1 :])


def read(paths: Mapping[str, Path]) -> Items:
    """The 3,869 cloze pairs, each with its acceptable word as ``good``.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> items = read(find_sources([FILE]))
    >>> len(items.comparisons), items.comparisons["set"].nunique()
    (3869, 9)
    >>> sorted(items.comparisons["condition"].unique())
    ['licensor', 'npi_present']
    >>> items.units.set_index("id").loc[items.comparisons.iloc[0]["bad_id"]].tolist()
    ['A cashier', 'ever', 'thought that the boys often read.']
    """
    path = Path(paths[FILE])
    counts: dict[tuple[str, str], int] = {}
    ids, contexts, words, afters, rows = [], [], [], [], []
    for number, (env_name, a, b, label, code) in read_tsv(path, 5):
        where = f"{path}:{number}"
        environment = env_name.removeprefix("NPI-")
        if not env_name.startswith("NPI-") or environment not in ENVIRONMENTS:
            raise SourceFormatError(
                f"{where}: unknown environment {env_name!r}; expected one of "
                f"{['NPI-' + e for e in ENVIRONMENTS]}"
            )
        if label not in ("0", "1"):
            raise SourceFormatError(f"{where}: label must be 0 or 1 (got {label!r})")
        try:
            paradigm, contrast = paradigm_of(code)
            context, word_a, word_b, after = blank(a, b)
        except ValueError as exc:
            raise SourceFormatError(f"{where}: {exc}") from None
        k = counts.get((environment, paradigm), 0)
        counts[environment, paradigm] = k + 1
        pair_id = f"{environment}.{paradigm}.{k}"
        good, bad = (word_a, word_b) if label == "0" else (word_b, word_a)
        for side, word in (("good", good), ("bad", bad)):
            ids.append(f"{pair_id}.{side}")
            contexts.append(context)
            words.append(word)
            afters.append(after)
        rows.append((pair_id, environment, contrast, paradigm))
    units, unit_ids = unique_units(ids, {"context": contexts, "completion": words, "after": afters})
    pair_ids, environments, contrasts, paradigms = zip(*rows, strict=True)
    comparisons = pd.DataFrame(
        {
            "pair_id": pair_ids,
            "good_id": unit_ids[0::2],
            "bad_id": unit_ids[1::2],
            "item_id": pair_ids,
            "set": environments,
            "condition": contrasts,
            "environment": environments,
            "contrast": contrasts,
            "paradigm": paradigms,
        }
    )
    return Items("npi_cloze", "cloze", units, comparisons)
