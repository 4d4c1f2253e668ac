"""Choosing the device and the floating-point precision a scorer runs in.

Examples
--------
>>> resolve_device("cpu").type
'cpu'
>>> inference_dtype(resolve_device("cpu"), "auto")
torch.float32
"""

from __future__ import annotations

import torch

_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def resolve_device(device: str = "auto") -> torch.device:
    """Turn ``"auto"``, ``"cpu"`` or ``"cuda"`` (or ``"cuda:N"``) into a :class:`torch.device`.

    ``"auto"`` picks CUDA when a GPU is visible, else the CPU. Asking for CUDA on a machine
    without a GPU is an error rather than a silent fall-back.

    Examples
    --------
    >>> resolve_device("auto").type in {"cpu", "cuda"}
    True
    >>> resolve_device("tpu")
    Traceback (most recent call last):
    ...
    ValueError: device must be 'auto', 'cpu' or 'cuda[:N]' (got 'tpu')
    """
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cpu":
        return torch.device("cpu")
    if device == "cuda" or device.startswith("cuda:"):
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r} was requested but no CUDA GPU is available")
        return torch.device(device)
    raise ValueError(f"device must be 'auto', 'cpu' or 'cuda[:N]' (got {device!r})")


def synchronize(device: torch.device | str) -> None:
    """Wait until ``device`` has finished its queued work; on the CPU there is none.

    Timing GPU work needs it: CUDA calls return before the device is done.

    Examples
    --------
    >>> synchronize("cpu")
    """
    device = torch.device(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def inference_dtype(device: torch.device, precision: str = "auto") -> torch.dtype:
    """The dtype to run a model in: ``"auto"`` is bf16 (or fp16) on GPU and fp32 on CPU.

    Examples
    --------
    >>> inference_dtype(torch.device("cpu"), "fp16")
    torch.float16
    >>> inference_dtype(torch.device("cpu"), "fp8")
    Traceback (most recent call last):
    ...
    ValueError: precision must be one of 'auto', 'fp32', 'fp16', 'bf16' (got 'fp8')
    """
    if precision == "auto":
        if device.type == "cuda":
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.float32
    if precision not in _DTYPES:
        raise ValueError(
            f"precision must be one of 'auto', 'fp32', 'fp16', 'bf16' (got {precision!r})"
        )
    return _DTYPES[precision]


def cpu_name() -> str:
    """The CPU's model name (``/proc/cpuinfo``'s first ``model name``, else the platform's).

    Examples
    --------
    >>> isinstance(cpu_name(), str) and cpu_name() != ""
    True
    """
    import platform

    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
