"""The math of the Acceptability Delta Criterion: z-scores, pair deltas, criteria, summaries.

Every function here is pure NumPy/SciPy; inputs are checked by :mod:`metric_adc.input_checks`. The
correlations live in :mod:`metric_adc.correlation` and are re-exported here
(:func:`correlation`, :func:`sentence_correlation`, :func:`spearman_brown`). The command line,
the ``evaluate`` module, the Space and the human ceiling all call these functions; there is no
second copy of the math.

Definitions (Vázquez Martínez 2021):

- Model scores are z-scored over *all sentences given* (population standard deviation,
  ``ddof=0``), each sentence counted once however many pairs it belongs to, or over a
  larger population of sentences when one is given (:func:`zscore_by_id`).
- A pair's model delta is ``Δlm = z(good) − z(bad)``; its human delta ``Δh`` is the
  difference of the (already z-scored) human judgements.
- **ADC(δ)**: a pair passes iff ``sign(Δlm) == sign(Δh)`` and ``|Δh − Δlm| < δ``.
- **BLiMP criterion**: a pair passes iff ``Δlm > 0`` (the expert-acceptable member scores
  strictly higher; a tie fails).
- **Human-sign criterion**: ``sign(Δlm) == sign(Δh)``, i.e. ADC with ``δ → ∞``.
- **ADC area** (``adc_auc``): the area under ``ADC(δ)`` for ``δ`` in ``[0, δ_max]`` divided by
  ``δ_max``, computed exactly (``ADC(δ)`` is a step function), a δ-free summary in ``[0, 1]``.

Documented choices for degenerate input (each raises :class:`ValueError` with a message
naming the field, what was expected and what was received, unless stated otherwise):

- constant model scores (z-scores undefined), NaN or ±inf model scores, length mismatches,
  duplicate or unknown sentence ids, ``δ <= 0`` or NaN, fewer than 2 evaluable pairs in
  :func:`summarize`: raise.
- a missing human judgement (NaN human delta): the pair is *excluded* from every statistic
  (BLiMP criterion included, so that all numbers describe the same pairs) and counted in
  ``n_excluded``; it is never passed, and its model delta may be NaN (an excluded pair
  needs no model score). ±inf human deltas raise.
- a correlation that is undefined (fewer than 3 points, or a constant side): ``None`` for the
  coefficient and its p-value, never NaN. Statistics that need human ratings are ``None`` in
  BLiMP-only mode (no human deltas given). Results keep the same keys in every case.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import formulas
from metric_adc.correlation import correlation, sentence_correlation, spearman_brown
from metric_adc.input_checks import (
    as_finite,
    as_flags,
    as_ids,
    as_labels,
    as_model_and_human,
    as_sweep_grid,
    check_delta,
    check_deltas,
    check_int,
    check_mapping,
    check_share,
    delta_key,
    summary_options,
)

__all__ = [
    "DEFAULT_AUC_MAX",
    "DEFAULT_DELTAS",
    "adc",
    "adc_auc",
    "adc_auc_terms",
    "adc_pass",
    "blimp_accuracy",
    "blimp_pass",
    "breakdown",
    "check_delta",
    "check_deltas",
    "correlation",
    "delta_for_share",
    "delta_key",
    "delta_sweep",
    "human_sign_accuracy",
    "overlap",
    "pair_deltas",
    "sentence_correlation",
    "spearman_brown",
    "summarize",
    "zscore",
    "zscore_by_id",
]

DEFAULT_DELTAS: tuple[float, ...] = (0.5, 1.0, 5.0)
"""The thresholds the thesis reports: 0.5 and 1 (strict), 5 (close to the BLiMP criterion)."""

DEFAULT_AUC_MAX: float = formulas.DEFAULT_AUC_MAX
"""Upper end of the δ range whose normalized area :func:`adc_auc` reports."""


# ----------------------------------------------------------------------------- z-scores and deltas
def zscore(scores: ArrayLike) -> np.ndarray:
    """Z-score with the population standard deviation (``ddof=0``).

    Raises if any value is NaN/inf or if all values are equal (z-scores undefined). Any finite
    scores have z-scores, however large or small (±1e308, 1e-308).

    Examples
    --------
    >>> zscore([1.0, 2.0, 3.0]).round(4).tolist()
    [-1.2247, 0.0, 1.2247]
    >>> zscore([1e308, -1e308]).tolist()
    [1.0, -1.0]
    >>> zscore([2.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: 'scores' are constant (all 2.0): z-scores are undefined
    """
    return formulas.zscores(as_finite(scores, "scores"), "scores")


def zscore_by_id(
    ids: Sequence[str], scores: ArrayLike, *, population: ArrayLike | None = None
) -> dict[str, float]:
    """Z-score sentence scores and map each id to its z-score.

    The mean and standard deviation are those of all sentences given, or of ``population``
    when it is given (the scores of a larger set of sentences, e.g. all 4,178 of LI-Adger when
    only pair members are scored here). Each id must occur once (a sentence in several pairs
    is still one sentence).

    Examples
    --------
    >>> z = zscore_by_id(["a", "b", "c"], [1.0, 2.0, 3.0])
    >>> round(z["c"], 4)
    1.2247
    >>> zscore_by_id(["a"], [3.0], population=[1.0, 2.0, 3.0])["a"] == z["c"]
    True
    >>> zscore_by_id(["a", "a"], [1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: 'ids' must be unique (got 'a' 2 times)
    """
    ids = as_ids(ids, "ids")
    arr = as_finite(scores, "scores")
    if len(ids) != arr.size:
        raise ValueError(f"'ids' has {len(ids)} entries but 'scores' has {arr.size}")
    if len(set(ids)) != len(ids):
        seen: dict[str, int] = {}
        for i in ids:
            seen[i] = seen.get(i, 0) + 1
        dup = next(k for k, c in seen.items() if c > 1)
        raise ValueError(f"'ids' must be unique (got {dup!r} {seen[dup]} times)")
    if population is None:
        z = formulas.zscores(arr, "scores")
    else:
        z = formulas.zscores(arr, "population", as_finite(population, "population"))
    return dict(zip(ids, z.tolist(), strict=True))


def pair_deltas(
    values: Mapping[str, float], good_ids: Sequence[str], bad_ids: Sequence[str]
) -> np.ndarray:
    """``values[good] − values[bad]`` for each pair; raises on an id missing from ``values``.

    Pass z-scores (from :func:`zscore_by_id`) to get the model deltas ``Δlm``.

    Examples
    --------
    >>> pair_deltas({"g": 1.0, "b": -0.5}, ["g"], ["b"]).tolist()
    [1.5]
    >>> pair_deltas({"g": 1.0}, ["g"], ["x"])
    Traceback (most recent call last):
    ...
    ValueError: 'bad_ids' has 1 id(s) with no score, e.g. 'x'
    """
    check_mapping(values, "values", "sentence id to value")
    good_ids, bad_ids = as_ids(good_ids, "good_ids"), as_ids(bad_ids, "bad_ids")
    if len(good_ids) != len(bad_ids):
        raise ValueError(f"'good_ids' has {len(good_ids)} entries but 'bad_ids' has {len(bad_ids)}")
    for name, ids in (("good_ids", good_ids), ("bad_ids", bad_ids)):
        missing = [i for i in ids if i not in values]
        if missing:
            raise ValueError(
                f"{name!r} has {len(missing)} id(s) with no score, e.g. {missing[0]!r}"
            )
    for i in (*good_ids, *bad_ids):
        v = values[i]
        if not isinstance(v, numbers.Real) or isinstance(v, bool | np.bool_):
            raise ValueError(f"'values' must map ids to numbers (got {v!r:.80} for id {i!r})")
    return formulas.differences(values, good_ids, bad_ids)


# ----------------------------------------------------------------------------- criteria
def _pairs(model_delta: ArrayLike, human_delta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    m, h = as_model_and_human(model_delta, human_delta)
    if h is None:
        raise ValueError("'human_delta' is required here (got None)")
    return m, h


def blimp_pass(model_delta: ArrayLike) -> np.ndarray:
    """Per-pair BLiMP criterion: the acceptable member scores strictly higher (``Δlm > 0``).

    Examples
    --------
    >>> blimp_pass([0.3, 0.0, -1.0]).tolist()
    [True, False, False]
    """
    return as_finite(model_delta, "model_delta") > 0


def adc_pass(model_delta: ArrayLike, human_delta: ArrayLike, delta: float) -> np.ndarray:
    """Per-pair ADC: ``sign(Δlm) == sign(Δh)`` and ``|Δh − Δlm| < δ``.

    ``delta=math.inf`` gives the human-sign criterion. A pair with a missing human delta
    (NaN) fails here; :func:`summarize` excludes such pairs instead.

    Examples
    --------
    >>> adc_pass([1.0, 1.0, -0.2, 2.0], [1.3, 2.5, 0.1, float("nan")], 1.0).tolist()
    [True, False, False, False]
    """
    d = check_delta(delta)
    m, h = _pairs(model_delta, human_delta)
    return formulas.adc_passes(m, h, d)


def adc(model_delta: ArrayLike, human_delta: ArrayLike, delta: float = 1.0) -> float:
    """Share of pairs passing ADC(δ), over pairs with a human judgement.

    Examples
    --------
    >>> adc([1.0, 1.0, -0.2, 2.0], [1.3, 2.5, 0.1, float("nan")], 1.0)
    0.3333333333333333
    """
    m, h = _pairs(model_delta, human_delta)
    return formulas.adc_share(m, h, check_delta(delta))


def human_sign_accuracy(model_delta: ArrayLike, human_delta: ArrayLike) -> float:
    """Share of pairs whose model delta has the sign of the human delta (ADC with δ → ∞).

    Examples
    --------
    >>> human_sign_accuracy([1.0, -1.0, 0.5], [0.2, 0.3, 9.0])
    0.6666666666666666
    """
    return adc(model_delta, human_delta, math.inf)


def blimp_accuracy(model_delta: ArrayLike) -> float:
    """Share of pairs passing the BLiMP criterion (``Δlm > 0``).

    Examples
    --------
    >>> blimp_accuracy([0.3, 0.0, -1.0, 2.0])
    0.5
    """
    return formulas.blimp_share(as_finite(model_delta, "model_delta"))


def adc_auc(
    model_delta: ArrayLike, human_delta: ArrayLike, delta_max: float = DEFAULT_AUC_MAX
) -> float:
    """Normalized area under ``ADC(δ)`` for ``δ`` in ``[0, delta_max]`` (exact, no grid).

    Per pair the area is ``max(0, 1 − |Δh − Δlm| / delta_max)`` when the signs agree, else 0;
    the result is the mean over pairs with a human judgement.

    Examples
    --------
    >>> adc_auc([1.0, -1.0], [2.0, 3.0], delta_max=4.0)
    0.375
    """
    d = check_delta(delta_max, "delta_max")
    if math.isinf(d):
        raise ValueError("'delta_max' must be finite (got inf)")
    m, h = _pairs(model_delta, human_delta)
    return formulas.auc_share(m, h, d)


def adc_auc_terms(
    model_delta: ArrayLike, human_delta: ArrayLike, delta_max: float = DEFAULT_AUC_MAX
) -> np.ndarray:
    """Per-pair area under ``ADC(δ)`` on ``[0, delta_max]``, divided by ``delta_max``:
    ``max(0, 1 − |Δh − Δlm| / delta_max)`` when the signs agree, else 0 (also for a pair with
    a missing human delta). :func:`adc_auc` is their mean over pairs with a judgement.

    Examples
    --------
    >>> adc_auc_terms([1.0, -1.0, 1.0], [2.0, 3.0, 9.0], delta_max=4.0).tolist()
    [0.75, 0.0, 0.0]
    """
    d = check_delta(delta_max, "delta_max")
    m, h = _pairs(model_delta, human_delta)
    return formulas.auc_terms(m, h, d)


def delta_for_share(model_delta: ArrayLike, human_delta: ArrayLike, share: float) -> float | None:
    """The smallest δ at which ``ADC(δ)`` reaches ``share`` of the pairs (the infimum).

    ``ADC(δ)`` counts a pair when the signs agree and ``|Δh − Δlm| < δ``, so the share is
    reached for every δ strictly above the returned value. ``None`` when even ``δ → ∞``
    (sign agreement alone, :func:`human_sign_accuracy`) stays below ``share``. Pairs with a
    NaN human delta are excluded, as in :func:`summarize`. It applies to a model as to the
    human split-half ceiling: "the δ at which the model passes 50 % of pairs".

    Examples
    --------
    >>> delta_for_share([1.0, 2.0, 3.0, -1.0], [1.1, 2.5, 2.0, 1.0], 0.5)
    0.5
    >>> delta_for_share([1.0, 2.0, 3.0, -1.0], [1.1, 2.5, 2.0, 1.0], 0.9) is None
    True
    >>> adc([1.0, 2.0, 3.0, -1.0], [1.1, 2.5, 2.0, 1.0], 0.5 + 1e-9)
    0.5
    """
    check_share(share)
    m, h = _pairs(model_delta, human_delta)
    return formulas.delta_reaching(m, h, share)


def delta_sweep(
    model_delta: ArrayLike, human_delta: ArrayLike, deltas: Iterable[float] | None = None
) -> dict[str, list[float] | float]:
    """ADC over a grid of thresholds, with the normalized area as a δ-free summary.

    The default grid is 0.05, 0.10, …, 5.0. Returns ``{"deltas": [...], "adc": [...],
    "auc": float, "human_sign": float}`` where ``auc`` is :func:`adc_auc` on
    ``[0, max(deltas)]``.

    Examples
    --------
    >>> s = delta_sweep([1.0, -1.0, 0.4], [2.0, 3.0, 0.5], deltas=[0.5, 1.0, 2.0])
    >>> s["adc"], s["human_sign"]
    ([0.3333333333333333, 0.3333333333333333, 0.6666666666666666], 0.6666666666666666)
    """
    grid = as_sweep_grid(deltas)
    m, h = _pairs(model_delta, human_delta)
    return formulas.sweep(m, h, grid)


# ----------------------------------------------------------------------------- summaries
def summarize(
    model_delta: ArrayLike,
    human_delta: ArrayLike | None = None,
    *,
    deltas: Iterable[float] = DEFAULT_DELTAS,
    auc_max: float = DEFAULT_AUC_MAX,
    min_pairs: int = 2,
) -> dict:
    """All pair-level statistics in one dict with fixed keys.

    Keys: ``n_pairs`` (evaluated), ``n_excluded`` (missing human judgement), ``blimp``,
    ``human_sign``, ``adc`` (``{delta_key: share}``), ``adc_auc``, ``pearson_pairs``,
    ``pearson_pairs_p``, ``spearman_pairs``, ``spearman_pairs_p``. With ``human_delta=None``
    (BLiMP-only mode) every human-based value is ``None``. Raises if fewer than
    ``min_pairs`` pairs are evaluable.

    Examples
    --------
    >>> s = summarize([1.0, 0.5, -0.2, 2.0, 0.1], [1.3, 2.5, 0.1, float("nan"), 0.4],
    ...               deltas=[0.5, 1.0])
    >>> s["n_pairs"], s["n_excluded"], s["blimp"], s["adc"]
    (4, 1, 0.75, {'0.5': 0.5, '1.0': 0.5})
    >>> summarize([0.3, -0.1])["adc"]
    {'0.5': None, '1.0': None, '5.0': None}
    """
    keys, auc_max = summary_options(deltas, auc_max)
    min_pairs = check_int(min_pairs, "min_pairs", low=1)
    m, h = as_model_and_human(model_delta, human_delta)
    return formulas.summarize_pairs(m, h, keys, auc_max, min_pairs)


def breakdown(
    groups: Sequence[str],
    model_delta: ArrayLike,
    human_delta: ArrayLike | None = None,
    *,
    deltas: Iterable[float] = DEFAULT_DELTAS,
    auc_max: float = DEFAULT_AUC_MAX,
) -> dict[str, dict]:
    """:func:`summarize` per group (e.g. source or phenomenon), groups in sorted order.

    A group needs one evaluable pair; a group with none is reported with ``n_pairs`` 0 and
    ``None`` statistics.

    Examples
    --------
    >>> b = breakdown(["LI", "LI", "Adger"], [1.0, -1.0, 0.5], [1.2, 0.4, 0.3], deltas=[1.0])
    >>> list(b), b["LI"]["blimp"], b["Adger"]["adc"]
    (['Adger', 'LI'], 0.5, {'1.0': 1.0})
    """
    keys, auc_max = summary_options(deltas, auc_max)
    m, h = as_model_and_human(model_delta, human_delta)
    return formulas.breakdown_of(as_labels(groups, m.size), m, h, keys, auc_max)


def overlap(system_pass: ArrayLike, baseline_pass: ArrayLike) -> dict[str, float | int]:
    """Overlap of two systems' passed pairs, and the system's "reduced" score.

    ``both``/``system_only``/``baseline_only``/``neither`` are shares of all pairs;
    ``reduced`` is the system's pass rate on the pairs the baseline fails (``None`` if the
    baseline passes every pair), ``n_reduced`` the number of those pairs.

    Examples
    --------
    >>> overlap([True, True, False, True], [True, False, False, False])
    {'n_pairs': 4, 'both': 0.25, 'system_only': 0.5, 'baseline_only': 0.0, 'neither': 0.25, 'n_reduced': 3, 'reduced': 0.6666666666666666}
    """
    a = as_flags(system_pass, "system_pass")
    b = as_flags(baseline_pass, "baseline_pass")
    if a.shape != b.shape:
        raise ValueError(
            f"'system_pass' and 'baseline_pass' must be 1-D of equal length "
            f"(got {a.shape} and {b.shape})"
        )
    if a.size == 0:
        raise ValueError("'system_pass' is empty: expected at least 1 pair")
    rest = ~b
    return {
        "n_pairs": int(a.size),
        "both": float(np.mean(a & b)),
        "system_only": float(np.mean(a & ~b)),
        "baseline_only": float(np.mean(~a & b)),
        "neither": float(np.mean(~a & ~b)),
        "n_reduced": int(rest.sum()),
        "reduced": float(np.mean(a[rest])) if rest.any() else None,
    }
