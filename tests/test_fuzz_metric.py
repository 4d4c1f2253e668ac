"""Fuzzing the metric's API: any value for any argument gives a result, or a ValueError or
TypeError whose message names that argument (docs/errors.md).

Each public function of ``metric_adc.core`` (and so of ``metric_adc.correlation``) is called
with valid arguments but one, which Hypothesis replaces by an arbitrary value: None, booleans,
huge and tiny numbers, NaN, infinities, strings, bytes, nested lists, mappings, arrays. The
``evaluate`` module is fuzzed the same way under its own argument names.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metric_adc
from metric_adc import core

_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(),
    st.sampled_from([1e308, -1e308, 1e-308, 5e-324, 0.0, -0.0, math.nan, math.inf]),
    st.text(max_size=5),
    st.binary(max_size=3),
)
ANY = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.lists(st.floats(), max_size=5).map(np.array),
    ),
    max_leaves=8,
)
"""An arbitrary value an argument might be given."""

M = [1.0, -0.5, 0.25, 2.0]
H = [0.8, 0.3, -0.1, float("nan")]
# function -> (positional arguments by name, keyword arguments by name)
CALLS = {
    "zscore": (core.zscore, {"scores": [1.0, 2.0, 4.0]}),
    "zscore_by_id": (
        core.zscore_by_id,
        {"ids": ["a", "b", "c"], "scores": [1.0, 2.0, 4.0], "population": None},
    ),
    "pair_deltas": (
        core.pair_deltas,
        {"values": {"a": 1.0, "b": 0.5}, "good_ids": ["a"], "bad_ids": ["b"]},
    ),
    "blimp_pass": (core.blimp_pass, {"model_delta": M}),
    "blimp_accuracy": (core.blimp_accuracy, {"model_delta": M}),
    "adc_pass": (core.adc_pass, {"model_delta": M, "human_delta": H, "delta": 1.0}),
    "adc": (core.adc, {"model_delta": M, "human_delta": H, "delta": 1.0}),
    "human_sign_accuracy": (core.human_sign_accuracy, {"model_delta": M, "human_delta": H}),
    "adc_auc": (core.adc_auc, {"model_delta": M, "human_delta": H, "delta_max": 5.0}),
    "adc_auc_terms": (core.adc_auc_terms, {"model_delta": M, "human_delta": H, "delta_max": 5.0}),
    "delta_for_share": (core.delta_for_share, {"model_delta": M, "human_delta": H, "share": 0.5}),
    "delta_sweep": (core.delta_sweep, {"model_delta": M, "human_delta": H, "deltas": [0.5, 1.0]}),
    "summarize": (
        core.summarize,
        {"model_delta": M, "human_delta": H, "deltas": [0.5], "auc_max": 5.0, "min_pairs": 2},
    ),
    "breakdown": (
        core.breakdown,
        {
            "groups": ["x", "x", "y", "y"],
            "model_delta": M,
            "human_delta": H,
            "deltas": [0.5],
            "auc_max": 5.0,
        },
    ),
    "overlap": (core.overlap, {"system_pass": [True, False], "baseline_pass": [True, True]}),
    "correlation": (core.correlation, {"x": [1.0, 2.0, 3.0, 5.0], "y": [2.0, 1.0, 4.0, 3.0]}),
    "sentence_correlation": (
        core.sentence_correlation,
        {
            "scores": {"a": 1.0, "b": 2.0, "c": 0.5},
            "judgements": {"a": 0.1, "b": 0.3, "c": 0.2},
            "ids": None,
        },
    ),
    "spearman_brown": (core.spearman_brown, {"r": 0.5, "factor": 2.0}),
    "check_delta": (core.check_delta, {"delta": 1.0}),
    "check_deltas": (core.check_deltas, {"deltas": [1.0]}),
    "delta_key": (core.delta_key, {"delta": 1.0}),
}
CASES = [(f, arg) for f, (_, kwargs) in CALLS.items() for arg in kwargs]


def test_every_public_function_of_core_is_fuzzed():
    public = {name for name in core.__all__ if callable(getattr(core, name))}
    assert public == set(CALLS)


def _names_the_argument(message: str, arg: str) -> bool:
    return f"'{arg}'" in message or f"'{arg}[" in message


@pytest.mark.parametrize(("function", "arg"), CASES, ids=[f"{f}-{a}" for f, a in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=ANY)
def test_any_argument_value_gives_a_result_or_an_error_naming_it(function, arg, value):
    fn, kwargs = CALLS[function]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a RuntimeWarning (overflow, NaN) is a finding too
            fn(**{**kwargs, arg: value})
    except (ValueError, TypeError) as exc:
        message = str(exc)
        # an id, a group or a key given by the caller may be named instead of the argument
        # when the fault is the other argument's (e.g. an id with no score in 'values')
        assert _names_the_argument(message, arg) or any(
            _names_the_argument(message, other) for other in kwargs
        ), f"{function}({arg}={value!r}): {type(exc).__name__}: {message}"


# ----------------------------------------------------------------------------- the evaluate module
evaluate = pytest.importorskip("evaluate")

GOOD = {
    "predictions_good": [-10.0, -12.0, -9.0],
    "predictions_bad": [-11.0, -11.5, -15.0],
    "references_good": [1.2, 0.9, 1.1],
    "references_bad": [-0.8, 0.1, -1.0],
    "deltas": [0.5, 1.0],
    "ids_good": None,
    "ids_bad": None,
    "population": None,
    "standardize": True,
    "groups": None,
    "auc_max": 5.0,
}


@pytest.fixture(scope="module")
def adc():
    return metric_adc.load_metric(keep_in_memory=True)


@pytest.mark.parametrize("arg", list(GOOD))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(value=ANY)
def test_the_evaluate_module_names_the_argument_it_rejects(adc, arg, value):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            adc.compute(**{**GOOD, arg: value})
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if arg in ("ids_good", "ids_bad") and "give both" in message:
            return_ok = True  # one of the pair given alone: the message names both
        else:
            return_ok = _names_the_argument(message, arg) or (
                # an id given twice with two values names the sentence and the two values
                arg.startswith("ids_") and "has two different" in message
            )
        assert return_ok, f"{arg}={value!r}: {type(exc).__name__}: {message}"
