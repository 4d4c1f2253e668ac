"""Which task's deltas do models track best? Magnitude estimation vs Likert vs forced choice.

The LI study ran three tasks on the same sentences (:mod:`li_adger.sources.participants`). Per task,
:func:`task_comparison` gives the split-half reliability of its pair measure and the Pearson
correlation of the thesis's model deltas with it, raw and disattenuated. The split-half
machinery is that of :mod:`metric_adc.ceiling.splits`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from metric_adc import core
from metric_adc.ceiling.inputs import CeilingInputs
from metric_adc.ceiling.splits import half_means, split_masks, summarize_splits

__all__ = ["task_comparison"]


def _fc_pairs(pairs: pd.DataFrame, fc_ids: Iterable[str]) -> pd.DataFrame:
    """Pairs whose forced-choice trial is the same pair: the bad id was judged against the
    good member of the same token (the forced-choice file names only the bad member)."""
    known = set(fc_ids)
    token = lambda s: s.str.rsplit(".", n=1).str[1]  # noqa: E731
    same = (token(pairs["good_id"]) == token(pairs["bad_id"])) & pairs["bad_id"].isin(known)
    return pairs[same]


def _task_deltas(inputs: CeilingInputs) -> pd.DataFrame:
    """Full-sample pair measure of each task, indexed like ``inputs.pairs``."""
    p = inputs.pairs
    out = pd.DataFrame(index=p.index)
    for task in ("me", "ls"):
        m = getattr(inputs, task)
        means = pd.Series(np.nanmean(m.values, axis=0), index=m.ids)
        out[task] = means.reindex(p["good_id"]).to_numpy() - means.reindex(p["bad_id"]).to_numpy()
    fc = inputs.fc
    share = pd.Series(np.nanmean(fc.values, axis=0), index=fc.ids)
    out["fc"] = np.nan
    same = _fc_pairs(p, fc.ids)
    out.loc[same.index, "fc"] = share.reindex(same["bad_id"]).to_numpy()
    return out


def _reliability(
    matrix,
    columns: Sequence[str],
    good: Sequence[str] | None,
    bad: Sequence[str] | None,
    *,
    n_splits: int,
    rng: np.random.Generator,
) -> dict:
    """Split-half Pearson of a task's pair measure and its Spearman-Brown reliability."""
    masks = split_masks(matrix.groups, n_splits, rng)
    a, b = half_means(matrix.values, masks)
    index = {s: k for k, s in enumerate(matrix.ids.tolist())}
    if good is None:  # forced choice: the measure is the share choosing the better member
        cols = np.array([index[c] for c in columns])
        xa, xb = a[:, cols], b[:, cols]
    else:
        gi = np.array([index[c] for c in good])
        bi = np.array([index[c] for c in bad])
        xa, xb = a[:, gi] - a[:, bi], b[:, gi] - b[:, bi]
    r = [core.correlation(xa[s], xb[s])["pearson"] for s in range(n_splits)]
    return {
        "split_half_pearson": summarize_splits(np.array(r, dtype=float)),
        "reliability": summarize_splits(np.array([core.spearman_brown(x) for x in r], dtype=float)),
    }


def task_comparison(
    inputs: CeilingInputs,
    models: pd.DataFrame,
    *,
    n_splits: int,
    rng: np.random.Generator,
) -> dict:
    """Compare the ME, Likert and forced-choice measures of the LI pairs.

    Per task: the number of pairs it covers, the split-half reliability of its pair measure
    (difference of mean z-scores for ME and Likert; share of participants choosing the better
    member for forced choice) and, per model of the thesis, the Pearson correlation of the
    model's deltas with the task's measure, raw and disattenuated (divided by the square root
    of the task's reliability, the correlation with a noise-free measure). ``models`` holds
    one column of pair deltas per model, indexed like ``inputs.pairs``
    (:func:`metric_adc.ceiling.inputs.thesis_deltas_frame`).

    Examples
    --------
    >>> from metric_adc.ceiling.inputs import load_inputs, thesis_deltas_frame
    >>> inputs = load_inputs()
    >>> out = task_comparison(inputs, thesis_deltas_frame(inputs.pairs), n_splits=20,
    ...                       rng=np.random.default_rng(0))
    >>> sorted(out["tasks"])
    ['fc', 'ls', 'me']
    """
    p = inputs.pairs
    measures = _task_deltas(inputs)
    fc_pairs = _fc_pairs(p, inputs.fc.ids)
    rel = {
        "me": _reliability(inputs.me, (), p["good_id"], p["bad_id"], n_splits=n_splits, rng=rng),
        "ls": _reliability(inputs.ls, (), p["good_id"], p["bad_id"], n_splits=n_splits, rng=rng),
        "fc": _reliability(
            inputs.fc, fc_pairs["bad_id"].tolist(), None, None, n_splits=n_splits, rng=rng
        ),
    }
    tasks: dict[str, dict] = {}
    for task in ("me", "ls", "fc"):
        reliability = rel[task]["reliability"]["mean"]
        per_model = {}
        for name in models.columns:
            r = core.correlation(models[name].to_numpy(float), measures[task].to_numpy(float))
            pearson = r["pearson"]
            per_model[name] = {
                "n": r["n"],
                "pearson": pearson,
                "disattenuated": None
                if pearson is None or not reliability or reliability <= 0
                else pearson / math.sqrt(reliability),
            }
        tasks[task] = {
            "n_pairs": int(measures[task].notna().sum()),
            **rel[task],
            "models": per_model,
        }
    between = {
        f"{a}~{b}": core.correlation(measures[a].to_numpy(float), measures[b].to_numpy(float))[
            "pearson"
        ]
        for a, b in (("me", "ls"), ("me", "fc"), ("ls", "fc"))
    }
    return {"n_pairs": len(p), "tasks": tasks, "between_tasks": between}
