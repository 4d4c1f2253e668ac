"""Where models made on first use are cached (SmolLM2 converted from GGUF, ``minilm-cola``).

The folder is ``$LI_ADGER_MODELS`` when that variable is set, else ``models`` in the project's
user cache (:func:`li_adger.sources.cache_root`: ``$LI_ADGER_CACHE``, else
``~/.cache/li_adger``); each model has a sub-folder of its own (``smollm2``, ``minilm-cola``).

Examples
--------
>>> models_dir({"LI_ADGER_MODELS": "/data/models"})
PosixPath('/data/models')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from li_adger.sources import cache_root

__all__ = ["models_dir"]


def models_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder cached models live in (see the module docs for the lookup order).

    ``environ`` defaults to :data:`os.environ`.

    Examples
    --------
    >>> models_dir({"LI_ADGER_CACHE": "/tmp/cache"})
    PosixPath('/tmp/cache/models')
    >>> models_dir({}) == Path.home() / ".cache" / "li_adger" / "models"
    True
    """
    env = os.environ if environ is None else environ
    if env.get("LI_ADGER_MODELS"):
        return Path(env["LI_ADGER_MODELS"]).expanduser()
    return cache_root(env) / "models"
