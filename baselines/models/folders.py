"""Where each built-in model lives on this machine: the path to give other tools.

lm-evaluation-harness, for one, loads a local model with ``--model_args pretrained=FOLDER``;
``python -m baselines models`` prints these paths. A model made on first use (SmolLM2 converted
from its GGUF, the CoLA fine-tune of MiniLM) is in the model cache
(:func:`baselines.models.cache.models_dir`) once a ``score`` run has made it, and is checked
against its manifest (:func:`folder_damage`) before its path is offered.

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

__all__ = ["REBUILD", "folder_damage", "local_path"]

REBUILD = "python -m baselines score --model {name} --limit 1 --out {name}-rebuilt.jsonl"
"""The command that rebuilds a damaged model folder: ``score`` checks the folder against its
manifest at load, removes it when damaged and makes it again."""


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


def folder_damage(name: str) -> str | None:
    """What is wrong with the made folder of the built-in model ``name`` by its manifest
    (sizes and SHA-256s, :func:`baselines.models.manifest.manifest_problem`), or ``None``:
    the folder matches, is not made yet, or is not the project's (``trigram``: pocketsphinx's
    own file).

    Examples
    --------
    >>> import os, tempfile, pathlib
    >>> os.environ["LI_ADGER_MODELS"] = tempfile.mkdtemp()
    >>> folder_damage("smollm2") is None  # not made yet
    True
    >>> folder, _ = local_path("smollm2")
    >>> folder.mkdir()
    >>> _ = (folder / "source.json").write_text("{}")
    >>> folder_damage("smollm2")
    'it has no manifest.json (an interrupted write, or a cache of an older version)'
    >>> del os.environ["LI_ADGER_MODELS"]
    """
    from baselines.models.manifest import manifest_problem

    path, _ = local_path(name)
    if name == "trigram" or not path.exists():
        return None
    return manifest_problem(path, hashes=True)
