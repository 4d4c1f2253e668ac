"""Linking functions: from log-probabilities to one acceptability score.

The five functions of Lau, Clark & Lappin (2017, *Cognitive Science* 41(5)), written for a
sentence ``s`` of length ``|s|`` with model log-probability ``logP(s)`` (the sum of its token
log-probabilities) and unigram log-probability ``logPu(s)`` (the sum of the unigram
log-probabilities of its units). All logs are natural logs.

============  =========================================  ======================
name          formula                                    needs unigrams
============  =========================================  ======================
``logprob``   ``logP(s)``                                no
``meanlp``    ``logP(s) / |s|``                          no
``penlp``     ``logP(s) / ((5 + |s|) / (5 + 1)) ** 0.8`` no
``normlp``    ``-logP(s) / logPu(s)``                    yes
``slor``      ``(logP(s) - logPu(s)) / |s|``             yes
============  =========================================  ======================

Each formula is written once, on a sentence's totals (:meth:`LinkingFunction.from_totals`:
``logP``, ``|s|`` and ``logPu``). :meth:`LinkingFunction.compute` and the functions
:func:`logprob` … :func:`slor` apply it to lists of per-token log-probabilities, where ``|s|``
is the number of tokens (the n-gram scorer, whose tokens are words with unigrams). The linked
scorers of causal and masked LMs (:mod:`baselines.kinds.linked`) and the report's linking rows
(:mod:`metric_adc.linking.function_rows`) apply it to totals whose ``logPu`` and ``|s|`` are counted
in words (see ``docs/linking.md``). Higher is more acceptable for all five (``normlp`` is
negative: ``logP`` and ``logPu`` are both negative).

Examples
--------
>>> lp, uni = [-2.0, -4.0], [-3.0, -5.0]
>>> [round(LINKING_FUNCTIONS[name].compute(lp, uni), 4) for name in LINKING_NAMES]
[-6.0, -3.0, -5.3039, -0.75, 1.0]
>>> [round(LINKING_FUNCTIONS[name].from_totals(-6.0, 2, -8.0), 4) for name in LINKING_NAMES]
[-6.0, -3.0, -5.3039, -0.75, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "LINKING_FUNCTIONS",
    "LINKING_NAMES",
    "LinkingFunction",
    "check_linking_name",
    "logprob",
    "mean_lp",
    "norm_lp",
    "pen_lp",
    "slor",
]


def _check_logprobs(values: Sequence[float], field: str) -> list[float]:
    """Return ``values`` as a list of finite, non-positive floats, or raise naming ``field``."""
    out = [float(v) for v in values]
    if not out:
        raise ValueError(f"{field} must hold at least one token log-probability (got none)")
    for i, v in enumerate(out):
        if not math.isfinite(v) or v > 0.0:
            raise ValueError(f"{field}[{i}] must be a finite log-probability <= 0 (got {v!r})")
    return out


def _check_pair(logprobs: Sequence[float], unigram_logprobs: Sequence[float]) -> tuple[list, list]:
    lp = _check_logprobs(logprobs, "logprobs")
    uni = _check_logprobs(unigram_logprobs, "unigram_logprobs")
    if len(lp) != len(uni):
        raise ValueError(
            f"logprobs and unigram_logprobs must have the same length "
            f"(got {len(lp)} and {len(uni)})"
        )
    return lp, uni


def _check_total(value: float, field: str) -> float:
    """A sentence's total log-probability: finite and <= 0, or raise naming ``field``."""
    out = float(value)
    if not math.isfinite(out) or out > 0.0:
        raise ValueError(f"{field} must be a finite log-probability <= 0 (got {value!r})")
    return out


