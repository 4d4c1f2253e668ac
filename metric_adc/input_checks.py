"""Input checks shared by the math modules: clean arrays and numbers out, or an error naming the argument.

Every public function of :mod:`metric_adc.core`, :mod:`metric_adc.correlation` and
:mod:`metric_adc.bootstrap` (and the ``evaluate`` module, under its own argument names)
validates its input through these, so a bad value is reported once, in the same words, naming
the argument, what was expected and what was received: ``'deltas' must be a list of thresholds
> 0 (got 0.5)``. Every error is a :class:`ValueError`, a :class:`TypeError` where the argument
has the wrong type. The policy for missing human judgements is here too: a NaN human delta
marks a pair excluded from every statistic, and such a pair needs no model score (its model
delta may be NaN); anything else must be finite.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import formulas

__all__ = [
    "as_finite",
    "as_flags",
    "as_human_deltas",
    "as_ids",
    "as_labels",
    "as_model_and_human",
    "as_numbers",
    "as_scalar",
    "as_sweep_grid",
    "check_bool",
    "check_delta",
    "check_deltas",
    "check_int",
    "check_mapping",
    "check_share",
    "delta_key",
    "refuse_where",
    "summary_options",
]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_number(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_)


def _sequence(values: object, name: str, what: str) -> list | np.ndarray:
    """``values`` as a list or array of one dimension's items, or :class:`TypeError`: a
    string, a mapping, a scalar or ``None`` is not a list of anything."""
    if isinstance(values, np.ndarray):
        return values
    if (
        values is None
        or isinstance(values, str | bytes | Mapping)
        or not isinstance(values, Iterable)
    ):
        raise TypeError(f"{name!r} must be a list of {what} (got {_shown(values)})")
    return list(values)


def as_numbers(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a 1-D float array (NaN and infinities allowed), or raise naming ``name``.

    A string, a single number, booleans and ``None`` are refused (the message names the first
    bad element and its position).

    Examples
    --------
    >>> as_numbers([1, float("nan")], "scores").tolist()
    [1.0, nan]
    >>> as_numbers([[1.0]], "scores")
    Traceback (most recent call last):
    ...
    ValueError: 'scores' must be one-dimensional (got shape (1, 1))
    >>> as_numbers([1.0, "a"], "scores")
    Traceback (most recent call last):
    ...
    ValueError: 'scores' must be numbers (got 'a' at position 1)
    >>> as_numbers(0.5, "deltas")
    Traceback (most recent call last):
    ...
    TypeError: 'deltas' must be a list of numbers (got 0.5)
    """
    seq = _sequence(values, name, "numbers")
    if isinstance(seq, np.ndarray):
        if seq.dtype == bool:
            raise ValueError(f"{name!r} must be numbers (got booleans)")
        try:
            arr = seq.astype(float, copy=False)
        except (TypeError, ValueError):
            arr = None
    else:
        bad = next((k for k, v in enumerate(seq) if not _is_number(v) and not _is_nested(v)), None)
        if bad is not None:
            raise ValueError(f"{name!r} must be numbers (got {_shown(seq[bad])} at position {bad})")
        try:
            arr = np.asarray(seq, dtype=float)
        except OverflowError:
            k = next((k for k, v in enumerate(seq) if _is_number(v) and not _fits(v)), None)
            where = f"position {k}" if k is not None else _shown(values)
            raise ValueError(
                f"{name!r} must be finite (got an integer too large for a float at {where})"
            ) from None
        except (TypeError, ValueError):
            arr = None
    if arr is None:
        raise ValueError(f"{name!r} must be numbers (got {_shown(values)})")
    if arr.ndim != 1:
        raise ValueError(f"{name!r} must be one-dimensional (got shape {arr.shape})")
    return arr


def _fits(v: object) -> bool:
    try:
        float(v)
    except OverflowError:
        return False
    return True


def _is_nested(v: object) -> bool:
    # a nested list or array is reported as a shape, not as a bad element
    return isinstance(v, list | tuple | np.ndarray)


