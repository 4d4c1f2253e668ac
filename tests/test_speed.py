"""The benchmark: its arithmetic and report on fixed measurements, and (``-m speed``) end to end
on tiny random models, where our scores and minicons's must agree.

No timing is asserted (speed is a benchmark figure, not a unit-test property); the scores of
our scorers and minicons must agree within the bound docs/speed.md states (1e-4).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from tools.speed.flops import ModelSpec, causal_flops, pll_flops, spec_from_config
from tools.speed.inputs import benchmark_sentences, build_random_mlm, long_sentence
from tools.speed.report import format_report
from tools.speed.run import run_benchmarks

REPO = Path(__file__).resolve().parents[1]
MAX_ABS_DIFF = 1e-4  # docs/speed.md: the scores of both tools agree within this
RESULT_KEYS = {
    "machine",
    "rounds",
    "matmul_flops",
    "matmul_size",
    "n_sentences",
    "precision",
    "pll",
    "causal",
    "long",
}
SIDE_KEYS = {
    "seconds",
    "sentences_per_s",
    "peak_bytes",
    "flops_per_s",
    "fraction_of_matmul",
    "load_seconds",
}


@pytest.fixture(scope="module")
def tiny_mlm(tmp_path_factory) -> Path:
    return build_random_mlm(tmp_path_factory.mktemp("bench") / "bert-tiny", size="tiny")


def _linear_weights(module) -> int:
    import torch

    return sum(m.weight.numel() for m in module.modules() if isinstance(m, torch.nn.Linear))


def test_flop_spec_matches_the_models_own_weight_matrices():
    """The FLOP formula's per-layer and head parameter counts are those of real modules."""
    from baselines_tiny import tiny_causal_lm
    from transformers import BertConfig, BertForMaskedLM

    bert = BertForMaskedLM(
        BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=48)
    )
    spec = spec_from_config(bert.config)
    layer = bert.bert.encoder.layer[0]
    assert spec.layer_params == _linear_weights(layer)
    assert spec.kv_params == _linear_weights(layer.attention.self.key) + _linear_weights(
        layer.attention.self.value
    )
    assert spec.head_params == _linear_weights(bert.cls)
    assert spec.n_layers == 2

    llama = tiny_causal_lm("llama")  # grouped-query attention: 4 heads, 2 key-value heads
    spec = spec_from_config(llama.config)
    attention = llama.model.layers[0].self_attn
    assert spec.layer_params == _linear_weights(llama.model.layers[0])
    assert spec.kv_params == _linear_weights(attention.k_proj) + _linear_weights(attention.v_proj)
    assert spec.head_params == _linear_weights(llama.lm_head)


def test_flop_counts_by_hand():
    spec = ModelSpec(n_layers=3, hidden=8, layer_params=500, head_params=70, kv_params=120)
    # one copy of 12 tokens: 2·P·N·L + 4·N·d·L² + 2·H·1 = 36,000 + 13,824 + 140 = 49,964; the
    # last layer skips its 11 unread positions, 11·(2·(P − K) + 4·d·L) = 11·1,144 = 12,584;
    # a PLL of 12 tokens is 10 such copies
    assert pll_flops(spec, [12]) == 10 * (49_964 - 12_584)
    # one row of 12 tokens read at 11 positions: 36,000 + 13,824 + 2·70·11
    assert causal_flops(spec, [12]) == 36_000 + 13_824 + 1_540
    assert pll_flops(spec, [5, 12]) == pll_flops(spec, [5]) + 373_800
    assert causal_flops(spec, [12, 12]) == 2 * 51_364


def test_sentence_subset_is_fixed_by_the_seed_and_distinct():
    a = benchmark_sentences(30, seed=1)
    assert a == benchmark_sentences(30, seed=1)
    assert a != benchmark_sentences(30, seed=2)
    assert len(set(a)) == 30


def test_long_sentence_reaches_the_requested_length(tiny_mlm):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_mlm)
    pool = benchmark_sentences(200, seed=0)
    text = long_sentence(pool, tokenizer, min_tokens=300)
    n = len(tokenizer(text)["input_ids"])
    assert 300 <= n < 300 + 40  # LI-Adger sentences are shorter than 40 word pieces


