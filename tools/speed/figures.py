"""The benchmark's arithmetic: from measurements to speeds, ratios and the matmul-rate limit.

Pure functions of the measured numbers (no model, no clock), so every figure the benchmark
prints can be checked on fixed inputs.

* :func:`tool_figures`: one tool's sentences/s, FLOP/s and share of the matmul rate;
* :func:`compare`: both tools, the speed ratio (minicons's time / ours), the largest score
  difference, and the limit: ``limit_seconds``, the time every useful FLOP would take at the
  matmul rate, and ``limit_speedup`` = minicons's time / ``limit_seconds``, the speed-up over
  minicons a scorer doing the same work would reach if all of it ran at that rate;
* :func:`keep_best`: of several rounds, the fastest time and the highest peak memory;
* :func:`padding_fraction`: the share of our PLL passes' token slots that are padding.

Examples
--------
>>> side = {"seconds": 4.0, "scores": [-1.0, -2.0], "peak_bytes": 0, "load_seconds": 1.0}
>>> r = compare({**side, "seconds": 2.0}, side, n_sentences=2, flops=10**11, matmul_flops=1e11)
>>> r["speedup"], r["limit_seconds"], r["limit_speedup"], r["max_abs_diff"]
(2.0, 1.0, 4.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tools.speed.flops import speed_limit

__all__ = ["compare", "keep_best", "padding_fraction", "tool_figures"]


def tool_figures(
    result: Mapping[str, Any], n_sentences: int, flops: int, matmul_flops: float
) -> dict[str, Any]:
    """One tool's figures from its measurement (``seconds``, ``peak_bytes``, ``load_seconds``).

    Examples
    --------
    >>> tool_figures({"seconds": 2.0, "peak_bytes": 5, "load_seconds": 1.0},
    ...              n_sentences=10, flops=4 * 10**9, matmul_flops=1e10)
    {'seconds': 2.0, 'sentences_per_s': 5.0, 'peak_bytes': 5, 'flops_per_s': 2000000000.0, 'fraction_of_matmul': 0.2, 'load_seconds': 1.0}
    """
    seconds = result["seconds"]
    return {
        "seconds": seconds,
        "sentences_per_s": n_sentences / seconds if seconds else None,
        "peak_bytes": result["peak_bytes"],
        "flops_per_s": flops / seconds if seconds else None,
        "fraction_of_matmul": flops / seconds / matmul_flops if seconds else None,
        "load_seconds": result["load_seconds"],
    }


def compare(
    ours: Mapping[str, Any],
    theirs: Mapping[str, Any],
    *,
    n_sentences: int,
    flops: int,
    matmul_flops: float,
) -> dict[str, Any]:
    """Both tools' figures, the speed ratio, the score agreement and the matmul-rate limit.

    ``ours`` and ``theirs`` (minicons) are measurements of the same ``n_sentences``
    (``seconds``, ``scores``, ``peak_bytes``, ``load_seconds``); ``flops`` is the useful work
    of scoring them and ``matmul_flops`` the measured matmul rate.

    Examples
    --------
    >>> side = {"seconds": 3.0, "scores": [-1.0], "peak_bytes": 0, "load_seconds": 0.0}
    >>> r = compare({**side, "scores": [-1.5]}, side, n_sentences=1, flops=3, matmul_flops=2.0)
    >>> r["speedup"], r["max_abs_diff"], r["limit_seconds"], r["limit_speedup"]
    (1.0, 0.5, 1.5, 2.0)
    """
    diffs = [abs(a - b) for a, b in zip(ours["scores"], theirs["scores"], strict=True)]
    a = tool_figures(ours, n_sentences, flops, matmul_flops)
    b = tool_figures(theirs, n_sentences, flops, matmul_flops)
    limit = speed_limit(flops, matmul_flops)
    # our causal scorer's packing and the share of positions it computed, when measured
    a.update((k, ours[k]) for k in ("packing", "positions_share") if k in ours)
    return {
        "ours": a,
        "minicons": b,
        "speedup": b["seconds"] / a["seconds"],
        "max_abs_diff": max(diffs),
        "flops": flops,
        "limit_seconds": limit,
        "limit_speedup": b["seconds"] / limit,
    }


def keep_best(best: Mapping[str, Any] | None, result: Mapping[str, Any]) -> dict[str, Any]:
    """Of two measurements of one tool, the faster, with the higher of the two peak memories.

    Other processes on a shared machine can only slow a run down, so the fastest round is the
    truest; memory is reported at its worst. ``best`` is ``None`` for the first round.

    Examples
    --------
    >>> first = keep_best(None, {"seconds": 3.0, "peak_bytes": 10})
    >>> keep_best(first, {"seconds": 2.0, "peak_bytes": 7})
    {'seconds': 2.0, 'peak_bytes': 10}
    >>> keep_best(first, {"seconds": 4.0, "peak_bytes": 12})
    {'seconds': 3.0, 'peak_bytes': 12}
    """
    if best is None:
        return dict(result)
    faster = result if result["seconds"] < best["seconds"] else best
    return {**faster, "peak_bytes": max(best["peak_bytes"], result["peak_bytes"])}


def padding_fraction(lengths: Sequence[int], token_budget: int) -> float:
    """Share of the token slots in our PLL forward passes that are padding.

    Replays :func:`baselines.fast.mlm_passes.plan_passes` on the copies (``L - 2`` of each sentence of
    ``L`` tokens, longest first, as the scorer orders them).

    Examples
    --------
    >>> padding_fraction([4, 3], 100)  # one pass of copies of 4, 4 and 3 tokens: 1 pad of 12
    0.0833...
    """
    from baselines.fast.mlm_passes import plan_passes

    copies = [n for n in sorted(lengths, reverse=True) for _ in range(n - 2)]
    slots = sum((b - a) * max(copies[a:b]) for a, b in plan_passes(copies, token_budget))
    return 1.0 - sum(copies) / slots
