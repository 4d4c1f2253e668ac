"""``lm_eval --include_path <task_dir> --tasks li_adger_adc`` end to end on a tiny local model.

A random two-layer GPT-2 with a word-level tokenizer over LI-Adger's own words is saved to a
temporary folder and run through the harness's command line, offline, on all 4,178 sentences.
Its numbers must equal ``python -m metric_adc report`` on the scores file made from the
log-likelihoods the harness logged (through ``python -m metric_adc from-harness``), its
standard errors must agree with ``report``'s bootstrap over phenomena, and those
log-likelihoods must follow the documented convention (BOS context, ``" " + sentence``, sum of
token log-probabilities). ``--limit 10``, the usual smoke test, must exit 0 with a warning, and
the harness's task index must find the task, its tag and its group.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lm_eval")
pytest.importorskip("transformers")

import li_adger
from metric_adc.harness import GROUP, TAG, TASK, task_dir
from metric_adc.harness.samples import read_samples

pytestmark = pytest.mark.slow  # lm_eval end to end on a tiny model: about a minute

REPO = Path(__file__).resolve().parents[1]
BOS, EOS = "<s>", "</s>"


def _save_tiny_gpt2(folder: Path) -> Path:
    """A random GPT-2 and a lower-casing word-level tokenizer over every LI-Adger word.

    BOS and EOS are different tokens, so the test tells which one the harness conditions on.
    """
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    split = pre_tokenizers.Whitespace()
    words = sorted(
        {
            w
            for s in li_adger.load("sentences")["sentence"]
            for w, _ in split.pre_tokenize_str(s.lower())
        }
    )
    vocab = {w: i for i, w in enumerate(["<unk>", BOS, EOS, *words])}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = split
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="<unk>", bos_token=BOS, eos_token=EOS
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        config = GPT2Config(
            vocab_size=len(vocab), n_positions=128, n_embd=32, n_layer=2, n_head=4,
            bos_token_id=vocab[BOS], eos_token_id=vocab[EOS],
        )  # fmt: skip
        GPT2LMHeadModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        # a tiny model: one thread is fastest, and keeps the run's time steady under load
        OMP_NUM_THREADS="1",
    )
    return env


def _run_harness(root: Path, model: Path, *extra: str) -> subprocess.CompletedProcess:
    command = [
        sys.executable, "-m", "lm_eval", "--model", "hf",
        "--model_args", f"pretrained={model}", "--device", "cpu", "--batch_size", "64",
        "--include_path", str(task_dir()), "--tasks", TASK,
        "--log_samples", "--output_path", str(root / "out"), *extra,
    ]  # fmt: skip
    return subprocess.run(command, env=_env(), capture_output=True, text=True, cwd=root)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    return _save_tiny_gpt2(tmp_path_factory.mktemp("model") / "tiny-gpt2")


@pytest.fixture(scope="module")
def harness_run(tmp_path_factory, tiny_model) -> dict:
    """Run the harness's command line once; return its results, samples file and stdout."""
    root = tmp_path_factory.mktemp("lm_eval")
    done = _run_harness(root, tiny_model)
    assert done.returncode == 0, done.stderr[-3000:]
    (results,) = (root / "out").rglob("results_*.json")
    (samples,) = (root / "out").rglob(f"samples_{TASK}_*.jsonl")
    return {
        "model": tiny_model,
        "results": json.loads(results.read_text(encoding="utf-8"))["results"][TASK],
        "samples": samples,
        "stdout": done.stdout,
        "root": root,
    }


def test_the_harness_reports_every_metric(harness_run):
    table = harness_run["stdout"]
    for metric in ("blimp", "adc_0.5", "adc_1", "adc_5", "pearson_pairs"):
        assert re.search(rf"\|{re.escape(metric)} *\|", table), metric
        assert math.isfinite(harness_run["results"][f"{metric},none"])
    assert harness_run["results"]["sample_len"] == 4178


