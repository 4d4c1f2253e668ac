"""ADC: the Acceptability Delta Criterion and the BLiMP criterion, as an ``evaluate`` module.

This module only adapts inputs: per-pair lists become a :class:`metric_adc.pairs.PairTable`
and scores by sentence id, and the result is the row of :func:`metric_adc.result_rows.model_row`
(the math is :mod:`metric_adc.core`) without its name and caption (install the
``li-adger-adc`` distribution: the card's "How to Use" says how, or run from the root of a
clone).
"""

import functools
import warnings

import datasets
import evaluate
import numpy as np

from metric_adc import core
from metric_adc.input_checks import as_finite, as_human_deltas, as_ids, as_labels, check_bool
from metric_adc.pairs import PairTable, model_deltas
from metric_adc.result_rows import RESULT_KEYS, model_row
from metric_adc.scores.text_check import UnscoredSentencesWarning, check_coverage

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


_HOMEPAGE = "https://dspace.mit.edu/handle/1721.1/139986"
"""The thesis that defines the criterion (a staged module names its Space instead)."""

_CODEBASE_URLS = ["https://github.com/hjvm/acceptability_delta_criterion"]
"""The thesis's code (a staged module names the code its Space ships first)."""

_INPUTS = ("predictions_good", "predictions_bad", "references_good", "references_bad")


def _column(values, name):
    """One input column as floats, NaN where ``None`` (a missing value); strings, booleans and
    ±inf are refused naming the argument and the position."""
    try:
        n = len(values)
    except TypeError:
        n = 0  # not a list: the check names the argument
    return as_human_deltas(values, n, name)


def _checked_inputs(kwargs, *, blimp):
    """The four input columns checked (by their names here) and turned into lists of floats or
    ``None``, so that evaluate's own encoding of them cannot fail."""
    out = dict(kwargs)
    good = kwargs.get("predictions_good")
    if good is None:
        raise TypeError("'predictions_good' is required: a model score per pair (got None)")
    good = _column(good, "predictions_good")
    if good.size == 0:
        raise ValueError("'predictions_good' is empty: expected a model score per pair")
    names = _INPUTS[1:2] if blimp else _INPUTS[1:]
    if blimp:
        given = [k for k in _INPUTS[2:] if kwargs.get(k) is not None]
        if given:
            raise ValueError(
                f"config 'blimp' takes no human ratings (got {given}): load the default "
                "config to compute the ADC"
            )
    columns = {"predictions_good": good}
    for name in names:
        if kwargs.get(name) is None:
            raise TypeError(f"{name!r} is required: one value per pair (got None)")
        columns[name] = _column(kwargs[name], name)
        if columns[name].size != good.size:
            raise ValueError(
                f"{name!r} has {columns[name].size} values but 'predictions_good' has "
                f"{good.size} (one value per pair each)"
            )
    for name, arr in columns.items():
        out[name] = [None if np.isnan(v) else float(v) for v in arr]
    return out


def _checked_options(kwargs, n):
    """The options of :meth:`Adc._compute` that are given, checked by their names and made
    plain (lists of floats, ids or labels); ``n`` is the number of pairs when known."""
    out = dict(kwargs)
    if "deltas" in out:
        out["deltas"] = core.check_deltas(out["deltas"], "deltas")
    if "auc_max" in out and not np.isfinite(core.check_delta(out["auc_max"], "auc_max")):
        raise ValueError(f"'auc_max' must be finite (got {out['auc_max']!r})")
    if "standardize" in out:
        out["standardize"] = check_bool(out["standardize"], "standardize")
    if out.get("population") is not None:
        out["population"] = as_finite(out["population"], "population").tolist()
    if out.get("groups") is not None:
        out["groups"] = as_labels(out["groups"], len(out["groups"]) if n is None else n)
    if out.get("ids_good") is not None or out.get("ids_bad") is not None:
        ids = _ids(out.get("ids_good"), out.get("ids_bad"), n)
        half = len(ids) // 2
        out["ids_good"], out["ids_bad"] = ids[:half], ids[half:]
    return out


def _floats(values):
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def _ids(ids_good, ids_bad, n):
    """Sentence ids of the good members, then of the bad ones (made up when not given)."""
    if (ids_good is None) != (ids_bad is None):
        raise ValueError("give both 'ids_good' and 'ids_bad', or neither")
    if ids_good is None:
        return [f"{side}{k}" for side in ("good:", "bad:") for k in range(n)]
    ids_good, ids_bad = as_ids(ids_good, "ids_good"), as_ids(ids_bad, "ids_bad")
    n = len(ids_good) if n is None else n
    if len(ids_good) != n or len(ids_bad) != n:
        raise ValueError(
            f"'ids_good'/'ids_bad' have {len(ids_good)}/{len(ids_bad)} entries, "
            f"expected {n} (one per pair)"
        )
    return ids_good + ids_bad


