"""``npi-methods RUN...``: the NPI paper's grids from NPI runs and probe files.

Prints, for each model of the runs (a fine-tuned encoder, or the bag of words): Fig. 1 (MCC per
configuration × environment, plus the Wilcox sentences), Fig. 2 (absolute and gradient
minimal-pair accuracy per contrast, configuration and environment, a tie counted as a gradient
failure and the share of tied pairs given where there are any); then Fig. 4 (the probes'
MCC per feature and environment, one row per probe file). Each model's caps are said:
"capped (train_cap=…)" only when a cap was smaller than the sentences available, otherwise
"uncapped", with a cap that covered every sentence named as such. ``--json`` prints the same
as one object.
"""

from __future__ import annotations

import argparse
from typing import Any

from li_adger.benchmarks.npi import ENVIRONMENTS
from li_adger.benchmarks.npi_configurations import CONFIGURATIONS, TITLES
from li_adger.io.text_table import fmt, markdown_table, text_table
from metric_adc.cli.common import add_output_options, dump

__all__ = ["add_npi_methods_parser", "npi_methods", "run_npi_methods"]

_FEATURES = ("npi_present", "licensor", "scope")


def add_npi_methods_parser(sub) -> argparse.ArgumentParser:
    """Register ``npi-methods`` on the subparsers ``sub``."""
    p = sub.add_parser("npi-methods", help="the NPI paper's Figs. 1, 2 and 4 from NPI runs")
    p.add_argument("runs", nargs="+", metavar="RUN",
                   help="NPI run folders, folders of them, or probe.json files")  # fmt: skip
    add_output_options(p, json_help="print the grids as one JSON object")
    p.set_defaults(func=run_npi_methods)
    return p


def npi_methods(paths: list[str]) -> dict[str, Any]:
    """The grids of every model in ``paths`` (the ``--json`` object)."""
    from metric_adc.npi_methods.grids import acceptability_grid, pair_grid
    from metric_adc.npi_methods.inputs import read_inputs, read_pairs

    inputs = read_inputs(paths)
    environments = list(ENVIRONMENTS)
    models = {}
    if inputs.units:
        pairs, test_ids = read_pairs(environments)
        for model, units in inputs.units.items():
            models[model] = {
                "units": len(units),
                "caps": sorted(inputs.caps[model]),
                "capped": inputs.capped[model],
                "cola_fine_tunes": inputs.cola_fine_tunes.get(model, []),
                "acceptability_mcc": acceptability_grid(units, environments, test_ids),
                "minimal_pairs": pair_grid(units, environments, pairs),
            }
    probes = [
        {
            "encoder": p.get("encoder"),
            "configuration": p.get("configuration"),
            "path": p["path"],
            "capped": bool(p.get("capped")),
            "train_cap": p.get("train_cap"),
            "test_cap": p.get("test_cap"),
            "mcc": {
                f: {r["environment"]: r["mcc"] for r in p["rows"] if r["feature"] == f}
                for f in _FEATURES
            },
        }
        for p in inputs.probes
    ]
    return {"models": models, "probes": probes}


def _short(env: str) -> str:
    return ENVIRONMENTS[env]


def _tie_share(share: float | None) -> str:
    """A cell of a ties row: blank where no pair tied, ``<0.01`` for a share that rounds to 0.

    Examples
    --------
    >>> _tie_share(None), _tie_share(0.0), _tie_share(0.001), _tie_share(0.62)
    ('', '', '<0.01', '0.62')
    """
    if not share:
        return ""
    return "<0.01" if share < 0.005 else fmt(share, 2)


def _print(result: dict[str, Any], markdown: bool) -> None:
    from metric_adc.npi_methods.inputs import caps_text

    table = markdown_table if markdown else text_table
    envs = list(ENVIRONMENTS)
    for model, data in result["models"].items():
        capped = caps_text(data["caps"], data["capped"])
        print(f"== {model}: {data['units']} classifiers (units × seeds), {capped}")
        if data["cola_fine_tunes"]:
            print(
                f"the CoLA configuration reused the fine-tunes {', '.join(data['cola_fine_tunes'])}"
            )
        print("Fig. 1: MCC on the test sentences, and on the Wilcox sentences")
        rows = [
            [TITLES[c], *(fmt(data["acceptability_mcc"][c][e], 2) for e in [*envs, "wilcox"])]
            for c in CONFIGURATIONS
        ]
        print(table(["configuration", *map(_short, envs), "Wilcox"], rows))
        for contrast in _FEATURES:
            print(
                f"Fig. 2, {contrast} pairs: absolute / gradient accuracy (a tie, both sentences "
                "equally probably acceptable, counts as a gradient failure; a ties row gives "
                "the share of tied pairs where there are any)"
            )
            rows = []
            for c in CONFIGURATIONS:
                cells = data["minimal_pairs"][c][contrast]
                for kind in ("absolute", "gradient"):
                    rows.append([f"{TITLES[c]} {kind}", *(fmt(cells[e][kind], 2) for e in envs)])
                ties = [cells[e].get("ties") for e in envs]
                if any(ties):
                    rows.append([f"{TITLES[c]} ties", *map(_tie_share, ties)])
            print(table(["configuration", *map(_short, envs)], rows))
        print()
    if result["probes"]:
        print("Fig. 4: probing MCC")
        rows = []
        for p in result["probes"]:
            name = p["encoder"] + (f" ({p['configuration']})" if p["configuration"] else "")
            if p["capped"]:
                caps = [f"{k} {p[k + '_cap']}" for k in ("train", "test") if p[k + "_cap"]]
                name += f", capped ({', '.join(caps)})"
            for f in _FEATURES:
                rows.append([f"{name}: {f}", *(fmt(p["mcc"][f].get(e), 2) for e in envs)])
        print(table(["probe", *map(_short, envs)], rows))


def run_npi_methods(args: argparse.Namespace) -> int:
    """Run ``npi-methods``."""
    result = npi_methods(args.runs)
    if args.json:
        print(dump(result))
    else:
        _print(result, args.markdown)
    return 0
