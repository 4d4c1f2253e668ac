"""metric_adc.core and metric_adc.bootstrap: hand-computed cases, invariances, degenerate input."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from metric_adc import bootstrap, core

# ---------------------------------------------------------------- hand-computed cases


def test_zscore_population_sd_each_sentence_once():
    # 4 sentences, population sd = sqrt(((-1.5)^2 + (-.5)^2 + .5^2 + 1.5^2) / 4) = sqrt(1.25)
    z = core.zscore_by_id(["a", "b", "c", "d"], [1.0, 2.0, 3.0, 4.0])
    assert z["d"] == pytest.approx(1.5 / math.sqrt(1.25))
    assert z["a"] == pytest.approx(-1.5 / math.sqrt(1.25))


def test_zscore_over_a_larger_population():
    # population 1..5: mean 3, population sd √2; the scored sentences need not be in it
    z = core.zscore_by_id(["a", "b"], [5.0, 2.5], population=[1.0, 2.0, 3.0, 4.0, 5.0])
    assert z["a"] == pytest.approx(2 / math.sqrt(2)) and z["b"] == pytest.approx(
        -0.5 / math.sqrt(2)
    )
    with pytest.raises(ValueError, match="'population' are constant"):
        core.zscore_by_id(["a", "b"], [1.0, 2.0], population=[2.0, 2.0])


def test_sentence_correlation_matches_ids_and_leaves_out_missing_judgements():
    from scipy import stats

    scores = {"a": 1.0, "b": 2.0, "c": 4.0, "d": 3.0, "e": 9.0}
    judgements = {"d": 4.0, "c": 5.0, "b": 1.0, "a": 2.0, "e": float("nan")}
    r = core.sentence_correlation(scores, judgements)
    assert r["n"] == 4
    assert r["pearson"] == pytest.approx(stats.pearsonr([1, 2, 4, 3], [2, 1, 5, 4]).statistic)
    assert core.sentence_correlation(scores, judgements, ids=["a", "b", "x"])["n"] == 2


def test_adc_hand_computed():
    # pair 1: same sign, |1.3-1.0| = .3 -> passes at .5 and 1
    # pair 2: same sign, |2.5-1.0| = 1.5 -> fails at .5 and 1, passes at 5
    # pair 3: opposite signs -> fails always
    # pair 4: |0.4-(-0.2)|... model -0.2, human -0.9: same sign, .7 -> passes at 1 only
    m = [1.0, 1.0, -0.2, -0.2]
    h = [1.3, 2.5, 0.1, -0.9]
    assert core.adc(m, h, 0.5) == 0.25
    assert core.adc(m, h, 1.0) == 0.5
    assert core.adc(m, h, 5.0) == 0.75
    assert core.human_sign_accuracy(m, h) == 0.75
    assert core.blimp_accuracy(m) == 0.5
    # exact area on [0, 4]: per pair max(0, 1 - err/4) if signs agree
    assert core.adc_auc(m, h, 4.0) == pytest.approx((0.925 + 0.625 + 0 + 0.825) / 4)


def test_strict_threshold_and_ties():
    assert core.adc_pass([1.0], [1.5], 0.5).tolist() == [False]  # |Δh−Δlm| < δ is strict
    assert core.blimp_pass([0.0]).tolist() == [False]  # a tie fails the BLiMP criterion
    assert core.adc_pass([0.0], [0.2], 1.0).tolist() == [False]  # sign(0) != sign(0.2)


def test_summarize_excludes_missing_judgements_and_counts_them():
    s = core.summarize([1.0, -1.0, float("nan")], [0.8, 0.5, float("nan")], deltas=[1.0])
    assert (s["n_pairs"], s["n_excluded"]) == (2, 1)
    assert s["blimp"] == 0.5 and s["adc"] == {"1.0": 0.5}


def test_correlation_matches_scipy():
    from scipy import stats

    x, y = [1.0, 2.0, 4.0, 3.0, 7.0], [2.0, 1.0, 5.0, 4.0, 6.0]
    r = core.correlation(x, y)
    assert r["pearson"] == pytest.approx(stats.pearsonr(x, y).statistic)
    assert r["spearman_p"] == pytest.approx(stats.spearmanr(x, y).pvalue)


def test_breakdown_and_overlap():
    b = core.breakdown(
        ["x", "y", "y", "y"], [1.0, 1.0, -1.0, 0.5], [1.2, 3.0, 0.5, 0.4], deltas=[1]
    )
    assert b["x"]["adc"]["1.0"] == 1.0 and b["y"]["adc"]["1.0"] == pytest.approx(1 / 3)
    o = core.overlap([True, False, True, True], [True, True, False, False])
    assert (o["both"], o["n_reduced"], o["reduced"]) == (0.25, 2, 1.0)


def test_sweep_grid_and_area():
    s = core.delta_sweep([1.0, -1.0, 0.4], [2.0, 3.0, 0.5])
    assert len(s["deltas"]) == 100 and s["deltas"][-1] == 5.0
    # by hand on [0, 5]: 1 − 1/5 (error 1), 0 (signs differ), 1 − 0.1/5 (error 0.1)
    assert s["auc"] == pytest.approx((0.8 + 0 + 0.98) / 3)
    # the exact area equals the Riemann mean of the step function on a fine grid
    grid = np.linspace(1e-6, 5, 20001)
    riemann = np.mean([core.adc([1.0, -1.0, 0.4], [2.0, 3.0, 0.5], d) for d in grid[::50]])
    assert s["auc"] == pytest.approx(riemann, abs=0.01)


# ---------------------------------------------------------------- bootstrap


def test_bootstrap_seeded_and_cluster_resampling():
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    m = np.linspace(-1, 2, 40)
    h = np.sin(np.arange(40)) + 1
    a = bootstrap.bootstrap_ci(m, h, rng=rng_a, n_resamples=300)
    b = bootstrap.bootstrap_ci(m, h, rng=rng_b, n_resamples=300)
    assert a == b and a["low"] <= a["estimate"] <= a["high"]
    clusters = [f"p{i // 5}" for i in range(40)]
    c = bootstrap.bootstrap_ci(m, h, rng=rng_a, n_resamples=300, clusters=clusters)
    assert c["n_units"] == 8 and c["estimate"] == a["estimate"]
    r = bootstrap.bootstrap_ci(m, h, statistic="pearson_pairs", rng=rng_a, n_resamples=300)
    assert r["estimate"] == pytest.approx(core.correlation(m, h)["pearson"])


def test_paired_comparison_identical_systems_and_clear_winner():
    rng = np.random.default_rng(3)
    h = np.linspace(0.2, 2.0, 60)
    same = bootstrap.paired_comparison(h, h, h, rng=rng, n_resamples=200)
    assert same["difference"] == 0 and same["p_value"] == 1.0
    worse = -h  # always the wrong sign
    win = bootstrap.paired_comparison(h, worse, h, rng=rng, n_resamples=200)
    assert win["difference"] == 1.0 and win["p_value"] < 0.01


# ---------------------------------------------------------------- invariances (Hypothesis)

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def pair_data(draw):
    n_sent = draw(st.integers(4, 12))
    scores = draw(st.lists(finite, min_size=n_sent, max_size=n_sent))
    if np.ptp(scores) < 1e-3:
        scores[0] += 1.0
    human = draw(st.lists(st.floats(-3, 3), min_size=n_sent, max_size=n_sent))
    n_pairs = draw(st.integers(2, 10))
    idx = draw(
        st.lists(
            st.tuples(st.integers(0, n_sent - 1), st.integers(0, n_sent - 1)),
            min_size=n_pairs,
            max_size=n_pairs,
        )
    )
    return np.array(scores), np.array(human), idx


def _deltas(scores, human, idx):
    """Model and human deltas of the pairs ``idx`` (sentence positions), through the metric."""
    ids = [f"s{i}" for i in range(len(scores))]
    good, bad = [ids[g] for g, _ in idx], [ids[b] for _, b in idx]
    m = core.pair_deltas(core.zscore_by_id(ids, scores), good, bad)
    h = core.pair_deltas(dict(zip(ids, human, strict=True)), good, bad)
    return m, h


def _robust(m, h):  # drop near-boundary cases where float rounding may flip a comparison
    err = np.abs(h - m)
    return not (np.any(np.abs(m) < 1e-9) or np.any(np.abs(err[:, None] - [0.5, 1, 5]) < 1e-9))


@settings(max_examples=150, deadline=None)
@given(pair_data(), st.floats(0.01, 100), st.floats(-100, 100))
def test_positive_affine_change_changes_nothing(data, a, b):
    scores, human, idx = data
    m1, h = _deltas(scores, human, idx)
    m2, _ = _deltas(a * scores + b, human, idx)
    assume(_robust(m1, h))
    s1, s2 = core.summarize(m1, h), core.summarize(m2, h)
    assert s1["adc"] == s2["adc"] and s1["blimp"] == s2["blimp"]
    assert s1["adc_auc"] == pytest.approx(s2["adc_auc"], abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(pair_data())
def test_swapping_members_negates_deltas(data):
    scores, human, idx = data
    m, h = _deltas(scores, human, idx)
    ms, hs = _deltas(scores, human, [(b, g) for g, b in idx])
    np.testing.assert_allclose(ms, -m, atol=1e-12)
    np.testing.assert_allclose(hs, -h, atol=1e-12)
    # ADC is symmetric in the orientation of a pair; the BLiMP criterion is not
    assert core.adc_pass(ms, hs, 1.0).tolist() == core.adc_pass(m, h, 1.0).tolist()
    assert core.blimp_pass(ms).tolist() == (m < 0).tolist()


@settings(max_examples=100, deadline=None)
@given(pair_data(), st.randoms(use_true_random=False))
def test_row_order_is_irrelevant(data, rnd):
    scores, human, idx = data
    m, h = _deltas(scores, human, idx)
    perm = list(range(len(m)))
    rnd.shuffle(perm)
    s1, s2 = core.summarize(m, h), core.summarize(m[perm], h[perm])
    for k in ("blimp", "human_sign", "adc_auc"):
        assert s1[k] == pytest.approx(s2[k])
    assert s1["adc"] == s2["adc"]
    ids = [f"s{i}" for i in range(len(scores))]
    order = list(range(len(scores)))
    rnd.shuffle(order)
    z1 = core.zscore_by_id(ids, scores)
    z2 = core.zscore_by_id([ids[i] for i in order], scores[order])
    assert all(z1[k] == pytest.approx(z2[k], abs=1e-9) for k in ids)


@settings(max_examples=100, deadline=None)
@given(pair_data(), st.lists(st.floats(0.01, 20), min_size=2, max_size=8))
def test_adc_non_decreasing_in_delta_and_limit_is_human_sign(data, grid):
    scores, human, idx = data
    m, h = _deltas(scores, human, idx)
    values = [core.adc(m, h, d) for d in sorted(grid)]
    assert values == sorted(values)
    assert core.adc(m, h, math.inf) == core.human_sign_accuracy(m, h)
    assert core.adc(m, h, 1e12) == core.human_sign_accuracy(m, h)
    assert max(values) <= core.human_sign_accuracy(m, h)


# ---------------------------------------------------------------- degenerate input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: core.zscore([3.0, 3.0, 3.0]), "'scores' are constant"),
        (lambda: core.zscore([1.0, float("nan")]), "'scores' must be finite (got nan at position 1"),
        (lambda: core.zscore([1.0, float("inf")]), "'scores' must be finite (got inf"),
        (lambda: core.zscore_by_id(["a", "b"], [1.0]), "'ids' has 2 entries but 'scores' has 1"),
        (lambda: core.zscore_by_id(["a", "a"], [1.0, 2.0]), "'ids' must be unique (got 'a' 2 times)"),
        (lambda: core.pair_deltas({"a": 1.0}, ["a"], ["zz"]), "'bad_ids' has 1 id(s) with no score"),
        (lambda: core.pair_deltas({"a": 1.0}, ["a", "a"], ["a"]), "'good_ids' has 2 entries"),
        (lambda: core.adc([1.0, 2.0], [1.0], 1.0), "'human_delta' has 1 values, expected 2"),
        (lambda: core.adc([1.0], [1.0], 0.0), "'delta' must be > 0 (got 0.0)"),
        (lambda: core.adc([1.0], [1.0], -1), "'delta' must be > 0 (got -1)"),
        (lambda: core.adc([1.0], [1.0], float("nan")), "'delta' must be > 0 (got nan)"),
        (lambda: core.summarize([1.0], [1.0]), "has 1 evaluable pairs, fewer than 'min_pairs' (2) (got 1"),
        (lambda: core.summarize([1.0, 2.0], [1.0, None]), "fewer than 'min_pairs' (2) (got 1; 1 excluded"),
        (lambda: core.summarize([float("nan"), 1.0], [1.0, 2.0]), "'model_delta' must be finite"),
        (lambda: core.summarize([1.0, 1.0], [float("inf"), 2.0]), "'human_delta' must be finite or NaN"),
        (lambda: core.adc_auc([1.0], [1.0], math.inf), "'delta_max' must be finite"),
        (lambda: bootstrap.bootstrap_ci([1.0, 2.0], [1.0, 1.0], rng=np.random.default_rng(0), statistic="mean"), "'statistic' must be one of"),
        (lambda: bootstrap.bootstrap_ci([1.0, 2.0], None, rng=np.random.default_rng(0)), "needs human deltas"),
        (lambda: bootstrap.bootstrap_ci([1.0, 2.0], [1.0, 1.0], rng=np.random.default_rng(0), clusters=["a", "a"]), "need at least 2 clusters"),
        (lambda: bootstrap.paired_comparison([1.0, 2.0], [1.0], [1.0, 1.0], rng=np.random.default_rng(0)), "'model_delta_a' has 2 pairs but 'model_delta_b' has 1"),
    ],
)  # fmt: skip
def test_degenerate_inputs_raise_precise_errors(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert message in str(info.value)


def test_bootstrap_rng_must_be_a_generator():
    with pytest.raises(TypeError, match=r"numpy\.random\.Generator"):
        bootstrap.bootstrap_ci([1.0, 2.0], [1.0, 1.0], rng=np.random.RandomState(0))


def test_undefined_correlation_is_none_not_nan():
    s = core.summarize([1.0, 1.0, 1.0], [0.5, 1.0, 2.0])  # constant model deltas
    assert s["pearson_pairs"] is None and s["spearman_pairs_p"] is None
    assert core.correlation([1.0, 2.0], [1.0, 3.0])["pearson"] is None  # fewer than 3 points


def test_blimp_only_mode_keeps_keys():
    with_h = core.summarize([1.0, -1.0], [1.0, 1.0])
    without = core.summarize([1.0, -1.0])
    assert with_h.keys() == without.keys()
    assert without["adc"] == {"0.5": None, "1.0": None, "5.0": None}
    assert without["blimp"] == 0.5


# ---------------------------------------------------------------- δ for a share of pairs


@settings(max_examples=100, deadline=None)
@given(pair_data(), st.lists(st.floats(0.01, 20), min_size=1, max_size=8))
def test_sweep_equals_adc_at_each_delta(data, grid):
    scores, human, idx = data
    m, h = _deltas(scores, human, idx)
    sweep = core.delta_sweep(m, h, deltas=grid)
    assert sweep["adc"] == [core.adc(m, h, d) for d in sorted(grid)]


@settings(max_examples=100, deadline=None)
@given(pair_data(), st.floats(0.01, 1.0))
def test_delta_for_share_is_the_infimum(data, share):
    scores, human, idx = data
    m, h = _deltas(scores, human, idx)
    d = core.delta_for_share(m, h, share)
    if d is None:  # unreachable: even sign agreement alone stays below the share
        assert core.human_sign_accuracy(m, h) < share - 1e-12
    else:
        assert core.adc(m, h, d + 1e-9) >= share - 1e-12
        assert d == 0 or core.adc(m, h, d) < share


def test_delta_for_share_excludes_missing_judgements_and_checks_share():
    m, h = [1.0, 2.0, 5.0], [1.2, float("nan"), 1.0]
    assert core.delta_for_share(m, h, 0.5) == pytest.approx(0.2)
    with pytest.raises(ValueError, match=r"'share' must be in \(0, 1\] \(got 0\)"):
        core.delta_for_share(m, h, 0)


def test_spearman_brown_lives_with_the_correlations():
    from metric_adc import correlation

    assert core.spearman_brown is correlation.spearman_brown
    assert core.correlation is correlation.correlation
    assert core.sentence_correlation is correlation.sentence_correlation
    # the full-sample reliability of two halves correlating at r = 1/3 is 1/2
    assert core.spearman_brown(1 / 3) == pytest.approx(0.5)


def test_correlations_and_p_values_equal_scipys():
    """The pure-NumPy Pearson and Spearman coefficients (average ranks for ties) and their
    Student-t p-values against SciPy's, on samples of 3 to 4,178 points, ties included."""
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(7)
    for n in (3, 4, 10, 100, 2365, 4178):
        for k in range(6):
            x = rng.normal(size=n)
            y = x * rng.uniform(-1, 1) + rng.normal(size=n)
            if k % 2:
                x = np.round(x, 1)  # ties
            ours = core.correlation(x, y)
            p, s = stats.pearsonr(x, y), stats.spearmanr(x, y)
            assert ours["pearson"] == pytest.approx(p.statistic, abs=1e-12)
            assert ours["spearman"] == pytest.approx(s.statistic, abs=1e-12)
            assert ours["pearson_p"] == pytest.approx(p.pvalue, rel=1e-9, abs=1e-300)
            assert ours["spearman_p"] == pytest.approx(s.pvalue, rel=1e-9, abs=1e-300)


