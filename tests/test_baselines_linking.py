"""Linking functions: the Lau et al. (2017) definitions, their invariances and bad input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metric_adc.linking.formulas import (
    LINKING_FUNCTIONS,
    LINKING_NAMES,
    check_linking_name,
    logprob,
    mean_lp,
    norm_lp,
    pen_lp,
    slor,
)

logprobs = st.lists(
    st.floats(min_value=-50.0, max_value=-1e-3, allow_nan=False), min_size=1, max_size=40
)


@st.composite
def paired(draw):
    lp = draw(logprobs)
    uni = draw(
        st.lists(st.floats(min_value=-50.0, max_value=-1e-3), min_size=len(lp), max_size=len(lp))
    )
    return lp, uni


def test_definitions_on_a_worked_example():
    # |s| = 3, logP = -9, logPu = -12; the formulas of Lau, Clark & Lappin (2017), Table 1.
    lp, uni = [-2.0, -3.0, -4.0], [-5.0, -3.0, -4.0]
    assert logprob(lp) == -9.0
    assert mean_lp(lp) == -3.0
    assert pen_lp(lp) == pytest.approx(-9.0 / ((5 + 3) / 6) ** 0.8)
    assert norm_lp(lp, uni) == pytest.approx(9.0 / -12.0)  # -logP / logPu
    assert slor(lp, uni) == pytest.approx((-9.0 + 12.0) / 3)


@given(logprobs)
def test_mean_times_length_is_the_sum(lp):
    assert mean_lp(lp) * len(lp) == pytest.approx(logprob(lp), rel=1e-9, abs=1e-9)


@given(logprobs)
def test_penlp_is_logprob_scaled_by_a_length_only_penalty(lp):
    penalty = ((5 + len(lp)) / 6) ** 0.8
    assert pen_lp(lp) == pytest.approx(logprob(lp) / penalty, rel=1e-12)
    if len(lp) == 1:
        assert pen_lp(lp) == logprob(lp)


@given(paired())
def test_slor_is_zero_when_the_model_equals_the_unigram_model(pair):
    lp, _ = pair
    assert slor(lp, lp) == pytest.approx(0.0, abs=1e-9)
    assert norm_lp(lp, lp) == pytest.approx(-1.0)


@given(paired(), st.integers(min_value=0, max_value=39))
def test_token_order_does_not_matter(pair, shift):
    lp, uni = pair
    k = shift % len(lp)
    rotated_lp, rotated_uni = lp[k:] + lp[:k], uni[k:] + uni[:k]
    for f in LINKING_FUNCTIONS.values():
        assert f.compute(rotated_lp, rotated_uni) == pytest.approx(
            f.compute(lp, uni), rel=1e-9, abs=1e-9
        )


@given(paired(), st.floats(min_value=0.01, max_value=5.0))
def test_more_probable_tokens_never_lower_any_score(pair, boost):
    lp, uni = pair
    better = [min(x + boost, 0.0) for x in lp]
    for f in LINKING_FUNCTIONS.values():
        assert f.compute(better, uni) >= f.compute(lp, uni) - 1e-9


@pytest.mark.parametrize("name", LINKING_NAMES)
def test_every_function_is_finite_and_named(name):
    f = LINKING_FUNCTIONS[name]
    assert f.name == name and f.reduction
    assert math.isfinite(f.compute([-1.0, -2.0], [-3.0, -3.0]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([],), r"logprobs must hold at least one token log-probability \(got none\)"),
        (([-1.0, 0.5],), r"logprobs\[1\] must be a finite log-probability <= 0 \(got 0.5\)"),
        (([-math.inf],), r"logprobs\[0\] must be a finite log-probability <= 0 \(got -inf\)"),
    ],
)
def test_bad_token_logprobs_are_named(args, message):
    with pytest.raises(ValueError, match=message):
        logprob(*args)


def test_bad_unigrams_are_named():
    with pytest.raises(ValueError, match="same length"):
        slor([-1.0, -2.0], [-1.0])
    with pytest.raises(ValueError, match="needs unigram log-probabilities"):
        LINKING_FUNCTIONS["normlp"].compute([-1.0])
    with pytest.raises(ValueError, match=r"unigram_logprobs\[0\]"):
        slor([-1.0], [float("nan")])
    with pytest.raises(ValueError, match="undefined when the unigram log-probability is 0"):
        norm_lp([-1.0], [0.0])
    with pytest.raises(ValueError, match="variant must be one of"):
        check_linking_name("SLOR")


def test_totals_on_a_worked_example():
    # logP = -9 over 3 units, logPu = -12: the same figures as the token lists above
    totals = {name: f.from_totals(-9.0, 3, -12.0) for name, f in LINKING_FUNCTIONS.items()}
    assert totals == pytest.approx(
        {
            "logprob": -9.0,
            "meanlp": -3.0,
            "penlp": -9.0 / ((5 + 3) / 6) ** 0.8,
            "normlp": 9.0 / -12.0,
            "slor": (-9.0 + 12.0) / 3,
        }
    )
    # |s| need not be the number of token log-probabilities: 6 tokens, 4 words
    assert LINKING_FUNCTIONS["slor"].from_totals(-11.0, 4, -19.0) == 2.0


@given(paired())
def test_totals_agree_with_token_lists(pair):
    lp, uni = pair
    for f in LINKING_FUNCTIONS.values():
        assert f.from_totals(math.fsum(lp), len(lp), math.fsum(uni)) == f.compute(lp, uni)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0.5, 2, -1.0), r"logprob must be a finite log-probability <= 0 \(got 0.5\)"),
        ((-1.0, 2, float("inf")), r"unigram_logprob must be a finite log-probability <= 0"),
        ((-1.0, 2.0, -1.0), r"n must be a positive int, the sentence's length \(got 2.0\)"),
        ((-1.0, True, -1.0), r"n must be a positive int"),
        ((-1.0, 2, None), "linking function 'slor' needs unigram log-probabilities"),
    ],
)
def test_bad_totals_are_named(args, message):
    with pytest.raises(ValueError, match=message):
        LINKING_FUNCTIONS["slor"].from_totals(*args)
