"""ADC: the Acceptability Delta Criterion and the BLiMP criterion, as an ``evaluate`` module.

This module only adapts inputs: per-pair lists become a :class:`metric_adc.pairs.PairTable`
and scores by sentence id, and the result is the row of :func:`metric_adc.rows.model_row`
(the math is :mod:`metric_adc.core`) without its name and caption (install the
``li-adger-adc`` distribution, or run from its repository root).
"""

import datasets
import evaluate
import numpy as np

from metric_adc import core
from metric_adc.pairs import PairTable, model_deltas
from metric_adc.rows import RESULT_KEYS, model_row

_CITATION = """\
@mastersthesis{vazquezmartinez2021adc,
  title  = {The Acceptability Delta Criterion: Testing Knowledge of Language using the
            Gradience of Sentence Acceptability},
  author = {V{\\'a}zquez Mart{\\'i}nez, H{\\'e}ctor Javier},
  school = {Massachusetts Institute of Technology},
  year   = {2021}
}
"""

_DESCRIPTION = """\
Minimal-pair evaluation of a language model against gradient human acceptability ratings.
Model scores are z-scored over all sentences; a pair's model delta is z(good) - z(bad) and its
human delta the difference of the (z-scored) human ratings. ADC(delta) counts a pair as passed
when both deltas have the same sign and differ by less than delta. The BLiMP criterion counts a
pair as passed when the acceptable member scores higher. With config "blimp" no human ratings
are needed and only the BLiMP criterion is computed.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions_good (list of float): model score of each pair's acceptable member.
    predictions_bad (list of float): model score of each pair's unacceptable member.
    references_good (list of float or None): human rating of the acceptable member
        (None = missing: the pair is excluded and counted). Not in config "blimp".
    references_bad (list of float or None): human rating of the unacceptable member.
    deltas (list of float, default [0.5, 1.0, 5.0]): ADC thresholds, each > 0.
    ids_good, ids_bad (list of str, optional): sentence ids; each sentence is then counted
        once in the z-scores however many pairs it is in.
    population (list of float, optional): scores of all sentences to z-score over (e.g. all
        4,178 LI-Adger sentences, including those in no pair). Default: the sentences given.
    standardize (bool, default True): False if the predictions are z-scores already.
    groups (list of str, optional): a label per pair (e.g. phenomenon) for a breakdown.
    auc_max (float, default 5.0): upper end of the delta range of `adc_auc`.
Returns:
    n_sentences, n_pairs, n_excluded, blimp, human_sign, adc ({"0.5": ..., ...}), adc_auc,
    pearson_pairs, pearson_pairs_p, spearman_pairs, spearman_pairs_p, pearson_sentences,
    pearson_sentences_p, spearman_sentences, spearman_sentences_p, standardized, by_group
    (None unless `groups`): the keys of a `python -m metric_adc report` row but its `model`
    and `note`. Values that need human ratings are None in config "blimp".
Examples:
    >>> import metric_adc
    >>> adc = metric_adc.load_metric()
    >>> r = adc.compute(predictions_good=[-10.0, -12.0, -9.0], predictions_bad=[-11.0, -11.5, -15.0],
    ...                 references_good=[1.2, 0.9, 1.1], references_bad=[-0.8, 0.1, -1.0])
    >>> r["blimp"], r["adc"]["5.0"], r["n_excluded"]
    (0.6666666666666666, 0.6666666666666666, 0)
"""


def _floats(values):
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def _ids(ids_good, ids_bad, n):
    """Sentence ids of the good members, then of the bad ones (made up when not given)."""
    if (ids_good is None) != (ids_bad is None):
        raise ValueError("give both 'ids_good' and 'ids_bad', or neither")
    if ids_good is None:
        return [f"{side}{k}" for side in ("good:", "bad:") for k in range(n)]
    if len(ids_good) != n or len(ids_bad) != n:
        raise ValueError(
            f"'ids_good'/'ids_bad' have {len(ids_good)}/{len(ids_bad)} entries, "
            f"expected {n} (one per pair)"
        )
    return [str(i) for i in list(ids_good) + list(ids_bad)]


def _by_id(ids, values, what):
    """One value per sentence id; an id given twice must have the same value both times."""
    out = {}
    for i, v in zip(ids, values, strict=True):
        prev = out.setdefault(i, v)
        if prev != v and not (np.isnan(prev) and np.isnan(v)):
            raise ValueError(f"sentence {i!r} has two different {what} ({prev}, {v})")
    return out


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Adc(evaluate.Metric):
    """ADC and BLiMP criterion over minimal pairs (config "default" or "blimp")."""

    def _info(self):
        names = ["predictions_good", "predictions_bad"]
        if self.config_name != "blimp":
            names += ["references_good", "references_bad"]
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({n: datasets.Value("float64") for n in names}),
            reference_urls=["https://dspace.mit.edu/handle/1721.1/139986"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the statistics (see the module's inputs description)."""
        if self.config_name != "blimp" and kwargs.get("predictions_good") is not None:
            missing = [k for k in ("references_good", "references_bad") if kwargs.get(k) is None]
            if missing:
                raise ValueError(
                    f"missing {missing}: give human ratings, or load the module with config "
                    '"blimp" (evaluate.load(path, "blimp")) for the BLiMP criterion only'
                )
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(
        self,
        predictions_good,
        predictions_bad,
        references_good=None,
        references_bad=None,
        deltas=core.DEFAULT_DELTAS,
        ids_good=None,
        ids_bad=None,
        population=None,
        standardize=True,
        groups=None,
        auc_max=core.DEFAULT_AUC_MAX,
    ):
        good, bad = _floats(predictions_good), _floats(predictions_bad)
        n = good.size
        ids = _ids(ids_good, ids_bad, n)
        judgements = None
        if references_good is not None:
            refs = np.concatenate([_floats(references_good), _floats(references_bad)])
            judgements = _by_id(ids, refs, "ratings")
        table = PairTable.from_judgements(ids[:n], ids[n:], judgements)
        values = np.concatenate([good, bad])
        # a pair excluded for a missing rating needs no scores: drop its unknown ones
        excluded = np.zeros(n, bool) if table.human_delta is None else np.isnan(table.human_delta)
        for i, v, skip in zip(ids, values, np.concatenate([excluded] * 2), strict=True):
            if np.isnan(v) and not skip:
                raise ValueError(f"score of sentence {i!r} must be finite (got {v})")
        known = ~np.isnan(values)
        scores = _by_id([i for i, k in zip(ids, known, strict=True) if k], values[known], "scores")
        scored = model_deltas(scores, table, standardize=standardize, population=population)
        row = model_row(scored, table, groups=groups, deltas=deltas, auc_max=auc_max)
        return {k: row[k] for k in RESULT_KEYS}
