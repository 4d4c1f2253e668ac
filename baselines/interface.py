"""The one small interface every scorer implements: sentences in, one score per sentence out.

A scorer turns a batch of sentences into per-sentence scores; a language model also scores
cloze units (:class:`ClozeScorer`: a completion given the context before its blank). Where a model defines
per-token log-probabilities (n-gram, causal and masked LMs), it also exposes them, so the
reduction from tokens to a sentence score is explicit and replaceable (see ``linking.py``).

Examples
--------
>>> class Length:
...     name, kind, variant, reduction = "length", "toy", "words", "count"
...     def score(self, sentences):
...         return [float(len(s.split())) for s in sentences]
...     def metadata(self):
...         return {"model": self.name, "kind": self.kind}
>>> isinstance(Length(), Scorer)
True
>>> Length().score(["The keys are lost.", "Go."])
[4.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable

KINDS: tuple[str, ...] = ("mlm", "causal", "ngram", "cola")

RUNTIMES: tuple[str, ...] = ("torch", "onnx")
"""Where a masked LM's encoder runs: PyTorch (default) or ONNX Runtime on the CPU in fp32
(:mod:`baselines.fast.mlm_onnx`)."""

ENGINES: tuple[str, ...] = ("hf", "vllm")
"""What runs a causal LM: Hugging Face transformers in this process (default), or vLLM
(:mod:`baselines.engines`)."""

PACKINGS: tuple[str, ...] = ("trie", "rows", "padded")
"""How the causal scorer lays a batch out for its decoder (:mod:`baselines.fast.layout`):
each shared prefix once (default where exact), sentences end to end, or one per row."""

UNIGRAM_SOURCES: tuple[str, ...] = ("wordfreq", "trigram")
"""The unigram models behind SLOR and NormLP of causal and masked LMs
(:mod:`baselines.kinds.unigram`)."""


@dataclass(frozen=True)
class TokenLogProbs:
    """Per-token natural-log probabilities of one sentence.

    ``tokens[i]`` is the scored unit (sub-word or word) and ``logprobs[i]`` its log-probability
    given the context the scorer uses; ``unigram_logprobs[i]`` is the unconditional
    log-probability of the same unit where the scorer has an estimate, else ``None``.

    Examples
    --------
    >>> t = TokenLogProbs(tokens=("the", "keys"), logprobs=(-1.0, -2.5))
    >>> t.total
    -3.5
    >>> len(t)
    2
    """

    tokens: tuple[str, ...]
    logprobs: tuple[float, ...]
    unigram_logprobs: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.tokens) != len(self.logprobs):
            raise ValueError(
                f"tokens and logprobs must have the same length "
                f"(got {len(self.tokens)} tokens and {len(self.logprobs)} log-probs)"
            )
        if self.unigram_logprobs is not None and len(self.unigram_logprobs) != len(self.tokens):
            raise ValueError(
                f"unigram_logprobs must have one entry per token "
                f"(got {len(self.unigram_logprobs)} for {len(self.tokens)} tokens)"
            )

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def total(self) -> float:
        """Sum of the token log-probabilities."""
        return float(sum(self.logprobs))


@runtime_checkable
class Scorer(Protocol):
    """What every scorer provides.

    Attributes
    ----------
    name:
        The model name or path as the user gave it (``"trigram"``, ``"bert-base-uncased"``).
    kind:
        One of :data:`KINDS`.
    variant:
        What is computed, e.g. ``"pll-original"``, ``"pll-word-l2r"``, ``"slor"``,
        ``"signed-confidence"``.
    reduction:
        How token scores become a sentence score, e.g. ``"sum"`` or ``"mean"``; never implied.
    """

    name: str
    kind: str
    variant: str
    reduction: str

    def score(self, sentences: Sequence[str]) -> list[float]:
        """Return one finite float per sentence, in order."""
        ...

    def metadata(self) -> dict[str, Any]:
        """Return JSON-serialisable facts needed to reproduce the scores."""
        ...


@runtime_checkable
class PlacedScorer(Scorer, Protocol):
    """A scorer that says where its model runs: what ``--batch-size auto`` asks of a scorer
    (:mod:`baselines.batch_size`). Every built-in scorer is one; wrappers
    (:class:`~baselines.kinds.linked.LinkedScorer`) pass on the device of the scorer they wrap.

    Attributes
    ----------
    device:
        A ``torch.device`` or its name (``"cpu"``, ``"cuda"``, ``"cuda:0"``), or where a model
        spread over several devices lives (``"0+cpu+disk"``, :mod:`baselines.device_map`);
        ``None`` when unknown, which a run treats as the CPU.
    """

    @property
    def device(self) -> Any: ...


@runtime_checkable
class BatchedScorer(Scorer, Protocol):
    """A scorer whose batching a scoring run may ask about and set: everything a run reads
    of a scorer beyond :class:`Scorer` (:mod:`baselines.score_file`, :mod:`baselines.batch_size`).
    Wrappers (:class:`~baselines.kinds.linked.LinkedScorer`) pass these to the scorer they wrap.

    Attributes
    ----------
    batch_size:
        Sentences per forward pass; settable (``--batch-size auto`` sets the size it finds).
    packing:
        How a batch is laid out (one of :data:`PACKINGS`), or ``None`` where that does not
        apply; ``"trie"`` makes a run put units that share a beginning in one batch.
    positions_share:
        Positions computed / tokens scored since :meth:`count_positions` (``None`` before
        any, or where the scorer does not count them).
    """

    batch_size: int
    packing: str | None

    @property
    def positions_share(self) -> float | None: ...

    def count_positions(self) -> None:
        """Start counting the positions computed afresh."""
        ...


@runtime_checkable
class TokenScorer(Scorer, Protocol):
    """A scorer that also exposes per-token log-probabilities."""

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenLogProbs]:
        """Return the per-token log-probabilities of each sentence, in order."""
        ...


@runtime_checkable
class RecordScorer(Scorer, Protocol):
    """A scorer that gives, for each sentence, its score *and* what it measured on the way.

    Each record is a mapping with ``score`` and any of the optional fields of the scores file
    (:data:`metric_adc.scores.file.RECORD_FIELDS`, e.g. ``logprob``, ``unigram_logprob``,
    ``n_words``), which the scoring run writes beside the score.
    """

    def score_records(self, sentences: Sequence[str]) -> list[dict[str, Any]]:
        """Return one record per sentence, in order."""
        ...


class ClozeUnit(NamedTuple):
    """A cloze unit: a context and the completion of its blank (one space between them), and
    the words after the blank when it is inside the sentence (``after``; empty when the
    completion ends it). A blank inside the sentence may open it: its ``context`` is then
    empty.

    Examples
    --------
    >>> ClozeUnit("A robin is a", "bird").completion
    'bird'
    >>> ClozeUnit("", "Rarely", "do the boys read.").sentence
    'Rarely do the boys read.'
    """

    context: str
    completion: str
    after: str = ""

    @property
    def sentence(self) -> str:
        """The whole text: context, completion and the words after it, one space apart."""
        return " ".join(t for t in (self.context, self.completion, self.after) if t)


@runtime_checkable
class InfillScorer(Protocol):
    """A scorer that reads both sides of a blank inside a sentence (a masked LM).

    ``score_infill`` returns one record per unit, as ``score_cloze`` does, with ``score`` the
    natural-log probability of the completion at the blank given every word before and after
    it.
    """

    def score_infill(
        self, contexts: Sequence[str], completions: Sequence[str], afters: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Return one record (``score``, ``rank``, ``top``) per (context, completion, after)."""
        ...


