"""The benchmark on tiny random models: it runs, reports every figure, and the tools agree.

No timing is asserted (speed is a benchmark figure, not a unit-test property); the scores of
our scorers and minicons must agree within the benchmark's own bound (1e-4).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from baselines.bench import (
    TARGETS,
    benchmark_sentences,
    build_random_mlm,
    format_report,
    long_sentence,
    run_benchmarks,
)
from baselines.bench_flops import (
    ModelSpec,
    causal_flops,
    forward_flops,
    pll_flops,
    spec_from_config,
)

REPO = Path(__file__).resolve().parents[1]
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


def test_flop_counts_are_additive_over_sentences_and_grow_with_length():
    spec = ModelSpec(n_layers=3, hidden=8, layer_params=500, head_params=70, kv_params=120)
    lengths = [5, 9, 12]
    assert pll_flops(spec, lengths) == sum(pll_flops(spec, [n]) for n in lengths)
    assert causal_flops(spec, lengths) == sum(causal_flops(spec, [n]) for n in lengths)
    # a PLL of L tokens is L - 2 single-row passes, each read at one position, whose last
    # layer needs only keys and values at the 11 other positions
    one_copy = forward_flops(spec, rows=1, length=12, scored=1)
    unread_last_layer = 11 * (2 * (500 - 120) + 4 * 8 * 12)
    assert pll_flops(spec, [12]) == 10 * (one_copy - unread_last_layer)
    assert forward_flops(spec, rows=1, length=13, scored=1) > one_copy
    # one layer: the last layer is all there is, so the PLL is far below the full passes
    single = ModelSpec(n_layers=1, hidden=8, layer_params=500, head_params=70, kv_params=120)
    assert pll_flops(single, [12]) < 0.5 * forward_flops(single, rows=10, length=12, scored=10)


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


@pytest.mark.slow
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
    assert set(result) == {
        "machine",
        "rounds",
        "matmul_flops",
        "matmul_size",
        "n_sentences",
        "precision",
        "pll",
        "causal",
        "long",
        "targets",
    }
    assert result["n_sentences"] == 4 and result["matmul_flops"] > 0
    for section in ("pll", "causal"):
        figures = result[section]
        assert set(figures["ours"]) == SIDE_KEYS and set(figures["minicons"]) == SIDE_KEYS
        for side in ("ours", "minicons"):
            assert figures[side]["seconds"] > 0 and figures[side]["peak_bytes"] >= 0
            assert figures[side]["fraction_of_matmul"] > 0
        assert figures["flops"] > 0 and figures["speedup"] > 0
        assert figures["max_abs_diff"] <= TARGETS["max_abs_diff"], section
        limit = figures["flops"] / result["matmul_flops"]
        assert figures["limit_seconds"] == pytest.approx(limit)
        assert figures["limit_speedup"] == pytest.approx(figures["minicons"]["seconds"] / limit)
    long = result["long"]
    assert long["tokens"] >= 140 and long["ours"]["error"] is None
    assert long["token_budget"] == long["tokens"]
    assert long["minicons"]["error"] is None  # a tiny model fits under the cap
    assert long["max_abs_diff"] <= TARGETS["max_abs_diff"]
    assert set(result["targets"]) == {
        "pll_speedup",
        "pll_speedup_within_limit",
        "pll_scores_agree",
        "causal_speedup",
        "causal_scores_agree",
        "long_within_budget",
    }
    assert result["targets"]["pll_scores_agree"] and result["targets"]["causal_scores_agree"]
    json.dumps(result)  # plain JSON-serialisable figures
    last = format_report(result).splitlines()[-1]
    assert last.startswith("ratios: PLL speed ") and "causal speed " in last
    assert "long sentence memory" in last and "limit " in last
    assert result["machine"]["device"] == "cpu" and result["precision"] == "fp32"


@pytest.mark.slow
def test_command_prints_figures_and_writes_json(tmp_path):
    out = tmp_path / "bench.json"
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "baselines",
            "bench",
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
    data = json.loads(out.read_text())
    assert data["n_sentences"] == 3 and data["causal"] is None and data["long"] is None
    assert math.isfinite(data["pll"]["speedup"])
    assert data["pll"]["max_abs_diff"] <= TARGETS["max_abs_diff"]


def test_command_rejects_bad_options():
    from baselines.bench import main

    with pytest.raises(SystemExit, match="--n-sentences must be >= 1"):
        main(["--n-sentences", "0"])


def test_device_and_precision_are_checked_before_any_measurement(tiny_mlm):
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA GPU is available"):
            run_benchmarks(["Go."], mlm_model=tiny_mlm, device="cuda", progress=False)
    with pytest.raises(ValueError, match="precision must be one of"):
        run_benchmarks(["Go."], mlm_model=tiny_mlm, precision="fp8", progress=False)


def test_matmul_rate_is_measured_in_the_scorers_precision():
    from baselines.bench_flops import measure_matmul_flops

    assert measure_matmul_flops(64, repeats=1, precision="bf16") > 0
    with pytest.raises(ValueError, match="precision must be one of"):
        measure_matmul_flops(64, precision="int8")
