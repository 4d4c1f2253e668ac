"""``lm_eval --include_path <task_dir> --tasks li_adger_adc`` end to end on a tiny local model.

A random two-layer GPT-2 with a word-level tokenizer over LI-Adger's own words is saved to a
temporary folder and run through the harness's command line, offline, on all 4,178 sentences.
Its numbers must equal ``python -m metric_adc report`` on the scores file made from the
log-likelihoods the harness logged, and those log-likelihoods must follow the documented
convention (BOS context, ``" " + sentence``, sum of token log-probabilities).
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
from metric_adc.harness import TASK, task_dir
from metric_adc.harness.samples import read_samples, samples_to_scores

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


@pytest.fixture(scope="module")
def harness_run(tmp_path_factory) -> dict:
    """Run the harness's command line once; return its results, samples file and stdout."""
    root = tmp_path_factory.mktemp("lm_eval")
    model = _save_tiny_gpt2(root / "tiny-gpt2")
    command = [
        sys.executable, "-m", "lm_eval", "--model", "hf",
        "--model_args", f"pretrained={model}", "--device", "cpu", "--batch_size", "64",
        "--include_path", str(task_dir()), "--tasks", TASK,
        "--log_samples", "--output_path", str(root / "out"),
    ]  # fmt: skip
    done = subprocess.run(command, env=_env(), capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    (results,) = (root / "out").rglob("results_*.json")
    (samples,) = (root / "out").rglob(f"samples_{TASK}_*.jsonl")
    return {
        "model": model,
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
    scores = samples_to_scores(harness_run["samples"], harness_run["root"] / "scores.jsonl")
    done = subprocess.run(
        [sys.executable, "-m", "metric_adc", "report", str(scores), "--json",
         "--ceiling-splits", "0", "--n-resamples", "10"],
        env=_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    row = json.loads(done.stdout)["rows"][0]
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


def test_the_logged_log_likelihoods_follow_the_documented_convention(harness_run):
    """BOS as the only context, a space before the sentence, the sum of token log-probs."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    records = read_samples(harness_run["samples"])
    assert [r["id"] for r in records] == li_adger.load("sentences")["id"]
    model = AutoModelForCausalLM.from_pretrained(harness_run["model"]).eval()
    tokenizer = AutoTokenizer.from_pretrained(harness_run["model"])
    for rec in records[::400]:
        ids = tokenizer(" " + rec["sentence"], add_special_tokens=False)["input_ids"]
        with torch.inference_mode():
            logits = model(torch.tensor([[tokenizer.bos_token_id, *ids]])).logits[0, :-1]
        logprob = torch.log_softmax(logits.float(), -1)[torch.arange(len(ids)), ids].sum()
        assert rec["score"] == pytest.approx(float(logprob), abs=1e-4), rec["sentence"]
