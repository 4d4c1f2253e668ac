"""One benchmark measurement in a fresh process: a scorer's time, scores and peak memory.

Peak memory of a torch program cannot be read from ``tracemalloc`` (tensors are allocated
outside the Python allocator), and a process's resident-set high-water mark only ever grows.
So every measurement runs in its own child process (``python -m baselines.bench_measure``,
a JSON request on stdin, a JSON answer on stdout) which loads the model, scores a few warm-up
sentences untimed, then resets the kernel's high-water mark (``/proc/self/clear_refs``) and
scores the benchmark sentences. The reported ``peak_bytes`` is the high-water mark during
scoring *above* the resident memory just before it (model and libraries already loaded).

A request may cap the memory scoring may add (``cap_bytes``, applied as an address-space
limit): a tool that would need more fails with an allocation error, which is reported
instead of taking the shared machine down.

Tools (``tool`` in the request):

=================  ==========================================================================
``ours-mlm``       :class:`baselines.mlm.MaskedLMScorer`, original PLL, ``token_budget``
``minicons-mlm``   ``minicons.scorer.MaskedLMScorer.sequence_score`` (original PLL, sum), in
                   calls of ``batch_size`` sentences
``ours-causal``    :class:`baselines.causal.CausalLMScorer`, sum of token log-probs, batches
                   of ``batch_size`` sentences, ``bos_token`` as its context token
``minicons-causal````minicons.scorer.IncrementalLMScorer.sequence_score`` (sum), ``bos_token``
                   set to the token our scorer conditions the first word on
=================  ==========================================================================

Examples
--------
>>> sorted(TOOLS)
['minicons-causal', 'minicons-mlm', 'ours-causal', 'ours-mlm']
>>> _chunks(["a", "b", "c"], 2)
[['a', 'b'], ['c']]
"""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

TOOLS = ("ours-mlm", "minicons-mlm", "ours-causal", "minicons-causal")

Score = Callable[[list[str]], list[float]]


