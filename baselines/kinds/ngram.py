"""The n-gram scorer: an ARPA/binary n-gram model (by default pocketsphinx's English trigram).

The model file is read through pocketsphinx (:mod:`baselines.models.ngram_file`); this module
turns sentences into the words it scores and their log-probabilities into a sentence score.

Conventions (they change the numbers, so they are fixed and tested):

* **Tokenisation.** Curly apostrophes become ``'``; the sentence is lower-cased; words are
  maximal runs of letters and digits, joined by inner apostrophes or hyphens (``don't``,
  ``co-worker``); all other punctuation is dropped. A hyphenated word that is out of
  vocabulary is split at its hyphens. A detached clitic (``does n't``) is re-attached when the
  joined word is in the vocabulary (``doesn't``).
* **Context.** Each word is scored given up to ``order - 1`` previous words, starting from
  ``<s>``; with ``end_of_sentence=True`` (the default) ``</s>`` is scored too, so a sentence's
  probability is that of a complete sentence, as in SRILM and KenLM.
* **Unigrams.** The unigram log-probability of each scored unit is the model's own unigram
  estimate, used by NormLP and SLOR.
* **Out-of-vocabulary words** are skipped, as SRILM's ``ngram -ppl`` does: they add nothing to
  ``logP`` or ``logPu``, do not count in ``|s|``, and stay in the history, so the next word
  backs off to a shorter context (:meth:`NGramScorer.count_oov` counts them).
* Log-probabilities are natural logs (pocketsphinx's base-1.0001 integers converted).

**Cloze units** (:meth:`NGramScorer.score_cloze`): the context and the completion are
tokenised as above; ``score`` is ln P(completion | the last ``order - 1`` units of ``<s>`` +
context), summed over the completion's words by the chain rule; ``rank`` is 1 + the number of
vocabulary words (:attr:`~baselines.models.ngram_file.NGramFile.vocabulary`) with a
strictly higher probability in that context, ``top`` the five most probable of them. An
out-of-vocabulary completion word gets the model's log zero (pocketsphinx's floor, about
−53,684 nats, below any word the model knows) and ranks after every vocabulary word
(``rank`` = number of vocabulary words + 1).

Examples
--------
>>> scorer = NGramScorer(variant="logprob")
>>> scorer.tokenize("Don't touch that co-worker's dial!")
["don't", 'touch', 'that', 'co', "worker's", 'dial']
>>> good, bad = scorer.score(["The keys are lost.", "The keys is lost."])
>>> good > bad
True
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from baselines.interface import (
    TOP_K,
    TokenLogProbs,
    UnitError,
    check_cloze,
    check_sentences,
    scorer_identity,
)
from baselines.models.ngram_file import NGramFile, default_lm_path
from metric_adc.linking.formulas import LINKING_NAMES, check_linking_name

__all__ = ["CLITICS", "NGramScorer", "ngram_contexts", "words_of"]

CLITICS: tuple[str, ...] = ("n't", "'s", "'re", "'ll", "'ve", "'d", "'m")
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*|'[^\W_]+")
_BOS, _EOS = "<s>", "</s>"


def words_of(sentence: str) -> list[str]:
    """Split a sentence into lower-case words, dropping punctuation (no vocabulary lookup).

    Examples
    --------
    >>> words_of("“Who’s there?” asked the ex-wife, 3 times.")
    ["who's", 'there', 'asked', 'the', 'ex-wife', '3', 'times']
    >>> words_of("The food that does n't help.")
    ['the', 'food', 'that', 'does', "n't", 'help']
    """
    text = sentence.replace("\u2019", "'").replace("\u2018", "'").lower()
    words = []
    for match in _WORD.finditer(text):
        word = match.group()
        # "n't" after a space is matched as "n" + "'t"; glue it back together.
        if word == "'t" and words and words[-1] == "n":
            words[-1] = "n't"
        else:
            words.append(word)
    return words


def ngram_contexts(
    units: Iterable[str], size: int, *, start: Sequence[str] = (_BOS,)
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each unit with the ``size`` units before it (oldest first), in one pass over ``units``.

    The history starts as ``start`` and only its last ``size`` units are kept, so a sentence of
    ``n`` units costs ``n`` steps of at most ``size`` units each, whatever ``n``.

    Examples
    --------
    >>> list(ngram_contexts(["a", "b", "c"], 2))
    [('a', ('<s>',)), ('b', ('<s>', 'a')), ('c', ('a', 'b'))]
    >>> list(ngram_contexts(["a", "b"], 0))
    [('a', ()), ('b', ())]
    >>> list(ngram_contexts(["a"], -1))
    Traceback (most recent call last):
    ...
    ValueError: size must be >= 0 (got -1)
    """
    if size < 0:
        raise ValueError(f"size must be >= 0 (got {size})")
    history: deque[str] = deque(start, maxlen=size)
    for unit in units:
        yield unit, tuple(history)
        history.append(unit)


