"""Split-half human ceiling: synthetic data with known noise (expected values by hand) and the
real participant-level LI data."""

from __future__ import annotations

import argparse
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from metric_adc import core, result_rows
from metric_adc.ceiling import compute as C
from metric_adc.ceiling import inputs as ceiling_inputs
from metric_adc.ceiling import splits as ceiling_splits
from metric_adc.ceiling import tasks as ceiling_tasks
from metric_adc.cli import ceiling as ceiling_cli
from metric_adc.thesis import outputs as thesis

REPO = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------- synthetic
def _synthetic(true_good, true_bad, *, n_participants, sigma, rng):
    """Every participant rates every sentence: true value + Gaussian noise of sd ``sigma``."""
    truth = np.concatenate([true_good, true_bad])
    values = truth + rng.normal(0.0, sigma, size=(n_participants, truth.size))
    ids = [f"s{i}" for i in range(truth.size)]
    k = len(true_good)
    return values, ids, ids[:k], ids[k:]


def test_synthetic_reliability_matches_the_formula():
    # n raters per sentence, noise sd σ. A half-sample delta has noise variance
    # 2σ²/(n/2) = 4σ²/n, so the split-half correlation of deltas is V/(V + 4σ²/n) and the
    # Spearman-Brown reliability (full sample, noise 2σ²/n) is V/(V + 2σ²/n), where V is the
    # variance of the true deltas. The measurement-error sd of a full-sample delta is √(2σ²/n).
    rng = np.random.default_rng(11)
    n, sigma, k = 20, 1.0, 3000
    good, bad = rng.normal(0, 1, k), rng.normal(0, 1, k)
    values, ids, g, b = _synthetic(good, bad, n_participants=n, sigma=sigma, rng=rng)
    out = ceiling_splits.split_half(
        values, ids, ["one"] * n, g, b, n_splits=30, rng=np.random.default_rng(0)
    )
    v = np.var(good - bad)
    split_r = v / (v + 4 * sigma**2 / n)
    full_rel = v / (v + 2 * sigma**2 / n)
    s = out["stats"]
    # z-scoring half B does not change a correlation
    assert s["pearson_pairs"]["mean"] == pytest.approx(split_r, abs=0.01)
    assert s["reliability_pairs"]["mean"] == pytest.approx(full_rel, abs=0.01)
    assert s["noise_sd"]["mean"] == pytest.approx(math.sqrt(2 * sigma**2 / n), rel=0.03)
    # sentences: true variance 1, half-sample noise σ²/(n/2)
    assert s["pearson_sentences"]["mean"] == pytest.approx(1 / (1 + 2 * sigma**2 / n), abs=0.01)


def test_synthetic_adc_matches_the_formula():
    # All true deltas are 3 (far from 0: no sign flips). Without z-scoring, half B's delta
    # minus half A's is N(0, 2·4σ²/n), so ADC(δ) = P(|N(0, 8σ²/n)| < δ) = erf(δ / √(16σ²/n)).
    rng = np.random.default_rng(12)
    n, sigma, k = 16, 1.2, 2000
    values, ids, g, b = _synthetic(
        np.full(k, 1.5), np.full(k, -1.5), n_participants=n, sigma=sigma, rng=rng
    )
    out = ceiling_splits.split_half(
        values, ids, ["one"] * n, g, b, n_splits=20, rng=np.random.default_rng(1)
    )
    s = out["stats"]
    for d in (0.5, 1.0):
        expected = math.erf(d / math.sqrt(16 * sigma**2 / n))
        assert s[f"adc_raw_{d}"]["mean"] == pytest.approx(expected, abs=0.015)
    assert s["blimp"]["mean"] == 1.0 and s["human_sign"]["mean"] == 1.0
    # δ for 90%: the 0.9 quantile of |N(0, 8σ²/n)|
    q90 = 1.6448536269514722 * math.sqrt(8 * sigma**2 / n)
    # the scored (z-scored) half B is a rescaled copy: the raw δ90 is the noise quantile
    raw = core.delta_for_share(
        *(np.full(k, 3.0) + rng.normal(0, math.sqrt(4 * sigma**2 / n), (2, k))), 0.9
    )
    assert raw == pytest.approx(q90, rel=0.05)


