"""The NPI paper's methods as the app ships them (``space/results/npi_methods/<name>.json``):
the grids of ``python -m metric_adc npi-methods`` (Fig. 1 MCC per configuration and
environment with the Wilcox sentences, Fig. 2 absolute and gradient minimal pairs by contrast,
Fig. 4 probing MCC, the bag of words as one more model), ids and numbers only, never a sentence.

:func:`snapshot_npi_methods` writes one file from NPI run folders and probe files, with what the
runs say about themselves (each model's units, caps, epochs, dates and machine; the CoLA
fine-tunes its CoLA configuration reused are in the grids' result); file paths are reduced to their last parts::

    python -m space.data.npi_methods runs/npi-minilm-finetune runs/npi-minilm-bow \\
        runs/npi-minilm-probes/*.json --name npi-minilm

:func:`read_npi_methods` reads the shipped files at start-up (no source file needed).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from li_adger.io.atomic import atomic_write_text
from space.data.names import slug
from space.data.shipped import SHIPPED_DIR

__all__ = ["FORMAT", "NPI_METHODS_DIR", "read_npi_methods", "run_facts", "snapshot_npi_methods"]

NPI_METHODS_DIR = SHIPPED_DIR / "npi_methods"
FORMAT = "adc-npi-methods"


def _short(path: str | Path, parts: int = 2) -> str:
    """The last ``parts`` parts of a path (the page names no server folder).

    Examples
    --------
    >>> _short("/tmp/x/runs/minilm-cola/model-0"), _short("p.json", 1)
    ('minilm-cola/model-0', 'p.json')
    """
    return "/".join(Path(path).parts[-parts:])


def _run_jsons(paths: Sequence[str | Path]) -> list[dict[str, Any]]:
    out = []
    for given in map(Path, paths):
        if not given.is_dir():
            continue
        found = [given / "run.json"] if (given / "run.json").is_file() else sorted(
            p / "run.json" for p in given.iterdir() if (p / "run.json").is_file()
        )  # fmt: skip
        out += [json.loads(p.read_text(encoding="utf-8")) for p in found]
    return out


def run_facts(runs: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per model (the specs' ``model``): its epochs, machines and dates.

    Examples
    --------
    >>> run = {"spec": {"model": "m", "epochs": 1}, "created": "2026-11-27T22:24:01+00:00",
    ...        "machine": "AMD EPYC"}
    >>> run_facts([run])["m"]
    {'epochs': [1], 'machines': ['AMD EPYC'], 'dates': ['2026-11-27']}
    """
    facts: dict[str, dict[str, Any]] = {}
    for run in runs:
        spec = run.get("spec", {})
        f = facts.setdefault(
            str(spec.get("model")),
            {"epochs": set(), "machines": set(), "dates": set()},
        )
        if spec.get("epochs") is not None:
            f["epochs"].add(spec["epochs"])
        f["machines"].add(str(run.get("machine", "?")))
        f["dates"].add(str(run.get("created", "?"))[:10])
    return {m: {k: sorted(v) for k, v in f.items()} for m, f in facts.items()}


def snapshot_npi_methods(
    paths: Sequence[str | Path], *, name: str, out: str | Path = NPI_METHODS_DIR
) -> Path:
    """Write ``out/<name>.json`` from the NPI runs and probe files ``paths``; its path."""
    from metric_adc.cli.npi_methods import npi_methods

    result = npi_methods([str(p) for p in paths])
    for probe in result["probes"]:
        probe["path"] = _short(probe["path"])
    record = {
        "format": FORMAT,
        "version": 1,
        "name": name,
        "inputs": [_short(p) for p in paths],
        "facts": run_facts(_run_jsons(paths)),
        **result,
    }
    path = Path(out) / f"{slug(name)}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False)
    return atomic_write_text(path, text + "\n")


def read_npi_methods(folder: str | Path = NPI_METHODS_DIR) -> list[dict[str, Any]]:
    """The shipped records, by file name; a file of another format is refused, naming it.

    Examples
    --------
    >>> import tempfile
    >>> read_npi_methods(tempfile.mkdtemp())
    []
    """
    folder = Path(folder)
    records = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise ValueError(f"{path.name}: 'format' must be {FORMAT!r}")
        records.append(record)
    return records


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m space.data.npi_methods RUN... --name NAME [--out DIR]``."""
    p = argparse.ArgumentParser(
        prog="python -m space.data.npi_methods", description=__doc__.split("\n")[0]
    )
    p.add_argument("runs", nargs="+", metavar="RUN",
                   help="NPI run folders, folders of them, or probe.json files")  # fmt: skip
    p.add_argument("--name", required=True, help="the shipped file's name (e.g. npi-minilm)")
    p.add_argument("--out", default=str(NPI_METHODS_DIR),
                   help=f"folder written (default {NPI_METHODS_DIR})")  # fmt: skip
    args = p.parse_args(argv)
    try:
        written = snapshot_npi_methods(args.runs, name=args.name, out=args.out)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
