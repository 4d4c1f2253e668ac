"""Masked-LM pseudo-log-likelihood (PLL): every token masked in turn and scored by the model.

Two variants:

``"original"`` (Salazar et al. 2020)
    One copy of the sentence per token; in copy *i* only token *i* is replaced by the mask
    token, and the score of token *i* is its log-probability at that position.
``"word-l2r"`` (Kauf & Ivanova 2023, "within-word left-to-right")
    As above, but when token *i* is a sub-token of a word, the sub-tokens of the same word to
    its right are masked too, so a word split into pieces cannot be predicted from its own
    later pieces.

Conventions (they change numbers, so they are fixed and tested):

- The tokenizer adds the model's special tokens (``[CLS]``/``[SEP]``, ``<s>``/``</s>``);
  they and padding are never masked and never scored. Every other token is scored.
- A *word* is what the tokenizer's pre-tokenizer produces (``word_ids()`` of a fast
  tokenizer): punctuation is a word of its own, ``isn't`` is three words for BERT.
- Log-probabilities are natural logs computed in float32 whatever the model's dtype; the
  sentence score is their **sum** (``reduction="sum"``).

**Cloze units** (:meth:`MaskedLMScorer.score_cloze`, Ettinger 2020 §6): the text is
``context + " " + completion + " ."`` (a period after the blank, as Ettinger gave BERT) with
every token of the completion masked — one mask per token. ``score`` is the log-softmax of the
completion's token at its mask; a completion of *k* tokens is scored left to right by the
chain rule (token *i* predicted with the tokens before it filled in, those after it still
masked). ``rank`` is the rank of its first token at the first mask among the tokens that can
start a word (WordPiece ``##`` continuations and special tokens excluded;
:func:`baselines.kinds.cloze.word_start_mask`), ``top`` the five most probable of those.
**A blank inside a sentence** (:meth:`MaskedLMScorer.score_infill`, the NPI cloze test of
Warstadt et al. 2019, §3): the same, with the words after the blank in place of the period
(``context + " " + completion + " " + after``, the context left out when the blank opens the
sentence). Neither is a pseudo-log-likelihood, and the PLL variant does not enter it: a scores
file of cloze units names the variant ``masked-completion`` (:attr:`MaskedLMScorer.cloze_variant`).

Sentences are deduplicated and sorted longest first; all their masked copies form one stream,
cut into forward passes so that ``copies × padded length ≤ token_budget``
(:mod:`baselines.fast.mlm_passes`, which also applies the output head, and for BERT-style
encoders most of the last layer, at the scored positions only).

Examples
--------
>>> mask_plan([None, 0, 1, 1, None], [1, 0, 0, 0, 1], "original")
[(1, (1,)), (2, (2,)), (3, (3,))]
>>> mask_plan([None, 0, 1, 1, None], [1, 0, 0, 0, 1], "word-l2r")
[(1, (1,)), (2, (2, 3)), (3, (3,))]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from baselines.fast.mlm_onnx import check_runtime
from baselines.fast.mlm_passes import MaskedCopy, MaskedPasses, default_token_budget
from baselines.hf import LoadOptions, library_versions, load_pretrained, parameter_metadata
from baselines.interface import (
    TokenLogProbs,
    UnitError,
    check_cloze,
    check_sentences,
    scorer_identity,
)
from baselines.kinds.cloze import TokenCandidates

VARIANTS: tuple[str, ...] = ("original", "word-l2r")


def check_variant(variant: str) -> None:
    """The one check of the masked-LM scorer's variant: the spec
    (:func:`baselines.spec.score_spec`), the scorer's constructor and :func:`mask_plan` call it.

    Examples
    --------
    >>> check_variant("word-l2r")
    >>> check_variant("l2r")
    Traceback (most recent call last):
    ...
    ValueError: variant must be one of 'original', 'word-l2r' (got 'l2r')
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of 'original', 'word-l2r' (got {variant!r})")


