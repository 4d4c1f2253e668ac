"""Where each built-in model lives on this machine: the path to give other tools.

lm-evaluation-harness, for one, loads a local model with ``--model_args pretrained=FOLDER``;
``python -m baselines models`` prints these paths. A model made on first use (SmolLM2 converted
from its GGUF, the CoLA fine-tune of MiniLM) is in the model cache
(:func:`baselines.models.cache.models_dir`) once a ``score`` run has made it.

Examples
--------
>>> import os, tempfile
>>> os.environ["LI_ADGER_MODELS"] = tempfile.mkdtemp()
>>> path, ready = local_path("smollm2")
>>> path.name, ready
('smollm2', False)
>>> del os.environ["LI_ADGER_MODELS"]
"""

from __future__ import annotations

from pathlib import Path

from baselines.models.cache import models_dir

__all__ = ["local_path"]


def local_path(name: str) -> tuple[Path, bool]:
    """The local file or folder of the built-in model ``name`` and whether it is there yet.

    ``trigram`` is pocketsphinx's model file; ``smollm2`` the transformers folder converted
    from the GGUF; ``minilm-cola`` the fine-tuned checkpoint.

    Examples
    --------
    >>> local_path("trigram")[0].name
    'en-us.lm.bin'
    >>> local_path("gpt2")
    Traceback (most recent call last):
    ...
    ValueError: 'gpt2' is not a built-in model; expected one of 'trigram', 'smollm2', 'minilm-cola'
    """
    if name == "trigram":
        from baselines.models.ngram_file import default_lm_path

        path = default_lm_path()
        return path, path.is_file()
    if name == "smollm2":
        from baselines.models import smollm2

        path = models_dir() / smollm2._FOLDER
        return path, (path / smollm2._SOURCE_FILE).is_file()
    if name == "minilm-cola":
        path = models_dir() / "minilm-cola" / "best"
        return path, (path / "report.json").is_file()
    raise ValueError(
        f"{name!r} is not a built-in model; expected one of 'trigram', 'smollm2', 'minilm-cola'"
    )
