"""Scorers that turn a language model into per-sentence acceptability scores.

The public API is :func:`load_scorer`: a model name (a built-in offline model, a Hugging Face
model name or a local folder) → a scorer whose ``score(sentences)`` returns one float per
sentence, in order (:class:`baselines.interface.Scorer`). Importing :mod:`baselines` is cheap:
torch and transformers load with the first scorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from baselines.interface import Scorer

__all__ = ["load_scorer"]


def load_scorer(
    model: str,
    *,
    kind: str | None = None,
    variant: str | None = None,
    device: str = "auto",
    batch_size: int | None = None,
    precision: str | None = None,
    unigram: str | None = None,
    convention: str | None = None,
    revision: str | None = None,
    engine: str = "hf",
    engine_args: Mapping[str, Any] | None = None,
    progress: bool = False,
) -> Scorer:
    """A scorer for ``model``: ``load_scorer(model).score(sentences)`` → one score per sentence.

    ``model`` is a built-in offline model (``trigram``, ``smollm2``, ``minilm-cola``; see
    ``python -m baselines models``), a Hugging Face model name or a local model folder;
    ``kind`` (``causal``, ``mlm``, ``ngram``, ``cola``) is needed when it cannot be detected.
    ``variant`` is the linking function or output (``logprob`` — the sum of the token
    log-probabilities — ``meanlp``, ``penlp``, ``normlp``, ``slor`` for causal LMs; ``original``
    or ``word-l2r`` PLL for masked LMs; ``signed-confidence`` or ``logit-margin`` for CoLA
    classifiers). ``engine="vllm"`` runs a causal LM on vLLM, with ``engine_args`` for
    ``vllm.LLM`` (:mod:`baselines.engines`; build it under ``if __name__ == "__main__":``,
    since vLLM starts a child process). The other options are those of
    ``python -m baselines score``
    (:func:`baselines.registry.build_scorer`). ``scorer.metadata()`` is what a scores file
    records about it.

    Examples
    --------
    >>> scorer = load_scorer("trigram")
    >>> good, bad = scorer.score(["The keys are lost.", "The keys is lost."])
    >>> good > bad, scorer.kind, scorer.variant
    (True, 'ngram', 'slor')
    """
    from baselines.registry import build_scorer

    return build_scorer(
        model,
        kind=kind,
        variant=variant,
        device=device,
        batch_size=batch_size,
        precision=precision,
        unigram=unigram,
        convention=convention,
        revision=revision,
        engine=engine,
        engine_args=engine_args,
        progress=progress,
    )