def _pll_flops_by_hand(config, lengths) -> int:
    """The module docs' count for a BERT, written out: per sentence of L tokens, L − 2 copies
    of L tokens, the head read once per copy, the last layer's keys and values only at the
    L − 1 unread positions of each copy."""
    d, f = config.hidden_size, config.intermediate_size
    n, v = config.num_hidden_layers, config.vocab_size
    layer, kv, head = 4 * d * d + 2 * d * f, 2 * d * d, d * d + d * v
    total = 0
    for length in lengths:
        copies = length - 2
        full = 2 * layer * n * copies * length + 4 * n * d * copies * length**2
        unread = copies * (length - 1)
        total += full + 2 * head * copies - (2 * (layer - kv) + 4 * d * length) * unread
    return total


def _causal_flops_by_hand(config, lengths) -> int:
    """The module docs' count for a Llama with grouped-query attention: one row of L tokens,
    the head read at L − 1 positions."""
    d, f = config.hidden_size, config.intermediate_size
    n, v = config.num_hidden_layers, config.vocab_size
    head_dim = d // config.num_attention_heads
    layer = 2 * d * d + 2 * d * config.num_key_value_heads * head_dim + 3 * d * f
    return sum(
        2 * layer * n * length + 4 * n * d * length**2 + 2 * d * v * (length - 1)
        for length in lengths
    )


class Scripted:
    """Fixed measurements in place of the benchmark's child processes: per tool, one answer
    per call, in order; every request is kept."""

    ANSWERS: ClassVar[dict[str, list]] = {
        # two rounds each: seconds, peak bytes, scores of the 4 sentences
        "ours-mlm": [(2.0, 3 * 2**20, [-1.0] * 4), (1.0, 2**20, [-1.00002] * 4)],
        "minicons-mlm": [(3.0, 4 * 2**20, [-1.0] * 4), (4.0, 2**20, [-1.0] * 4)],
        "ours-causal": [(0.5, 2**20, [-2.0] * 4), (0.6, 2**20, [-2.0] * 4)],
        "minicons-causal": [(1.0, 2**20, [-2.0] * 4), (1.5, 2**21, [-2.0] * 4)],
    }

    def __init__(self):
        self.requests, self.calls = [], {tool: 0 for tool in self.ANSWERS}

    def __call__(self, request):
        self.requests.append(request)
        tool = request["tool"]
        if len(request["sentences"]) == 1:  # the long sentence: minicons fails under its cap
            failed = tool == "minicons-mlm"
            return {
                "seconds": None if failed else 9.0,
                "peak_bytes": 50 * 2**20 if failed else 2**20,
                "scores": None if failed else [-300.0],
                "error": "RuntimeError: can't allocate memory" if failed else None,
            }
        seconds, peak, scores = self.ANSWERS[tool][self.calls[tool]]
        self.calls[tool] += 1
        return {"seconds": seconds, "peak_bytes": peak, "scores": scores, "load_seconds": 0.1}


