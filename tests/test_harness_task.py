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
    assert tuple(listed) == task.METRICS == tuple(AGGREGATIONS)
    for name, fn in AGGREGATIONS.items():
        assert f"aggregation: !function utils.{fn.__name__}" in text, name


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


def test_a_partial_run_is_refused(thesis_scores):
    items = list(thesis_scores["bert-base-uncased-mlm"].items())[:100]
    with pytest.raises(
        ValueError, match=r"all 4178 LI-Adger sentences, but 4078 have no .*--limit"
    ):
        utils.blimp(items)


def test_a_sentence_scored_twice_or_unknown_is_refused(thesis_scores):
    items = list(thesis_scores["bert-base-uncased-mlm"].items())
    with pytest.raises(ValueError, match=rf"sentence {items[3][0]!r} was scored twice"):
        utils.blimp([*items, items[3]])
    with pytest.raises(ValueError, match=r"1 sentence id\(s\) are not LI-Adger's, e.g. 'nope'"):
        utils.blimp([*items, ("nope", -3.0)])


def test_documents_are_the_sentences_in_dataset_order():
    docs = utils.sentences(version=1.0, pretrained="some/model")["test"]
    assert docs["id"] == li_adger.load("sentences")["id"]
    assert docs.num_rows == 4178


def test_process_results_gives_every_metric_the_id_and_log_likelihood():
    out = utils.process_results({"id": "x.1", "sentence": "A."}, [("-3.25", "False")])
    assert out == dict.fromkeys(AGGREGATIONS, ("x.1", -3.25))


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

    sf = read_scores(samples.samples_to_scores(path, tmp_path / "s.jsonl"))
    assert sf.ids == docs["id"]
    assert sf.scores.tolist() == [-1.5, -3.0, -4.5]
    assert sf.sentences == docs["sentence"]
    assert sf.model == "org__model"


def test_a_damaged_samples_file_names_the_line(tmp_path):
    path = tmp_path / "samples.jsonl"
    path.write_text('{"doc": {"id": "a", "sentence": "A."}, "filtered_resps": [["x", "False"]]}\n')
    with pytest.raises(
        ValueError, match=r"samples.jsonl line 1: the log-likelihood must be a number \(got 'x'\)"
    ):
        samples.read_samples(path)
    path.write_text("{oops\n")
    with pytest.raises(ValueError, match=r"samples.jsonl line 1: not valid JSON"):
        samples.read_samples(path)


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
    for name in ("li_adger_adc.yaml", "utils.py", "task.py", "README.md", "__init__.py"):
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