def _chunks(items: Sequence[str], size: int) -> list[list[str]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _status_bytes(field: str) -> int:
    """A ``kB`` field of ``/proc/self/status`` (``VmRSS``, ``VmHWM``, ``VmSize``) in bytes."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field} line")


def _reset_peak() -> bool:
    """Reset the resident-set high-water mark to the current RSS (Linux ≥ 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        return False
    return True


def _sum_reduction(x: Any) -> float:
    return x.sum(0).item()


def _build(request: dict[str, Any]) -> Score:
    """Load the requested tool and return a function from sentences to scores."""
    tool, model, device = request["tool"], request["model"], request.get("device", "cpu")
    batch_size = int(request.get("batch_size", 1))
    if tool == "ours-mlm":
        from baselines.mlm import MaskedLMScorer

        scorer = MaskedLMScorer(
            model, device=device, token_budget=int(request["token_budget"]), progress=False
        )
        return scorer.score
    if tool == "minicons-mlm":
        from minicons.scorer import MaskedLMScorer as MiniconsMLM

        mlm = MiniconsMLM(model, device=device)
        if not hasattr(mlm.tokenizer, "batch_encode_plus"):
            # transformers 5 removed batch_encode_plus, which minicons still calls; calling the
            # tokenizer on a list of strings is what it did.
            mlm.tokenizer.batch_encode_plus = mlm.tokenizer.__call__

        def score_mlm(sentences: list[str]) -> list[float]:
            out: list[float] = []
            for batch in _chunks(sentences, batch_size):
                out += mlm.sequence_score(batch, reduction=_sum_reduction, PLL_metric="original")
            return out

        return score_mlm
    if tool == "ours-causal":
        from baselines.causal import CausalLMScorer

        causal = CausalLMScorer(
            model, device=device, batch_size=batch_size, context_token=request["bos_token"]
        )
        return causal.score
    if tool == "minicons-causal":
        from minicons.scorer import IncrementalLMScorer

        inc = IncrementalLMScorer(model, device=device)
        inc.tokenizer.bos_token = request["bos_token"]

        def score_causal(sentences: list[str]) -> list[float]:
            out: list[float] = []
            for batch in _chunks(sentences, batch_size):
                out += inc.sequence_score(batch, reduction=_sum_reduction, bos_token=True)
            return out

        return score_causal
    raise ValueError(f"tool must be one of {', '.join(TOOLS)} (got {tool!r})")


def measure_here(request: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in this process (the child side of :func:`measure`).

    Examples
    --------
    >>> measure_here({"tool": "nope", "model": "x", "sentences": ["a"]})
    Traceback (most recent call last):
    ...
    ValueError: tool must be one of ours-mlm, minicons-mlm, ours-causal, minicons-causal (got 'nope')
    """
    import torch

    torch.set_num_threads(int(request.get("threads", torch.get_num_threads())))
    load_start = time.perf_counter()
    score = _build(request)
    load_seconds = time.perf_counter() - load_start
    warmup = list(request.get("warmup", []))
    if warmup:
        score(warmup)
    sentences = list(request["sentences"])
    gc.collect()
    rss_before = _status_bytes("VmRSS")
    peak_exact = _reset_peak()
    cap = request.get("cap_bytes")
    if cap is not None:
        limit = _status_bytes("VmSize") + int(cap)
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    result: dict[str, Any] = {"tool": request["tool"], "load_seconds": load_seconds}
    best, scores, error = float("inf"), None, None
    for _ in range(int(request.get("repeats", 1))):
        start = time.perf_counter()
        try:
            scores = score(sentences)
        except (MemoryError, RuntimeError) as exc:
            if not isinstance(exc, MemoryError) and "alloc" not in str(exc):
                raise
            # an allocation refused (under the cap, or by the machine): a finding, not a crash
            error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            break
        best = min(best, time.perf_counter() - start)
    peak = (
        _status_bytes("VmHWM")
        if peak_exact
        else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    )
    result.update(
        seconds=None if error else best,
        scores=None if error else [float(s) for s in scores],
        rss_before_bytes=rss_before,
        peak_bytes=max(0, peak - rss_before),
        peak_exact=peak_exact,
        threads=torch.get_num_threads(),
        error=error,
    )
    return result


def measure(request: dict[str, Any], *, timeout: float | None = None) -> dict[str, Any]:
    """Run one measurement in a fresh ``python -m baselines.bench_measure`` process.

    ``request`` holds ``tool`` (one of :data:`TOOLS`), ``model`` (a local folder),
    ``sentences``, and optionally ``warmup``, ``threads``, ``device``, ``token_budget``,
    ``batch_size``, ``bos_token``, ``repeats`` and ``cap_bytes``. Returns the child's answer:
    ``seconds`` (best of ``repeats``), ``scores``, ``peak_bytes``, ``rss_before_bytes``,
    ``load_seconds``, ``threads`` and ``error`` (``None``, or the allocation error that stopped
    a capped run, in which case ``seconds`` and ``scores`` are ``None``).

    Examples
    --------
    >>> measure({"tool": "nope", "model": "x", "sentences": ["a"]})
    Traceback (most recent call last):
    ...
    RuntimeError: benchmark child for tool 'nope' failed (exit 1): ValueError: tool must be one of ...
    """
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    proc = subprocess.run(
        [sys.executable, "-m", "baselines.bench_measure"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = proc.stderr.strip().splitlines()
        raise RuntimeError(
            f"benchmark child for tool {request.get('tool')!r} failed "
            f"(exit {proc.returncode}): {tail[-1] if tail else 'no output'}"
        )
    return json.loads(lines[-1])


def main() -> int:
    """Read a request from stdin, print the answer as one JSON line."""
    request = json.loads(sys.stdin.read())
    print(json.dumps(measure_here(request)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