def test_figures_and_report_on_fixed_measurements(tiny_mlm, tmp_path):
    """The whole run on scripted measurements: requests, best of rounds, ratios, limit, report."""
    from baselines_tiny import save_tiny_causal_lm
    from transformers import AutoConfig, AutoTokenizer

    causal = save_tiny_causal_lm(tmp_path / "causal")
    sentences = benchmark_sentences(4, seed=3)
    mlm_tokenizer = AutoTokenizer.from_pretrained(tiny_mlm)
    long_text = long_sentence(benchmark_sentences(50, seed=0), mlm_tokenizer, min_tokens=140)
    lengths = [len(ids) for ids in mlm_tokenizer(sentences)["input_ids"]]
    flops = _pll_flops_by_hand(AutoConfig.from_pretrained(tiny_mlm), lengths)
    causal_tokenizer = AutoTokenizer.from_pretrained(causal)
    causal_lengths = [
        len(ids) + 1 for ids in causal_tokenizer(sentences, add_special_tokens=False)["input_ids"]
    ]
    c_flops = _causal_flops_by_hand(AutoConfig.from_pretrained(causal), causal_lengths)
    best_rate = 4.0 * flops  # every useful PLL FLOP at this rate takes 0.25 s
    rates = iter([best_rate / 2, best_rate, best_rate / 4, best_rate / 3])  # PLL ×2, causal ×2
    scripted = Scripted()
    result = run_benchmarks(
        sentences,
        mlm_model=tiny_mlm,
        causal_model=causal,
        causal_context_token="<s>",
        long_text=long_text,
        threads=1,
        token_budget=128,  # below one copy of the long sentence: widened to one copy per pass
        causal_batch_size=2,
        warmup=1,
        rounds=2,
        long_cap_bytes=2**30,
        progress=False,
        measure=scripted,
        matmul_rate=lambda: next(rates),
    )
    json.dumps(result)  # plain JSON-serialisable figures
    assert set(result) == RESULT_KEYS
    assert (result["n_sentences"], result["rounds"], result["precision"]) == (4, 2, "fp32")
    assert result["matmul_flops"] == best_rate  # the best of the four rounds, for every figure

    # what each tool was asked: alternating, on the same sentences, threads and device
    tools = [r["tool"] for r in scripted.requests]
    assert tools == [
        *["ours-mlm", "minicons-mlm"] * 2,
        *["ours-causal", "minicons-causal"] * 2,
        *["ours-mlm", "minicons-mlm"],
    ]
    assert all(r["threads"] == 1 and r["device"] == "cpu" for r in scripted.requests)
    assert all(r["warmup"] == sentences[:1] for r in scripted.requests)
    first, causal_request, long_ours, long_theirs = (scripted.requests[i] for i in (0, 4, 8, 9))
    assert (first["token_budget"], first["precision"], first["sentences"]) == (
        128,
        "fp32",
        sentences,
    )
    assert (causal_request["bos_token"], causal_request["batch_size"]) == ("<s>", 2)
    n_long = len(mlm_tokenizer(long_text)["input_ids"])
    assert long_ours["token_budget"] == n_long > 128 and long_theirs["cap_bytes"] == 2**30

    pll = result["pll"]
    assert set(pll["ours"]) == set(pll["minicons"]) == SIDE_KEYS
    # each tool's fastest round, with its highest peak memory
    assert (pll["ours"]["seconds"], pll["ours"]["peak_bytes"]) == (1.0, 3 * 2**20)
    assert (pll["minicons"]["seconds"], pll["minicons"]["peak_bytes"]) == (3.0, 4 * 2**20)
    assert pll["speedup"] == 3.0 and pll["max_abs_diff"] == pytest.approx(2e-5)
    assert pll["flops"] == flops and pll["masked_tokens"] == sum(lengths) - 8
    assert pll["limit_seconds"] == pytest.approx(0.25)
    assert pll["limit_speedup"] == pytest.approx(12.0)  # minicons's 3 s over 0.25 s
    assert pll["ours"]["fraction_of_matmul"] == pytest.approx(0.25)
    assert pll["minicons"]["sentences_per_s"] == pytest.approx(4 / 3)
    assert (pll["token_budget"], pll["minicons_batch_size"]) == (128, 1)

    c = result["causal"]
    assert (c["ours"]["seconds"], c["minicons"]["seconds"], c["speedup"]) == (0.5, 1.0, 2.0)
    assert c["minicons"]["peak_bytes"] == 2**21 and c["max_abs_diff"] == 0.0
    assert c["limit_seconds"] == pytest.approx(c_flops / best_rate)
    assert (c["context_token"], c["batch_size"]) == ("<s>", 2)

    long = result["long"]
    assert (long["tokens"], long["token_budget"], long["cap_bytes"]) == (n_long, n_long, 2**30)
    assert long["minicons"]["error"].startswith("RuntimeError") and long["max_abs_diff"] is None
    assert long["budget_bytes"] < long["minicons_estimated_bytes"]

    report = format_report(result).splitlines()
    assert report[-1] == (
        "ratios: PLL speed 3.00x minicons (limit 12.00x; max |Δ| 2.0e-05), 25% of the limit"
        " (target ≥ 80%: NOT met)"
        " | causal speed 2.00x minicons (target ≥ 2x: met; max |Δ| 0.0e+00), peak 1 MiB vs 2 MiB (target ≤: met)"
        " | long sentence memory 1 MiB (within budget; minicons failed under 1 GiB)"
    )
    assert (
        "  limit: every useful FLOP at the matmul rate would take 0.25 s; minicons takes 12.00x that"
        in report
    )
    assert any(line.startswith("  ours          4.00      1.00       3 MiB") for line in report)


