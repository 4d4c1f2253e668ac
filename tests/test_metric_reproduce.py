"""The thesis's results recomputed from its outputs, and the command line."""

import csv
import json

import numpy as np
import pytest

from metric_adc import __main__ as cli
from metric_adc.report.li_adger import evaluate_li_adger
from metric_adc.scores.file import write_scores
from metric_adc.thesis import outputs as thesis
from metric_adc.thesis.models import reproduce_rows, thesis_model_deltas, thesis_pair_table


@pytest.fixture(scope="module")
def thesis_rows():
    return {r.model: r for r in reproduce_rows()}


def test_trigram_slor_matches_the_thesis(thesis_rows):
    r = thesis_rows["trigram-slor"]
    # the thesis evaluates 2,365 pairs: its pair file has 2,367 rows, 2 without a judgement
    assert (r.n_pairs, r.n_excluded) == (2365, 2)
    assert round(r.blimp, 3) == 0.753
    assert round(r.pearson_pairs, 3) == 0.333
    # thesis: 0.301 / 0.520 / 0.744. The recomputation passes 710 / 1228 / 1757 of 2365
    # pairs; the thesis's figures need >= 711 / 1229 / 1759 of 2365 (see docs/metric.md).
    counts = [round(r.adc[k] * 2365) for k in ("0.5", "1.0", "5.0")]
    assert counts == [710, 1228, 1757]
    for k, published in (("0.5", 0.301), ("1.0", 0.520), ("5.0", 0.744)):
        assert abs(r.adc[k] - published) < 0.0015
    assert r.standardized is False and "larger population" in r.note


def test_bert_z_scores_recomputed_equal_the_thesis_columns():
    # z-scoring the 4,178 raw scores reproduces the thesis's own z-score columns

    path = thesis.default_dir() / "bert_mlm_results_li-adger_sentences.csv"
    with path.open(encoding="utf-8") as fh:
        rows_ = list(csv.DictReader(fh))
    raw = np.array([float(r["bert-base-uncased_mlm"]) for r in rows_])
    published = np.array([float(r["bert-base-uncased_mlm_zscores"]) for r in rows_])
    from metric_adc.core import zscore

    np.testing.assert_allclose(zscore(raw), published, atol=1e-12)


def test_pair_deltas_match_the_thesis_delta_columns(thesis_rows):
    # the recomputed Δlm equal the thesis's `<model>_zscore-delta` columns

    with (thesis.default_dir() / thesis.PAIRS_FILE).open(encoding="utf-8") as fh:
        pf = list(csv.DictReader(fh))
    table = thesis_pair_table()
    models = thesis_model_deltas(table)
    assert [m.name for m, _ in models] == list(thesis.MODELS)
    for m, scored in models:
        col = thesis.MODELS[m.name][1] + "_zscore-delta"
        published = np.array([float(r[col]) if r[col] else np.nan for r in pf])
        np.testing.assert_allclose(scored.delta, published, atol=1e-9, equal_nan=True)


def _published_deltas() -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The thesis's pair file: each judged pair's human delta and every model's delta column."""
    with (thesis.default_dir() / thesis.PAIRS_FILE).open(encoding="utf-8") as fh:
        judged = [r for r in csv.DictReader(fh) if r["human_judge_delta"]]
    h = np.array([float(r["human_judge_delta"]) for r in judged])
    m = {
        name: np.array([float(r[f"{stem}_zscore-delta"]) for r in judged])
        for name, (_, stem, _) in thesis.MODELS.items()
    }
    return h, m


def test_every_thesis_row_is_its_published_delta_column_counted_by_hand(thesis_rows):
    # BLiMP: Δlm > 0; ADC(δ): same sign and |Δh − Δlm| < δ; Pearson: scipy's — all on the
    # thesis's own delta columns of its 2,365 judged pairs
    from scipy import stats

    h, published = _published_deltas()
    assert len(thesis_rows) == 8
    for name, m in published.items():
        r = thesis_rows[name]
        assert (r.n_pairs, r.n_excluded) == (2365, 2), name
        assert r.blimp == pytest.approx(np.mean(m > 0), abs=1e-12), name
        for k in ("0.5", "1.0", "5.0"):
            passed = np.mean((np.sign(m) == np.sign(h)) & (np.abs(h - m) < float(k)))
            assert r.adc[k] == pytest.approx(passed, abs=1e-12), (name, k)
        assert r.pearson_pairs == pytest.approx(stats.pearsonr(m, h).statistic, abs=1e-9)
    assert all(r.n_sentences == 4178 for n, r in thesis_rows.items() if n.startswith("bert"))


