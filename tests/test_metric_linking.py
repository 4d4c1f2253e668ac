"""The fitted linking function and the report's linking rows: the least-squares fit, the folds of
phenomena, no leakage of held-out judgements, determinism, LI-Adger's pairs within one fold,
and ``report``/``reproduce --linking`` on a scores file written by a linked scorer."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metric_adc import __main__ as cli
from metric_adc import pairs
from metric_adc.linking.fit import (
    DEFAULT_FOLDS,
    DEFAULT_SEED,
    MorcelaFit,
    cross_fit,
    fit_morcela,
    phenomenon_folds,
)
from metric_adc.linking.function_rows import LINKING_CHOICES, linking_rows, linking_scores
from metric_adc.scores.file import read_scores, write_scores
from metric_adc.thesis.models import thesis_pair_table

pytest.importorskip("wordfreq")


def _synthetic(n: int = 300, n_phenomena: int = 30, seed: int = 0):
    rng = np.random.default_rng(seed)
    logp = -rng.uniform(10.0, 80.0, n)
    logpu = -rng.uniform(20.0, 120.0, n)
    length = rng.integers(2, 15, n)
    judgement = (0.4 * logp - 0.3 * logpu + 5.0) / length - 1.0 + rng.normal(0.0, 0.3, n)
    phenomenon = [f"p{i % n_phenomena:02d}" for i in range(n)]
    return logp, logpu, length, judgement, phenomenon


# ----------------------------------------------------------------------------- the fit
def test_least_squares_recovers_the_generating_coefficients():
    logp, logpu, length, _, _ = _synthetic()
    judgement = (0.4 * logp - 0.3 * logpu + 5.0) / length - 1.0  # no noise
    fit = fit_morcela(logp, logpu, length, judgement)
    assert (fit.alpha, fit.b, fit.c, fit.intercept) == pytest.approx((0.4, -0.3, 5.0, -1.0))
    assert fit.beta == pytest.approx(0.75) and fit.gamma == pytest.approx(12.5)


def test_slor_is_the_fit_with_beta_one_and_gamma_zero():
    logp, logpu, length, _, _ = _synthetic()
    slor = (logp - logpu) / length
    fit = fit_morcela(logp, logpu, length, 2.0 * slor + 0.5)
    assert (fit.beta, fit.gamma) == pytest.approx((1.0, 0.0), abs=1e-9)
    assert MorcelaFit(1.0, -1.0, 0.0, 0.0).predict(logp, logpu, length) == pytest.approx(slor)


def test_sentences_without_a_judgement_are_not_fitted_on():
    logp, logpu, length, judgement, _ = _synthetic()
    with_nan = judgement.copy()
    with_nan[:10] = np.nan
    full = fit_morcela(logp[10:], logpu[10:], length[10:], judgement[10:])
    assert fit_morcela(logp, logpu, length, with_nan) == full


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ([-1.0], [-2.0], [0], [0.1]),
            r"'n' must be >= 1, a sentence length \(got 0 at position 0\)",
        ),
        (([-1.0, -2.0], [-2.0], [1, 1], [0.1, 0.2]), "must have the same length"),
        (([-1.0], [-2.0], [1], [0.1, 0.2]), r"one value per sentence \(got 2 for 1\)"),
        (([float("nan")], [-2.0], [1], [0.1]), "'logprob' must be finite"),
    ],
)
def test_bad_input_is_named(args, message):
    with pytest.raises(ValueError, match=message):
        fit_morcela(*args)


# ----------------------------------------------------------------------------- the folds
def test_folds_are_balanced_deterministic_and_seeded():
    names = [f"p{i}" for i in range(233)]
    folds = phenomenon_folds(names, k=5, seed=0)
    assert sorted(folds) == sorted(names)
    assert sorted(np.bincount(list(folds.values())).tolist()) == [46, 46, 47, 47, 47]
    assert phenomenon_folds(list(reversed(names)) * 2, k=5, seed=0) == folds
    assert phenomenon_folds(names, k=5, seed=1) != folds


def test_cross_fit_is_deterministic_with_its_seed():
    data = _synthetic()
    a, b = cross_fit(*data, k=4, seed=3), cross_fit(*data, k=4, seed=3)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.fold, b.fold)
    assert not np.array_equal(cross_fit(*data, k=4, seed=4).fold, a.fold)
    assert (a.k, a.seed, len(a.folds)) == (4, 3, 4)
    assert sum(f.n_test for f in a.folds) == len(a.scores)
    assert not np.isnan(a.scores).any()


def test_whole_phenomena_are_held_out():
    logp, logpu, length, judgement, phenomenon = _synthetic()
    out = cross_fit(logp, logpu, length, judgement, phenomenon, k=3, seed=0)
    for p in set(phenomenon):
        assert len({int(f) for f, q in zip(out.fold, phenomenon, strict=True) if q == p}) == 1
    assert sorted(p for f in out.folds for p in f.phenomena) == sorted(set(phenomenon))


@pytest.mark.parametrize("held_out", range(4))
def test_held_out_judgements_never_change_held_out_scores(held_out):
    logp, logpu, length, judgement, phenomenon = _synthetic()
    base = cross_fit(logp, logpu, length, judgement, phenomenon, k=4, seed=0)
    test = base.fold == held_out
    rng = np.random.default_rng(held_out)

    shuffled = judgement.copy()
    shuffled[test] = rng.permutation(judgement[test]) + rng.normal(0.0, 5.0, test.sum())
    other = cross_fit(logp, logpu, length, shuffled, phenomenon, k=4, seed=0)
    assert np.array_equal(other.scores[test], base.scores[test])
    assert not np.allclose(other.scores[~test], base.scores[~test])

    shuffled = judgement.copy()
    shuffled[~test] = rng.permutation(judgement[~test])
    other = cross_fit(logp, logpu, length, shuffled, phenomenon, k=4, seed=0)
    assert not np.allclose(other.scores[test], base.scores[test])


def test_a_fold_that_cannot_be_fitted_is_named():
    logp, logpu, length, judgement, phenomenon = _synthetic(n=40, n_phenomena=4)
    judgement = np.where(np.array(phenomenon) == "p00", judgement, np.nan)
    with pytest.raises(ValueError, match=r"fold \d cannot be fitted on the other folds"):
        cross_fit(logp, logpu, length, judgement, phenomenon, k=2, seed=0)


# ----------------------------------------------------------------------------- LI-Adger
@pytest.mark.parametrize("table", ["li_adger", "thesis"])
def test_every_pair_has_both_members_in_one_phenomenon(table):
    import li_adger

    sentences = li_adger.load("sentences")
    phenomenon = dict(zip(sentences["id"], sentences["phenomenon"], strict=True))
    t = pairs.li_adger_pairs() if table == "li_adger" else thesis_pair_table()
    assert len(t) > 2300
    split = [
        (g, b) for g, b in zip(t.good_ids, t.bad_ids, strict=True) if phenomenon[g] != phenomenon[b]
    ]
    assert split == []
    folds = phenomenon_folds(list(phenomenon.values()), k=DEFAULT_FOLDS, seed=DEFAULT_SEED)
    assert len(folds) == 233
    assert all(
        folds[phenomenon[g]] == folds[phenomenon[b]]
        for g, b in zip(t.good_ids, t.bad_ids, strict=True)
    )


@pytest.fixture(scope="module")
def linked_file(tmp_path_factory):
    """LI-Adger scored by a real linked scorer: the trigram's word log-probabilities as the
    model, wordfreq as the unigram model, written by the scoring run."""
    import li_adger
    from baselines.kinds.linked import LinkedScorer
    from baselines.kinds.ngram import NGramScorer
    from baselines.kinds.unigram import unigram_model
    from baselines.score_file import score_to_file

    sentences = li_adger.load("sentences")
    scorer = LinkedScorer(NGramScorer(variant="logprob"), "slor", unigram_model("wordfreq"))
    out = tmp_path_factory.mktemp("linked") / "trigram-words-slor.jsonl"
    return score_to_file(scorer, list(sentences["id"]), list(sentences["sentence"]), out,
                         dataset="li_adger", batch_size=1024, progress=False)  # fmt: skip


@pytest.fixture(scope="module")
def logprob_file(tmp_path_factory):
    import li_adger
    from baselines.kinds.ngram import NGramScorer
    from baselines.score_file import score_to_file

    sentences = li_adger.load("sentences")
    out = tmp_path_factory.mktemp("plain") / "trigram-logprob.jsonl"
    return score_to_file(NGramScorer(variant="logprob"), list(sentences["id"]),
                         list(sentences["sentence"]), out, dataset="li_adger", batch_size=1024,
                         progress=False)  # fmt: skip


def _json(capsys, *argv) -> dict:
    assert cli.main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def _stats(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("model", "note")}


def test_report_linking_rows_side_by_side(linked_file, logprob_file, capsys):
    out = _json(capsys, "report", str(linked_file), "--json", "--ceiling-splits", "0",
                "--linking", *LINKING_CHOICES)  # fmt: skip
    shown = {r["model"]: r for r in out["rows"]}
    assert list(shown) == [f"trigram ({name})" for name in LINKING_CHOICES]
    # the slor row equals the file's own scores; the logprob row the trigram's logprob variant
    own = _json(capsys, "report", str(linked_file), "--json", "--ceiling-splits", "0",
                "--n-resamples", "10")["rows"][0]  # fmt: skip
    assert _stats(shown["trigram (slor)"]) == _stats(own)
    plain = _json(capsys, "report", str(logprob_file), "--json", "--ceiling-splits", "0",
                  "--n-resamples", "10")["rows"][0]  # fmt: skip
    assert _stats(shown["trigram (logprob)"]) == _stats(plain)
    # the fitted row: 5 folds, seed 0, β and γ per fold, recorded beside the rows
    fitted = out["linking"]["fitted"]
    assert (fitted["k"], fitted["seed"], len(fitted["folds"])) == (5, 0, 5)
    assert sum(f["n_test"] for f in fitted["folds"]) == 4178
    assert sum(f["n_phenomena"] for f in fitted["folds"]) == 233
    for f in fitted["folds"]:
        assert f["n_train"] + f["n_test"] >= 4176 and f["alpha"] > 0
        assert f"{f['beta']:.2f}/{f['gamma']:.1f}" in shown["trigram (fitted)"]["note"]
    assert (
        "5-fold cross-validation over its phenomena (seed 0)" in shown["trigram (fitted)"]["note"]
    )
    assert "wordfreq" in shown["trigram (slor)"]["note"]


def test_report_linking_json_is_the_rows_and_the_fit_as_computed(linked_file, capsys):
    """``report --linking --json`` prints, byte for byte, the linking rows and the fitted
    function's cross-fit as their own functions give them, in the report's keys and order,
    with no analysis, Table 2.2 or subset."""
    from metric_adc.cli.common import dump

    argv = ["report", str(linked_file), "--json", "--ceiling-splits", "0",
            "--linking", "fitted", "slor"]  # fmt: skip
    assert cli.main(argv) == 0
    printed = capsys.readouterr().out
    sf, table = read_scores(linked_file), pairs.li_adger_pairs()
    rows, _ = linking_rows(sf, table, ["fitted", "slor"])
    _, fit = linking_scores(sf, "fitted", pairs=table)
    expected = {
        "benchmark": "li_adger",
        "rows": [r.to_json_dict() for r in rows],
        "analysis": None,
        "table_2_2": None,
        "linking": {"fitted": fit.as_dict()},
        "subset": None,
    }
    assert printed == dump(expected) + "\n"
    assert list(json.loads(printed)["linking"]["fitted"]) == [
        "form", "fitted", "cross_validation", "k", "seed", "folds"
    ]  # fmt: skip


def test_report_linking_text_prints_the_folds(linked_file, capsys):
    assert (
        cli.main(
            ["report", str(linked_file), "--ceiling-splits", "0", "--linking", "slor", "fitted"]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "trigram (slor)" in text and "trigram (fitted)" in text
    assert (
        "fitted: (logP - beta * logPu + gamma) / n, least squares, 5 folds of phenomena, seed 0"
        in text
    )
    assert len([ln for ln in text.splitlines() if ln.startswith("  fold ")]) == 5


def test_report_linking_needs_the_fields(logprob_file, capsys):
    assert (
        cli.main(["report", str(logprob_file), "--ceiling-splits", "0", "--linking", "slor"]) == 2
    )
    err = capsys.readouterr().err
    assert "--linking slor needs the per-sentence field 'logprob'" in err


def test_reproduce_linking_rows_beside_plain_files(linked_file, logprob_file, capsys):
    out = _json(capsys, "reproduce", "--json", "--ceiling-splits", "0", "--with",
                str(logprob_file), str(linked_file), "--linking", "slor", "fitted")  # fmt: skip
    names = [r["model"] for r in out["rows"]]
    # a file without the fields gives its own row; one with them a row per linking function
    assert names[-3:] == ["trigram (logprob)", "trigram (slor)", "trigram (fitted)"]
    assert "(seed 0)" in out["rows"][-1]["note"]


def test_fitted_linking_refuses_pairs_across_folds(linked_file):
    sf = read_scores(linked_file)
    _, fit = linking_scores(sf, "fitted")
    fold = dict(zip(sf.ids, fit.fold.tolist(), strict=True))
    good = sf.ids[0]
    bad = next(i for i in sf.ids if fold[i] != fold[good])
    table = pairs.PairTable.from_judgements([good], [bad], {good: 1.0, bad: -1.0})
    with pytest.raises(ValueError, match="has its members in folds"):
        linking_scores(sf, "fitted", pairs=table)


def test_fitted_linking_needs_li_adger_ids(tmp_path):
    path = write_scores(
        tmp_path / "other.jsonl",
        [
            {
                "id": f"x{i}",
                "score": 0.0,
                "logprob": -5.0 - i,
                "unigram_logprob": -9.0 - 2 * i,
                "n_words": 2 + i % 3,
            }
            for i in range(8)
        ],
        {"model": "m"},
    )
    with pytest.raises(ValueError, match=r"8 id\(s\) of m are not LI-Adger sentences, e.g. 'x0'"):
        linking_scores(read_scores(path), "fitted")
    t = pairs.PairTable.from_judgements(
        ["x0", "x2"], ["x1", "x3"], {f"x{i}": 0.1 * i for i in range(8)}
    )
    shown, fits = linking_rows(read_scores(path), t, ["slor", "slor"], deltas=[1.0])
    assert [r.model for r in shown] == ["m (slor)"] and fits == {}
