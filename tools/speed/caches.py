"""The caches section of the speed benchmark: what checking a cached model folder costs.

``python -m tools.speed.caches`` times :func:`baselines.models.manifest.manifest_problem` on a
cached model folder — the converted SmolLM2 folder by default (converted first if need be,
:func:`baselines.models.smollm2.converted_model_dir`) — with sizes only and with SHA-256s,
``--repeats`` times each (the file is in the page cache after the first read), next to the time
``transformers`` takes to load the model from it. It prints the folder's size and the median,
least and greatest seconds of each, and with ``--json`` saves them. Method and results:
``docs/speed.md`` (Caches).

Examples
--------
>>> result = {"machine": {"cpu": "X", "cpus": 2}, "folder": "smollm2", "bytes": 538_000_000,
...           "sizes": [0.0003, 0.0004, 0.0003], "hashes": [0.6, 0.8, 0.7], "load": [1.5]}
>>> print(format_caches(result))
caches: smollm2, 538.0 MB; X, 2 CPUs
check                  median s    least s  greatest s
sizes                    0.0003     0.0003      0.0004
sizes and SHA-256        0.7000     0.6000      0.8000
model load (context)     1.5000     1.5000      1.5000
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from li_adger.io.atomic import atomic_write_text

__all__ = ["build_parser", "format_caches", "main", "time_checks"]

_ROWS = (("sizes", "sizes"), ("hashes", "sizes and SHA-256"), ("load", "model load (context)"))


def build_parser() -> argparse.ArgumentParser:
    """The caches section's argument parser.

    Examples
    --------
    >>> build_parser().parse_args([]).repeats
    5
    """
    p = argparse.ArgumentParser(
        prog="python -m tools.speed.caches", description=(__doc__ or "").split("\n\n")[0]
    )
    p.add_argument(
        "--folder", type=Path, help="a cached model folder (default: the converted SmolLM2)"
    )
    p.add_argument("--repeats", type=int, default=5, help="timings of each check (5)")
    p.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    return p


def _seconds(call: Any) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def time_checks(folder: Path, repeats: int) -> dict[str, Any]:
    """The seconds of each check of ``folder`` (``repeats`` each, after one untimed check
    that reads the files into the page cache) and of one model load from it."""
    from baselines.models.manifest import folder_files, manifest_problem

    problem = manifest_problem(folder, hashes=True)
    if problem is not None:
        raise ValueError(f"{folder} does not match its manifest: {problem}")
    out: dict[str, Any] = {
        "folder": str(folder),
        "bytes": sum((folder / name).stat().st_size for name in folder_files(folder)),
        "sizes": [_seconds(lambda: manifest_problem(folder)) for _ in range(repeats)],
        "hashes": [_seconds(lambda: manifest_problem(folder, hashes=True)) for _ in range(repeats)],
    }
    if (folder / "config.json").is_file():
        from transformers import AutoModel

        out["load"] = [_seconds(lambda: AutoModel.from_pretrained(folder))]
    return out


def format_caches(result: dict[str, Any]) -> str:
    """The figures as a small table (see the module's example)."""
    machine = result["machine"]
    lines = [
        f"caches: {result['folder']}, {result['bytes'] / 1e6:.1f} MB; "
        f"{machine['cpu']}, {machine['cpus']} CPUs",
        f"{'check':<20} {'median s':>10} {'least s':>10} {'greatest s':>11}",
    ]
    for key, label in _ROWS:
        if key in result:
            seconds = result[key]
            lines.append(
                f"{label:<20} {statistics.median(seconds):>10.4f} {min(seconds):>10.4f} "
                f"{max(seconds):>11.4f}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the caches section; returns the exit status."""
    from tools.speed.run import machine_info

    args = build_parser().parse_args(argv)
    if args.repeats < 1:
        raise SystemExit(f"--repeats must be >= 1 (got {args.repeats})")
    if args.folder is None:
        from baselines.models.smollm2 import converted_model_dir

        folder = converted_model_dir()
    else:
        folder = args.folder
    result = {"machine": machine_info(0, "cpu"), **time_checks(folder, args.repeats)}
    print(format_caches(result))
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