def test_more_splits_narrow_the_interval_of_the_mean():
    rng = np.random.default_rng(3)
    values, ids, g, b = _synthetic(
        rng.normal(0, 1, 300), rng.normal(0, 1, 300), n_participants=12, sigma=1.0, rng=rng
    )
    groups = ["a"] * 6 + ["b"] * 6
    few = ceiling_splits.split_half(
        values, ids, groups, g, b, n_splits=10, rng=np.random.default_rng(0)
    )
    many = ceiling_splits.split_half(
        values, ids, groups, g, b, n_splits=80, rng=np.random.default_rng(0)
    )
    for name in ("pearson_pairs", "adc_1.0"):
        w_few = few["stats"][name]["mean_hi"] - few["stats"][name]["mean_lo"]
        w_many = many["stats"][name]["mean_hi"] - many["stats"][name]["mean_lo"]
        assert w_many < w_few / 2  # ~ 1/√8 ≈ 0.35 expected


def test_split_masks_are_balanced_within_groups_and_seeded():
    groups = ["a"] * 7 + ["b"] * 4
    m1 = ceiling_splits.split_masks(groups, 50, np.random.default_rng(5))
    m2 = ceiling_splits.split_masks(groups, 50, np.random.default_rng(5))
    assert (m1 == m2).all()
    assert set(m1[:, :7].sum(axis=1).tolist()) == {3, 4}
    assert set(m1[:, 7:].sum(axis=1).tolist()) == {2}
    assert len({row.tobytes() for row in m1}) > 40


def test_half_means_needs_raters_in_both_halves():
    values = np.array([[1.0, np.nan], [2.0, 3.0]])
    with pytest.raises(ValueError, match="item 1 has no rating in a half of split 0"):
        ceiling_splits.half_means(values, np.array([[True, False]]))


def test_delta_for_share_inverts_adc():
    rng = np.random.default_rng(4)
    m, h = rng.normal(1, 1, 400), rng.normal(1, 1, 400)
    sign = core.human_sign_accuracy(m, h)
    for share in (0.1, 0.3, 0.5, sign):
        d = core.delta_for_share(m, h, share)
        assert core.adc(m, h, d) < share <= core.adc(m, h, d + 1e-9)
    assert core.delta_for_share(m, h, min(1.0, sign + 0.01)) is None


def test_spearman_brown():
    assert core.spearman_brown(0.0) == 0.0
    assert core.spearman_brown(1.0) == 1.0
    assert core.spearman_brown(0.5, factor=3) == pytest.approx(0.75)


def test_summarize_splits_by_hand():
    # 0.4, 0.5, 0.6: mean 0.5, sd 0.1, Monte Carlo half-width 1.96 · 0.1 / √3; None left out
    iv = ceiling_splits.summarize_splits([0.6, None, 0.4, float("nan"), 0.5])
    assert iv["mean"] == pytest.approx(0.5) and iv["sd"] == pytest.approx(0.1)
    assert iv["mean_hi"] - iv["mean"] == pytest.approx(1.959963984540054 * 0.1 / math.sqrt(3))
    assert (iv["lo"], iv["hi"]) == pytest.approx((0.405, 0.595))


# ----------------------------------------------------------------------------- real data
@pytest.fixture(scope="module")
def inputs():
    return ceiling_inputs.load_inputs()


def test_real_inputs(inputs):
    assert len(inputs.pairs) == 1174  # evaluable LI pairs
    assert inputs.me.values.shape == (304, 2400)
    # the published human delta is the full-sample mean z-score difference
    means = dict(zip(inputs.me.ids, np.nanmean(inputs.me.values, axis=0), strict=True))
    full = core.pair_deltas(
        means, inputs.pairs["good_id"].tolist(), inputs.pairs["bad_id"].tolist()
    )
    np.testing.assert_allclose(full, inputs.pairs["human_delta"].to_numpy(float), atol=2e-3)


