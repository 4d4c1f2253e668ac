"""``python -m tools.walk COMMAND ARGS... [--trace] [--returns]``: measure a command's call walk."""

from __future__ import annotations

import sys
from pathlib import Path

from tools.walk.counts import return_steps, walk_counts
from tools.walk.trace import HANDLERS, trace_command


def main(argv: list[str] | None = None) -> int:
    """Trace the command, then print the counts to stderr; ``--trace`` adds every stop and
    ``--returns`` every return (file left → file re-entered: function).

    The counts go to stderr so that the command's own output on stdout stays apart.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    show, returns = "--trace" in args, "--returns" in args
    args = [arg for arg in args if arg not in ("--trace", "--returns")]
    if not args or args[0] not in HANDLERS:
        sys.exit(
            f"usage: python -m tools.walk {{{','.join(HANDLERS)}}} ARGS... [--trace] [--returns]"
        )
    root = Path(__file__).resolve().parents[2]
    stops = trace_command(root, args, HANDLERS[args[0]])
    print(walk_counts(stops).line(), file=sys.stderr)
    if show:
        for file, function in stops:
            print(file, function, file=sys.stderr)
    if returns:
        for left, entered, function in return_steps(stops):
            print(f"{left} -> {entered}: {function}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