def test_shared_resamples_give_the_intervals_of_independent_multinomial_draws():
    """The resamples drawn once and shared by every statistic (``resampled_sums``) give the
    same intervals, within Monte-Carlo error, as the multinomial draw per statistic used
    before: BERT base's ADC δ=0.5 and pair-level Pearson on LI-Adger, 10,000 resamples each."""
    from metric_adc.thesis.models import thesis_model_deltas, thesis_pair_table

    t = thesis_pair_table()
    d = {m.name: x for m, x in thesis_model_deltas(t)}["bert-base-uncased-mlm"]
    m, h = d.delta, t.human_delta
    shared = bootstrap.bootstrap_cis(m, h, statistics=[("adc", 0.5), ("pearson_pairs", None)],
                                     rng=np.random.default_rng(0), n_resamples=10_000)  # fmt: skip
    rng = np.random.default_rng(1)
    keep = ~np.isnan(h)
    m, h = m[keep], h[keep]
    counts = rng.multinomial(m.size, np.full(m.size, 1 / m.size), size=10_000)
    adc = counts @ core.adc_pass(m, h, 0.5).astype(float) / m.size
    sums = counts @ np.column_stack([np.ones_like(m), m, h, m * m, h * h, m * h])
    n, sx, sy, sxx, syy, sxy = sums.T
    r = (sxy - sx * sy / n) / np.sqrt((sxx - sx * sx / n) * (syy - sy * sy / n))
    for ci, samples in zip(shared, (adc, r), strict=True):
        lo, hi = np.quantile(samples, [0.025, 0.975])
        assert ci["low"] == pytest.approx(lo, abs=0.004) and ci["high"] == pytest.approx(
            hi, abs=0.004
        )
        assert ci["se"] == pytest.approx(samples.std(ddof=1), rel=0.05)
