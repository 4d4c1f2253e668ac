"""ADC: the Acceptability Delta Criterion and the BLiMP criterion, as an ``evaluate`` module.

This module only adapts inputs; the math is :mod:`metric_adc.core` (install the
``li-adger-adc`` distribution, or run from its repository root).
"""

import datasets
import evaluate
import numpy as np

from metric_adc import core

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
    n_pairs, n_excluded, n_sentences, blimp, human_sign, adc ({"0.5": ..., ...}), adc_auc,
    pearson_pairs, pearson_pairs_p, spearman_pairs, spearman_pairs_p, pearson_sentences,
    pearson_sentences_p, by_group (None unless `groups`). Values that need human ratings
    are None in config "blimp".
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
        good = _floats(predictions_good)
        bad = _floats(predictions_bad)
        n = good.size
        human = None
        if references_good is not None:
            hg, hb = _floats(references_good), _floats(references_bad)
            human = hg - hb
        if (ids_good is None) != (ids_bad is None):
            raise ValueError("give both 'ids_good' and 'ids_bad', or neither")
        if ids_good is not None:
            if len(ids_good) != n or len(ids_bad) != n:
                raise ValueError(
                    f"'ids_good'/'ids_bad' have {len(ids_good)}/{len(ids_bad)} entries, "
                    f"expected {n} (one per pair)"
                )
            ids = [str(i) for i in list(ids_good) + list(ids_bad)]
        else:
            ids = [f"{side}{k}" for side in ("good:", "bad:") for k in range(n)]
        values = np.concatenate([good, bad])
        known = ~np.isnan(values)
        if human is not None:
            known |= np.concatenate([np.isnan(human)] * 2)  # excluded pairs may lack scores
        unique: dict[str, float] = {}
        for i, v, ok in zip(ids, values, known, strict=True):
            if not ok:
                raise ValueError(f"score of sentence {i!r} must be finite (got {v})")
            if np.isnan(v):
                continue
            if unique.setdefault(i, v) != v:
                raise ValueError(f"sentence {i!r} has two different scores ({unique[i]}, {v})")
        if not standardize:
            z = dict(unique)
        elif population is not None:
            core.zscore(population)  # validates the population: finite, not constant
            raw = np.asarray(population, dtype=float)
            mean, sd = raw.mean(), raw.std()
            z = {k: (v - mean) / sd for k, v in unique.items()}
        else:
            z = core.zscore_by_id(list(unique), list(unique.values()))
        dlm = np.array(
            [z.get(g, np.nan) - z.get(b, np.nan) for g, b in zip(ids[:n], ids[n:], strict=True)]
        )
        out = core.summarize(dlm, human, deltas=deltas, auc_max=auc_max)
        out["n_sentences"] = len(unique) if population is None else len(population)
        out["pearson_sentences"] = out["pearson_sentences_p"] = None
        if human is not None:
            h_by_id = dict(zip(ids, np.concatenate([hg, hb]).tolist(), strict=True))
            rated = [k for k in z if not np.isnan(h_by_id[k])]
            r = core.correlation([z[k] for k in rated], [h_by_id[k] for k in rated])
            out["pearson_sentences"], out["pearson_sentences_p"] = r["pearson"], r["pearson_p"]
        out["by_group"] = (
            None
            if groups is None
            else core.breakdown(groups, dlm, human, deltas=deltas, auc_max=auc_max)
        )
        return out