class NGramScorer:
    """Score sentences with an n-gram model and a linking function.

    Parameters
    ----------
    lm_path:
        An n-gram model pocketsphinx reads; ``None`` is pocketsphinx's English trigram.
    variant:
        The linking function: one of ``logprob``, ``meanlp``, ``penlp``, ``normlp``, ``slor``.
    end_of_sentence:
        Score ``</s>`` as the last unit (default) or not.
    name:
        The model name written to the scores file.

    Examples
    --------
    >>> s = NGramScorer()
    >>> (s.kind, s.variant, s.reduction, s.order)
    ('ngram', 'slor', '(sum - unigram sum) / n', 3)
    >>> t = s.token_logprobs(["Kerry attempted physics."])[0]
    >>> t.tokens
    ('kerry', 'attempted', 'physics', '</s>')
    >>> round(t.total, 4) == round(s.with_variant("logprob").score(["Kerry attempted physics."])[0], 4)
    True
    """

    kind = "ngram"
    device = "cpu"
    """pocketsphinx runs on the CPU (:class:`~baselines.interface.PlacedScorer`)."""

    def __init__(
        self,
        lm_path: str | Path | None = None,
        *,
        variant: str = "slor",
        end_of_sentence: bool = True,
        name: str = "trigram",
    ) -> None:
        self._linking = check_linking_name(variant, allowed=LINKING_NAMES)
        self.lm = NGramFile(lm_path if lm_path is not None else default_lm_path())
        self.lm_path = self.lm.path
        self.variant = variant
        self.reduction = self._linking.reduction
        self.end_of_sentence = bool(end_of_sentence)
        self.name = name

    def with_variant(self, variant: str) -> NGramScorer:
        """A scorer on the same model file with another linking function."""
        return NGramScorer(
            self.lm_path, variant=variant, end_of_sentence=self.end_of_sentence, name=self.name
        )

    @property
    def order(self) -> int:
        """The n of the n-gram model."""
        return self.lm.order

    def in_vocabulary(self, word: str) -> bool:
        """Whether the model has a unigram for ``word``.

        Examples
        --------
        >>> s = NGramScorer()
        >>> s.in_vocabulary("the"), s.in_vocabulary("xqzzy"), s.in_vocabulary("The")
        (True, False, False)
        """
        return self.lm.in_vocabulary(word)

    def unigram_logprob(self, word: str) -> float | None:
        """The model's unigram natural-log probability of ``word``, ``None`` when out of
        vocabulary.

        Examples
        --------
        >>> s = NGramScorer()
        >>> round(s.unigram_logprob("the"), 4), s.unigram_logprob("xqzzy")
        (-3.1993, None)
        """
        return self.lm.unigram(word) if self.in_vocabulary(word) else None

    def tokenize(self, sentence: str) -> list[str]:
        """The words the model sees, out-of-vocabulary words included (see module docs)."""
        words: list[str] = []
        for word in words_of(sentence):
            if self.in_vocabulary(word):
                words.append(word)
            elif word in CLITICS and words and self.in_vocabulary(words[-1] + word):
                words[-1] += word
            elif "-" in word:
                words.extend(part for part in word.split("-") if part)
            else:
                words.append(word)
        return words

    def count_oov(self, sentences: Sequence[str]) -> tuple[int, int]:
        """``(out-of-vocabulary words, all words)`` over ``sentences``, after tokenisation.

        Examples
        --------
        >>> NGramScorer().count_oov(["The xqzzy left.", "Go home."])
        (1, 5)
        """
        words = [w for s in check_sentences(sentences) for w in self.tokenize(s)]
        return sum(not self.in_vocabulary(w) for w in words), len(words)

    def _one(self, index: int, sentence: str) -> TokenLogProbs:
        words = self.tokenize(sentence)
        if not words:
            raise UnitError(
                index, "sentence", f"has no words the n-gram model can read (got {sentence!r})"
            )
        tokens, logprobs, unigrams = [], [], []
        units = [*words, _EOS] if self.end_of_sentence else words
        lm = self.lm
        for word, context in ngram_contexts(units, lm.context_size):
            if lm.in_vocabulary(word):
                tokens.append(word)
                logprobs.append(lm.ln(lm.raw(word, context)))
                unigrams.append(lm.unigram(word))
        if not tokens:
            raise UnitError(
                index,
                "sentence",
                "has only out-of-vocabulary words, so the n-gram model cannot score it "
                f"(got {sentence!r}); use end_of_sentence=True to score '</s>'",
            )
        return TokenLogProbs(tuple(tokens), tuple(logprobs), tuple(unigrams))

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenLogProbs]:
        """Per-word natural-log probabilities and unigram log-probabilities, in order."""
        return [self._one(i, s) for i, s in enumerate(check_sentences(sentences))]

    def score(self, sentences: Sequence[str]) -> list[float]:
        """One score per sentence: the linking function of its word log-probabilities."""
        return [
            self._linking.compute(t.logprobs, t.unigram_logprobs)
            for t in self.token_logprobs(sentences)
        ]

    def score_cloze(
        self, contexts: Sequence[str], completions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One record per cloze unit: ``score``, ``rank`` and ``top`` (see the module docs).

        The distribution over the vocabulary is computed once per distinct history (about
        0.1 s each; the last 32 are kept).

        Examples
        --------
        >>> r = NGramScorer().score_cloze(["A robin is a", "A robin is a"], ["bird", "tree"])
        >>> [x["rank"] for x in r], r[0]["top"][:3], round(r[0]["score"], 2)
        ([863, 538], ['good', 'lot', 'very'], -8.7)
        """
        import numpy as np

        from baselines.kinds.cloze import rank_among, top_indices

        contexts, completions = check_cloze(contexts, completions)
        lm = self.lm
        units = []
        for i, (context, completion) in enumerate(zip(contexts, completions, strict=True)):
            words = self.tokenize(completion)
            if not words:
                raise ValueError(
                    f"completions[{i}] has no words the n-gram model can read (got {completion!r})"
                )
            scored = list(ngram_contexts([*self.tokenize(context), *words], lm.context_size))
            units.append(scored[-len(words) :])
        records: list[dict[str, Any]] = []
        by_history: dict[tuple[str, ...], list[int]] = {}
        for k, scored in enumerate(units):
            records.append({"score": math.fsum(lm.ln(lm.raw(w, c)) for w, c in scored)})
            by_history.setdefault(scored[0][1], []).append(k)
        everything = np.ones(len(lm.vocabulary), dtype=bool)
        for history, members in by_history.items():
            raws = lm.raw_all(history)
            top = [lm.vocabulary[j] for j in top_indices(raws, everything, TOP_K)]
            for k in members:
                word = units[k][0][0]
                records[k]["rank"] = rank_among(raws, lm.raw(word, history), everything)
                records[k]["top"] = list(top)
        return records

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores."""
        from importlib.metadata import version

        return {
            **scorer_identity(self),
            "model_file": self.lm_path.name,
            "order": self.lm.order,
            "end_of_sentence": self.end_of_sentence,
            "tokenisation": "lower-case; words of letters/digits joined by ' or -; "
            "punctuation dropped; OOV hyphenated words split",
            "oov": "skipped (not scored, not counted in |s|, kept in the history)",
            "versions": {"pocketsphinx": version("pocketsphinx")},
        }