def test_cli_reproduce_json(capsys):
    assert cli.main(["reproduce", "--json", "--ceiling-splits", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["model"] for r in out["rows"]] == list(thesis.MODELS)
    r = next(r for r in out["rows"] if r["model"] == "trigram-slor")
    # the thesis's trigram SLOR: BLiMP 0.753 and Pearson 0.333 on its 2,365 judged pairs
    assert round(r["blimp"], 3) == 0.753 and round(r["pearson_pairs"], 3) == 0.333
    h, published = _published_deltas()
    m = published["trigram-slor"]
    for k in ("0.5", "1.0", "5.0"):
        passed = np.mean((np.sign(m) == np.sign(h)) & (np.abs(h - m) < float(k)))
        assert r["adc"][k] == pytest.approx(passed, abs=1e-12), k


def test_cli_report_on_a_scores_file(tmp_path, capsys):
    s = thesis.load_thesis_scores()["bert-base-uncased-mlm"]
    p = write_scores(tmp_path / "s.jsonl", [{"id": k, "score": v} for k, v in s.items()],
                     {"model": "bbu"})  # fmt: skip
    code = cli.main(["report", str(p), "--pairs", "thesis", "--json", "--n-resamples", "50",
                     "--delta", "1", "--plots", str(tmp_path / "plots")])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    row = out["rows"][0]
    # the thesis's published deltas of this model, counted by hand: same sign, |Δh − Δlm| < 1
    with (thesis.default_dir() / thesis.PAIRS_FILE).open(encoding="utf-8") as fh:
        pf = [r for r in csv.DictReader(fh) if r["human_judge_delta"]]
    h = np.array([float(r["human_judge_delta"]) for r in pf])
    m = np.array([float(r["bert-base-uncased_mlm_zscore-delta"]) for r in pf])
    passed = int(np.sum((np.sign(m) == np.sign(h)) & (np.abs(h - m) < 1.0)))
    assert row["model"] == "bbu" and (row["n_pairs"], row["n_excluded"]) == (2365, 2)
    assert row["adc"] == {"1.0": passed / 2365}
    assert out["analysis"]["ci"]["pairs"]["adc_1.0"]["n_resamples"] == 50
    assert sorted(x.name for x in (tmp_path / "plots").iterdir()) == [
        "bbu_adc_curve.png", "bbu_deltas.png", "bbu_phenomena.png", "bbu_sentences.png"]  # fmt: skip


def test_cli_report_errors_are_one_line(tmp_path, capsys):
    p = tmp_path / "s.csv"
    p.write_text("id,score\nnot-an-id,1.0\nother,2.0\n")
    assert cli.main(["report", str(p), "--pairs", "thesis"]) == 2
    err = capsys.readouterr().err
    assert "s.csv: 2 sentence id(s) unknown to LI-Adger, e.g. 'not-an-id'" in err
    q = tmp_path / "t.csv"
    q.write_text("id,score\n32.1.martin.1a.g.01,1.0\n32.1.martin.1a.g.02,2.0\n")
    assert cli.main(["report", str(q), "--pairs", "thesis"]) == 2
    err = capsys.readouterr().err
    assert "t.csv: no score for 4,120 of the 4,122 sentences the LI-Adger pairs need" in err
    assert err.count("\n") == 1  # one line: no warning about the sentences in no pair first


def test_evaluate_li_adger_on_the_dataset_agrees_with_the_thesis_pairs(thesis_rows):
    s = thesis.load_thesis_scores()["bert-large-cased-cola"]
    row = evaluate_li_adger(s, model="blc")
    want = thesis_rows["bert-large-cased-cola"]
    # the dataset's 2,365 evaluable pairs are the thesis's pairs minus the 2 without judgement
    assert (row.n_pairs, row.n_excluded) == (2365, 0)
    for k in ("blimp", "adc", "pearson_pairs", "pearson_sentences"):
        assert getattr(row, k) == pytest.approx(getattr(want, k))


def test_cli_reproduce_refuses_a_corrupted_thesis_file(tmp_path, capsys):
    import shutil

    folder = tmp_path / "thesis-outputs"
    shutil.copytree(thesis.default_dir(), folder)
    path = folder / thesis.PAIRS_FILE
    path.write_bytes(path.read_bytes()[:-100])
    assert cli.main(["reproduce", "--thesis-dir", str(folder), "--ceiling-splits", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: checksum mismatch") and thesis.PAIRS_FILE in err
    assert err.count("\n") == 1
