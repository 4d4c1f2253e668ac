"""Frozen sentence representations of an encoder, computed once and cached.

A sentence's representation is the last layer's hidden state at the first position (``[CLS]``
for a BERT-style encoder), the vector the paper's classifiers and probes read (Warstadt et al.
2019, §3). The encoder is any folder ``transformers.AutoModel`` loads: a pretrained encoder or a
sequence classifier fine-tuned from one (its head is not used).

The cache is one ``.npy`` file per (encoder, texts) in ``representations/`` of the project's user
cache (:func:`li_adger.sources.cache_root`), named by :func:`cache_key`: a SHA-256 over the
encoder's weights and config (file contents, not names or dates), the representation's
settings and the texts in order. It is written atomically, so an interrupted run leaves no
half file; a second call with the same encoder and texts reads it back.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from li_adger.io.atomic import atomic_path
from li_adger.sources import cache_root

__all__ = ["POOLING", "cache_key", "encode", "model_digest", "representations"]

POOLING = "first-token-last-layer"
_WEIGHTS = ("config.json", "model.safetensors", "pytorch_model.bin")


def model_digest(folder: str | Path) -> str:
    """SHA-256 over a model folder's config and weights files (contents only).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "config.json").write_text("{}")
    >>> before = model_digest(d)
    >>> _ = (d / "config.json").write_text('{"hidden_size": 8}')
    >>> len(before), before == model_digest(d)
    (64, False)
    >>> model_digest(d / "missing")
    Traceback (most recent call last):
    ...
    FileNotFoundError: model folder .../missing has none of config.json, model.safetensors, pytorch_model.bin
    """
    folder = Path(folder)
    digest = hashlib.sha256()
    found = False
    for name in _WEIGHTS:
        path = folder / name
        if path.is_file():
            found = True
            digest.update(name.encode())
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
    if not found:
        raise FileNotFoundError(f"model folder {folder} has none of {', '.join(_WEIGHTS)}")
    return digest.hexdigest()


def cache_key(model: str, texts: Sequence[str], *, max_length: int) -> str:
    """The cache file's name: SHA-256 of the model digest, the settings and the texts.

    Examples
    --------
    >>> a = cache_key("m", ["A.", "B."], max_length=64)
    >>> a == cache_key("m", ["A.", "B."], max_length=64), a == cache_key("m", ["B.", "A."], max_length=64)
    (True, False)
    """
    digest = hashlib.sha256(
        json.dumps({"model": model, "pooling": POOLING, "max_length": max_length}).encode()
    )
    for text in texts:
        digest.update(text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def encode(
    folder: str | Path,
    texts: Sequence[str],
    *,
    batch_size: int = 64,
    max_length: int = 64,
    device: str = "cpu",
    progress: bool = True,
) -> np.ndarray:
    """The first-token last-layer vectors of ``texts`` (float32, one row per text, in order)."""
    import torch
    from tqdm.auto import tqdm
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).to(device).eval()
    from baselines.hf import sorted_batches

    out = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    batches = sorted_batches(tokenizer, texts, batch_size=batch_size, max_length=max_length)
    total = -(-len(texts) // batch_size)
    with torch.inference_mode():
        for idx, batch in tqdm(
            batches, total=total, disable=not progress, desc="representations", unit="batch"
        ):
            hidden = model(**batch.to(device)).last_hidden_state[:, 0, :]
            out[idx] = hidden.float().cpu().numpy()
    return out


def representations(
    folder: str | Path,
    texts: Sequence[str],
    *,
    max_length: int = 64,
    batch_size: int = 64,
    device: str = "cpu",
    cache: str | Path | None = None,
    progress: bool = True,
) -> tuple[np.ndarray, bool]:
    """``texts``' representations by the encoder in ``folder``, from the cache when there;
    returns ``(array, read_from_cache)``."""
    key = cache_key(model_digest(folder), texts, max_length=max_length)
    path = Path(cache if cache is not None else cache_root() / "representations") / f"{key}.npy"
    if path.is_file():
        array = np.load(path)
        if array.shape[0] == len(texts):
            return array, True
    array = encode(
        folder,
        texts,
        batch_size=batch_size,
        max_length=max_length,
        device=device,
        progress=progress,
    )
    with atomic_path(path) as tmp:
        np.save(tmp, array)
    return array, False
