"""Scorers that turn a language model into per-sentence acceptability scores.

The public API is :func:`load_scorer`: a model name (a built-in offline model, a Hugging Face
model name or a local folder) → a scorer whose ``score(sentences)`` returns one float per
sentence, in order (:class:`baselines.interface.Scorer`). Importing :mod:`baselines` is cheap:
torch and transformers load with the first scorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baselines.interface import Scorer

__all__ = ["load_scorer"]


def load_scorer(model: str, **options: Any) -> Scorer:
    """A scorer for ``model``: ``load_scorer(model).score(sentences)`` → one score per sentence.

    ``model`` is a built-in offline model (``trigram``, ``smollm2``, ``minilm-cola``; see
    ``python -m baselines models``), a Hugging Face model name or a local model folder.
    ``options`` are the keyword options of :func:`baselines.spec.build_scorer` (those of
    ``python -m baselines score``), with the same meaning and defaults except that no
    progress bar is shown unless ``progress=True``: ``kind`` (``causal``, ``mlm``, ``ngram``,
    ``cola``) when it cannot be detected; ``variant``, the linking function or output
    (``logprob`` — the sum of the token log-probabilities — ``meanlp``, ``penlp``,
    ``normlp``, ``slor`` for causal LMs; ``original`` or ``word-l2r`` PLL for masked LMs;
    ``signed-confidence`` or ``logit-margin`` for CoLA classifiers); ``device``,
    ``batch_size``, ``precision``, ``unigram``, ``convention``, ``revision``, ``runtime``,
    ``packing`` (how a causal LM's batch is laid out: ``trie``, ``rows``, ``padded``);
    ``engine="vllm"`` runs a causal LM on vLLM, with ``engine_args`` for ``vllm.LLM``
    (:mod:`baselines.engines`; build it under ``if __name__ == "__main__":``, since vLLM
    starts a child process). Every option is checked before anything loads
    (:func:`baselines.spec.score_spec`). ``scorer.metadata()`` is what a scores file records
    about it.

    Examples
    --------
    >>> scorer = load_scorer("trigram")
    >>> good, bad = scorer.score(["The keys are lost.", "The keys is lost."])
    >>> good > bad, scorer.kind, scorer.variant
    (True, 'ngram', 'slor')
    >>> load_scorer("trigram", colour="red")
    Traceback (most recent call last):
    ...
    TypeError: score_spec() got an unexpected keyword argument 'colour'
    """
    from baselines.spec import build_scorer

    return build_scorer(model, **{"progress": False, **options})
