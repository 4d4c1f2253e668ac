"""The ``li_adger_adc`` task's aggregations and samples reader, without the harness itself.

The golden values are the README's results table for the thesis's published BERT scores
(z-scored here, as the README's rows for them are); the end-to-end run through ``lm_eval`` is
in ``test_harness_lm_eval.py``.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import li_adger
from metric_adc import harness
from metric_adc.harness import samples, task, utils
from metric_adc.thesis.outputs import load_thesis_scores

REPO = Path(__file__).resolve().parents[1]
AGGREGATIONS = {
    "blimp": utils.blimp,
    "adc_0.5": utils.adc_0_5,
    "adc_1": utils.adc_1,
    "adc_5": utils.adc_5,
    "pearson_pairs": utils.pearson_pairs,
}

# The README's results table (3 decimals): BLiMP, ADC δ=0.5, 1, 5, Pearson (pairs).
README_ROWS = {
    "bert-base-uncased-mlm": (0.852, 0.364, 0.630, 0.848, 0.385),
    "bert-large-cased-cola": (0.936, 0.306, 0.560, 0.924, 0.335),
}


@pytest.fixture(scope="module")
def thesis_scores() -> dict[str, dict[str, float]]:
    return load_thesis_scores()


def _results(items) -> dict[str, float]:
    items = list(items)
    return {name: fn(items) for name, fn in AGGREGATIONS.items()}


def test_metric_names_match_the_yaml():
    text = (harness.task_dir() / "li_adger_adc.yaml").read_text(encoding="utf-8")
    listed = [ln.split(":", 1)[1].strip() for ln in text.splitlines() if "- metric:" in ln]
    stderrs = tuple(f"{m}_stderr" for m in AGGREGATIONS)
    # the standard errors come after the metrics: the harness writes N/A under their key first
    assert tuple(listed) == (*task.METRICS, *utils.STDERR_METRICS) == (*AGGREGATIONS, *stderrs)
    for name, fn in AGGREGATIONS.items():
        assert f"aggregation: !function utils.{fn.__name__}" in text, name
        assert f"aggregation: !function utils.{fn.__name__}_stderr" in text, name
    item = utils.process_results({"id": "s", "sentence": "A."}, [(-1.0, False)])
    assert list(item) == listed


@pytest.mark.parametrize("model", sorted(README_ROWS))
def test_aggregations_give_the_readme_numbers(thesis_scores, model):
    got = _results(thesis_scores[model].items())
    assert tuple(round(got[k], 3) for k in AGGREGATIONS) == README_ROWS[model]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_chunks=st.integers(1, 7))
def test_results_do_not_depend_on_document_order_or_batches(thesis_scores, seed, n_chunks):
    items = list(thesis_scores["bert-base-uncased-mlm"].items())
    expected = _results(items)
    rng = random.Random(seed)
    rng.shuffle(items)
    # the harness gathers items from batches (and ranks) as lists; chunk and reverse them
    chunks = [items[k::n_chunks] for k in range(n_chunks)][::-1]
    gathered = [[sid, ll] for chunk in chunks for sid, ll in chunk]
    assert _results(gathered) == expected


def test_a_positive_affine_change_of_the_log_likelihoods_changes_nothing(thesis_scores):
    items = list(thesis_scores["bert-base-uncased-mlm"].items())
    expected = _results(items)
    got = _results((sid, 3.0 * ll - 7.0) for sid, ll in items)
    assert got == pytest.approx(expected, rel=1e-9)


def test_z_scores_are_over_all_sentences_not_only_the_pairs(thesis_scores):
    """Sentences outside the evaluable pairs still move the mean and sd the pairs are z-scored by."""
    items = dict(thesis_scores["bert-base-uncased-mlm"])
    pairs = li_adger.load("pairs")
    in_pairs = {
        i
        for g, b, discarded in zip(
            pairs["good_id"], pairs["bad_id"], pairs["discarded"], strict=True
        )
        if not discarded
        for i in (g, b)
    }
    outside = [i for i in items if i not in in_pairs]
    assert outside, "LI-Adger has sentences in no evaluable pair"
    before = utils.adc_0_5(items.items())
    items.update({i: items[i] - 1000.0 for i in outside})
    assert utils.adc_0_5(items.items()) != before


def _by_hand(scores: dict[str, float], delta: float) -> tuple[float, float, int]:
    """BLiMP and ADC(δ) on the pairs whose both members are in ``scores``, recomputed with
    numpy from the dataset's pair table (z over the scored sentences, population sd)."""
    import numpy as np

    pairs = li_adger.load("pairs")
    table = li_adger.load("sentences")
    judged = dict(zip(table["id"], table["judgement"], strict=True))
    ids = list(scores)
    v = np.array([scores[i] for i in ids])
    z = dict(zip(ids, (v - v.mean()) / v.std(), strict=True))
    m, h = [], []
    for g, b, discarded in zip(pairs["good_id"], pairs["bad_id"], pairs["discarded"], strict=True):
        both = not discarded and g in z and b in z
        if both and judged[g] is not None and judged[b] is not None:
            m.append(z[g] - z[b])
            h.append(judged[g] - judged[b])
    m, h = np.array(m), np.array(h)
    adc = np.mean((np.sign(m) == np.sign(h)) & (np.abs(h - m) < delta))
    return float(np.mean(m > 0)), float(adc), len(m)