def test_real_ceiling(inputs):
    few = C.compute_ceiling(n_splits=10, seed=1, inputs=inputs, tasks=False)
    many = C.compute_ceiling(n_splits=100, seed=1, inputs=inputs, tasks=False)
    s = many["stats"]
    assert (
        0 < s["pearson_pairs"]["lo"] <= s["pearson_pairs"]["mean"] <= s["pearson_pairs"]["hi"] < 1
    )
    assert s["pearson_pairs"]["mean"] < s["reliability_pairs"]["mean"] < 1
    assert (
        s["adc_0.5"]["mean"]
        < s["adc_1.0"]["mean"]
        <= s["adc_5.0"]["mean"]
        <= s["human_sign"]["mean"]
    )
    for name in ("pearson_pairs", "adc_0.5", "adc_1.0", "blimp"):
        width = lambda r, n=name: r["stats"][n]["mean_hi"] - r["stats"][n]["mean_lo"]  # noqa: E731
        assert width(many) < width(few)
    row = result_rows.ceiling_row(many)
    assert list(row.to_json_dict()) == [*result_rows.ROW_KEYS, "authors_note", "n_splits", "seed"]
    assert row.model == "human split-half (LI only)" and row.n_pairs == 1174
    assert set(row.adc) == {"0.5", "1.0", "5.0"}
    assert "Adger" in row.note and "no participant-level data" in row.note
    # ADC grows with δ and never passes more pairs than agree in sign (ADC at δ → ∞)
    adc = [row.adc[k] for k in ("0.5", "1.0", "5.0")]
    assert 0 < adc[0] < adc[1] < adc[2] <= row.human_sign < 1
    curve = many["curve"]["adc_mean"]
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(curve))


def test_task_comparison(inputs):
    models = ceiling_inputs.thesis_deltas_frame(inputs.pairs)
    assert list(models.columns) == list(thesis.MODELS) and len(models) == 1174
    out = ceiling_tasks.task_comparison(inputs, models, n_splits=20, rng=np.random.default_rng(0))
    assert set(out["tasks"]) == {"me", "ls", "fc"}
    assert out["tasks"]["me"]["n_pairs"] == out["tasks"]["ls"]["n_pairs"] == 1174
    # forced choice pairs each bad sentence with the good one of the same token: all but the
    # one LI-Adger pair whose members have different tokens (41.4.Bruening.9c.g.05 / 9b.*.06)
    assert out["tasks"]["fc"]["n_pairs"] == 1173
    for t in out["tasks"].values():
        assert 0 < t["reliability"]["mean"] < 1
        assert len(t["models"]) == 8
        for m in t["models"].values():
            assert m["pearson"] is None or abs(m["disattenuated"]) >= abs(m["pearson"])


def test_cli_json(inputs, capsys):
    parser = argparse.ArgumentParser()
    ceiling_cli.add_ceiling_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["ceiling", "--json", "--splits", "10", "--no-tasks"])
    assert args.func(args) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["row"]["model"] == C.LABEL and out["n_splits"] == 10
    assert "contact Jon Sprouse" in out["authors_note"]
    assert "contact Jon Sprouse" in captured.err


def test_cli_table_and_plot(inputs, capsys, tmp_path):
    parser = argparse.ArgumentParser()
    ceiling_cli.add_ceiling_parser(parser.add_subparsers(dest="command"))
    plot = tmp_path / "curve.png"
    args = parser.parse_args(["ceiling", "--splits", "5", "--plot", str(plot)])
    assert args.func(args) == 0
    text = capsys.readouterr().out
    assert (
        "human split-half (LI only)" in text and "Adger" in text and "contact Jon Sprouse" in text
    )
    assert plot.stat().st_size > 0


def test_the_human_row_and_its_curve_agree_and_the_app_ships_them():
    c = C.human_ceiling()
    row, curve = c["row"], c["curve"]
    assert (row.model, row.n_pairs, row.n_splits, row.seed) == (C.LABEL, 1174, 100, 0)
    # the curve (a δ sweep) and the row (ADC at each δ) are computed apart: they must meet
    at = dict(zip(curve["deltas"], curve["adc_mean"], strict=True))
    for k, value in row.adc.items():
        assert at[float(k)] == pytest.approx(value, abs=1e-12), k
    assert list(curve["deltas"]) == list(C.CURVE_GRID)
    # the app, whose host has no participant-level data, ships this very record
    shipped = json.loads((REPO / "space" / "results" / "ceiling.json").read_text("utf-8"))
    assert shipped == json.loads(json.dumps({**c, "row": row.to_json_dict()}))
