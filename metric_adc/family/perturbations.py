"""Accuracy at k under Ettinger's (2020) perturbations: the cells of her Tables 4, 7 and 8.

:func:`item_ranks` gives each accuracy item of a perturbed run
(:func:`li_adger.benchmarks.perturbations.perturbed_items`) its best rank over its expected
completions; :func:`perturbation_cells` turns them into one cell per (table, k, column):
the share of items whose expected completion is in the model's top k
(:func:`metric_adc.prediction.accuracy_at_k`), and for the shuffled columns the mean and the
standard deviation (``ddof=1``) of that share over the shuffles, as Ettinger reports "mean and
standard deviation from 100 runs". Table 8's columns are the original ROLE-88 items binned by
their top cloze value (:func:`li_adger.benchmarks.perturbations.constraint_bin`).

A cell is ``{"value", "sd", "n_items", "n_runs"}`` (``sd`` ``None`` unless the column is
shuffled; ``n_runs`` the shuffles, 1 otherwise), in percent, as the paper prints them.

Examples
--------
>>> TABLES["table_4"]
('Orig', 'Shuf', 'Trunc', 'Shuf + Trunc')
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from li_adger.benchmarks.perturbations import BIN_EDGES, bin_label, constraint_bin
from metric_adc import prediction
from metric_adc.family.statistics import ACCURACY_KS

__all__ = ["COLUMNS", "TABLES", "item_ranks", "perturbation_cells"]

COLUMNS: dict[str, tuple[str, str]] = {
    "orig": ("", "Orig"),
    "shuf": ("table_4", "Shuf"),
    "trunc": ("table_4", "Trunc"),
    "shuf+trunc": ("table_4", "Shuf + Trunc"),
    "-obj": ("table_7", "-Obj"),
    "-sub": ("table_7", "-Sub"),
    "-both": ("table_7", "-Both"),
}
"""A perturbation → its table and the column Ettinger heads it with."""

TABLES: dict[str, tuple[str, ...]] = {
    "table_4": ("Orig", "Shuf", "Trunc", "Shuf + Trunc"),
    "table_7": ("Orig", "-Obj", "-Sub", "-Both"),
    "table_8": tuple(bin_label(e) for e in BIN_EDGES),
}
"""Each table's columns, in the paper's order (Table 4: CPRAG-102; Tables 7 and 8: ROLE-88)."""

_SET_OF_TABLE = {"table_4": "CPRAG-102", "table_7": "ROLE-88", "table_8": "ROLE-88"}


def item_ranks(accuracy: pd.DataFrame, ranks: Mapping[str, float]) -> pd.DataFrame:
    """One row per accuracy item: ``item_id, set, perturbation, shuffle, top_cloze, rank``
    (the best rank of its expected completions; an item with several counts as predicted when
    any of them is). A unit without a rank raises naming it.

    Examples
    --------
    >>> acc = pd.DataFrame({"item_id": ["i", "i", "j"], "expected_id": ["a", "b", "c"],
    ...     "set": ["ROLE-88"] * 3, "perturbation": ["orig"] * 3, "shuffle": [-1] * 3,
    ...     "top_cloze": [0.2, 0.2, 0.5]})
    >>> item_ranks(acc, {"a": 7, "b": 2, "c": 1})["rank"].tolist()
    [2.0, 1.0]
    >>> item_ranks(acc, {"a": 7})
    Traceback (most recent call last):
    ValueError: 'ranks' lacks 2 of the 3 expected completion(s) of the perturbed items, e.g. 'b'
    """
    missing = [i for i in accuracy["expected_id"] if i not in ranks]
    if missing:
        raise ValueError(
            f"'ranks' lacks {len(missing)} of the {len(accuracy)} expected completion(s) of the "
            f"perturbed items, e.g. {missing[0]!r}"
        )
    rank = [ranks[i] for i in accuracy["expected_id"]]
    names, best = prediction.best_rank(rank, accuracy["item_id"].to_numpy())
    items = accuracy.drop_duplicates("item_id")[
        ["item_id", "set", "perturbation", "shuffle", "top_cloze"]
    ].reset_index(drop=True)
    items["rank"] = best[pd.Index(names).get_indexer(items["item_id"].astype(str))]
    return items


def _cell(rows: pd.DataFrame, k: int) -> dict:
    """Accuracy at ``k`` in percent over ``rows``; over shuffles, their mean and sd."""
    runs = [prediction.accuracy_at_k(r["rank"].to_numpy(), k) for _, r in rows.groupby("shuffle")]
    shuffled = bool((rows["shuffle"] >= 0).any())
    return {
        "value": 100 * float(np.mean(runs)),
        "sd": 100 * float(np.std(runs, ddof=1)) if shuffled and len(runs) > 1 else None,
        "n_items": int(rows["item_id"].str.replace(r"#\d+$", "", regex=True).nunique()),
        "n_runs": len(runs),
    }


def perturbation_cells(items: pd.DataFrame) -> dict:
    """The tables a run's :func:`item_ranks` fill: ``{table: {"set", "columns", "rows":
    {"k=1": {column: cell}, "k=5": ...}}}``; a table whose perturbations the run lacks is left
    out, and so is Table 8 without ROLE-88's original items. ``Orig`` comes from the original
    items the run scores with its perturbations.

    Examples
    --------
    Two CPRAG items, ranked 1 and 9 in the original; two shuffles that leave 1 and 0 in the
    top 1:

    >>> items = pd.DataFrame({"item_id": ["a", "b", "a@shuf#0", "b@shuf#0", "a@shuf#1",
    ...     "b@shuf#1"], "set": ["CPRAG-102"] * 6, "perturbation": ["orig"] * 2 + ["shuf"] * 4,
    ...     "shuffle": [-1, -1, 0, 0, 1, 1], "top_cloze": [np.nan] * 6,
    ...     "rank": [1.0, 9.0, 1.0, 3.0, 2.0, 4.0]})
    >>> t = perturbation_cells(items)["table_4"]
    >>> t["columns"], t["rows"]["k=1"]["Orig"]["value"], t["rows"]["k=1"]["Shuf"]
    (['Orig', 'Shuf'], 50.0, {'value': 25.0, 'sd': 35.35533905932738, 'n_items': 2, 'n_runs': 2})
    """
    out: dict = {}
    for table, columns in TABLES.items():
        s = _SET_OF_TABLE[table]
        of_set = items[items["set"] == s]
        orig = of_set[of_set["perturbation"] == "orig"]
        if table == "table_8":
            if orig.empty:
                continue
            binned = orig.assign(column=[constraint_bin(v) for v in orig["top_cloze"]])
            groups = {c: binned[binned["column"] == c] for c in columns}
        else:
            names = {p for p, (t, _) in COLUMNS.items() if t == table}
            if not names & set(of_set["perturbation"]):
                continue
            groups = {"Orig": orig}
            for p in of_set["perturbation"].unique():
                if p in names:
                    groups[COLUMNS[p][1]] = of_set[of_set["perturbation"] == p]
        present = [c for c in columns if c in groups and len(groups[c])]
        out[table] = {
            "set": s,
            "columns": present,
            "rows": {f"k={k}": {c: _cell(groups[c], k) for c in present} for k in ACCURACY_KS},
        }
    return out
