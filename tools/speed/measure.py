"""One benchmark measurement in a fresh process: a scorer's time, scores and peak memory.

Peak memory of a torch program cannot be read from ``tracemalloc`` (tensors are allocated
outside the Python allocator), and a process's resident-set high-water mark only ever grows.
So every measurement runs in its own child process (``python -m tools.speed.measure``,
a JSON request on stdin, a JSON answer on stdout) which loads the model, scores a few warm-up
sentences untimed, then resets the kernel's high-water mark (``/proc/self/clear_refs``) and
scores the benchmark sentences. The reported ``peak_bytes`` is the high-water mark during
scoring *above* the resident memory just before it (model and libraries already loaded).
On a GPU (``device`` ``"cuda[:N]"``) it is the peak of the device memory torch allocated
during scoring above what it held before, and the clock stops only once the device is idle.

A request may cap the memory scoring may add (``cap_bytes``, applied as an address-space
limit on the CPU, as a fraction of the device's memory on a GPU): a tool that would need more
fails with an allocation error, which is reported instead of taking the shared machine down.

Our tools run in ``precision`` (default ``"fp32"``, as minicons does unless told otherwise),
so that their scores can be compared with minicons's.

Tools (``tool`` in the request):

=================  ==========================================================================
``ours-mlm``       :class:`baselines.kinds.mlm.MaskedLMScorer`, original PLL, ``token_budget``
``minicons-mlm``   ``minicons.scorer.MaskedLMScorer.sequence_score`` (original PLL, sum), in
                   calls of ``batch_size`` sentences
``ours-causal``    :class:`baselines.kinds.causal.CausalLMScorer`, sum of token log-probs, batches
                   of ``batch_size`` sentences (as ``score`` makes them), ``bos_token`` as its
                   context token, ``packing`` (default ``trie``); answers ``packing`` and
                   ``positions_share`` too
``minicons-causal````minicons.scorer.IncrementalLMScorer.sequence_score`` (sum), ``bos_token``
                   set to the token our scorer conditions the first word on
``engine``         ``baselines.spec.build_scorer(model, engine=…, convention=…,
                   engine_args=…)``, the scorer ``python -m baselines score --engine`` runs,
                   in calls of ``batch_size`` sentences (:mod:`tools.speed.engines`)
=================  ==========================================================================

Examples
--------
>>> sorted(TOOLS)
['engine', 'minicons-causal', 'minicons-mlm', 'ours-causal', 'ours-mlm']
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
from pathlib import Path
from typing import Any

TOOLS = ("ours-mlm", "minicons-mlm", "ours-causal", "minicons-causal", "engine")

ANSWER = "tools.speed.measure answer: "
"""What starts the child's answer line on stdout (libraries such as vLLM log there too)."""

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


def _ours_causal(
    request: dict[str, Any], model: str, device: str, precision: str, batch_size: int
) -> Score:
    """Our causal scorer in ``request["packing"]`` (default ``trie``), fed calls of
    ``batch_size`` sentences as ``python -m baselines score`` feeds it (for ``trie``, sorted
    by text: :func:`baselines.batch_order.plan_batches`). The function's ``counter`` is the scorer,
    whose positions computed are read after the timed run."""
    from baselines.batch_order import plan_batches
    from baselines.kinds.causal import CausalLMScorer

    causal = CausalLMScorer(
        model,
        device=device,
        precision=precision,
        batch_size=batch_size,
        context_token=request["bos_token"],
        packing=request.get("packing", "trie"),
    )

    def score_causal(sentences: list[str]) -> list[float]:
        if causal.packing == "trie":
            batches = plan_batches(sentences, batch_size, by_prefix=True, longest_first=True)
        else:
            order = sorted(range(len(sentences)), key=lambda k: -len(sentences[k]))
            batches = [order[at : at + batch_size] for at in range(0, len(order), batch_size)]
        out = [0.0] * len(sentences)
        for batch in batches:
            for k, s in zip(batch, causal.score([sentences[k] for k in batch]), strict=True):
                out[k] = s
        return out

    score_causal.counter = causal  # type: ignore[attr-defined]
    return score_causal


