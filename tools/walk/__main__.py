"""``python -m tools.walk COMMAND ARGS... [--trace]``: measure a command's call walk."""

from __future__ import annotations

import sys
from pathlib import Path

from tools.walk.counts import walk_counts
from tools.walk.trace import HANDLERS, trace_command


def main(argv: list[str] | None = None) -> int:
    """Trace the command, then print the counts (and, with ``--trace``, every stop) to stderr.

    The counts go to stderr so that the command's own output on stdout stays apart.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    show = "--trace" in args
    args = [arg for arg in args if arg != "--trace"]
    if not args or args[0] not in HANDLERS:
        sys.exit(f"usage: python -m tools.walk {{{','.join(HANDLERS)}}} ARGS... [--trace]")
    root = Path(__file__).resolve().parents[2]
    stops = trace_command(root, args, HANDLERS[args[0]])
    print(walk_counts(stops).line(), file=sys.stderr)
    if show:
        for file, function in stops:
            print(file, function, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
