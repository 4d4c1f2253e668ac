"""The NPI cloze test laid out as Warstadt et al. (2019) Fig. 3: one row per contrast (NPI
presence, licensor presence), one column per licensing environment, and each contrast pooled.

:func:`figure_3` reads the ``cloze`` section of a model's result on ``npi_cloze``
(:func:`metric_adc.family.statistics.evaluate_items`: per environment (``set``) and contrast
(``condition``), the share of pairs whose acceptable word scores higher) and regroups it; the
pooled cell of a contrast is the share over all its pairs (weights: each cell's pairs).

Examples
--------
>>> section = {"sets": {"only": {"conditions": {
...     "npi_present": {"n_sensitivity_items": 3, "sensitivity": 2 / 3},
...     "licensor": {"n_sensitivity_items": 1, "sensitivity": 1.0}}},
...     "quantifiers": {"conditions": {
...     "npi_present": {"n_sensitivity_items": 1, "sensitivity": 0.0}}}}}
>>> g = figure_3(section)
>>> g["columns"], g["rows"]["npi_present"]
(['ONLY', 'QNT', 'all'], {'ONLY': 0.6666666666666666, 'QNT': 0.0, 'all': 0.5})
>>> g["rows"]["licensor"]["QNT"] is None
True
"""

from __future__ import annotations

from collections.abc import Mapping

from li_adger.benchmarks.npi import ENVIRONMENTS

__all__ = ["CONTRASTS", "figure_3"]

CONTRASTS: dict[str, str] = {"npi_present": "NPI presence", "licensor": "licensor presence"}
"""Fig. 3's two sections, top to bottom: the contrast → how the paper names it."""


def figure_3(cloze: Mapping) -> dict:
    """``{"columns", "rows": {contrast: {column: share or None}}, "n": {contrast: {column:
    pairs}}}``: columns are the environments present (the paper's abbreviations, in its
    order) and ``all``; a cell without pairs is ``None``."""
    sets = cloze["sets"]
    envs = [e for e in ENVIRONMENTS if e in sets]
    columns = [ENVIRONMENTS[e] for e in envs] + ["all"]
    rows: dict[str, dict] = {}
    counts: dict[str, dict] = {}
    for contrast in CONTRASTS:
        row, n_row = {}, {}
        total = hits = 0.0
        for env in envs:
            cell = sets[env]["conditions"].get(contrast)
            n = 0 if cell is None else int(cell["n_sensitivity_items"])
            row[ENVIRONMENTS[env]] = None if n == 0 else float(cell["sensitivity"])
            n_row[ENVIRONMENTS[env]] = n
            if n:
                total += n
                hits += n * float(cell["sensitivity"])
        row["all"] = hits / total if total else None
        n_row["all"] = int(total)
        rows[contrast], counts[contrast] = row, n_row
    return {"columns": columns, "rows": rows, "n": counts}
