"""Numbers the papers print, typed from their tables, each with the table it comes from.

:data:`ETTINGER_TABLES`: BERT-base and BERT-large in Ettinger (2020), Tables 4 (CPRAG-102 under
Shuf and Trunc), 7 (ROLE-88 without its object or subject noun) and 8 (ROLE-88 by constraint
bin): accuracy at k in percent, ``(value, sd)`` where the paper prints ``value ± sd``.
:data:`NPI_MTURK`: Warstadt et al. (2019), appendix Table 4: per environment, the share of
validated sentences rated acceptable (by majority vote) among those intended unacceptable and
acceptable, and the overall agreement of §5 (82.8 %). Nothing here is computed: a test checks
the printed numbers against each other (e.g. Diff = acceptable − unacceptable).

Examples
--------
>>> ETTINGER_TABLES["table_4"]["rows"]["BERT-large k=1"]["Shuf"]
(17.4, 3.5)
>>> NPI_MTURK["rows"]["Only"]
(5.56, 90.0, 84.44)
"""

from __future__ import annotations

__all__ = ["ETTINGER_TABLES", "NPI_MTURK", "ettinger_reference_rows"]

_E = "Ettinger (2020)"

ETTINGER_TABLES: dict[str, dict] = {
    "table_4": {
        "source": f"{_E}, Table 4 (CPRAG-102; Shuf and Shuf + Trunc: mean ± sd of 100 runs)",
        "columns": ("Orig", "Shuf", "Trunc", "Shuf + Trunc"),
        "rows": {
            "BERT-base k=1": {"Orig": (23.5, None), "Shuf": (14.1, 3.1), "Trunc": (14.7, None),
                              "Shuf + Trunc": (8.1, 3.4)},
            "BERT-large k=1": {"Orig": (35.3, None), "Shuf": (17.4, 3.5), "Trunc": (17.6, None),
                               "Shuf + Trunc": (10.0, 3.0)},
            "BERT-base k=5": {"Orig": (52.9, None), "Shuf": (36.1, 2.8), "Trunc": (35.3, None),
                              "Shuf + Trunc": (22.1, 3.2)},
            "BERT-large k=5": {"Orig": (52.9, None), "Shuf": (39.2, 3.9), "Trunc": (32.4, None),
                               "Shuf + Trunc": (21.3, 3.7)},
        },
    },
    "table_7": {
        "source": f"{_E}, Table 7 (ROLE-88; object → 'one', subject → 'other')",
        "columns": ("Orig", "-Obj", "-Sub", "-Both"),
        "rows": {
            "BERT-base k=1": {"Orig": (14.8, None), "-Obj": (12.5, None), "-Sub": (12.5, None),
                              "-Both": (9.1, None)},
            "BERT-large k=1": {"Orig": (13.6, None), "-Obj": (5.7, None), "-Sub": (6.8, None),
                               "-Both": (4.5, None)},
            "BERT-base k=5": {"Orig": (27.3, None), "-Obj": (26.1, None), "-Sub": (22.7, None),
                              "-Both": (18.2, None)},
            "BERT-large k=5": {"Orig": (37.5, None), "-Obj": (18.2, None), "-Sub": (21.6, None),
                               "-Both": (14.8, None)},
        },
    },
    "table_8": {
        "source": f"{_E}, Table 8 (ROLE-88 binned by top cloze value)",
        "columns": ("≤.17", "≤.23", "≤.33", "≤.77"),
        "rows": {
            "BERT-base k=1": {"≤.17": (12.0, None), "≤.23": (17.4, None), "≤.33": (17.4, None),
                              "≤.77": (11.8, None)},
            "BERT-large k=1": {"≤.17": (8.0, None), "≤.23": (4.3, None), "≤.33": (17.4, None),
                               "≤.77": (29.4, None)},
            "BERT-base k=5": {"≤.17": (24.0, None), "≤.23": (26.1, None), "≤.33": (21.7, None),
                              "≤.77": (41.1, None)},
            "BERT-large k=5": {"≤.17": (28.0, None), "≤.23": (34.8, None), "≤.33": (39.1, None),
                               "≤.77": (52.9, None)},
        },
    },
}  # fmt: skip
"""Ettinger's printed cells: table → its source, columns and rows (row → column → (value, sd))."""

NPI_MTURK: dict = {
    "source": "Warstadt et al. (2019), appendix Table 4 (MTurk validation; §5: 82.8 % overall)",
    "columns": ("% accept (*)", "% accept (✓)", "Diff"),
    "rows": {
        "Adverb": (8.33, 70.00, 61.67),
        "Conditionals": (37.50, 87.50, 50.00),
        "Determiner negation": (11.11, 90.00, 78.89),
        "Embedded questions": (8.33, 97.50, 89.17),
        "Only": (5.56, 90.00, 84.44),
        "Sentential negation": (27.78, 80.00, 52.22),
        "Simple questions": (33.33, 96.30, 62.97),
        "Superlatives": (8.33, 75.00, 66.67),
        "Quantifiers": (4.17, 55.00, 50.83),
    },
    "overall": {"acceptable_rated_acceptable": 81.3, "unacceptable_rated_unacceptable": 85.2,
                "agreement": 82.8},
    "environments": {
        "Adverb": "adverbs", "Conditionals": "conditionals",
        "Determiner negation": "determiner_negation_biclausal", "Embedded questions": "questions",
        "Only": "only", "Sentential negation": "sentential_negation_biclausal",
        "Simple questions": "simplequestions", "Superlatives": "superlative",
        "Quantifiers": "quantifiers",
    },
}  # fmt: skip
"""The NPI paper's MTurk validation: environment as printed → (% of intended-unacceptable
sentences rated acceptable, % of intended-acceptable ones, their difference); the overall
shares of §5; and each printed environment's name in the benchmark."""


def ettinger_reference_rows(table: str) -> dict[str, dict[str, dict]]:
    """Ettinger's rows of a table as cells of :func:`metric_adc.family.perturbations.perturbation_cells`
    (``{"value", "sd", "n_items": None, "n_runs": None}``), keyed ``"k=1"``/``"k=5"`` then model.

    Examples
    --------
    >>> rows = ettinger_reference_rows("table_7")
    >>> rows["k=5"]["BERT-large"]["-Obj"]["value"], list(rows["k=1"])
    (18.2, ['BERT-base', 'BERT-large'])
    """
    out: dict[str, dict[str, dict]] = {}
    for label, cells in ETTINGER_TABLES[table]["rows"].items():
        model, k = label.rsplit(" ", 1)
        out.setdefault(k, {})[model] = {
            c: {"value": v, "sd": sd, "n_items": None, "n_runs": None}
            for c, (v, sd) in cells.items()
        }
    return out