TOP_K = 5
"""How many of a model's most probable words at a cloze blank a record keeps (``top``)."""


@runtime_checkable
class ClozeScorer(Scorer, Protocol):
    """A scorer that also scores cloze units: a completion given the context before its blank.

    ``score_cloze`` returns one record per unit with ``score`` (the natural-log probability of
    the completion given the context), ``rank`` (the rank of the completion's first token or
    word among the model's predictions at the blank, 1 = the most probable; an ``int``) and
    ``top`` (the model's :data:`TOP_K` most probable words at the blank, most probable first).
    How each kind forms these is written in ``docs/scorers.md``.
    """

    def score_cloze(
        self, contexts: Sequence[str], completions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Return one record (``score``, ``rank``, ``top``) per (context, completion)."""
        ...


class UnitError(ValueError):
    """One of the units given to a scorer cannot be scored: ``index`` is its position in the
    list the scorer was given, ``field`` the text at fault (``'sentence'``, ``'context'``,
    ``'completion'``) and ``problem`` what is wrong. The message names the position
    (``position``, default ``sentences[index]``); a scoring run, which knows where each unit
    came from, names its file, line and id instead (:func:`baselines.score_file.score_to_file`).

    Examples
    --------
    >>> err = UnitError(2, "sentence", "is too long for m: 9 tokens")
    >>> str(err), err.index, err.field
    ('sentences[2] is too long for m: 9 tokens', 2, 'sentence')
    """

    def __init__(self, index: int, field: str, problem: str, *, position: str | None = None):
        self.index, self.field, self.problem = index, field, problem
        self.cloze = position is not None
        super().__init__(f"{position or f'{field}s[{index}]'} {problem}")

    def at(self, index: int) -> UnitError:
        """The same error for the unit at ``index`` (of a list the scorer deduplicated).

        >>> str(UnitError(0, "context", "is too long", position="cloze unit 0").at(3))
        'cloze unit 3 is too long'
        """
        position = f"cloze unit {index}" if self.cloze else None
        return UnitError(index, self.field, self.problem, position=position)


def check_cloze(contexts: Sequence[str], completions: Sequence[str]) -> tuple[list[str], list[str]]:
    """Return ``contexts`` and ``completions`` as lists of ``str``, or raise on an empty or
    non-string entry or on different lengths.

    Examples
    --------
    >>> check_cloze(["A robin is a"], ["bird"])
    (['A robin is a'], ['bird'])
    >>> check_cloze(["A robin is a"], ["bird", "tree"])
    Traceback (most recent call last):
    ...
    ValueError: contexts and completions must have the same length (got 1 and 2)
    """
    contexts = check_sentences(contexts, field="contexts")
    completions = check_sentences(completions, field="completions")
    if len(contexts) != len(completions):
        raise ValueError(
            f"contexts and completions must have the same length "
            f"(got {len(contexts)} and {len(completions)})"
        )
    return contexts, completions


def scorer_identity(scorer: Scorer) -> dict[str, str]:
    """The four facts every scorer's metadata starts with: model, kind, variant, reduction.

    Examples
    --------
    >>> class Length:
    ...     name, kind, variant, reduction = "length", "toy", "words", "count"
    >>> scorer_identity(Length())
    {'model': 'length', 'kind': 'toy', 'variant': 'words', 'reduction': 'count'}
    """
    return {
        "model": scorer.name,
        "kind": scorer.kind,
        "variant": scorer.variant,
        "reduction": scorer.reduction,
    }


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be scored (empty or only whitespace; a lone surrogate, which is no
    Unicode character and cannot be encoded), or ``None``.

    Examples
    --------
    >>> text_problem("Go."), text_problem(" ")
    (None, 'is empty')
    >>> text_problem("Go\\ud800.")
    'holds a lone surrogate (U+D800 at character 2), which is not text; fix its encoding'
    """
    if not text.strip():
        return "is empty"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        return (
            f"holds a lone surrogate (U+{ord(text[err.start]):04X} at character {err.start}), "
            "which is not text; fix its encoding"
        )
    return None


def check_sentences(sentences: Sequence[str], *, field: str = "sentences") -> list[str]:
    """Return ``sentences`` as a list of ``str``, or raise on an empty, non-string or
    non-text (:func:`text_problem`) entry.

    Scorers call this at their public boundary. A sentence that is empty or only whitespace
    has no tokens to score, so it is an error rather than a silent NaN.

    Examples
    --------
    >>> check_sentences(("The keys are lost.",))
    ['The keys are lost.']
    >>> check_sentences(["Go.", "  "])
    Traceback (most recent call last):
    ...
    ValueError: sentences[1] is empty (got '  '); every sentence needs at least one word
    >>> check_sentences(["Go\\udc80."])
    Traceback (most recent call last):
    ...
    ValueError: sentences[0] holds a lone surrogate (U+DC80 at character 2), which is not text; fix its encoding
    >>> check_sentences("Go.")
    Traceback (most recent call last):
    ...
    TypeError: sentences must be a sequence of str, not a single str (got 'Go.')
    """
    if isinstance(sentences, str):
        raise TypeError(f"{field} must be a sequence of str, not a single str (got {sentences!r})")
    out = list(sentences)
    for i, s in enumerate(out):
        if not isinstance(s, str):
            raise TypeError(f"{field}[{i}] must be a str (got {type(s).__name__}: {s!r})")
        problem = text_problem(s)
        if problem == "is empty":
            raise ValueError(
                f"{field}[{i}] is empty (got {s!r}); every sentence needs at least one word"
            )
        if problem is not None:
            raise ValueError(f"{field}[{i}] {problem}")
    return out