def _build(request: dict[str, Any]) -> Score:
    """Load the requested tool and return a function from sentences to scores."""
    tool, model, device = request["tool"], request["model"], request.get("device", "cpu")
    batch_size = int(request.get("batch_size", 1))
    precision = request.get("precision", "fp32")
    if tool == "ours-mlm":
        from baselines.kinds.mlm import MaskedLMScorer

        scorer = MaskedLMScorer(
            model,
            device=device,
            token_budget=int(request["token_budget"]),
            precision=precision,
            progress=False,
            runtime=request.get("runtime", "torch"),
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
        return _ours_causal(request, model, device, precision, batch_size)
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
    if tool == "engine":
        from baselines.spec import build_scorer

        scorer = build_scorer(
            model,
            engine=request["engine"],
            convention=request.get("convention"),
            device=device,
            precision=precision,
            engine_args=request.get("engine_args"),
            batch_size=batch_size,
        )

        def score_engine(sentences: list[str]) -> list[float]:
            return [s for batch in _chunks(sentences, batch_size) for s in scorer.score(batch)]

        return score_engine
    raise ValueError(f"tool must be one of {', '.join(TOOLS)} (got {tool!r})")


class _HostMemory:
    """Resident-set peak of this process during scoring, above the memory held before it."""

    def __init__(self, cap: int | None) -> None:
        gc.collect()
        self.before = _status_bytes("VmRSS")
        self.exact = _reset_peak()
        if cap is not None:
            limit = _status_bytes("VmSize") + int(cap)
            hard = resource.getrlimit(resource.RLIMIT_AS)[1]
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

    def peak(self) -> int:
        high = (
            _status_bytes("VmHWM")
            if self.exact
            else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        )
        return max(0, high - self.before)


class _DeviceMemory:
    """Peak of the GPU memory torch allocated during scoring, above what it held before."""

    def __init__(self, device: str, cap: int | None) -> None:
        import torch

        self.torch, self.device = torch, torch.device(device)
        gc.collect()
        torch.cuda.synchronize(self.device)
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(self.device)
        self.before = torch.cuda.memory_allocated(self.device)
        self.exact = True
        if cap is not None:
            total = torch.cuda.get_device_properties(self.device).total_memory
            fraction = min(1.0, (self.before + int(cap)) / total)
            torch.cuda.set_per_process_memory_fraction(fraction, self.device)

    def peak(self) -> int:
        return max(0, self.torch.cuda.max_memory_allocated(self.device) - self.before)


def _is_allocation_error(exc: BaseException) -> bool:
    """An allocation refused (under the cap, or by the machine): a finding, not a crash.

    Examples
    --------
    >>> _is_allocation_error(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB"))
    True
    >>> _is_allocation_error(RuntimeError("shape mismatch"))
    False
    """
    text = str(exc)
    return isinstance(exc, MemoryError) or "alloc" in text or "out of memory" in text


def measure_here(request: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in this process (the child side of :func:`measure`).

    Examples
    --------
    >>> measure_here({"tool": "nope", "model": "x", "sentences": ["a"]})
    Traceback (most recent call last):
    ...
    ValueError: tool must be one of ours-mlm, minicons-mlm, ours-causal, minicons-causal, engine (got 'nope')
    """
    import torch

    from baselines.device import synchronize

    torch.set_num_threads(int(request.get("threads", torch.get_num_threads())))
    device = str(request.get("device", "cpu"))
    load_start = time.perf_counter()
    score = _build(request)
    load_seconds = time.perf_counter() - load_start
    warmup = list(request.get("warmup", []))
    if warmup:
        score(warmup)
    sentences = list(request["sentences"])
    counter = getattr(score, "counter", None)
    cap = request.get("cap_bytes")
    memory = _DeviceMemory(device, cap) if device.startswith("cuda") else _HostMemory(cap)
    result: dict[str, Any] = {"tool": request["tool"], "load_seconds": load_seconds}
    best, scores, error = float("inf"), None, None
    for _ in range(int(request.get("repeats", 1))):
        if counter is not None:
            counter.positions = [0, 0]
        synchronize(device)
        start = time.perf_counter()
        try:
            scores = score(sentences)
            synchronize(device)
        except (MemoryError, RuntimeError) as exc:
            if not _is_allocation_error(exc):
                raise
            error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            break
        best = min(best, time.perf_counter() - start)
    result.update(
        seconds=None if error else best,
        scores=None if error else [float(s) for s in scores],
        rss_before_bytes=memory.before,
        peak_bytes=memory.peak(),
        peak_exact=memory.exact,
        threads=torch.get_num_threads(),
        device=device,
        error=error,
    )
    if counter is not None:
        result.update(packing=counter.packing, positions_share=counter.positions_share)
    return result


def measure(
    request: dict[str, Any], *, timeout: float | None = None, python: str | None = None
) -> dict[str, Any]:
    """Run one measurement in a fresh ``python -m tools.speed.measure`` process, of this
    interpreter or of ``python`` (another environment's, e.g. vLLM's ``.venv-vllm``).

    ``request`` holds ``tool`` (one of :data:`TOOLS`), ``model`` (a local folder),
    ``sentences``, and optionally ``warmup``, ``threads``, ``device``, ``precision`` (of our
    tools), ``token_budget``, ``batch_size``, ``bos_token``, ``repeats`` and ``cap_bytes``
    (``engine``: also ``engine``, ``convention``, ``engine_args``).
    Returns the child's answer: ``seconds`` (best of ``repeats``), ``scores``, ``peak_bytes``,
    ``rss_before_bytes`` (device memory on a GPU), ``load_seconds``, ``threads``, ``device``
    and ``error`` (``None``, or the allocation error that stopped a capped run, in which case
    ``seconds`` and ``scores`` are ``None``).

    Examples
    --------
    >>> measure({"tool": "nope", "model": "x", "sentences": ["a"]})
    Traceback (most recent call last):
    ...
    RuntimeError: benchmark child for tool 'nope' failed (exit 1): ValueError: tool must be one of ...
    """
    # the child imports this module from the checkout: tools/ is not installed
    root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", PYTHONPATH=path)
    proc = subprocess.run(
        [python or sys.executable, "-m", "tools.speed.measure"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(ANSWER)]
    if proc.returncode != 0 or not lines:
        tail = proc.stderr.strip().splitlines()
        raise RuntimeError(
            f"benchmark child for tool {request.get('tool')!r} failed "
            f"(exit {proc.returncode}): {tail[-1] if tail else 'no output'}"
        )
    return json.loads(lines[-1].removeprefix(ANSWER))


def main() -> int:
    """Read a request from stdin, print the answer as one JSON line after :data:`ANSWER`."""
    request = json.loads(sys.stdin.read())
    print(ANSWER + json.dumps(measure_here(request)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
