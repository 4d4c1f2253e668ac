"""Running the benchmark: every measurement in a fresh process, in alternating rounds.

:func:`run_benchmarks` measures, on the same sentences, the same device and the same number
of threads:

1. **PLL**: :class:`baselines.kinds.mlm.MaskedLMScorer` against minicons ``MaskedLMScorer``
   (original PLL, sum of token log-probs) on a local BERT-style masked LM;
2. **causal**: :class:`baselines.kinds.causal.CausalLMScorer` against minicons
   ``IncrementalLMScorer`` on a local causal LM, both conditioning the first word on the same
   context token, in the same batch size;
3. **the matmul rate**: ``torch.matmul`` FLOP/s in the scorers' precision, before every round,
   against which the useful FLOPs of each comparison are set (:mod:`tools.speed.flops`,
   :mod:`tools.speed.figures`);
4. **one long sentence**: peak memory of our PLL with its token budget against minicons, which
   runs every masked copy in one pass under a memory cap.

Each measurement is one call of ``measure`` (by default :func:`tools.speed.measure.measure`,
a fresh process). On a shared machine other processes can only slow a measurement down, so
with ``rounds > 1`` the two tools of a comparison are measured alternately and each keeps its
fastest round and its highest peak memory (:func:`tools.speed.figures.keep_best`); every
figure is set against the best matmul rate of all rounds.

Examples
--------
>>> run_benchmarks([], mlm_model="x")
Traceback (most recent call last):
...
ValueError: sentences must hold at least one sentence (got 0)
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from tools.speed.figures import compare, keep_best, padding_fraction
from tools.speed.flops import (
    activation_bytes,
    causal_flops,
    measure_matmul_flops,
    pll_flops,
    spec_from_config,
)
from tools.speed.measure import measure as measure_in_child

__all__ = ["DEFAULT_LONG_CAP_BYTES", "Measure", "machine_info", "run_benchmarks"]

DEFAULT_LONG_CAP_BYTES = 8 * 2**30
"""Memory the minicons long-sentence run may add before it is stopped (8 GiB)."""

Measure = Callable[[dict[str, Any]], dict[str, Any]]
"""One measurement: a request of :func:`tools.speed.measure.measure` → its answer."""


def machine_info(threads: int, device: str) -> dict[str, Any]:
    """The machine and library versions a benchmark ran on, and the load average at its start.

    Examples
    --------
    >>> info = machine_info(2, "cpu")
    >>> info["threads"], info["device"], info["gpu"]
    (2, 'cpu', None)
    """
    import torch
    import transformers

    from baselines.device import cpu_name

    cpu = cpu_name()
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


class _Session:
    """The measurements of one run: its progress bar, its matmul rates, best-of-rounds."""

    def __init__(
        self,
        *,
        measure: Measure,
        matmul_rate: Callable[[], float],
        rounds: int,
        threads: int,
        device: str,
        steps: int,
        progress: bool,
    ) -> None:
        from tqdm.auto import tqdm

        self.measure, self.matmul_rate = measure, matmul_rate
        self.rounds, self.threads, self.device = rounds, threads, device
        self.matmuls: list[float] = []
        self.bar = tqdm(total=steps, desc="benchmark", unit="step", disable=not progress)

    def step(self, label: str, request: dict[str, Any]) -> dict[str, Any]:
        """One measurement, on this run's threads and device."""
        self.bar.set_postfix_str(label)
        result = self.measure({"threads": self.threads, "device": self.device, **request})
        self.bar.update()
        return result

    def best_of_rounds(
        self, label: str, ours: dict[str, Any], theirs: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Both tools measured alternately ``rounds`` times, a matmul rate before each round."""
        best: dict[str, dict[str, Any]] = {}
        for r in range(self.rounds):
            self.bar.set_postfix_str("matmul")
            self.matmuls.append(self.matmul_rate())
            self.bar.update()
            for side, request in (("ours", ours), ("minicons", theirs)):
                result = self.step(f"{label} {side} {r + 1}/{self.rounds}", request)
                best[side] = keep_best(best.get(side), result)
        return best["ours"], best["minicons"]


@dataclass
class _Comparison:
    """A section of the result, both tools' best measurements and the useful FLOPs."""

    section: dict[str, Any]
    ours: dict[str, Any]
    theirs: dict[str, Any]
    flops: int


@dataclass(frozen=True)
class _MaskedLM:
    """The masked LM both PLL measurements run: its folder, config and tokenizer, and our
    scorer's token budget and precision."""

    path: str
    config: Any
    tokenizer: Any
    token_budget: int
    precision: str

    def ours(self, token_budget: int | None = None) -> dict[str, Any]:
        """The request fields of our PLL scorer (``token_budget``: another than the usual)."""
        budget = self.token_budget if token_budget is None else token_budget
        return {"tool": "ours-mlm", "token_budget": budget, "precision": self.precision}


def _pll(
    session: _Session,
    sentences: list[str],
    mlm: _MaskedLM,
    *,
    runtime: str,
    minicons_batch_size: int,
    warmup: int,
) -> _Comparison:
    lengths = [len(ids) for ids in mlm.tokenizer(sentences)["input_ids"]]
    common = {"model": mlm.path, "sentences": sentences, "warmup": sentences[:warmup]}
    ours, theirs = session.best_of_rounds(
        "PLL",
        {**mlm.ours(), "runtime": runtime, **common},
        {"tool": "minicons-mlm", "batch_size": minicons_batch_size, **common},
    )
    section = {
        "model": {"path": mlm.path, "parameters": _parameter_count(mlm.config)},
        "masked_tokens": sum(n - 2 for n in lengths),
        "ours_padding_fraction": padding_fraction(lengths, mlm.token_budget),
        "token_budget": mlm.token_budget,
        "runtime": runtime,
        "minicons_batch_size": minicons_batch_size,
    }
    return _Comparison(section, ours, theirs, pll_flops(spec_from_config(mlm.config), lengths))


def _causal(
    session: _Session,
    sentences: list[str],
    *,
    model: str,
    context_token: str,
    batch_size: int,
    precision: str,
    packing: str,
    warmup: int,
) -> _Comparison:
    from transformers import AutoConfig, AutoTokenizer

    config = AutoConfig.from_pretrained(model)
    tokenizer = AutoTokenizer.from_pretrained(model)
    # the sentence's tokens and the context token in front of them
    lengths = [len(ids) + 1 for ids in tokenizer(sentences, add_special_tokens=False)["input_ids"]]
    request = {
        "model": model,
        "sentences": sentences,
        "warmup": sentences[:warmup],
        "batch_size": batch_size,
        "bos_token": context_token,
    }
    ours, theirs = session.best_of_rounds(
        "causal",
        {"tool": "ours-causal", "precision": precision, "packing": packing, **request},
        {"tool": "minicons-causal", **request},
    )
    section = {
        "model": {"path": model, "parameters": _parameter_count(config)},
        "context_token": context_token,
        "batch_size": batch_size,
    }
    return _Comparison(section, ours, theirs, causal_flops(spec_from_config(config), lengths))


def _long(
    session: _Session, text: str, mlm: _MaskedLM, *, cap_bytes: int, warmup: list[str]
) -> dict[str, Any]:
    n_tokens = len(mlm.tokenizer(text)["input_ids"])
    # a budget below one copy is widened to one copy, as the scorer's own default is
    budget = max(mlm.token_budget, n_tokens)
    rows = budget // n_tokens
    copies = n_tokens - 2
    config = mlm.config
    request = {"model": mlm.path, "sentences": [text], "warmup": warmup}
    ours = session.step("long ours", {**mlm.ours(budget), **request})
    theirs = session.step(
        "long minicons",
        {"tool": "minicons-mlm", "batch_size": 1, "cap_bytes": cap_bytes, **request},
    )
    return {
        "tokens": n_tokens,
        "token_budget": budget,
        "budget_bytes": activation_bytes(
            config, rows=rows, length=n_tokens, logit_positions=rows * n_tokens
        ),
        "minicons_estimated_bytes": activation_bytes(
            config, rows=copies, length=n_tokens, logit_positions=copies * n_tokens
        ),
        "cap_bytes": cap_bytes,
        "ours": {k: ours[k] for k in ("peak_bytes", "seconds", "error")},
        "minicons": {k: theirs[k] for k in ("peak_bytes", "seconds", "error")},
        "max_abs_diff": (
            abs(ours["scores"][0] - theirs["scores"][0])
            if ours["scores"] and theirs["scores"]
            else None
        ),
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
    pll_runtime: str = "torch",
    minicons_batch_size: int = 1,
    causal_batch_size: int = 64,
    causal_packing: str = "trie",
    warmup: int = 4,
    rounds: int = 1,
    matmul_size: int = 2048,
    long_cap_bytes: int = DEFAULT_LONG_CAP_BYTES,
    progress: bool = True,
    measure: Measure = measure_in_child,
    matmul_rate: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """Run every measurement and return all figures (see the module docs).

    ``mlm_model`` is a local BERT-style masked-LM folder (e.g. from
    :func:`tools.speed.inputs.build_random_mlm`); ``causal_model`` a local causal-LM
    folder (``None`` skips the causal comparison) whose first word both tools condition on
    ``causal_context_token``; ``long_text`` the long sentence (``None`` skips it). Everything
    runs on ``device`` (``"auto"``, ``"cpu"`` or ``"cuda[:N]"``), our scorers in
    ``precision``; ``token_budget`` defaults to the device's
    (:func:`baselines.fast.mlm_passes.default_token_budget`); ``pll_runtime`` is where our PLL's encoder
    runs (:data:`baselines.interface.RUNTIMES`). ``minicons_batch_size`` is the number of
    sentences per minicons PLL call (all their masked copies go in one forward pass);
    ``causal_batch_size`` is the batch size of both causal tools, ``causal_packing`` how our
    causal scorer lays out a batch (:data:`baselines.fast.layout.PACKINGS`). ``long_cap_bytes`` caps the
    memory the minicons long-sentence run may add. ``measure`` runs one measurement and
    ``matmul_rate`` measures the matmul FLOP/s (default: ``matmul_size`` square matrices in
    ``precision`` on ``device``).

    Returns a dict with keys ``machine``, ``rounds``, ``precision``, ``matmul_flops``,
    ``matmul_size``, ``n_sentences``, ``pll``, ``causal`` (``None`` when skipped) and ``long``
    (``None`` when skipped). ``pll`` and ``causal`` hold ``ours`` and ``minicons``
    (``seconds``, ``sentences_per_s``, ``peak_bytes``, ``flops_per_s``,
    ``fraction_of_matmul``, ``load_seconds``), ``speedup`` (minicons time / our time),
    ``max_abs_diff``, ``flops``, ``limit_seconds`` and ``limit_speedup``
    (:func:`tools.speed.figures.compare`).
    """
    if not sentences:
        raise ValueError(f"sentences must hold at least one sentence (got {len(sentences)})")
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1 (got {rounds})")
    if causal_model is not None and not causal_context_token:
        raise ValueError("causal_context_token is needed with causal_model (got none)")
    import torch
    from transformers import AutoConfig, AutoTokenizer

    from baselines.device import inference_dtype, resolve_device
    from baselines.fast.mlm_passes import default_token_budget

    sentences = list(sentences)
    device = str(resolve_device(device))
    inference_dtype(torch.device(device), precision)  # a bad precision fails here, not in a child
    threads = threads or torch.get_num_threads()
    if token_budget is None:
        token_budget = default_token_budget(device)
    torch.set_num_threads(threads)
    machine = machine_info(threads, device)
    if matmul_rate is None:
        matmul_rate = partial(measure_matmul_flops, matmul_size, device=device, precision=precision)
    # a matmul and two tools per round and comparison, then two long-sentence runs
    steps = rounds * 3 * (2 if causal_model is not None else 1) + (2 if long_text else 0)
    session = _Session(
        measure=measure,
        matmul_rate=matmul_rate,
        rounds=rounds,
        threads=threads,
        device=device,
        steps=steps,
        progress=progress,
    )
    mlm = _MaskedLM(
        path=str(mlm_model),
        config=AutoConfig.from_pretrained(mlm_model),
        tokenizer=AutoTokenizer.from_pretrained(mlm_model),
        token_budget=token_budget,
        precision=precision,
    )
    try:
        pll = _pll(
            session,
            sentences,
            mlm,
            runtime=pll_runtime,
            minicons_batch_size=minicons_batch_size,
            warmup=warmup,
        )
        comparisons = [pll]
        causal = None
        if causal_model is not None:
            causal = _causal(
                session,
                sentences,
                model=str(causal_model),
                context_token=str(causal_context_token),
                batch_size=causal_batch_size,
                precision=precision,
                packing=causal_packing,
                warmup=warmup,
            )
            comparisons.append(causal)
        long = None
        if long_text is not None:
            long = _long(
                session, long_text, mlm, cap_bytes=long_cap_bytes, warmup=sentences[:warmup]
            )
    finally:
        session.bar.close()
    matmul = max(session.matmuls)
    for c in comparisons:
        c.section.update(
            compare(
                c.ours, c.theirs, n_sentences=len(sentences), flops=c.flops, matmul_flops=matmul
            )
        )
    machine["load_average_end"] = os.getloadavg()[0]
    return {
        "machine": machine,
        "rounds": rounds,
        "precision": precision,
        "matmul_flops": matmul,
        "matmul_size": matmul_size,
        "n_sentences": len(sentences),
        "pll": pll.section,
        "causal": None if causal is None else causal.section,
        "long": long,
    }
