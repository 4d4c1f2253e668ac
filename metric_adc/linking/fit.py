"""The fitted linking function: MORCELA's form, fitted by cross-validation over phenomena.

MORCELA (Tjuatja et al. 2024) predicts a sentence's human acceptability from the model's
log-probability ``logP``, the unigram log-probability ``logPu`` and the length ``|s|`` by an
ordinary least-squares regression

    judgement ≈ (α·logP + b·logPu + c) / |s| + ε,

that is, up to the positive scale α and the offset ε (which no z-scored statistic sees),

    score = (logP − β·logPu + γ) / |s|,   β = −b/α,   γ = c/α.

β = 1, γ = 0 is SLOR; β says how much of the unigram log-probability to subtract, γ how much a
sentence gains from being short. The score used is the regression's prediction itself.

Here the fit never sees the judgement of a sentence it scores, nor of any sentence of the same
phenomenon: the phenomena are dealt into ``k`` folds (:func:`phenomenon_folds`, a fixed seed);
for each fold, the coefficients are fitted on the sentences of the other folds that have a
judgement and the fold's sentences are scored with them (:func:`cross_fit`). Both members of a
minimal pair belong to one phenomenon, so no pair is ever scored by a fit that saw either of
its judgements. All functions are pure (NumPy in, NumPy out).

Examples
--------
>>> logp = np.array([-20.0, -30.0, -25.0, -40.0, -22.0, -35.0])
>>> logpu = np.array([-30.0, -38.0, -33.0, -50.0, -31.0, -41.0])
>>> n = np.array([4, 5, 5, 7, 4, 6])
>>> judgement = (logp - 0.5 * logpu + 3.0) / n
>>> fit = fit_morcela(logp, logpu, n, judgement)
>>> round(fit.beta, 6), round(fit.gamma, 6), round(fit.alpha, 6)
(0.5, 3.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from metric_adc.input_checks import as_finite, as_numbers

__all__ = [
    "DEFAULT_FOLDS",
    "DEFAULT_SEED",
    "CrossFit",
    "FoldFit",
    "MorcelaFit",
    "cross_fit",
    "fit_morcela",
    "morcela_features",
    "phenomenon_folds",
]

DEFAULT_FOLDS = 5
"""Folds of phenomena in :func:`cross_fit` (LI-Adger's 233 phenomena: 46 or 47 a fold)."""

DEFAULT_SEED = 0
"""Seed of the deal of phenomena into folds."""

FORM = "(logP - beta * logPu + gamma) / n"
"""The fitted score, up to a positive scale and an offset (see the module docs)."""


def _inputs(
    logprob: ArrayLike, unigram_logprob: ArrayLike, n: ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lp = as_finite(logprob, "logprob")
    uni = as_finite(unigram_logprob, "unigram_logprob")
    length = as_finite(n, "n")
    if not len(lp) == len(uni) == len(length):
        raise ValueError(
            f"'logprob', 'unigram_logprob' and 'n' must have the same length "
            f"(got {len(lp)}, {len(uni)} and {len(length)})"
        )
    if length.size and length.min() < 1:
        i = int(np.argmin(length))
        raise ValueError(f"'n' must be >= 1, a sentence length (got {length[i]:g} at position {i})")
    return lp, uni, length


def morcela_features(logprob: ArrayLike, unigram_logprob: ArrayLike, n: ArrayLike) -> np.ndarray:
    """The regression's design matrix: columns ``logP/|s|``, ``logPu/|s|``, ``1/|s|``, ``1``.

    Examples
    --------
    >>> morcela_features([-6.0], [-8.0], [2]).tolist()
    [[-3.0, -4.0, 0.5, 1.0]]
    """
    lp, uni, length = _inputs(logprob, unigram_logprob, n)
    return np.column_stack([lp / length, uni / length, 1.0 / length, np.ones_like(length)])


@dataclass(frozen=True)
class MorcelaFit:
    """The least-squares coefficients ``judgement ≈ (α·logP + b·logPu + c)/|s| + ε``.

    Examples
    --------
    >>> fit = MorcelaFit(alpha=0.5, b=-0.25, c=1.0, intercept=0.1)
    >>> fit.beta, fit.gamma
    (0.5, 2.0)
    >>> fit.predict([-6.0], [-8.0], [2]).tolist()  # (0.5·-6 - 0.25·-8 + 1) / 2 + 0.1
    [0.1]
    """

    alpha: float
    b: float
    c: float
    intercept: float

    @property
    def beta(self) -> float:
        """``−b/α``: the share of the unigram log-probability subtracted (SLOR: 1)."""
        return -self.b / self.alpha if self.alpha else math.nan

    @property
    def gamma(self) -> float:
        """``c/α``: the constant added before dividing by the length (SLOR: 0)."""
        return self.c / self.alpha if self.alpha else math.nan

    def predict(self, logprob: ArrayLike, unigram_logprob: ArrayLike, n: ArrayLike) -> np.ndarray:
        """The fitted judgement of each sentence."""
        coef = np.array([self.alpha, self.b, self.c, self.intercept])
        return morcela_features(logprob, unigram_logprob, n) @ coef

    def as_dict(self) -> dict[str, float]:
        """The coefficients and β, γ as plain floats."""
        return {
            "alpha": self.alpha,
            "b": self.b,
            "c": self.c,
            "intercept": self.intercept,
            "beta": self.beta,
            "gamma": self.gamma,
        }


def fit_morcela(
    logprob: ArrayLike, unigram_logprob: ArrayLike, n: ArrayLike, judgement: ArrayLike
) -> MorcelaFit:
    """Fit :class:`MorcelaFit` by ordinary least squares on the sentences with a judgement.

    Sentences whose judgement is NaN are left out. The four coefficients must be determined:
    at least four sentences, and lengths that are not all equal.

    Examples
    --------
    >>> fit_morcela([-6.0, -8.0], [-9.0, -9.0], [2, 2], [0.1, 0.2])
    Traceback (most recent call last):
    ...
    ValueError: the fit needs the 4 coefficients determined by the sentences with a judgement (got 2 sentences, rank 2)
    """
    x = morcela_features(logprob, unigram_logprob, n)
    y = as_numbers(judgement, "judgement")
    if len(y) != len(x):
        raise ValueError(
            f"'judgement' must have one value per sentence (got {len(y)} for {len(x)})"
        )
    keep = ~np.isnan(y)
    if np.isinf(y[keep]).any():
        raise ValueError("'judgement' must be finite or NaN (missing) (got an infinity)")
    x, y = x[keep], y[keep]
    _check_varies(y)
    rank = int(np.linalg.matrix_rank(x)) if len(x) else 0
    if rank < x.shape[1]:
        raise ValueError(
            f"the fit needs the {x.shape[1]} coefficients determined by the sentences with a "
            f"judgement (got {len(x)} sentences, rank {rank})"
        )
    coef = np.linalg.lstsq(x, y, rcond=None)[0]
    return MorcelaFit(*(float(v) for v in coef))


def _check_varies(judged: np.ndarray) -> None:
    """Refuse judgements that leave nothing to fit: all equal, the least-squares slope is 0 up
    to rounding and β, γ would be ratios of rounding noise."""
    if judged.size and np.all(judged == judged[0]):
        raise ValueError(
            f"nothing to fit: the {judged.size} judged sentence(s) all have the judgement "
            f"{float(judged[0]):g}; the fit needs judgements that vary"
        )


def phenomenon_folds(phenomena: Sequence[str], *, k: int, seed: int) -> dict[str, int]:
    """Deal the distinct phenomena into ``k`` folds: phenomenon → fold (0 … k−1).

    The sorted phenomena are shuffled by ``numpy.random.default_rng(seed)`` and dealt in turn,
    so the folds differ in size by at most one phenomenon and depend only on the set of
    phenomena, ``k`` and ``seed``.

    Examples
    --------
    >>> folds = phenomenon_folds(["a", "b", "c", "a", "d"], k=2, seed=0)
    >>> sorted(folds), sorted(folds.values())
    (['a', 'b', 'c', 'd'], [0, 0, 1, 1])
    >>> phenomenon_folds(["a", "b"], k=3, seed=0)
    Traceback (most recent call last):
    ...
    ValueError: k must be an int between 2 and the number of phenomena, 2 (got 3)
    """
    distinct = sorted({str(p) for p in phenomena})
    if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= len(distinct):
        raise ValueError(
            f"k must be an int between 2 and the number of phenomena, {len(distinct)} (got {k!r})"
        )
    order = np.random.default_rng(seed).permutation(len(distinct))
    return {distinct[i]: position % k for position, i in enumerate(order.tolist())}


@dataclass(frozen=True)
class FoldFit:
    """One fold: its phenomena, the sentences fitted on and scored, and the fit."""

    fold: int
    phenomena: tuple[str, ...]
    n_train: int
    n_test: int
    fit: MorcelaFit

    def as_dict(self) -> dict:
        """The fold as JSON-ready values (the phenomena counted, not listed)."""
        return {
            "fold": self.fold,
            "n_phenomena": len(self.phenomena),
            "n_train": self.n_train,
            "n_test": self.n_test,
            **self.fit.as_dict(),
        }


@dataclass(frozen=True, eq=False)
class CrossFit:
    """Held-out scores of :func:`cross_fit`, each sentence's fold, and each fold's fit."""

    scores: np.ndarray
    fold: np.ndarray
    folds: tuple[FoldFit, ...]
    k: int
    seed: int

    def as_dict(self) -> dict:
        """How the scores were fitted, as JSON-ready values.

        Examples
        --------
        >>> rng = np.random.default_rng(1)
        >>> lp, lpu, n = -rng.uniform(10, 40, 40), -rng.uniform(20, 60, 40), rng.integers(3, 9, 40)
        >>> out = cross_fit(lp, lpu, n, rng.normal(size=40), [f"p{i % 8}" for i in range(40)],
        ...                 k=4, seed=0)
        >>> d = out.as_dict()
        >>> d["k"], d["seed"], d["form"], [f["n_test"] for f in d["folds"]]
        (4, 0, '(logP - beta * logPu + gamma) / n', [10, 10, 10, 10])
        """
        return {
            "form": FORM,
            "fitted": "least squares of the human judgement on logP/n, logPu/n, 1/n and 1",
            "cross_validation": "folds of phenomena; each fold scored by the fit on the others",
            "k": self.k,
            "seed": self.seed,
            "folds": [f.as_dict() for f in self.folds],
        }


def cross_fit(
    logprob: ArrayLike,
    unigram_logprob: ArrayLike,
    n: ArrayLike,
    judgement: ArrayLike,
    phenomenon: Sequence[str],
    *,
    k: int = DEFAULT_FOLDS,
    seed: int = DEFAULT_SEED,
) -> CrossFit:
    """Score every sentence with the fit on the *other* folds' phenomena (see the module docs).

    ``judgement`` may be NaN (such a sentence is scored, never fitted on). A sentence's score
    depends on the judgements of the other folds only: changing the judgements of one fold
    leaves that fold's scores unchanged. A fit with nothing to fit is refused with the reason:
    judgements that are all equal, fewer phenomena than folds, a fold whose other folds do not
    determine the coefficients.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> logp, logpu, n = -rng.uniform(10, 40, 20), -rng.uniform(20, 60, 20), np.arange(20) % 5 + 2
    >>> judgement = (logp - 0.8 * logpu + 2.0) / n
    >>> out = cross_fit(logp, logpu, n, judgement, [f"p{i % 4}" for i in range(20)], k=2, seed=0)
    >>> out.fold.tolist()[:4], [f.phenomena for f in out.folds]
    ([1, 0, 0, 1], [('p1', 'p2'), ('p0', 'p3')])
    >>> [(round(f.fit.beta, 6), round(f.fit.gamma, 6)) for f in out.folds]
    [(0.8, 2.0), (0.8, 2.0)]
    >>> cross_fit(logp, logpu, n, np.full(20, 0.5), [f"p{i % 4}" for i in range(20)], k=2, seed=0)
    Traceback (most recent call last):
    ...
    ValueError: nothing to fit: the 20 judged sentence(s) all have the judgement 0.5; the fit needs judgements that vary
    """
    lp, uni, length = _inputs(logprob, unigram_logprob, n)
    y = as_numbers(judgement, "judgement")
    names = [str(p) for p in phenomenon]
    if not len(y) == len(names) == len(lp):
        raise ValueError(
            f"'judgement' and 'phenomenon' must have one entry per sentence "
            f"(got {len(y)} and {len(names)} for {len(lp)})"
        )
    _check_varies(y[~np.isnan(y)])
    distinct = len(set(names))
    if isinstance(k, int) and not isinstance(k, bool) and k >= 2 and distinct < k:
        raise ValueError(
            f"nothing to fit by {k}-fold cross-validation over phenomena: the sentences have "
            f"{distinct} phenomen{'on' if distinct == 1 else 'a'}, fewer than the {k} folds "
            f"(give k between 2 and the number of phenomena, or more phenomena)"
        )
    of = phenomenon_folds(names, k=k, seed=seed)
    fold = np.array([of[p] for p in names], dtype=int)
    scores = np.full(len(lp), np.nan)
    fits = []
    for f in range(k):
        test = fold == f
        train = ~test
        try:
            fit = fit_morcela(lp[train], uni[train], length[train], y[train])
        except ValueError as exc:
            raise ValueError(f"fold {f} cannot be fitted on the other folds: {exc}") from exc
        scores[test] = fit.predict(lp[test], uni[test], length[test])
        fits.append(
            FoldFit(
                fold=f,
                phenomena=tuple(sorted(p for p, g in of.items() if g == f)),
                n_train=int((train & ~np.isnan(y)).sum()),
                n_test=int(test.sum()),
                fit=fit,
            )
        )
    return CrossFit(scores, fold, tuple(fits), k, seed)