def as_finite(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a 1-D float array of finite numbers, or raise naming ``name``.

    Examples
    --------
    >>> as_finite([1, 2.5], "scores").tolist()
    [1.0, 2.5]
    >>> as_finite([1.0, float("inf"), float("nan")], "scores")
    Traceback (most recent call last):
    ...
    ValueError: 'scores' must be finite (got inf at position 1; 2 non-finite in all)
    """
    arr = as_numbers(values, name)
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{name!r} must be finite (got {float(arr[i])!r} at position {i}; {bad.size} non-finite in all)"
        )
    return arr


def refuse_where(values: np.ndarray, bad: np.ndarray, name: str, expected: str) -> None:
    """Raise naming ``name`` and the first position where ``bad`` holds, with its value:
    the error of every element-wise rule (finite, a log-probability, a rank).

    Examples
    --------
    >>> arr = np.array([1.0, 0.0, 3.0])
    >>> refuse_where(arr, arr < 0, "ranks", "numbers >= 0")
    >>> refuse_where(arr, arr < 1, "ranks", "whole numbers >= 1")
    Traceback (most recent call last):
    ...
    ValueError: 'ranks' must be whole numbers >= 1 (got 0.0 at position 1)
    """
    ok = ~np.asarray(bad, dtype=bool)
    if not ok.all():
        i = int(np.argmin(ok))
        raise ValueError(f"{name!r} must be {expected} (got {float(values[i])!r} at position {i})")


def as_scalar(value: object, name: str, expected: str = "a number") -> float:
    """``value`` as a float if it is a real number (NaN and infinities included), else
    :class:`TypeError` naming ``name`` and saying what was ``expected``.

    Examples
    --------
    >>> as_scalar(2, "share")
    2.0
    >>> as_scalar("0.5", "share", "a number in (0, 1]")
    Traceback (most recent call last):
    ...
    TypeError: 'share' must be a number in (0, 1] (got '0.5')
    """
    if not _is_number(value):
        raise TypeError(f"{name!r} must be {expected} (got {_shown(value)})")
    try:
        return float(value)
    except OverflowError:  # an int beyond the float range
        return float("inf") if value > 0 else float("-inf")


def check_int(value: object, name: str, *, low: int) -> int:
    """``value`` if it is an integer ``>= low`` (not a bool), else raise naming ``name``.

    Examples
    --------
    >>> check_int(3, "min_pairs", low=1)
    3
    >>> check_int("2", "min_pairs", low=1)
    Traceback (most recent call last):
    ...
    TypeError: 'min_pairs' must be an integer >= 1 (got '2')
    """
    if not isinstance(value, numbers.Integral) or isinstance(value, bool | np.bool_):
        raise TypeError(f"{name!r} must be an integer >= {low} (got {_shown(value)})")
    if value < low:
        raise ValueError(f"{name!r} must be an integer >= {low} (got {_shown(value)})")
    return int(value)


def check_bool(value: object, name: str) -> bool:
    """``value`` if it is ``True`` or ``False``, else :class:`TypeError` naming ``name``.

    Examples
    --------
    >>> check_bool("no", "standardize")
    Traceback (most recent call last):
    ...
    TypeError: 'standardize' must be True or False (got 'no')
    """
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name!r} must be True or False (got {_shown(value)})")
    return bool(value)


def check_mapping(value: object, name: str, what: str = "sentence id to score") -> Mapping:
    """``value`` if it is a mapping, else :class:`TypeError` naming ``name``.

    Examples
    --------
    >>> check_mapping([1.0], "scores")
    Traceback (most recent call last):
    ...
    TypeError: 'scores' must be a mapping of sentence id to score (got [1.0])
    """
    if not isinstance(value, Mapping):
        raise TypeError(f"{name!r} must be a mapping of {what} (got {_shown(value)})")
    return value


def as_ids(values: Iterable[str], name: str) -> list[str]:
    """Sentence ids as strings: each a string or an integer (read as its digits).

    Examples
    --------
    >>> as_ids(["a", 7], "ids")
    ['a', '7']
    >>> as_ids("abc", "ids")
    Traceback (most recent call last):
    ...
    TypeError: 'ids' must be a list of ids (got 'abc')
    >>> as_ids(["a", None], "ids")
    Traceback (most recent call last):
    ...
    TypeError: 'ids' must hold strings (got None at position 1)
    """
    seq = _sequence(values, name, "ids")
    out = []
    for k, v in enumerate(seq.tolist() if isinstance(seq, np.ndarray) else seq):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, numbers.Integral) and not isinstance(v, bool | np.bool_):
            out.append(str(v))
        else:
            raise TypeError(f"{name!r} must hold strings (got {_shown(v)} at position {k})")
    return out


def as_labels(values: Iterable[object], n: int, name: str = "groups") -> list[str]:
    """One label per pair (strings, or numbers read as text), ``n`` of them.

    Examples
    --------
    >>> as_labels(["LI", "Adger"], 2)
    ['LI', 'Adger']
    >>> as_labels("LI", 2)
    Traceback (most recent call last):
    ...
    TypeError: 'groups' must be a list of labels, one per pair (got 'LI')
    """
    seq = _sequence(values, name, "labels, one per pair")
    out = []
    for k, v in enumerate(seq.tolist() if isinstance(seq, np.ndarray) else seq):
        if not isinstance(v, str | numbers.Number) or isinstance(v, bool | np.bool_):
            raise TypeError(f"{name!r} must hold strings (got {_shown(v)} at position {k})")
        out.append(str(v))
    if len(out) != n:
        raise ValueError(f"{name!r} has {len(out)} entries, expected {n} (one per pair)")
    return out


def as_flags(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a 1-D boolean array: booleans, or the numbers 0 and 1.

    Examples
    --------
    >>> as_flags([True, 0, 1], "system_pass").tolist()
    [True, False, True]
    >>> as_flags([True, 2], "system_pass")
    Traceback (most recent call last):
    ...
    ValueError: 'system_pass' must be booleans (got 2 at position 1)
    """
    seq = _sequence(values, name, "booleans")
    items = seq.tolist() if isinstance(seq, np.ndarray) else seq
    for k, v in enumerate(items):
        if not (isinstance(v, bool | np.bool_) or (_is_number(v) and v in (0, 1))):
            raise ValueError(f"{name!r} must be booleans (got {_shown(v)} at position {k})")
    arr = np.asarray(items, dtype=bool).reshape(-1)
    if isinstance(seq, np.ndarray) and seq.ndim != 1:
        raise ValueError(f"{name!r} must be one-dimensional (got shape {seq.shape})")
    return arr


def as_human_deltas(
    values: ArrayLike | None, n: int, name: str = "human_delta"
) -> np.ndarray | None:
    """Human deltas as ``n`` floats, NaN (or ``None``) marking a missing judgement; ``None``
    stays ``None`` (BLiMP-only mode: no human deltas at all). ±inf raises.

    Examples
    --------
    >>> as_human_deltas([0.5, None], 2).tolist()
    [0.5, nan]
    >>> as_human_deltas(None, 3) is None
    True
    >>> as_human_deltas([0.5], 2)
    Traceback (most recent call last):
    ...
    ValueError: 'human_delta' has 1 values, expected 2 (one per pair)
    """
    if values is None:
        return None
    seq = _sequence(values, name, "numbers or None")
    if not isinstance(seq, np.ndarray):
        seq = [np.nan if v is None else v for v in seq]
    arr = as_numbers(seq, name)
    if arr.shape[0] != n:
        raise ValueError(f"{name!r} has {arr.shape[0]} values, expected {n} (one per pair)")
    inf = np.flatnonzero(np.isinf(arr))
    if inf.size:
        raise ValueError(f"{name!r} must be finite or NaN (got {arr[inf[0]]} at position {inf[0]})")
    return arr


def as_model_and_human(
    model_delta: ArrayLike, human_delta: ArrayLike | None, name: str = "model_delta"
) -> tuple[np.ndarray, np.ndarray | None]:
    """Model deltas and human deltas (or ``None``) as arrays of one length per pair.

    A model delta may be NaN only where the human delta is NaN (a pair excluded for a missing
    judgement needs no model score); everywhere else it must be finite.

    Examples
    --------
    >>> m, h = as_model_and_human([1.0, float("nan")], [0.5, float("nan")])
    >>> m.tolist(), h.tolist()
    ([1.0, nan], [0.5, nan])
    >>> as_model_and_human([1.0, float("nan")], [0.5, 0.2])
    Traceback (most recent call last):
    ...
    ValueError: 'model_delta' must be finite (got nan at position 1; 1 non-finite in all with a human judgement)
    """
    m = as_numbers(model_delta, name)
    h = as_human_deltas(human_delta, m.size)
    bad = ~np.isfinite(m) if h is None else (~np.isfinite(m) & ~np.isnan(h))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name!r} must be finite (got {float(m[i])!r} at position {i}; "
            f"{int(bad.sum())} non-finite in all{'' if h is None else ' with a human judgement'})"
        )
    return m, h


