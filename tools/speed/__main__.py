"""``python -m tools.speed``: the speed benchmark (:mod:`tools.speed.cli`)."""

import sys

from tools.speed.cli import main

if __name__ == "__main__":
    sys.exit(main())
