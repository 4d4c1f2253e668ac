"""The n-gram scorer: an ARPA/binary n-gram model (by default pocketsphinx's English trigram).

The default model is the US English trigram that ships with the ``pocketsphinx`` package
(``pocketsphinx/model/en-us/en-us.lm.bin``): a lower-case, closed-vocabulary model with
``<s>`` and ``</s>`` and no ``<unk>``. Any other model pocketsphinx reads (ARPA text or
Sphinx binary) can be given as a path.

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

import re
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from baselines.interface import TokenLogProbs, check_sentences, scorer_identity
from baselines.linking import LINKING_NAMES, check_linking_name

__all__ = ["CLITICS", "NGramScorer", "default_lm_path", "ngram_contexts", "words_of"]

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


def default_lm_path() -> Path:
    """Path of the English trigram that ships with pocketsphinx.

    Examples
    --------
    >>> default_lm_path().name
    'en-us.lm.bin'
    """
    import pocketsphinx

    path = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us.lm.bin"
    if not path.is_file():
        raise FileNotFoundError(
            f"pocketsphinx's English trigram was expected at {path} but is missing; "
            "reinstall it with `pip install --force-reinstall pocketsphinx`"
        )
    return path


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

    def __init__(
        self,
        lm_path: str | Path | None = None,
        *,
        variant: str = "slor",
        end_of_sentence: bool = True,
        name: str = "trigram",
    ) -> None:
        self._linking = check_linking_name(variant, allowed=LINKING_NAMES)
        self.lm_path = Path(lm_path) if lm_path is not None else default_lm_path()
        if not self.lm_path.is_file():
            raise FileNotFoundError(f"n-gram model file not found: {self.lm_path}")
        self.variant = variant
        self.reduction = self._linking.reduction
        self.end_of_sentence = bool(end_of_sentence)
        self.name = name

    def with_variant(self, variant: str) -> NGramScorer:
        """A scorer on the same model file with another linking function."""
        return NGramScorer(
            self.lm_path, variant=variant, end_of_sentence=self.end_of_sentence, name=self.name
        )

    @cached_property
    def _model(self) -> Any:
        import pocketsphinx

        try:
            return pocketsphinx.NGramModel(
                pocketsphinx.Config(), pocketsphinx.LogMath(), str(self.lm_path)
            )
        except (RuntimeError, ValueError) as err:
            raise ValueError(
                f"pocketsphinx could not read the n-gram model {self.lm_path}: {err}"
            ) from err

    @cached_property
    def _logmath(self) -> Any:
        import pocketsphinx

        return pocketsphinx.LogMath()

    @cached_property
    def order(self) -> int:
        """The n of the n-gram model."""
        return int(self._model.size())

    @cached_property
    def context_size(self) -> int:
        """Words of history a word is scored after: ``order - 1``, at most 2 (pocketsphinx's
        ``prob()`` reads at most three words)."""
        return max(min(self.order, 3) - 1, 0)

    def _raw(self, word: str, context: Sequence[str] = ()) -> int:
        """pocketsphinx's integer log-probability of ``word`` after ``context`` (oldest first,
        at most :attr:`context_size` words)."""
        # prob() takes the word then its history newest first.
        return int(self._model.prob([word, *reversed(context)]))

    def in_vocabulary(self, word: str) -> bool:
        """Whether the model has a unigram for ``word``.

        Examples
        --------
        >>> s = NGramScorer()
        >>> s.in_vocabulary("the"), s.in_vocabulary("xqzzy"), s.in_vocabulary("The")
        (True, False, False)
        """
        return self._raw(word) > self._logmath.get_zero()

    def unigram_logprob(self, word: str) -> float | None:
        """The model's unigram natural-log probability of ``word``, ``None`` when out of
        vocabulary.

        Examples
        --------
        >>> s = NGramScorer()
        >>> round(s.unigram_logprob("the"), 4), s.unigram_logprob("xqzzy")
        (-3.1993, None)
        """
        return self._ln(self._raw(word)) if self.in_vocabulary(word) else None

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

    def _ln(self, raw: int) -> float:
        return float(self._logmath.log_to_ln(raw))

    def _one(self, index: int, sentence: str) -> TokenLogProbs:
        words = self.tokenize(sentence)
        if not words:
            raise ValueError(
                f"sentences[{index}] has no words the n-gram model can read (got {sentence!r})"
            )
        tokens, logprobs, unigrams = [], [], []
        units = [*words, _EOS] if self.end_of_sentence else words
        for word, context in ngram_contexts(units, self.context_size):
            if self.in_vocabulary(word):
                tokens.append(word)
                logprobs.append(self._ln(self._raw(word, context)))
                unigrams.append(self._ln(self._raw(word)))
        if not tokens:
            raise ValueError(
                f"sentences[{index}] has only out-of-vocabulary words, so the n-gram model "
                f"cannot score it (got {sentence!r}); use end_of_sentence=True to score '</s>'"
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

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores."""
        from importlib.metadata import version

        return {
            **scorer_identity(self),
            "model_file": self.lm_path.name,
            "order": self.order,
            "end_of_sentence": self.end_of_sentence,
            "tokenisation": "lower-case; words of letters/digits joined by ' or -; "
            "punctuation dropped; OOV hyphenated words split",
            "oov": "skipped (not scored, not counted in |s|, kept in the history)",
            "versions": {"pocketsphinx": version("pocketsphinx")},
        }
