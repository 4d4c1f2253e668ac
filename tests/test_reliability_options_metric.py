"""Options never ignored, on the metric's side: an option that does not apply to the file's
benchmark is refused by name, a fit with nothing to fit is refused with the reason, and a
``--results`` folder without a scores file is an error, not a table of reference rows alone
(docs/metric.md, docs/linking.md, docs/errors.md)."""

from __future__ import annotations

import numpy as np
import pytest

from metric_adc import __main__ as cli
from metric_adc.family.items import items_of
from metric_adc.linking.fit import cross_fit, fit_morcela
from metric_adc.scores.file import write_scores
from space.data import snapshot


def _npi_file(path):
    units = items_of("npi").units
    records = [
        {"id": i, "sentence": s, "score": -10.0, "logprob": -10.0, "unigram_logprob": -20.0,
         "n_words": len(s.split()), "n_tokens": len(s.split()) + 1}
        for i, s in zip(units["id"], units["sentence"], strict=True)
    ]  # fmt: skip
    meta = {"model": "m", "kind": "causal", "variant": "slor", "dataset": "npi"}
    return write_scores(path, records, meta)


# ----------------------------------------------------------------------------- --linking
def test_report_linking_on_a_file_of_another_benchmark_is_refused_by_name(tmp_path, capsys):
    path = _npi_file(tmp_path / "npi.jsonl")
    assert cli.main(["report", str(path), "--linking", "fitted"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: --linking applies to LI-Adger scores files only ({path} is 'npi')"
    )


def test_snapshot_says_when_linking_does_not_apply_to_a_file(tmp_path, capsys):
    source, out = tmp_path / "from", tmp_path / "to"
    source.mkdir()
    _npi_file(source / "npi.jsonl")
    argv = ["--from", str(source), "--to", str(out), "--no-thesis", "--no-ceiling"]
    assert snapshot.main([*argv, "--linking", "fitted"]) == 0
    err = capsys.readouterr().err
    assert (
        "npi.jsonl: --linking applies to LI-Adger files only (this one is 'npi'); shipped "
        "without linking models"
    ) in err
    assert [p.name for p in (out / "npi").iterdir()] == ["m-slor-default.json"]


# ----------------------------------------------------------------------------- nothing to fit
def _sentences(n: int = 24, seed: int = 0):
    rng = np.random.default_rng(seed)
    logp, logpu = -rng.uniform(10, 40, n), -rng.uniform(20, 60, n)
    return logp, logpu, np.arange(n) % 5 + 2


def test_a_fit_of_constant_judgements_is_refused_with_the_reason():
    logp, logpu, n = _sentences()
    phenomena = [f"p{i % 6}" for i in range(len(n))]
    constant = np.full(len(n), 0.25)
    with pytest.raises(ValueError) as err:
        cross_fit(logp, logpu, n, constant, phenomena, k=3, seed=0)
    assert str(err.value) == (
        "nothing to fit: the 24 judged sentence(s) all have the judgement 0.25; the fit needs "
        "judgements that vary"
    )
    with pytest.raises(ValueError, match=r"^nothing to fit: the 24 judged"):
        fit_morcela(logp, logpu, n, constant)
    # judgements missing (NaN) around a constant are no more to fit on
    holes = constant.copy()
    holes[::2] = np.nan
    with pytest.raises(ValueError, match=r"^nothing to fit: the 12 judged sentence"):
        cross_fit(logp, logpu, n, holes, phenomena, k=3, seed=0)
    # one judgement apart: the fold that holds it leaves constant judgements to the others
    varied = constant.copy()
    varied[0] = 0.5
    with pytest.raises(
        ValueError, match=r"fold \d cannot be fitted on the other folds: nothing to fit"
    ):
        cross_fit(logp, logpu, n, varied, phenomena, k=3, seed=0)


def test_a_fit_with_fewer_phenomena_than_folds_is_refused_with_the_reason():
    logp, logpu, n = _sentences()
    judgement = (logp - 0.8 * logpu + 2.0) / n
    phenomena = [f"p{i % 3}" for i in range(len(n))]
    with pytest.raises(ValueError) as err:
        cross_fit(logp, logpu, n, judgement, phenomena, k=5, seed=0)
    assert str(err.value) == (
        "nothing to fit by 5-fold cross-validation over phenomena: the sentences have 3 "
        "phenomena, fewer than the 5 folds (give k between 2 and the number of phenomena, or "
        "more phenomena)"
    )
    out = cross_fit(logp, logpu, n, judgement, phenomena, k=3, seed=0)
    assert [round(f.fit.beta, 6) for f in out.folds] == [0.8, 0.8, 0.8]


# ----------------------------------------------------------------------------- --results
def test_summary_results_on_a_folder_without_scores_files_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("no scores here")
    (tmp_path / ".m.jsonl.tmp.jsonl").write_text("")  # a writer's temporary file
    assert cli.main(["summary", "--results", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: --results: {tmp_path} holds no scores file (*.jsonl, *.csv, in it or its "
        "subfolders); write some with python -m baselines score --out DIR"
    )