def test_a_partial_run_reports_the_pairs_both_scored_and_warns(thesis_scores):
    """--limit N: the first N documents are whole pairs; the metrics are theirs, with a warning."""
    bert = thesis_scores["bert-base-uncased-mlm"]
    docs = utils.sentences()["test"]["id"][:300]
    items = [(i, bert[i]) for i in docs]
    blimp, adc_1, n = _by_hand(dict(items), 1.0)
    assert n > 100
    with pytest.warns(task.PartialRunWarning, match=r"300 of the 4178 sentences were scored"):
        got = task.evaluate(items)
    assert not got.complete and got.n_sentences == 300
    assert got.summary["n_pairs"] == n
    assert utils.blimp(items) == pytest.approx(blimp, abs=1e-12)
    assert utils.adc_1(items) == pytest.approx(adc_1, abs=1e-12)
    assert isinstance(utils.blimp_stderr(items), float)


def test_a_run_too_small_for_two_pairs_has_no_numbers_and_says_so(thesis_scores):
    bert = thesis_scores["bert-base-uncased-mlm"]
    items = [(i, bert[i]) for i in utils.sentences()["test"]["id"][:3]]
    with pytest.warns(task.PartialRunWarning, match=r"fewer than 2: the metrics are undefined"):
        assert utils.blimp(items) is None
    assert utils.pearson_pairs(items) is None
    assert utils.adc_0_5_stderr(items) == "N/A"  # the harness's own word, which it prints


def test_the_first_documents_are_whole_pairs():
    """So that --limit 10, the usual smoke test, scores whole pairs."""
    docs = utils.sentences()["test"]["id"]
    pairs = li_adger.load("pairs")
    first = set(docs[:10])
    whole = sum(
        g in first and b in first
        for g, b, d in zip(pairs["good_id"], pairs["bad_id"], pairs["discarded"], strict=True)
        if not d
    )
    assert whole >= 4


def test_the_standard_errors_agree_with_report_resampling_phenomena(thesis_scores):
    """The harness's ± is the se of report's bootstrap over phenomena (other draws, same design)."""
    import numpy as np

    from metric_adc.pairs import model_deltas
    from metric_adc.report.analysis import analyze_on_pairs

    bert = thesis_scores["bert-base-uncased-mlm"]
    items = list(bert.items())
    pairs = task.pair_table()
    a = analyze_on_pairs(
        model_deltas(bert, pairs), pairs, rng=np.random.default_rng(1), n_resamples=2000
    )
    ci = a.ci.phenomena
    expected = {
        "blimp": ci["blimp"]["se"],
        "adc_0.5": ci["adc_0.5"]["se"],
        "adc_1": ci["adc_1.0"]["se"],
        "adc_5": ci["adc_5.0"]["se"],
        "pearson_pairs": ci["pearson_pairs"]["se"],
    }
    for name in task.METRICS:
        got = getattr(utils, f"{AGGREGATIONS[name].__name__}_stderr")(items)
        assert got == pytest.approx(expected[name], rel=0.1), name
    # resampling phenomena, not sentences or pairs: wider than the pairs' bootstrap
    assert utils.adc_1_stderr(items) > a.ci.pairs["adc_1.0"]["se"]