def mask_plan(
    word_ids: Sequence[int | None], special_tokens_mask: Sequence[int], variant: str
) -> list[tuple[int, tuple[int, ...]]]:
    """For each scored position, the positions masked in its copy.

    ``word_ids[i]`` is the word token *i* belongs to (``None`` for special tokens) and
    ``special_tokens_mask[i]`` is 1 for special tokens, which are never scored nor masked.
    A non-special token without a word id counts as a word of its own.

    Examples
    --------
    >>> mask_plan([None, 0, 0, 0, 1, None], [1, 0, 0, 0, 0, 1], "word-l2r")
    [(1, (1, 2, 3)), (2, (2, 3)), (3, (3,)), (4, (4,))]
    >>> mask_plan([None, 0, None], [1, 0, 1], "l2r")
    Traceback (most recent call last):
    ...
    ValueError: variant must be one of 'original', 'word-l2r' (got 'l2r')
    """
    check_variant(variant)
    if len(word_ids) != len(special_tokens_mask):
        raise ValueError(
            f"word_ids and special_tokens_mask must have the same length "
            f"(got {len(word_ids)} and {len(special_tokens_mask)})"
        )
    scored = [i for i, special in enumerate(special_tokens_mask) if not special]
    plan = []
    for i in scored:
        if variant == "original" or word_ids[i] is None:
            plan.append((i, (i,)))
        else:
            same_word_right = (j for j in scored if j > i and word_ids[j] == word_ids[i])
            plan.append((i, (i, *same_word_right)))
    return plan


