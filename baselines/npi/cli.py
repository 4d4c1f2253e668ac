"""The ``probe`` and ``bow`` commands of ``python -m baselines`` (the NPI paper's §3 methods).

- ``probe --model M --out FILE``: linear probes for licensor, NPI presence and scope on the
  frozen representations of the encoder ``M`` (``minilm``: the packaged all-MiniLM-L6-v2;
  ``minilm-cola``: its CoLA fine-tune; or a local folder), per environment; with ``--run
  RUN_DIR`` instead, the fine-tuned models a run saved (``--save-models``), each probing the
  environments its configuration evaluates it on (a folder of unit runs: with
  ``--configuration``).
- ``bow --out DIR``: the bag-of-words baseline over the chosen configurations, then its probes;
  ``--vectors FILE`` a GloVe text file, else the input embeddings of ``--embeddings-of M``.

Examples
--------
>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_probe_parser(sub).parse_args(["--out", "p.json", "--train-cap", "500"]).train_cap
500
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from li_adger.io.cli_args import int_at_least

__all__ = ["add_bow_parser", "add_probe_parser", "encoder_folder", "environments_option"]


def environments_option(text: str) -> list[str]:
    """``--environments``: ``all`` or comma-separated environment names.

    Examples
    --------
    >>> environments_option("only,adverbs")
    ['adverbs', 'only']
    """
    from li_adger.benchmarks.npi_units import environments_from

    try:
        return environments_from(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _configurations(text: str) -> list[str]:
    from li_adger.benchmarks.npi_configurations import CONFIGURATIONS

    names = list(CONFIGURATIONS) if text == "all" else [t.strip() for t in text.split(",")]
    for name in names:
        if name not in CONFIGURATIONS:
            raise argparse.ArgumentTypeError(
                f"unknown configuration {name!r}; expected 'all' or some of {', '.join(CONFIGURATIONS)}"
            )
    return names


def encoder_folder(name: str) -> Path:
    """The local folder of an encoder: ``minilm``, ``minilm-cola`` or a folder.

    Examples
    --------
    >>> encoder_folder("no/such/folder")
    Traceback (most recent call last):
    ...
    FileNotFoundError: --model: 'no/such/folder' is neither 'minilm', 'minilm-cola' nor a model folder
    """
    if name == "minilm":
        from baselines.models.minilm import packaged_encoder_path

        return packaged_encoder_path()
    if name == "minilm-cola":
        from baselines.models.minilm import minilm_cola_path

        return minilm_cola_path()
    path = Path(name)
    if not (path / "config.json").is_file():
        raise FileNotFoundError(
            f"--model: {name!r} is neither 'minilm', 'minilm-cola' nor a model folder"
        )
    return path


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--environments",
        type=environments_option,
        default="all",
        help="'all' (default) or comma-separated environment names",
    )
    parser.add_argument(
        "--train-cap",
        type=int_at_least(1),
        default=None,
        help="the first N training sentences of each environment (default all 10,000)",
    )
    parser.add_argument("--seed", type=int_at_least(0), default=0)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_probe_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``probe``."""
    parser = sub.add_parser("probe", help="linear probes for licensor, NPI and scope (Fig. 4)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--model", default="minilm", help="encoder: minilm, minilm-cola or a folder"
    )
    source.add_argument(
        "--run", default=None, help="a fine-tuned NPI run folder whose saved models to probe"
    )
    parser.add_argument(
        "--configuration",
        default=None,
        help="with --run on a folder of unit runs: cola, 1npi, all-but-1 or all",
    )
    parser.add_argument("--out", required=True, help="the probe.json to write")
    parser.add_argument("--device", default="cpu")
    parser.add_argument(
        "--test-cap",
        type=int_at_least(1),
        default=None,
        help="the first N test sentences of each environment (default all 1,000)",
    )
    _common(parser)
    parser.set_defaults(run_command=_probe)
    return parser


def add_bow_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``bow``."""
    parser = sub.add_parser("bow", help="the bag-of-words baseline (max-pooled vectors + MLP)")
    parser.add_argument(
        "--configuration",
        type=_configurations,
        default="1npi,avg-other,all-but-1,all",
        help="'all' or comma-separated configurations (default all but cola)",
    )
    vectors = parser.add_mutually_exclusive_group()
    vectors.add_argument("--vectors", default=None, help="a GloVe text file (word v1 ... vd)")
    vectors.add_argument(
        "--embeddings-of",
        default="minilm",
        help="without --vectors: this encoder's input embeddings (default minilm)",
    )
    parser.add_argument("--out", required=True, help="the folder of the unit run folders")
    parser.add_argument(
        "--eval-cap",
        type=int_at_least(1),
        default=None,
        help="the first N test sentences of each environment (default all 1,000)",
    )
    parser.add_argument("--no-probe", action="store_true", help="skip the feature probes")
    _common(parser)
    parser.set_defaults(run_command=_bow)
    return parser


def _paths(environments: list[str]) -> dict[str, Path]:
    from li_adger.benchmarks.npi_units import source_files
    from li_adger.sources import find_sources

    return find_sources(source_files(environments))


def _probe(args: argparse.Namespace) -> int:
    from baselines.npi.probe import run_probes, write_probe_file
    from baselines.npi.representations import POOLING

    paths = _paths(args.environments)
    if args.run is not None:
        from baselines.npi.assign import probe_assignments

        assignments, configuration, encoder = probe_assignments(
            args.run, args.environments, args.configuration
        )
    else:
        folder = encoder_folder(args.model)
        assignments = dict.fromkeys(args.environments, folder)
        configuration, encoder = None, args.model
    rows, costs = run_probes(
        assignments,
        paths,
        train_cap=args.train_cap,
        test_cap=args.test_cap,
        seed=args.seed,
        device=args.device,
        progress=not args.quiet,
    )
    write_probe_file(
        args.out,
        rows,
        encoder=encoder,
        representation=POOLING,
        train_cap=args.train_cap,
        test_cap=args.test_cap,
        costs=costs,
        configuration=configuration,
    )
    capped = (
        f", capped at {args.train_cap} training sentences per environment" if args.train_cap else ""
    )
    print(f"wrote {len(rows)} probes to {args.out}{capped} ({json.dumps(costs)})")
    return 0


def _bow(args: argparse.Namespace) -> int:
    from baselines.npi.bow import glove_vectors, input_embedding_vectors, words
    from baselines.npi.bow_run import run_bow
    from li_adger.benchmarks.npi_units import eval_sets, train_examples

    paths = _paths(args.environments)
    if args.vectors is not None:
        vocabulary = {
            w
            for text, _ in train_examples(paths, args.environments, args.train_cap)
            for w in words(text)
        }
        vocabulary |= {
            w
            for items in eval_sets(paths, args.environments).values()
            for _, text, _ in items
            for w in words(text)
        }
        vectors = glove_vectors(args.vectors, vocabulary)
    else:
        vectors = input_embedding_vectors(encoder_folder(args.embeddings_of), args.embeddings_of)
    run_bow(
        vectors,
        paths,
        args.out,
        configurations=args.configuration,
        environments=args.environments,
        train_cap=args.train_cap,
        eval_cap=args.eval_cap,
        seed=args.seed,
        probe=not args.no_probe,
        progress=not args.quiet,
    )
    capped = (
        f", capped at {args.train_cap} training sentences per environment" if args.train_cap else ""
    )
    print(f"bag of words with {vectors.source}: {args.out}{capped}")
    return 0
