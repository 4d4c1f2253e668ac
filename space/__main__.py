"""``python -m space``: serve the app on http://127.0.0.1:7860.

Options: ``--host`` and ``--port`` (defaults ``$GRADIO_SERVER_NAME`` / ``$GRADIO_SERVER_PORT``
as a Hugging Face Space sets them, else 127.0.0.1 and 7860), ``--results DIR`` (scores files to show beside the thesis's
reference models; default ``$ADC_RESULTS_DIR``, else ``results/`` in the working directory)
and ``--ceiling-splits N`` (split-halves for the human ceiling row; 0 leaves it out).

``python -m space push REPO_ID [--dry-run DIR] [--requirement LINE]`` publishes the app as a
Hugging Face Space instead (:mod:`space.publish`).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence

__all__ = ["main", "parse_args", "push"]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command-line options.

    Examples
    --------
    >>> a = parse_args(["--host", "127.0.0.1", "--port", "8000", "--results", "out"])
    >>> a.host, a.port, a.results, a.ceiling_splits
    ('127.0.0.1', 8000, 'out', 50)
    """
    p = argparse.ArgumentParser(
        prog="python -m space",
        description="Serve the ADC leaderboard and explorer (Gradio) for LI-Adger.",
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
        help="directory of scores files to show (default $ADC_RESULTS_DIR, else ./results)",
    )
    p.add_argument(
        "--ceiling-splits",
        type=int,
        default=50,
        metavar="N",
        help="split-halves for the human ceiling row (default 50; 0 leaves the row out)",
    )
    args = p.parse_args(argv)
    if not 0 < args.port < 65536:
        p.error(f"--port must be in 1..65535 (got {args.port})")
    if args.ceiling_splits < 0:
        p.error(f"--ceiling-splits must be >= 0 (got {args.ceiling_splits})")
    return args


def push(argv: Sequence[str]) -> int:
    """``push``: stage the Space folder and upload it (or write it, with ``--dry-run DIR``).

    Examples
    --------
    >>> push(["not a repo id", "--dry-run", "out"])  # the error goes to stderr
    2
    """

    from li_adger import hub
    from space.publish import DEFAULT_REQUIREMENT, stage_space

    p = argparse.ArgumentParser(
        prog="python -m space push", description="Publish the app as a Hugging Face Space."
    )
    hub.add_push_arguments(p)
    p.add_argument(
        "--requirement",
        default=DEFAULT_REQUIREMENT,
        help="the requirements.txt line that installs the app on the Space (default "
        f"{DEFAULT_REQUIREMENT!r}; e.g. 'li-adger-adc[space] @ git+https://...')",
    )
    args = p.parse_args(argv)
    try:
        result = hub.push_staged(
            args, lambda tmp: stage_space(tmp, requirement=args.requirement), repo_type="space"
        )
    except (hub.HubError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(hub.report_result(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Load the data, build the app and serve it until interrupted (or ``push``, see
    :func:`push`)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["push"]:
        return push(argv[1:])
    args = parse_args(argv)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    logging.basicConfig(level=logging.INFO, format="space: %(message)s", stream=sys.stderr)
    from space.app import CSS, build_app, theme
    from space.data import load_space_data

    start = time.perf_counter()
    data = load_space_data(args.results, ceiling_splits=args.ceiling_splits)
    logging.info(
        "loaded %d pairs and %d models in %.1f s%s",
        len(data.pairs),
        len(data.models),
        time.perf_counter() - start,
        "" if data.ceiling is None else " (with the human ceiling)",
    )
    demo = build_app(data)
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
        theme=theme(),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
