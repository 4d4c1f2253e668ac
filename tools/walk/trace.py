"""Run a ``metric_adc`` command under a tracer and list its stops (see :mod:`tools.walk`)."""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from types import FrameType
from typing import Any

PACKAGES = ("li_adger", "metric_adc", "baselines", "space")
HANDLERS = {"report": "run_report"}


def trace_command(root: Path, args: list[str], start: str) -> list[tuple[str, str]]:
    """Run ``python -m metric_adc ARGS`` in this process; return its stops from ``start`` on.

    Each stop is ``(file relative to root, function name)``, once per function, in first-call
    order; the command's own output goes to stdout/stderr as usual.
    """
    prefixes = tuple(str(root / package) + os.sep for package in PACKAGES)
    seen: dict[tuple[str, str], None] = {}
    started = False

    def tracer(frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal started
        if event != "call":
            return None
        code = frame.f_code
        in_project = code.co_filename.startswith(prefixes)
        if not started:
            if not (in_project and code.co_name == start):
                return None
            started = True
        if in_project and not code.co_name.startswith("<"):
            seen.setdefault((os.path.relpath(code.co_filename, root), code.co_name), None)
        return None

    saved_argv = sys.argv
    sys.argv = ["metric_adc", *args]
    sys.settrace(tracer)
    try:
        runpy.run_module("metric_adc", run_name="__main__")
    except SystemExit:
        pass
    finally:
        sys.settrace(None)
        sys.argv = saved_argv
    return list(seen)