# ----------------------------------------------------------------------------- the ADC's settings
def check_delta(delta: float, name: str = "delta") -> float:
    """Return ``delta`` as a float if it is a valid ADC threshold (> 0, ``inf`` allowed);
    otherwise raise naming the argument ``name``.

    Examples
    --------
    >>> check_delta(1)
    1.0
    >>> check_delta(-0.5)
    Traceback (most recent call last):
    ...
    ValueError: 'delta' must be > 0 (got -0.5)
    >>> check_delta(0, "auc_max")
    Traceback (most recent call last):
    ...
    ValueError: 'auc_max' must be > 0 (got 0)
    """
    d = as_scalar(delta, name, "a number > 0")
    if math.isnan(d) or d <= 0:
        raise ValueError(f"{name!r} must be > 0 (got {delta!r})")
    return d


def check_deltas(deltas: Iterable[float], name: str = "deltas") -> list[float]:
    """ADC thresholds as a list of floats, each checked by :func:`check_delta` (an element
    named ``deltas[k]``); a single number or a string is not a list of thresholds.

    Examples
    --------
    >>> check_deltas((0.5, 1))
    [0.5, 1.0]
    >>> check_deltas(0.5)
    Traceback (most recent call last):
    ...
    TypeError: 'deltas' must be a list of thresholds > 0 (got 0.5)
    >>> check_deltas("0.5")
    Traceback (most recent call last):
    ...
    TypeError: 'deltas' must be a list of thresholds > 0 (got '0.5')
    >>> check_deltas([0.5, 0])
    Traceback (most recent call last):
    ...
    ValueError: 'deltas[1]' must be > 0 (got 0)
    """
    if isinstance(deltas, str | bytes | Mapping) or not isinstance(deltas, Iterable):
        raise TypeError(f"{name!r} must be a list of thresholds > 0 (got {deltas!r:.80})")
    values = list(deltas)
    if all(type(d) is float and d > 0 for d in values):  # already valid: a long grid is cheap
        return values
    return [check_delta(d, f"{name}[{k}]") for k, d in enumerate(values)]