def test_a_sentence_scored_twice_or_unknown_is_refused(thesis_scores):
    items = list(thesis_scores["bert-base-uncased-mlm"].items())
    with pytest.raises(ValueError, match=rf"sentence {items[3][0]!r} was scored twice"):
        utils.blimp([*items, items[3]])
    with pytest.raises(ValueError, match=r"1 sentence id\(s\) are not LI-Adger's, e.g. 'nope'"):
        utils.blimp([*items, ("nope", -3.0)])


def test_documents_are_the_sentences_pair_by_pair():
    docs = utils.sentences(version=1.0, pretrained="some/model")["test"]
    table = li_adger.load("sentences")
    assert sorted(docs["id"]) == sorted(table["id"]) and docs.num_rows == 4178
    assert dict(zip(docs["id"], docs["sentence"], strict=True)) == dict(
        zip(table["id"], table["sentence"], strict=True)
    )


def test_process_results_gives_every_metric_the_id_and_log_likelihood():
    out = utils.process_results({"id": "x.1", "sentence": "A."}, [("-3.25", "False")])
    assert out == dict.fromkeys((*AGGREGATIONS, *utils.STDERR_METRICS), ("x.1", -3.25))


def test_samples_file_becomes_the_scores_file_report_reads(tmp_path):
    folder = tmp_path / "org__model"
    folder.mkdir()
    path = folder / "samples_li_adger_adc_2026-01-01.jsonl"
    docs = li_adger.load("sentences").select(range(3))
    lines = [
        {"doc_id": k, "doc": d, "filtered_resps": [[repr(-1.5 * (k + 1)), "False"]]}
        for k, d in enumerate(docs)
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    from metric_adc.scores.file import read_scores

    sf = read_scores(samples.samples_to_scores(path, tmp_path / "s.jsonl", model="org/model"))
    assert sf.ids == docs["id"]
    assert sf.scores.tolist() == [-1.5, -3.0, -4.5]
    assert sf.sentences == docs["sentence"]
    assert sf.model == "org/model"
    with pytest.raises(ValueError, match=r"no results_<date>.json beside it .*--model NAME"):
        samples.samples_to_scores(path, tmp_path / "t.jsonl")


def test_a_damaged_samples_file_names_the_line(tmp_path):
    path = tmp_path / "samples.jsonl"
    path.write_text('{"doc": {"id": "a", "sentence": "A."}, "filtered_resps": [["x", "False"]]}\n')
    with pytest.raises(
        ValueError,
        match=r"samples.jsonl line 1 \(doc.id 'a'\): filtered_resps\[0\]\[0\], the "
        r"log-likelihood, must be a number \(got 'x'\)",
    ):
        samples.read_samples(path)
    path.write_text("{oops\n")
    with pytest.raises(ValueError, match=r"samples.jsonl line 1: not valid JSON"):
        samples.read_samples(path)


@pytest.mark.slow
def test_the_wheel_ships_the_task_folder(tmp_path):
    """The built wheel holds the YAML, the functions it names and the task's README."""
    src = tmp_path / "src"
    shutil.copytree(
        REPO,
        src,
        ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".*cache*",
                                      "results", "artifacts", ".venv", "venv"),
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(tmp_path / "dist")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("li_adger_adc.yaml", "li_adger_adc_blimp.yaml", "utils.py", "task.py",
                 "README.md", "__init__.py"):  # fmt: skip
        assert f"metric_adc/harness/{name}" in names


def test_the_documented_command_prints_the_task_folder():
    """README and docs/harness.md give this command for ``--include_path``."""
    command = '--include_path "$(python -m metric_adc harness-path)"'
    for doc in ("README.md", "docs/harness.md", "metric_adc/harness/README.md"):
        assert command in (REPO / doc).read_text(encoding="utf-8"), doc
    done = subprocess.run(
        [sys.executable, "-m", "metric_adc", "harness-path"],
        cwd=REPO, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert (Path(done.stdout.strip()) / "li_adger_adc.yaml").is_file()


def _harness_run(root: Path, pretrained: str, n: int = 3) -> Path:
    """A run folder as ``lm_eval --output_path root --log_samples`` leaves it."""
    folder = root / pretrained.strip("/").replace("/", "__")
    folder.mkdir(parents=True)
    stamp = "2026-01-01T00-00-00.000001"
    docs = utils.sentences()["test"].select(range(n))
    lines = [
        {"doc_id": k, "doc": d, "filtered_resps": [[repr(-2.0 * (k + 1)), "False"]]}
        for k, d in enumerate(docs)
    ]
    path = folder / f"samples_li_adger_adc_{stamp}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    results = {
        "results": {},
        "config": {"model": "hf", "model_args": f"pretrained={pretrained}"},
        "model_name": pretrained,
        "model_name_sanitized": folder.name,
    }
    (folder / f"results_{stamp}.json").write_text(json.dumps(results), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("pretrained", "label"),
    [("/root/.cache/li_adger/models/smollm2", "smollm2"), ("org/model", "org/model")],
)
def test_from_harness_names_the_model_from_the_run(tmp_path, capsys, pretrained, label):
    from metric_adc.__main__ import main
    from metric_adc.scores.file import read_scores

    path = _harness_run(tmp_path / "out", pretrained)
    for run in (tmp_path / "out", path.parent, path):  # --output_path, model folder, file
        out = tmp_path / "s.jsonl"
        assert main(["from-harness", str(run), "--out", str(out)]) == 0
        sf = read_scores(out)
        assert sf.model == label
        assert sf.scores.tolist() == [-2.0, -4.0, -6.0]
        assert sf.metadata["convention"] == "lm-eval-harness"
    assert main(["from-harness", str(path), "--out", str(out), "--model", "mine"]) == 0
    assert read_scores(out).model == "mine"
    assert f"wrote 3 scores of mine to {out}" in capsys.readouterr().out


def test_from_harness_errors_name_the_input(tmp_path, capsys):
    from metric_adc.__main__ import main

    out = tmp_path / "s.jsonl"
    assert main(["from-harness", str(tmp_path / "nope"), "--out", str(out)]) == 2
    assert "nope: no such file or folder" in capsys.readouterr().err
    _harness_run(tmp_path / "out", "a/b")
    _harness_run(tmp_path / "out", "c/d")
    assert main(["from-harness", str(tmp_path / "out"), "--out", str(out)]) == 2
    assert "holds 2 samples_li_adger_adc_<date>.jsonl files" in capsys.readouterr().err
    bad = tmp_path / "out" / "a__b"
    (sample,) = bad.glob("samples_*.jsonl")
    sample.write_text(sample.read_text().replace('"-2.0"', "true"), encoding="utf-8")
    assert main(["from-harness", str(sample), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{sample} line 1" in err and "filtered_resps[0][0]" in err and str(out) not in err
    assert not out.exists()


def test_the_task_readme_starts_with_installing_the_project():
    """Without the project in the harness's environment the task cannot import its functions."""
    text = (harness.task_dir() / "README.md").read_text(encoding="utf-8")
    first = text.split("\n\n")[1]
    assert first.startswith("**First, install the project into the harness's environment.**")
    assert "ModuleNotFoundError: No module named 'metric_adc'" in first
    for name in (harness.TAG, harness.GROUP):
        assert f"`{name}`" in text
    group = (harness.task_dir() / f"{harness.GROUP}.yaml").read_text(encoding="utf-8")
    assert f"group: {harness.GROUP}\n" in group and f"  - {harness.TASK}\n" in group