def test_the_harness_numbers_equal_metric_adc_report(harness_run):
    scores = harness_run["root"] / "scores.jsonl"
    made = subprocess.run(
        [sys.executable, "-m", "metric_adc", "from-harness", str(harness_run["root"] / "out"),
         "--out", str(scores)],
        env=_env(), capture_output=True, text=True,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [sys.executable, "-m", "metric_adc", "report", str(scores), "--json",
         "--ceiling-splits", "0", "--n-resamples", "2000"],
        env=_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    report = json.loads(done.stdout)
    row = report["rows"][0]
    # the model's name is the run's pretrained= folder, not the harness's cache-folder name
    assert row["model"].startswith("tiny-gpt2 (")
    assert row["n_sentences"] == 4178
    assert row["n_pairs"] == 2365
    expected = {
        "blimp": row["blimp"],
        "adc_0.5": row["adc"]["0.5"],
        "adc_1": row["adc"]["1.0"],
        "adc_5": row["adc"]["5.0"],
        "pearson_pairs": row["pearson_pairs"],
    }
    got = {k: harness_run["results"][f"{k},none"] for k in expected}
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)
    # the harness's ± is report's bootstrap over phenomena (other draws of the same design)
    ci = report["analysis"]["ci"]["phenomena"]
    keys = {"blimp": "blimp", "adc_0.5": "adc_0.5", "adc_1": "adc_1.0", "adc_5": "adc_5.0",
            "pearson_pairs": "pearson_pairs"}  # fmt: skip
    for metric, key in keys.items():
        se = harness_run["results"][f"{metric}_stderr,none"]
        assert se == pytest.approx(ci[key]["se"], rel=0.15), metric


def test_the_harness_prints_a_standard_error_for_every_metric(harness_run):
    for metric in ("blimp", "adc_0.5", "adc_1", "adc_5", "pearson_pairs"):
        pattern = rf"\|{re.escape(metric)} *\|"
        line = next(ln for ln in harness_run["stdout"].splitlines() if re.search(pattern, ln))
        assert re.search(r"±\s*\|\s*0\.\d{4}\|", line), line
        assert "N/A" not in line, line


def test_limit_10_exits_0_with_a_warning_and_writes_the_samples(tmp_path, tiny_model):
    done = _run_harness(tmp_path, tiny_model, "--limit", "10")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert re.search(r"partial run .*10 of the 4178 sentences were scored", done.stderr)
    (results,) = (tmp_path / "out").rglob("results_*.json")
    (samples,) = (tmp_path / "out").rglob(f"samples_{TASK}_*.jsonl")
    records = read_samples(samples)
    assert len(records) == 10
    got = json.loads(results.read_text(encoding="utf-8"))["results"][TASK]
    n_pairs = int(re.search(r"the metrics are over those (\d+) evaluable pairs", done.stderr)[1])
    assert n_pairs >= 2
    assert 0.0 <= got["blimp,none"] <= 1.0
    assert round(got["blimp,none"] * n_pairs, 9).is_integer()  # a share of those pairs


def test_the_task_index_finds_the_task_its_tag_and_its_group():
    from lm_eval.tasks import TaskManager

    tm = TaskManager(include_path=str(task_dir()))
    assert TASK in tm.all_tasks
    assert TASK in tm.task_index[TAG].tags  # the tag's members
    assert GROUP in tm.all_groups
    assert "blimp" in tm.all_groups  # the harness's own BLiMP group, which GROUP names
    assert tm.task_index[GROUP].cfg["task"] == [TASK, "blimp"]
    loaded = tm.load([TAG])  # the tag runs the task (built offline: LI-Adger ships with us)
    assert list(loaded["tasks"]) == [TASK]


def test_the_logged_log_likelihoods_follow_the_documented_convention(harness_run):
    """BOS as the only context, a space before the sentence, the sum of token log-probs."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    records = read_samples(harness_run["samples"])
    assert sorted(r["id"] for r in records) == sorted(li_adger.load("sentences")["id"])
    model = AutoModelForCausalLM.from_pretrained(harness_run["model"]).eval()
    tokenizer = AutoTokenizer.from_pretrained(harness_run["model"])
    for rec in records[::400]:
        ids = tokenizer(" " + rec["sentence"], add_special_tokens=False)["input_ids"]
        with torch.inference_mode():
            logits = model(torch.tensor([[tokenizer.bos_token_id, *ids]])).logits[0, :-1]
        logprob = torch.log_softmax(logits.float(), -1)[torch.arange(len(ids)), ids].sum()
        assert rec["score"] == pytest.approx(float(logprob), abs=1e-4), rec["sentence"]
