"""Models larger than one device: ``--device-map auto`` and ``--max-memory`` (HF engine).

A causal LM loaded with ``device_map="auto"`` goes through accelerate's big-model inference:
its layers are placed on the GPUs in order, then on the CPU, then on disk (an offload folder),
each device filled up to its ``max_memory``; hooks move every layer's weights and inputs to
where it runs. Scores are the plain load's, to float noise (the scorer then runs the model's
full forward pass instead of its output-layer fast path, whose weights may be on disk).

Examples
--------
>>> parse_max_memory("0=20GiB,1=20GiB,cpu=64GiB")
{0: '20GiB', 1: '20GiB', 'cpu': '64GiB'}
>>> parse_max_memory('{"cpu": 200000}')
{'cpu': 200000}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["DEVICE_MAPS", "from_pretrained_options", "map_devices", "parse_max_memory"]

DEVICE_MAPS: tuple[str, ...] = ("auto",)
"""The ``--device-map`` values: ``auto`` (accelerate places the layers)."""

_SIZE = re.compile(r"\d+(\.\d+)?\s*([KMGT]i?B|[KMGT]B|B)?", re.IGNORECASE)
_DEVICE = re.compile(r"\d+|cpu|mps|cuda:\d+|xpu:\d+|npu:\d+")


def _device_key(name: str) -> int | str:
    return int(name) if name.isdigit() else name


def parse_max_memory(text: str) -> dict[int | str, int | str]:
    """``--max-memory``: ``DEVICE=SIZE,...`` (a GPU index, ``cpu`` or ``mps``; a size such as
    ``20GiB``, ``500MB`` or bytes) or the same as a JSON object. Disk has no limit: what does
    not fit goes to the offload folder.

    Examples
    --------
    >>> parse_max_memory("cpu=200MiB")
    {'cpu': '200MiB'}
    >>> parse_max_memory("cpu=lots")
    Traceback (most recent call last):
    ...
    ValueError: --max-memory: 'lots' for 'cpu' is not a size (e.g. 20GiB, 500MB or bytes)
    >>> parse_max_memory("disk=1GB")
    Traceback (most recent call last):
    ...
    ValueError: --max-memory: 'disk' is not a device (a GPU index, cpu or mps; disk has no limit)
    """
    text = text.strip()
    if text.startswith("{"):
        try:
            pairs = json.loads(text)
        except ValueError as err:
            raise ValueError(f"--max-memory: not a JSON object ({err})") from None
        if not isinstance(pairs, dict):
            raise ValueError("--max-memory: not a JSON object")
        items = [(str(k), v) for k, v in pairs.items()]
    else:
        items = []
        for part in filter(None, (p.strip() for p in text.split(","))):
            if "=" not in part:
                raise ValueError(f"--max-memory: {part!r} is not DEVICE=SIZE (e.g. cpu=64GiB)")
            key, _, value = part.partition("=")
            items.append((key.strip(), value.strip()))
    if not items:
        raise ValueError("--max-memory: give at least one DEVICE=SIZE (e.g. 0=20GiB,cpu=64GiB)")
    out: dict[int | str, int | str] = {}
    for key, value in items:
        if not _DEVICE.fullmatch(key):
            raise ValueError(
                f"--max-memory: {key!r} is not a device (a GPU index, cpu or mps; "
                "disk has no limit)"
            )
        is_bytes = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        if not is_bytes and not (isinstance(value, str) and _SIZE.fullmatch(value)):
            raise ValueError(
                f"--max-memory: {value!r} for {key!r} is not a size (e.g. 20GiB, 500MB or bytes)"
            )
        out[_device_key(key)] = int(value) if isinstance(value, str) and value.isdigit() else value
    return out


def from_pretrained_options(
    device_map: str,
    max_memory: Mapping[int | str, int | str] | None = None,
    offload_folder: str | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``from_pretrained`` for ``device_map`` (``auto``), with
    ``max_memory`` per device and the ``offload_folder`` for layers on disk (safetensors
    checkpoints need none: their layers on disk are read in place).

    Examples
    --------
    >>> options = from_pretrained_options("auto", {"cpu": "1MiB"}, "/tmp/offload")
    >>> options
    {'device_map': 'auto', 'max_memory': {'cpu': '1MiB'}, 'offload_folder': '/tmp/offload'}
    >>> from_pretrained_options("balanced")
    Traceback (most recent call last):
    ...
    ValueError: device_map must be 'auto' (got 'balanced')
    """
    if device_map not in DEVICE_MAPS:
        choices = ", ".join(repr(d) for d in DEVICE_MAPS)
        raise ValueError(f"device_map must be {choices} (got {device_map!r})")
    options: dict[str, Any] = {"device_map": device_map}
    if max_memory:
        options["max_memory"] = dict(max_memory)
    if offload_folder:
        options["offload_folder"] = offload_folder
    return options


def map_devices(model: Any) -> str | None:
    """Where a model loaded with a device map lives, e.g. ``0+1+cpu+disk``; ``None`` for a
    model on one device.

    Examples
    --------
    >>> class Mapped:
    ...     hf_device_map = {"model.embed_tokens": "cpu", "model.layers.0": "disk", "lm_head": 0}
    >>> map_devices(Mapped()), map_devices(object())
    ('0+cpu+disk', None)
    """
    placed = getattr(model, "hf_device_map", None)
    if not placed:
        return None
    order = {"cpu": 1, "mps": 1, "disk": 2}
    return "+".join(sorted({str(v) for v in placed.values()}, key=lambda d: (order.get(d, 0), d)))
