"""The benchmark's printed report: the machine, one section per comparison, the ratios last.

:func:`format_report` turns the figures of :func:`tools.speed.run.run_benchmarks` into the
text ``python -m tools.speed`` prints; its last line is :func:`format_ratio_line`.

Examples
--------
>>> format_ratio_line({"pll": {"speedup": 2.5, "max_abs_diff": 3e-6, "limit_speedup": 4.0},
...                    "causal": None, "long": None})
'ratios: PLL speed 2.50x minicons (limit 4.00x; max |Δ| 3.0e-06), 62% of the limit (target ≥ 80%: NOT met) | causal skipped | long sentence skipped'
"""

from __future__ import annotations

from typing import Any

__all__ = ["format_ratio_line", "format_report"]

_GIB = 2**30
_MIB = 2**20


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
    ratios: PLL speed 1.00x minicons (limit 100.00x; max |Δ| 0.0e+00), 1% of the limit (target ≥ 80%: NOT met) | ...
    >>> print(next(line for line in format_report(r).splitlines() if "limit:" in line))
      limit: every useful FLOP at the matmul rate would take 0.02 s; minicons takes 100.00x that
    """
    lines = _machine_lines(result) + _pll_lines(result)
    if result["causal"] is not None:
        lines += _causal_lines(result["causal"])
    if result["long"] is not None:
        lines += _long_lines(result["long"])
    lines += ["", format_ratio_line(result)]
    return "\n".join(lines)


def _machine_lines(result: dict[str, Any]) -> list[str]:
    m = result["machine"]
    ram = "?" if m["ram_bytes"] is None else f"{m['ram_bytes'] / _GIB:.1f} GiB"
    size = result["matmul_size"]
    on = f"GPU {m['gpu']} ({m['device']})" if m.get("gpu") else "the CPU"
    return [
        f"machine: {m['cpus']} CPUs ({m['cpu']}), {ram} RAM, {m['threads']} torch threads, "
        f"torch {m['torch']}, transformers {m['transformers']}, minicons {m['minicons']}",
        f"device: {on}; our scorers in {result.get('precision', 'fp32')}, minicons in fp32",
        f"load average (1 min): {m['load_average_start']:.2f} at start, "
        f"{m['load_average_end']:.2f} at end",
        f"matmul {result.get('precision', 'fp32')} {size}x{size}: "
        f"{result['matmul_flops'] / 1e9:,.1f} GFLOP/s (best of 5 "
        f"per round); {result['rounds']} round(s), each tool's fastest kept",
    ]


def _pll_lines(result: dict[str, Any]) -> list[str]:
    pll = result["pll"]
    return [
        "",
        f"PLL, original, sum: BertForMaskedLM {pll['model']['parameters'] / 1e6:,.1f}M parameters "
        f"(random weights), {result['n_sentences']} LI-Adger sentences, {pll['masked_tokens']:,} "
        f"masked tokens; ours token_budget={pll['token_budget']} "
        f"({pll.get('runtime', 'torch')} runtime), minicons "
        f"{pll['minicons_batch_size']} sentence(s) per call",
        *_table(pll),
        f"  our passes are {100 * pll['ours_padding_fraction']:.1f}% padding",
    ]


def _causal_lines(causal: dict[str, Any]) -> list[str]:
    return [
        "",
        f"causal, sum: {causal['model']['path']} ({causal['model']['parameters'] / 1e6:,.1f}M "
        f"parameters), context token {causal['context_token']!r}, batch size "
        f"{causal['batch_size']} for both",
        *_table(causal),
        *(
            [
                f"  ours packed by {causal['ours']['packing']}: the decoder computed "
                f"{causal['ours']['positions_share']:.3f} of the positions"
            ]
            if causal["ours"].get("positions_share") is not None
            else []
        ),
    ]


def _long_lines(long: dict[str, Any]) -> list[str]:
    theirs = long["minicons"]
    theirs_text = (
        f"{_mib(theirs['peak_bytes'])} reached, then failed under a "
        f"{long['cap_bytes'] / _GIB:.0f} GiB cap ({theirs['error']})"
        if theirs["error"]
        else _mib(theirs["peak_bytes"])
    )
    return [
        "",
        f"long sentence: {long['tokens']} tokens (one sentence, {long['tokens'] - 2} masked copies)",
        f"  ours      peak {_mib(long['ours']['peak_bytes'])} "
        f"(budget {long['token_budget']} tokens ≈ {_mib(long['budget_bytes'])} estimated)",
        f"  minicons  peak {theirs_text} "
        f"(all copies in one pass ≈ {_mib(long['minicons_estimated_bytes'])} estimated)",
    ]


TARGETS = {"pll_share_of_limit": 0.80, "causal_speedup": 2.0, "report_seconds": 2.0}
"""The targets the last line reads each ratio against (docs/speed.md, "Targets")."""


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def format_ratio_line(result: dict[str, Any]) -> str:
    """The single last line: each ratio beside its target (:data:`TARGETS`), score agreement
    and the long-sentence memory."""
    pll = result["pll"]
    limit = f"limit {pll['limit_speedup']:.2f}x; " if "limit_speedup" in pll else ""
    parts = [f"PLL speed {pll['speedup']:.2f}x minicons ({limit}max |Δ| {pll['max_abs_diff']:.1e})"]
    if pll.get("limit_speedup"):
        share = pll["speedup"] / pll["limit_speedup"]
        goal = TARGETS["pll_share_of_limit"]
        parts[0] += (
            f", {100 * share:.0f}% of the limit (target ≥ {100 * goal:.0f}%: {_met(share >= goal)})"
        )
    causal = result["causal"]
    if causal is None:
        parts.append("causal skipped")
    else:
        goal = TARGETS["causal_speedup"]
        ours, theirs = causal["ours"].get("peak_bytes"), causal["minicons"].get("peak_bytes")
        memory = ""
        if ours is not None and theirs is not None:
            memory = f", peak {_mib(ours)} vs {_mib(theirs)} (target ≤: {_met(ours <= theirs)})"
        parts.append(
            f"causal speed {causal['speedup']:.2f}x minicons (target ≥ {goal:.0f}x: "
            f"{_met(causal['speedup'] >= goal)}; max |Δ| {causal['max_abs_diff']:.1e}){memory}"
        )
    report = result.get("report")
    if report is not None:
        goal = TARGETS["report_seconds"]
        parts.append(
            f"report {report['seconds']:.2f} s warm (target ≤ {goal:.0f} s: "
            f"{_met(report['seconds'] <= goal)})"
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