def _check_length(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, the sentence's length (got {n!r})")
    return n


# The formulas, once: a sentence's total log-probability, its length and its total unigram
# log-probability in, one score out.


def _logprob(total: float, n: int, unigram_total: float) -> float:
    return total


def _mean_lp(total: float, n: int, unigram_total: float) -> float:
    return total / n


def _pen_lp(total: float, n: int, unigram_total: float) -> float:
    return total / ((5.0 + n) / 6.0) ** 0.8


def _norm_lp(total: float, n: int, unigram_total: float) -> float:
    if unigram_total == 0.0:
        raise ValueError("norm_lp is undefined when the unigram log-probability is 0 (got 0.0)")
    return -total / unigram_total


def _slor(total: float, n: int, unigram_total: float) -> float:
    return (total - unigram_total) / n


def logprob(logprobs: Sequence[float]) -> float:
    """LogProb: the sentence log-probability, ``sum(logprobs)``.

    Examples
    --------
    >>> logprob([-1.5, -2.0])
    -3.5
    >>> logprob([])
    Traceback (most recent call last):
    ...
    ValueError: logprobs must hold at least one token log-probability (got none)
    """
    return LINKING_FUNCTIONS["logprob"].compute(logprobs)


def mean_lp(logprobs: Sequence[float]) -> float:
    """MeanLP: the log-probability per token, ``sum(logprobs) / |s|``.

    Examples
    --------
    >>> mean_lp([-1.0, -2.0, -3.0])
    -2.0
    """
    return LINKING_FUNCTIONS["meanlp"].compute(logprobs)


def pen_lp(logprobs: Sequence[float]) -> float:
    """PenLP: the log-probability divided by the length penalty ``((5 + |s|) / 6) ** 0.8``.

    The penalty is the one of Wu et al. (2016) used by Lau et al. (2017); it is 1 for a
    one-token sentence.

    Examples
    --------
    >>> pen_lp([-3.0])
    -3.0
    >>> pen_lp([-1.0] * 7) == -7.0 / 2.0**0.8  # (5 + 7) / 6 = 2
    True
    """
    return LINKING_FUNCTIONS["penlp"].compute(logprobs)


def norm_lp(logprobs: Sequence[float], unigram_logprobs: Sequence[float]) -> float:
    """NormLP: ``-logP(s) / logPu(s)``, the log-probability normalised by the unigram one.

    Examples
    --------
    >>> norm_lp([-2.0, -4.0], [-6.0, -6.0])
    -0.5
    >>> norm_lp([-2.0], [-1.0, -1.0])
    Traceback (most recent call last):
    ...
    ValueError: logprobs and unigram_logprobs must have the same length (got 1 and 2)
    """
    return LINKING_FUNCTIONS["normlp"].compute(logprobs, unigram_logprobs)


def slor(logprobs: Sequence[float], unigram_logprobs: Sequence[float]) -> float:
    """SLOR: ``(logP(s) - logPu(s)) / |s|``, the syntactic log-odds ratio (Pauls & Klein 2012).

    Examples
    --------
    >>> slor([-2.0, -4.0], [-3.0, -5.0])
    1.0
    >>> slor([-2.0, float("nan")], [-3.0, -5.0])
    Traceback (most recent call last):
    ...
    ValueError: logprobs[1] must be a finite log-probability <= 0 (got nan)
    """
    return LINKING_FUNCTIONS["slor"].compute(logprobs, unigram_logprobs)


@dataclass(frozen=True)
class LinkingFunction:
    """A named linking function with its explicit reduction and whether it needs unigrams.

    ``formula(total, n, unigram_total)`` is the function on a sentence's totals;
    :meth:`from_totals` checks them and applies it, :meth:`compute` sums lists of per-token
    log-probabilities first (``n`` is then the number of tokens).

    Examples
    --------
    >>> LINKING_FUNCTIONS["meanlp"].reduction
    'mean'
    >>> LINKING_FUNCTIONS["slor"].compute([-2.0], [-3.0])
    1.0
    >>> LINKING_FUNCTIONS["slor"].compute([-2.0])
    Traceback (most recent call last):
    ...
    ValueError: linking function 'slor' needs unigram log-probabilities (got None)
    """

    name: str
    reduction: str
    needs_unigrams: bool
    formula: Callable[[float, int, float], float]

    def _unigrams_given(self, unigram: object) -> None:
        if self.needs_unigrams and unigram is None:
            raise ValueError(
                f"linking function {self.name!r} needs unigram log-probabilities (got None)"
            )

    def compute(
        self, logprobs: Sequence[float], unigram_logprobs: Sequence[float] | None = None
    ) -> float:
        """Apply the function to one sentence's token (and, if needed, unigram) log-probs."""
        if not self.needs_unigrams:
            lp = _check_logprobs(logprobs, "logprobs")
            return float(self.formula(math.fsum(lp), len(lp), 0.0))
        self._unigrams_given(unigram_logprobs)
        lp, uni = _check_pair(logprobs, unigram_logprobs)
        return float(self.formula(math.fsum(lp), len(lp), math.fsum(uni)))

    def from_totals(self, logprob: float, n: int, unigram_logprob: float | None = None) -> float:
        """Apply the function to a sentence's totals: ``logP(s)``, ``|s|`` and ``logPu(s)``.

        Examples
        --------
        >>> LINKING_FUNCTIONS["slor"].from_totals(-9.0, 3, -12.0)
        1.0
        >>> LINKING_FUNCTIONS["meanlp"].from_totals(-9.0, 0)
        Traceback (most recent call last):
        ...
        ValueError: n must be a positive int, the sentence's length (got 0)
        >>> LINKING_FUNCTIONS["normlp"].from_totals(-9.0, 3, 1.5)
        Traceback (most recent call last):
        ...
        ValueError: unigram_logprob must be a finite log-probability <= 0 (got 1.5)
        """
        total = _check_total(logprob, "logprob")
        n = _check_length(n)
        self._unigrams_given(unigram_logprob)
        unigram = (
            0.0 if not self.needs_unigrams else _check_total(unigram_logprob, "unigram_logprob")
        )
        return float(self.formula(total, n, unigram))


LINKING_FUNCTIONS: dict[str, LinkingFunction] = {
    f.name: f
    for f in (
        LinkingFunction("logprob", "sum", False, _logprob),
        LinkingFunction("meanlp", "mean", False, _mean_lp),
        LinkingFunction("penlp", "sum / ((5 + n) / 6) ** 0.8", False, _pen_lp),
        LinkingFunction("normlp", "-sum / unigram sum", True, _norm_lp),
        LinkingFunction("slor", "(sum - unigram sum) / n", True, _slor),
    )
}
LINKING_NAMES: tuple[str, ...] = tuple(LINKING_FUNCTIONS)


def check_linking_name(name: str, *, allowed: Sequence[str] = LINKING_NAMES) -> LinkingFunction:
    """Return the linking function called ``name`` or raise naming the allowed values.

    Examples
    --------
    >>> check_linking_name("slor").needs_unigrams
    True
    >>> check_linking_name("slor", allowed=("logprob", "meanlp"))
    Traceback (most recent call last):
    ...
    ValueError: variant must be one of 'logprob', 'meanlp' (got 'slor')
    """
    if name not in allowed or name not in LINKING_FUNCTIONS:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"variant must be one of {choices} (got {name!r})")
    return LINKING_FUNCTIONS[name]