def delta_key(delta: float) -> str:
    """The dict key used for a threshold in results: ``repr(float(delta))``.

    Examples
    --------
    >>> [delta_key(d) for d in (0.5, 1, 5.0, 0.25)]
    ['0.5', '1.0', '5.0', '0.25']
    """
    return repr(check_delta(delta))


def check_share(share: float) -> float:
    """``share`` if it is a share of pairs, a number in (0, 1]; otherwise raise.

    Examples
    --------
    >>> check_share(0.9)
    0.9
    >>> check_share(1.5)
    Traceback (most recent call last):
    ...
    ValueError: 'share' must be in (0, 1] (got 1.5)
    """
    as_scalar(share, "share", "a number in (0, 1]")
    formulas.check_share(share)
    return share


def summary_options(deltas: Iterable[float], auc_max: float) -> tuple[list[str], float]:
    """The options of a pair summary, checked: the thresholds' keys (``repr`` of each) and
    the finite upper end of the ADC area.

    Examples
    --------
    >>> summary_options([0.5, 1], 5)
    (['0.5', '1.0'], 5.0)
    >>> summary_options([1.0], float("inf"))
    Traceback (most recent call last):
    ...
    ValueError: 'auc_max' must be finite (got inf)
    """
    keys = [repr(d) for d in check_deltas(deltas)]
    auc_max = check_delta(auc_max, "auc_max")
    if math.isinf(auc_max):
        raise ValueError("'auc_max' must be finite (got inf)")
    return keys, auc_max


def as_sweep_grid(deltas: Iterable[float] | None = None) -> list[float]:
    """The thresholds of a δ sweep, checked and sorted: 0.05, 0.10, …, 5.0 by default.

    Examples
    --------
    >>> as_sweep_grid([1, 0.5]), len(as_sweep_grid()), as_sweep_grid()[-1]
    ([0.5, 1.0], 100, 5.0)
    >>> as_sweep_grid([])
    Traceback (most recent call last):
    ...
    ValueError: 'deltas' is empty: expected at least one threshold > 0
    """
    grid = (
        [round(0.05 * k, 10) for k in range(1, 101)]
        if deltas is None
        else sorted(check_deltas(deltas))
    )
    if not grid:
        raise ValueError("'deltas' is empty: expected at least one threshold > 0")
    return grid