@pytest.mark.speed
def test_benchmark_runs_on_tiny_models_and_scores_agree(tiny_mlm, tmp_path):
    from baselines_tiny import save_tiny_causal_lm
    from transformers import AutoTokenizer

    causal = save_tiny_causal_lm(tmp_path / "causal")
    sentences = benchmark_sentences(4, seed=3)
    long_text = long_sentence(
        benchmark_sentences(50, seed=0), AutoTokenizer.from_pretrained(tiny_mlm), min_tokens=140
    )
    result = run_benchmarks(
        sentences,
        mlm_model=tiny_mlm,
        causal_model=causal,
        causal_context_token="<s>",
        long_text=long_text,
        token_budget=128,  # below one copy of the long sentence: widened to one copy per pass
        causal_batch_size=2,
        warmup=1,
        rounds=2,  # alternating fresh processes, the best kept
        matmul_size=128,
        progress=False,
    )
    assert set(result) == RESULT_KEYS
    assert result["n_sentences"] == 4 and result["matmul_flops"] > 0
    for section in ("pll", "causal"):
        figures = result[section]
        for side in ("ours", "minicons"):
            seconds = figures[side]["seconds"]
            assert seconds > 0 and figures[side]["peak_bytes"] >= 0
            assert figures[side]["sentences_per_s"] == pytest.approx(4 / seconds)
            assert figures[side]["fraction_of_matmul"] == pytest.approx(
                figures["flops"] / seconds / result["matmul_flops"]
            )
        assert figures["speedup"] == pytest.approx(
            figures["minicons"]["seconds"] / figures["ours"]["seconds"]
        )
        assert figures["max_abs_diff"] <= MAX_ABS_DIFF, section
    long = result["long"]
    assert long["tokens"] >= 140 and long["ours"]["error"] is None
    assert long["token_budget"] == long["tokens"]
    assert long["minicons"]["error"] is None  # a tiny model fits under the cap
    assert long["max_abs_diff"] <= MAX_ABS_DIFF
    json.dumps(result)  # plain JSON-serialisable figures
    assert result["machine"]["device"] == "cpu" and result["precision"] == "fp32"


@pytest.mark.speed
def test_command_prints_figures_and_writes_json(tmp_path):
    """The command end to end, our PLL in ONNX Runtime (exported into a fresh cache)."""
    pytest.importorskip("onnxruntime")
    out = tmp_path / "bench.json"
    env = dict(os.environ, HF_HUB_OFFLINE="1", LI_ADGER_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.speed",
            "--mlm-size",
            "tiny",
            "--causal-model",
            "none",
            "--long-min-tokens",
            "0",
            "--n-sentences",
            "3",
            "--warmup",
            "1",
            "--matmul-size",
            "128",
            "--runtime",
            "onnx",
            "--no-progress",
            "--json",
            str(out),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.strip().splitlines()
    assert lines[-1].startswith("ratios: PLL speed ")
    assert any(line.strip().startswith("ours ") for line in lines)
    assert any("(onnx runtime)" in line for line in lines)
    data = json.loads(out.read_text())
    assert data["pll"]["runtime"] == "onnx"
    assert data["n_sentences"] == 3 and data["causal"] is None and data["long"] is None
    assert math.isfinite(data["pll"]["speedup"])
    assert data["pll"]["max_abs_diff"] <= MAX_ABS_DIFF


def test_command_rejects_bad_options_and_has_help(capsys):
    from tools.speed.cli import main

    with pytest.raises(SystemExit, match="--n-sentences must be >= 1"):
        main(["--n-sentences", "0"])
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "against this machine's matmul limit" in out and "--json JSON" in out


def test_bad_settings_are_refused_before_any_measurement(tiny_mlm, monkeypatch):
    import torch

    def never(request):
        raise AssertionError("a measurement ran")

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="no CUDA GPU is available"):
        run_benchmarks(["Go."], mlm_model=tiny_mlm, device="cuda", measure=never)
    with pytest.raises(ValueError, match="precision must be one of"):
        run_benchmarks(["Go."], mlm_model=tiny_mlm, precision="fp8", measure=never)
    with pytest.raises(ValueError, match="rounds must be >= 1"):
        run_benchmarks(["Go."], mlm_model=tiny_mlm, rounds=0, measure=never)
    with pytest.raises(ValueError, match="causal_context_token is needed"):
        run_benchmarks(["Go."], mlm_model=tiny_mlm, causal_model="m", measure=never)


def test_matmul_rate_is_measured_in_the_scorers_precision(monkeypatch):
    """2·n³ FLOPs over the fastest of the timed calls, on matrices in the precision asked."""
    import time

    import torch

    from tools.speed.flops import measure_matmul_flops

    dtypes = []
    matmul = torch.matmul
    monkeypatch.setattr(
        torch, "matmul", lambda a, b, **kw: dtypes.append(a.dtype) or matmul(a, b, **kw)
    )
    clock = iter([10.0, 10.5, 20.0, 20.25, 30.0, 31.0])  # three timed calls: 0.5, 0.25, 1 s
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    rate = measure_matmul_flops(64, repeats=3, precision="bf16")
    assert rate == 2 * 64**3 / 0.25
    assert dtypes == [torch.bfloat16] * 4  # one untimed warm-up, then the three timed
    with pytest.raises(ValueError, match="precision must be one of"):
        measure_matmul_flops(64, precision="int8")
