"""``python -m space``: serve the app on http://127.0.0.1:7860.

Options: ``--host`` and ``--port`` (defaults ``$GRADIO_SERVER_NAME`` / ``$GRADIO_SERVER_PORT``
as a Hugging Face Space sets them, else 127.0.0.1 and 7860); ``--results DIR`` (scores files
to show, and where submissions wait for review; default ``$ADC_RESULTS_DIR``, else none);
``--results-repo REPO`` (keep submissions in that Hub dataset repository instead; default
``$ADC_RESULTS_REPO``); ``--dataset-repo REPO`` (read LI-Adger from its published Hub
repository; default ``$ADC_DATASET_REPO``, else the package's own build). On a Hugging Face
Space (``$SPACE_ID`` set) a submission needs the submitter's Hugging Face login.

``python -m space snapshot [--from DIR]`` refreshes the results that ship with the app
(:mod:`space.data.snapshot`); ``python -m space review [--approve NAME | --reject NAME]``
moderates the submissions (:mod:`space.data.review`); ``python -m space push REPO_ID
[--dry-run DIR] [--requirement LINE]`` publishes the app as a Hugging Face Space
(:mod:`space.publish`).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence

from space.data.dataset import DATASET_REPO_ENV
from space.data.store import RESULTS_REPO_ENV

__all__ = ["SPACE_ENV", "main", "parse_args", "push", "review", "snapshot"]

SPACE_ENV = "SPACE_ID"
"""Set by Hugging Face on a Space: submissions then need a Hugging Face login."""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command-line options of the server.

    Examples
    --------
    >>> a = parse_args(["--host", "127.0.0.1", "--port", "8000", "--results", "out"])
    >>> a.host, a.port, a.results, a.results_repo, a.dataset_repo
    ('127.0.0.1', 8000, 'out', None, None)
    """
    p = argparse.ArgumentParser(
        prog="python -m space",
        description="Serve the ADC leaderboard and explorer (Gradio) for LI-Adger and the "
        "benchmark family. Subcommands: 'snapshot' (refresh the shipped results), 'review' "
        "(approve or reject submissions), 'push' (publish the app as a Hugging Face Space).",
    )
    p.add_argument(
        "--host",
        default=os.environ.get("GRADIO_SERVER_NAME") or "127.0.0.1",
        help="interface to listen on (default $GRADIO_SERVER_NAME, else 127.0.0.1)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("GRADIO_SERVER_PORT") or 7860),
        help="port (default $GRADIO_SERVER_PORT, else 7860)",
    )
    p.add_argument(
        "--results",
        default=None,
        metavar="DIR",
        help="scores files to show, and where submissions wait for review (default "
        "$ADC_RESULTS_DIR, else none)",
    )
    p.add_argument(
        "--results-repo",
        default=os.environ.get(RESULTS_REPO_ENV) or None,
        metavar="REPO",
        help=f"keep submissions in this Hub dataset repository instead (default "
        f"${RESULTS_REPO_ENV})",
    )
    p.add_argument(
        "--dataset-repo",
        default=os.environ.get(DATASET_REPO_ENV) or None,
        metavar="REPO",
        help=f"read LI-Adger from this published Hub dataset (default ${DATASET_REPO_ENV}, "
        "else the package's own build)",
    )
    args = p.parse_args(argv)
    if not 0 < args.port < 65536:
        p.error(f"--port must be in 1..65535 (got {args.port})")
    results = args.results
    if results is not None and os.path.exists(results) and not os.path.isdir(results):
        p.error(f"--results {results} is a file; expected a folder of scores files")
    return args


def push(argv: Sequence[str]) -> int:
    """``push``: stage the Space folder and upload it (or write it, with ``--dry-run DIR``).

    Examples
    --------
    >>> push(["not a repo id", "--dry-run", "out"])  # the error goes to stderr
    2
    """

    from li_adger import hub
    from space.publish import stage_space

    p = argparse.ArgumentParser(
        prog="python -m space push", description="Publish the app as a Hugging Face Space."
    )
    hub.add_push_arguments(p)
    p.add_argument(
        "--requirement",
        default=None,
        metavar="LINE",
        help="install the project on the Space by this requirements.txt line (e.g. "
        "'li-adger-adc[space] @ git+https://...@<commit>') instead of shipping its packages, "
        "unpacked from a wheel built from this checkout, in the Space (the default)",
    )
    args = p.parse_args(argv)
    try:
        result = hub.push_staged(
            args,
            lambda tmp: stage_space(tmp, requirement=args.requirement, repo_id=args.repo_id),
            repo_type="space",
        )
    except (hub.HubError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(hub.report_result(result))
    return 0


def snapshot(argv: Sequence[str]) -> int:
    """``snapshot``: refresh the shipped results from a folder of scores files."""
    from space.data.snapshot import main as run

    return run(argv)


def review(argv: Sequence[str]) -> int:
    """``review``: list, approve or reject the submissions waiting for review."""
    from space.data.review import main as run

    return run(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Load the data, build the app and serve it until interrupted (or run a subcommand:
    :func:`snapshot`, :func:`review`, :func:`push`)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    commands = {"push": push, "snapshot": snapshot, "review": review}
    if argv[:1] and argv[0] in commands:
        return commands[argv[0]](argv[1:])
    args = parse_args(argv)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    logging.basicConfig(level=logging.INFO, format="space: %(message)s", stream=sys.stderr)
    from space.data.loaders import load_space_data
    from space.ui.app import CSS, JS, build_app, theme

    start = time.perf_counter()
    on_space = bool(os.environ.get(SPACE_ENV))
    data = load_space_data(
        args.results,
        dataset_repo=args.dataset_repo,
        results_repo=args.results_repo,
        require_login=on_space,
    )
    logging.info(
        "loaded %d pairs, %d LI-Adger models and %d other benchmarks in %.1f s%s",
        len(data.pairs),
        len(data.models),
        len(data.benchmarks),
        time.perf_counter() - start,
        "" if data.ceiling is None else " (with the human ceiling)",
    )
    for note in data.notes:
        logging.info("%s", note)
    demo = build_app(data, login=on_space)
    demo.queue(default_concurrency_limit=4)
    demo.launch(
        server_name=args.host,
        server_port=args.port,
        ssr_mode=False,
        show_error=True,
        max_file_size="64mb",
        footer_links=["api"],
        state_session_capacity=1000,
        css=CSS,
        js=JS,
        theme=theme(),
    )
    return 0


if __name__ == "__main__":
    from li_adger.io.cli_args import run_command

    sys.exit(run_command(main))
