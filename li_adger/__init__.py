"""LI-Adger: 4,178 sentences with mean z-scored human acceptability judgements, in minimal pairs.

The package's ``data`` folder holds a committed build, so :func:`load` (one config as a
``datasets.Dataset``) and ``datasets.load_dataset("li_adger", config)`` from the repository
root need no build step; ``python -m li_adger build`` remakes it, byte for byte, from the
verified sources (see the dataset card, ``li_adger/README.md``, for what the data is and where
it comes from), and :func:`load` rebuilds a missing or damaged build.

``import li_adger`` is cheap: :func:`build` and :data:`DATA_DIR` (module
:mod:`li_adger.builder.build`) and :func:`load` (module :mod:`li_adger.loader`) are imported on
first use, since building needs pandas and pyarrow.

Examples
--------
>>> import li_adger
>>> li_adger.load("sentences").num_rows
4178
>>> li_adger.DATA_DIR.name
'data'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from li_adger.builder.build import DATA_DIR, build
    from li_adger.loader import load

__all__ = ["DATA_DIR", "build", "load"]

_LAZY = {
    "DATA_DIR": "li_adger.builder.build",
    "build": "li_adger.builder.build",
    "load": "li_adger.loader",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'li_adger' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