def _by_id(ids, values, what):
    """One value per sentence id; an id given twice must have the same value both times."""
    out = {}
    for i, v in zip(ids, values, strict=True):
        prev = out.setdefault(i, v)
        if prev != v and not (np.isnan(prev) and np.isnan(v)):
            raise ValueError(f"sentence {i!r} has two different {what} ({prev}, {v})")
    return out


def _position(k, n):
    """Where value ``k`` of the good-then-bad list came from: ``"'predictions_bad' position 1"``."""
    side = "good" if k < n else "bad"
    return f"'predictions_{side}' position {k % n}"


@functools.cache
def _li_adger_ids():
    import li_adger

    return tuple(li_adger.load("sentences")["id"])


def _warn_coverage(ids):
    """The rule of :func:`metric_adc.scores.text_check.check_coverage`: LI-Adger sentences given by id,
    z-scored without ``population``, but not all of them: a warning says over how many."""
    dataset = _li_adger_ids()
    if not set(ids) <= set(dataset):
        return
    note = check_coverage(ids, dataset)
    if note:
        warnings.warn(
            f"{note} (give 'population', the scores of all {len(dataset):,} sentences, to "
            "z-score over all of them)",
            UnscoredSentencesWarning,
            stacklevel=3,
        )


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
            homepage=_HOMEPAGE,
            codebase_urls=list(_CODEBASE_URLS),
            reference_urls=["https://dspace.mit.edu/handle/1721.1/139986"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the statistics (see the module's inputs description).

        Every argument is checked here, under its own name: a bad value raises a
        :class:`ValueError` or :class:`TypeError` naming the argument, the position and the
        value, never an error from the conversion of the inputs."""
        if predictions is not None or references is not None:
            raise TypeError(
                "give 'predictions_good' and 'predictions_bad' (and 'references_good', "
                "'references_bad'), not 'predictions'/'references'"
            )
        if self.config_name != "blimp" and kwargs.get("predictions_good") is not None:
            missing = [k for k in ("references_good", "references_bad") if kwargs.get(k) is None]
            if missing:
                raise ValueError(
                    f"missing {missing}: give human ratings, or load the module with config "
                    '"blimp" (evaluate.load(path, "blimp")) for the BLiMP criterion only'
                )
        if any(k in kwargs for k in _INPUTS):
            kwargs = _checked_inputs(kwargs, blimp=self.config_name == "blimp")
        # the options too, before evaluate stores the inputs: an error raised later, inside
        # _compute, makes evaluate's next compute wait a second for its cache lock
        kwargs = _checked_options(kwargs, len(kwargs.get("predictions_good") or ()) or None)
        return super().compute(**kwargs)

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
        if groups is not None:
            groups = as_labels(groups, n, "groups")
        judgements = None
        if references_good is not None:
            refs = np.concatenate([_floats(references_good), _floats(references_bad)])
            judgements = _by_id(ids, refs, "ratings")
        table = PairTable.from_judgements(ids[:n], ids[n:], judgements)
        if table.human_delta is not None and np.isinf(table.human_delta).any():
            k = int(np.flatnonzero(np.isinf(table.human_delta))[0])
            raise ValueError(
                f"'references_good' minus 'references_bad' at position {k} is not finite (got "
                f"{judgements[ids[k]]!r} and {judgements[ids[n + k]]!r})"
            )
        values = np.concatenate([good, bad])
        # a pair excluded for a missing rating needs no scores: drop its unknown ones
        excluded = np.zeros(n, bool) if table.human_delta is None else np.isnan(table.human_delta)
        for k, (v, skip) in enumerate(zip(values, np.concatenate([excluded] * 2), strict=True)):
            if np.isnan(v) and not skip:
                raise ValueError(
                    f"{_position(k, n)} has no score (got None or NaN), but its pair has human "
                    "ratings: only a pair without a rating may lack a score"
                )
        known = ~np.isnan(values)
        scores = _by_id([i for i, k in zip(ids, known, strict=True) if k], values[known], "scores")
        if standardize and population is None and len(set(scores.values())) < 2:
            raise ValueError(
                "'predictions_good' and 'predictions_bad' are constant (all "
                f"{next(iter(scores.values()), None)!r}): z-scores are undefined (give "
                "standardize=False for scores that are z-scores already)"
            )
        if ids_good is not None and population is None and standardize:
            _warn_coverage(ids)
        scored = model_deltas(scores, table, standardize=standardize, population=population)
        row = model_row(scored, table, groups=groups, deltas=deltas, auc_max=auc_max)
        return {k: getattr(row, k) for k in RESULT_KEYS}