class MaskedLMScorer:
    """Pseudo-log-likelihood of sentences under a Hugging Face masked LM.

    Parameters
    ----------
    model_name_or_path:
        A Hub name (``"bert-base-uncased"``) or a local folder with model and tokenizer.
    variant:
        ``"original"`` or ``"word-l2r"`` (see the module docstring).
    token_budget:
        Upper bound on ``copies × padded length`` per forward pass; bounds memory for any
        sentence length. The logits of one pass take at most ``token_budget × vocabulary``
        floats. ``None`` (default): :func:`default_token_budget` of the device (512 tokens on
        a CPU, 4096 on a GPU), raised to one copy's length for a longer sentence.
    progress:
        Show a progress bar over forward passes.
    runtime:
        ``"torch"`` (default) or ``"onnx"``: every encoder layer but the last in ONNX Runtime
        (CPU, fp32, BERT-style encoders; the ``onnx`` extra), see :mod:`baselines.fast.mlm_onnx`.
    device, precision, revision:
        Where and how the model is loaded (:class:`baselines.hf.LoadOptions`).

    Examples
    --------
    >>> import tempfile, torch
    >>> from transformers import BertConfig, BertForMaskedLM
    >>> from baselines.models.minilm import packaged_encoder_path
    >>> from transformers import AutoTokenizer
    >>> folder = tempfile.mkdtemp()
    >>> _ = torch.manual_seed(0)
    >>> cfg = BertConfig(vocab_size=30522, hidden_size=16, num_hidden_layers=1,
    ...                  num_attention_heads=2, intermediate_size=32)
    >>> BertForMaskedLM(cfg).save_pretrained(folder)
    >>> AutoTokenizer.from_pretrained(packaged_encoder_path()).save_pretrained(folder)
    ('...
    >>> scorer = MaskedLMScorer(folder, device="cpu", progress=False)
    >>> [round(x) < 0 for x in scorer.score(["The keys are lost.", "Go."])]
    [True, True]
    >>> scorer.token_logprobs(["Go."])[0].tokens
    ('go', '.')
    """

    kind = "mlm"
    reduction = "sum"
    cloze_variant = "masked-completion"
    """What a scores file of cloze units names as the variant: those are scored with only the
    completion masked (one mask for a one-token word), not by pseudo-log-likelihood, whatever
    the PLL variant."""

    def __init__(
        self,
        model_name_or_path: str,
        *,
        variant: str = "original",
        token_budget: int | None = None,
        progress: bool = True,
        runtime: str = "torch",
        **load: Unpack[LoadOptions],
    ) -> None:
        from transformers import AutoModelForMaskedLM

        check_variant(variant)
        if token_budget is not None and (not isinstance(token_budget, int) or token_budget < 1):
            raise ValueError(f"token_budget must be a positive int (got {token_budget!r})")
        self.name = str(model_name_or_path)
        self.variant = f"pll-{variant}"
        self._variant = variant
        self.progress = progress

        def check_tokenizer(tokenizer: Any) -> None:
            if not getattr(tokenizer, "is_fast", False):
                raise ValueError(
                    f"model {self.name!r} has no fast tokenizer; word boundaries (word_ids) "
                    f"need one (got {type(tokenizer).__name__})"
                )
            if tokenizer.mask_token_id is None:
                raise ValueError(
                    f"tokenizer of {self.name!r} has no mask token; is it a masked LM?"
                )

        loaded = load_pretrained(
            AutoModelForMaskedLM,
            self.name,
            check_tokenizer=check_tokenizer,
            sdpa=True,
            **load,
        )
        self.model, self.tokenizer = loaded.model, loaded.tokenizer
        self.device, self.dtype, self._revision = loaded.device, loaded.dtype, loaded.revision
        self.max_length = loaded.max_length
        # no budget given: the device's default, widened for a sentence longer than it
        self._auto_budget = token_budget is None
        self.token_budget = (
            default_token_budget(self.device) if token_budget is None else token_budget
        )
        check_runtime(runtime, model=self.model, device=self.device, dtype=self.dtype)
        self.runtime = runtime
        self._passes = MaskedPasses(self.model, self.tokenizer, device=self.device, runtime=runtime)
        self._candidates = TokenCandidates(self.tokenizer)

    # -- public API --------------------------------------------------------------------------

    def score(self, sentences: Sequence[str]) -> list[float]:
        """Sum of the PLL token log-probabilities of each sentence, in order."""
        return [t.total for t in self.token_logprobs(sentences)]

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenLogProbs]:
        """The PLL log-probability of every non-special token of each sentence, in order."""
        sentences = check_sentences(sentences)
        unique = list(dict.fromkeys(sentences))
        try:
            encodings = self._encode(unique)
        except UnitError as err:
            raise err.at(sentences.index(unique[err.index])) from None
        order = sorted(range(len(unique)), key=lambda k: -len(encodings[k][0]))
        copies = [
            MaskedCopy(k, position, masked)
            for k in order
            for position, masked in mask_plan(encodings[k][1], encodings[k][2], self._variant)
        ]
        logprobs, _ = self._run(copies, encodings)
        results = {}
        for k, (ids, _, special, _) in enumerate(encodings):
            positions = [i for i, s in enumerate(special) if not s]
            tokens = tuple(self.tokenizer.convert_ids_to_tokens([ids[i] for i in positions]))
            results[unique[k]] = TokenLogProbs(
                tokens=tokens, logprobs=tuple(logprobs[(k, i)] for i in positions)
            )
        return [results[s] for s in sentences]

    def score_cloze(
        self, contexts: Sequence[str], completions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One record per cloze unit: ``score``, ``rank`` and ``top`` (see the module docs).

        The text ``context + " " + completion + " ."`` is encoded with the special tokens and
        every token of the completion is masked; the completion's tokens are then predicted
        left to right, each with the ones before it filled in.
        """
        contexts, completions = check_cloze(contexts, completions)
        units = zip(contexts, completions, [""] * len(contexts), strict=True)
        return self._cloze_records(list(units))

    def score_infill(
        self, contexts: Sequence[str], completions: Sequence[str], afters: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One record per blank inside a sentence, as :meth:`score_cloze` with the words after
        the blank in place of ``" ."``: the text is ``context + " " + completion + " " +
        after`` (no context when the blank opens the sentence), the completion masked.
        """
        afters = check_sentences(afters, field="afters")
        contexts = [str(c) for c in contexts]  # may be empty: a blank that opens the sentence
        check_cloze([c or a for c, a in zip(contexts, afters, strict=True)], completions)
        return self._cloze_records(list(zip(contexts, completions, afters, strict=True)))

    def _cloze_records(self, given: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
        units = list(dict.fromkeys(given))
        try:
            encodings, spans = self._encode_cloze(units)
        except UnitError as err:
            raise err.at(given.index(units[err.index])) from None
        order = sorted(range(len(units)), key=lambda k: -len(encodings[k][0]))
        copies = [
            MaskedCopy(k, position, spans[k][i:], keep_row=i == 0)
            for k in order
            for i, position in enumerate(spans[k])
        ]
        logprobs, rows = self._run(copies, encodings)
        found = {
            unit: self._candidates.record(
                sum(logprobs[(k, p)] for p in spans[k]),
                rows[(k, spans[k][0])].numpy(),
                encodings[k][0][spans[k][0]],
            )
            for k, unit in enumerate(units)
        }
        return [dict(found[u]) for u in given]

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores."""
        return {
            **scorer_identity(self),
            "scored_tokens": "every token except the tokenizer's special tokens",
            "token_budget": self.token_budget,
            "precision": str(self.dtype).removeprefix("torch."),
            "device": str(self.device),
            "attn_implementation": getattr(self.model.config, "_attn_implementation", None),
            "runtime": self.runtime,
            "last_layer": "scored positions only"
            if self._passes.last_layer_scored_only
            else "full",
            **self._revision,
            **parameter_metadata(self.model),
            "versions": library_versions(),
        }

    # -- internals ---------------------------------------------------------------------------

    def _encode(self, sentences: list[str]) -> list[tuple[list[int], list, list[int], list]]:
        """Token ids, word ids, special-token mask and token-type ids of each sentence."""
        enc = self.tokenizer(
            sentences, add_special_tokens=True, return_special_tokens_mask=True, truncation=False
        )
        out = []
        for k, ids in enumerate(enc["input_ids"]):
            special = enc["special_tokens_mask"][k]
            self._check_length(ids, k, "sentence", sentences[k])
            if all(special):
                raise ValueError(f"sentence {sentences[k]!r} has no token to score")
            types = enc["token_type_ids"][k] if "token_type_ids" in enc else None
            out.append((ids, enc.word_ids(k), special, types))
        return out

    def _encode_cloze(
        self, units: list[tuple[str, str, str]]
    ) -> tuple[list[tuple[list[int], list, list[int], list]], list[tuple[int, ...]]]:
        """Encodings (as :meth:`_encode`) of each ``context + " " + completion + " " + (after
        or ".")`` (no context and no space when the context is empty) and the positions of the
        completion's tokens in each."""
        texts = [" ".join(t for t in (c, w, a or ".") if t) for c, w, a in units]
        enc = self.tokenizer(
            texts,
            add_special_tokens=True,
            return_special_tokens_mask=True,
            return_offsets_mapping=True,
            truncation=False,
        )
        encodings, spans = [], []
        for k, ids in enumerate(enc["input_ids"]):
            self._check_length(ids, k, "context", texts[k])
            begin = len(units[k][0]) + 1 if units[k][0] else 0
            end = begin + len(units[k][1])
            special = enc["special_tokens_mask"][k]
            offsets = enc["offset_mapping"][k]
            inside, across = [], []
            for i, (a, b) in enumerate(offsets):
                if special[i] or b <= a:
                    continue
                if begin <= a and b <= end:
                    inside.append(i)
                elif a < end and b > begin:
                    across.append(i)
            if across or not inside:
                raise ValueError(
                    f"the completion {units[k][1]!r} is not a whole number of tokens of "
                    f"{self.name!r} after the context {units[k][0][-60:]!r}"
                )
            types = enc["token_type_ids"][k] if "token_type_ids" in enc else None
            encodings.append((ids, enc.word_ids(k), special, types))
            spans.append(tuple(inside))
        return encodings, spans

    def _check_length(self, ids: Sequence[int], index: int, field: str, text: str) -> None:
        """A :class:`UnitError` for the unit at ``index`` (its ``field``) when ``ids`` are
        longer than the model allows."""
        if self.max_length is not None and len(ids) > self.max_length:
            raise UnitError(
                index,
                field,
                f"is too long for {self.name}: {len(ids)} tokens after tokenisation, but the "
                f"model accepts at most {self.max_length} (it starts {text[:60]!r})",
                position=None if field == "sentence" else f"cloze unit {index}",
            )

    def _run(
        self, copies: list[MaskedCopy], encodings: list
    ) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], Any]]:
        """The stream of masked copies through the model (:meth:`MaskedPasses.run`), under
        the token budget, widened for a long sentence when none was given."""
        return self._passes.run(
            copies,
            encodings,
            token_budget=self.token_budget,
            widen=self._auto_budget,
            progress=self.progress,
            desc=f"PLL {self.name}",
        )
