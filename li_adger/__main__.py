"""Command line: ``python -m li_adger build [--source DIR]``, ``python -m li_adger summary`` and
``python -m li_adger push REPO_ID [--private] [--token T] [--dry-run DIR]`` (the dataset's Hub
repository: the card and the three Parquet files, see :mod:`li_adger.hub.dataset`).

Bad input (a missing, unreadable or damaged source file or build, a bad repo id, no network)
ends with one line on standard error that names the file and what to do, and exit status 1
(2 for a missing build or a usage error)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from li_adger import hub
from li_adger.builder import build as builder
from li_adger.io.inputs import InputOverwriteError
from li_adger.io.readers import InputFileError
from li_adger.sources import ChecksumError, SourceNotFoundError


def _print_build(data_dir, as_json: bool) -> None:
    report = builder.read_report(data_dir)
    counts = builder.summary(data_dir)
    if as_json:
        print(
            json.dumps(
                {
                    "data_dir": str(data_dir),
                    "summary": counts,
                    "anomalies": {a["kind"]: a["count"] for a in report["anomalies"]},
                },
                indent=1,
            )
        )
        return
    not_verified = [s["path"] for s in report["sources"] if not s["verified"]]
    if not_verified:
        print(
            f"WARNING: sources not checked against their pinned SHA-256: {', '.join(not_verified)}"
        )
    print(f"anomalies (details in {data_dir / builder.REPORT_FILE}; none dropped):")
    for a in report["anomalies"]:
        print(f"  {a['kind']}: {a['count']}")
    thesis = report["thesis_counts"]
    total = counts["total"]
    print(
        f"thesis: {thesis['phenomena_LI']} LI / {thesis['phenomena_Adger']} Adger phenomena, "
        f"{thesis['sentence_types']} sentence types; data: {counts['LI']['phenomena']} / "
        f"{counts['Adger']['phenomena']}, {total['conditions']} (see li_adger/README.md)"
    )
    print()
    print(builder.format_summary(counts))


def _push(args: argparse.Namespace) -> str:
    from li_adger.hub.dataset import stage_dataset

    result = hub.push_staged(
        args,
        lambda tmp: stage_dataset(tmp, repo_id=args.repo_id, data_dir=args.data_dir),
        repo_type="dataset",
    )
    return hub.report_result(result)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Examples
    --------
    >>> main(["summary", "--data-dir", "/nonexistent/li_adger/data"])  # the error: stderr
    2
    """
    parser = argparse.ArgumentParser(prog="python -m li_adger", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build li_adger/data/ from the verified source files")
    b.add_argument("--source", help="source folder (layout of shared/data); default: lookup order")
    b.add_argument("--data-dir", help="output folder (default: li_adger/data)")
    b.add_argument(
        "--no-verify",
        action="store_true",
        help="skip the SHA-256 check (only with --source, for a modified copy)",
    )
    b.add_argument("--json", action="store_true", help="print the summary as JSON")
    s = sub.add_parser("summary", help="counts by source from the built data")
    s.add_argument("--data-dir", help="data folder (default: li_adger/data)")
    s.add_argument("--json", action="store_true", help="print JSON")
    u = sub.add_parser(
        "push", help="publish the dataset (card and Parquet files) to a Hub dataset repo"
    )
    hub.add_push_arguments(u)
    u.add_argument(
        "--data-dir", help="the build to publish (default: li_adger/data; built if absent)"
    )
    args = parser.parse_args(argv)

    try:
        if args.command == "build":
            if args.no_verify and not args.source:
                parser.error("--no-verify needs --source")
            data_dir = builder.build(
                args.source,
                data_dir=args.data_dir,
                verify=not args.no_verify,
                echo=None if args.json else print,
            )
            _print_build(data_dir, args.json)
        elif args.command == "push":
            print(_push(args))
        else:
            counts = builder.summary(args.data_dir)
            print(json.dumps(counts, indent=1) if args.json else builder.format_summary(counts))
    except (
        SourceNotFoundError,
        ChecksumError,
        InputFileError,  # a source file that cannot be read or built from (BuildError)
        builder.DamagedBuildError,
        hub.HubError,
    ) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except InputOverwriteError as exc:  # --data-dir holding a source file
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:  # no build in --data-dir
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # e.g. a --data-dir that is a file, or not writable
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    from li_adger.io.cli_args import run_command

    sys.exit(run_command(main))
