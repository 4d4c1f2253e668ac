"""Unigram models: a sentence's words and their unconditional log-probabilities.

NormLP and SLOR (:mod:`metric_adc.linking.formulas`) subtract what a sentence's words would score
without any context. A causal or masked LM has no such estimate of its own, so the linked
scorers (:mod:`baselines.kinds.linked`) take it from a word-frequency source, always the same for a
given sentence: the unigram log-probability depends on the sentence's text only, never on the
scorer that asks. Two sources:

``wordfreq`` (the default)
    English word frequencies of the ``wordfreq`` package, its ``large`` list (321,180 words
    down to a frequency of 1e-8, from Wikipedia, subtitles, news, books, the web, Twitter and
    Reddit), installed with the package and read offline.
``trigram``
    The unigrams of pocketsphinx's English trigram (``en-us.lm.bin``, 72,547 words), the units
    and estimates the trigram scorer uses (:mod:`baselines.kinds.ngram`).

The policy (it changes the numbers, so it is fixed and tested):

* **Words.** Each source splits a sentence into words its own documented way:
  ``wordfreq.tokenize(sentence, "en")`` (Unicode word boundaries, case-folded, punctuation
  dropped, so ``co-worker's`` is ``co`` + ``worker's``) or the trigram's
  :meth:`~baselines.kinds.ngram.NGramScorer.tokenize` (lower-cased, punctuation dropped, hyphenated
  words kept whole when the model knows them). Both keep a word with an inner apostrophe whole
  (``don't``, ``who's``); a detached ``n't`` (``does n't``) is a word of its own for
  ``wordfreq``, re-attached by the trigram when the joined word is in its vocabulary.
  Numbers are words (``3``, ``1999``; ``wordfreq`` estimates a number's frequency from its
  digits). A sentence with no word is an error.
* **Log-probability** of a word: the natural log of its frequency in the source.
* **Unknown words** (absent from the source) get the source's *floor*: the probability of the
  rarest word the source lists (``wordfreq``: 1e-8, the ``large`` list's cutoff, its
  ``minimum`` argument; ``trigram``: the smallest unigram of ``en-us.lm.bin``, ln p = −21.805,
  shared by its rarest words). An unknown word is at least that rare, so the floor is the most
  probable it can be: it is never counted as more surprising than the rarest known word, and it
  is never skipped — the LM's log-probability pays for every word, so its unigram must too, or
  SLOR would punish sentences with rare names. No word scores below the floor.
* **No end-of-sentence unit**: the LM scores nothing after the sentence, so the unigram sum
  has no ``</s>`` either (the trigram scorer's own SLOR, which scores ``</s>``, keeps its own
  convention).

Examples
--------
>>> model = unigram_model("wordfreq")
>>> u = model.sentence("The keys aren't lost.")
>>> u.words, u.known
(('the', 'keys', "aren't", 'lost'), (True, True, True, True))
>>> round(u.total, 3), len(u)
(-30.952, 4)
>>> model.sentence("Xqzzyx left.").logprobs[0] == model.floor_logprob
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baselines.interface import UNIGRAM_SOURCES
from metric_adc.scores.labels import DEFAULT_UNIGRAM_SOURCE

__all__ = [
    "DEFAULT_UNIGRAM_SOURCE",
    "TRIGRAM_FLOOR_LOGPROB",
    "UNIGRAM_SOURCES",
    "WORDFREQ_FLOOR",
    "SentenceUnigrams",
    "UnigramModel",
    "check_unigram_source",
    "unigram_model",
]


WORDFREQ_FLOOR = 1e-8
"""The frequency of an unknown word for ``wordfreq``: the cutoff of its ``large`` list (Zipf 1),
below which it lists no word."""

TRIGRAM_FLOOR_LOGPROB = -21.804909772678815
"""The log-probability of an unknown word for ``trigram``: the smallest unigram of
``en-us.lm.bin`` (pocketsphinx's integer −218060 in base 1.0001), read from the model's unigram
table; its rarest words, e.g. ``aborn``, all have it."""


@dataclass(frozen=True)
class SentenceUnigrams:
    """A sentence's words, their unigram log-probabilities and whether the source knows them.

    Examples
    --------
    >>> u = SentenceUnigrams(("the", "xqz"), (-3.0, -18.0), (True, False))
    >>> u.total, len(u), u.n_unknown
    (-21.0, 2, 1)
    """

    words: tuple[str, ...]
    logprobs: tuple[float, ...]
    known: tuple[bool, ...]

    def __post_init__(self) -> None:
        if not len(self.words) == len(self.logprobs) == len(self.known):
            raise ValueError(
                f"words, logprobs and known must have the same length (got {len(self.words)}, "
                f"{len(self.logprobs)} and {len(self.known)})"
            )

    def __len__(self) -> int:
        return len(self.words)

    @property
    def total(self) -> float:
        """``logPu(s)``: the sum of the words' log-probabilities (``math.fsum``)."""
        return float(math.fsum(self.logprobs))

    @property
    def n_unknown(self) -> int:
        """Words the source does not list (scored at its floor)."""
        return sum(not k for k in self.known)


class UnigramModel:
    """Words and unigram log-probabilities of sentences, from one source.

    Parameters
    ----------
    source:
        The source's name, written to the scores file.
    tokenize:
        Sentence → its words.
    lookup:
        Word → its natural-log probability, or ``None`` when the source does not list it.
    floor_logprob:
        The log-probability of an unknown word, and the least any word gets.
    policy:
        How words, unknown words and numbers are handled, in words (written to the scores file).
    versions:
        Versions of the packages the source comes from.

    Examples
    --------
    A toy table over whitespace-separated words:

    >>> table = {"the": -1.0, "keys": -4.0, "are": -2.0}
    >>> toy = UnigramModel("toy", str.split, table.get, floor_logprob=-10.0)
    >>> u = toy.sentence("the keys are xyz")
    >>> u.logprobs, u.total
    ((-1.0, -4.0, -2.0, -10.0), -17.0)
    >>> toy.sentence("  ")
    Traceback (most recent call last):
    ...
    ValueError: the unigram model 'toy' finds no word in the sentence (got '  ')
    """

    def __init__(
        self,
        source: str,
        tokenize: Callable[[str], Sequence[str]],
        lookup: Callable[[str], float | None],
        *,
        floor_logprob: float,
        policy: Mapping[str, str] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        floor = float(floor_logprob)
        if not math.isfinite(floor) or floor > 0.0:
            raise ValueError(f"floor_logprob must be a finite log-probability <= 0 (got {floor!r})")
        self.source = str(source)
        self.floor_logprob = floor
        self._tokenize = tokenize
        self._lookup = lookup
        self._policy = dict(policy or {})
        self._versions = dict(versions or {})

    def words(self, sentence: str) -> list[str]:
        """The words of ``sentence`` as the source splits it."""
        return [str(w) for w in self._tokenize(sentence)]

    def word_logprob(self, word: str) -> tuple[float, bool]:
        """``(log-probability, known)`` of one word: the floor when unknown, never below it."""
        value = self._lookup(word)
        if value is None:
            return self.floor_logprob, False
        return max(float(value), self.floor_logprob), True

    def sentence(self, sentence: str) -> SentenceUnigrams:
        """The words of ``sentence`` and their log-probabilities; raise when it has no word."""
        words = self.words(sentence)
        if not words:
            raise ValueError(
                f"the unigram model {self.source!r} finds no word in the sentence (got {sentence!r})"
            )
        scored = [self.word_logprob(w) for w in words]
        return SentenceUnigrams(
            tuple(words), tuple(lp for lp, _ in scored), tuple(k for _, k in scored)
        )

    def metadata(self) -> dict[str, Any]:
        """The source, its policy and floor, for the scores file.

        Examples
        --------
        >>> UnigramModel("toy", str.split, {}.get, floor_logprob=-10.0).metadata()
        {'source': 'toy', 'floor_logprob': -10.0, 'versions': {}}
        """
        return {
            "source": self.source,
            **self._policy,
            "floor_logprob": self.floor_logprob,
            "versions": dict(self._versions),
        }


def check_unigram_source(source: str) -> str:
    """Return ``source`` if it is one of :data:`UNIGRAM_SOURCES`, else raise naming them.

    Examples
    --------
    >>> check_unigram_source("trigram")
    'trigram'
    >>> check_unigram_source("google")
    Traceback (most recent call last):
    ...
    ValueError: unigram must be one of 'wordfreq', 'trigram' (got 'google')
    """
    if source not in UNIGRAM_SOURCES:
        choices = ", ".join(repr(s) for s in UNIGRAM_SOURCES)
        raise ValueError(f"unigram must be one of {choices} (got {source!r})")
    return source


def _wordfreq_model() -> UnigramModel:
    try:
        import wordfreq
    except ImportError as err:
        raise ImportError(
            "the 'wordfreq' unigram source needs the wordfreq package: "
            "`pip install wordfreq` (or the project's `models` extra)"
        ) from err
    from importlib.metadata import version

    def lookup(word: str) -> float | None:
        frequency = wordfreq.word_frequency(word, "en", wordlist="large")
        return math.log(frequency) if frequency > 0.0 else None

    return UnigramModel(
        "wordfreq",
        lambda sentence: wordfreq.tokenize(sentence, "en"),
        lookup,
        floor_logprob=math.log(WORDFREQ_FLOOR),
        policy={
            "lang": "en",
            "wordlist": "large",
            "tokenisation": "wordfreq.tokenize(sentence, 'en'): Unicode word boundaries, "
            "case-folded, punctuation dropped",
            "unknown_words": f"frequency {WORDFREQ_FLOOR:g}, the large list's cutoff",
        },
        versions={"wordfreq": version("wordfreq")},
    )


def _trigram_model() -> UnigramModel:
    from importlib.metadata import version

    from baselines.kinds.ngram import NGramScorer

    trigram = NGramScorer(variant="logprob")
    return UnigramModel(
        "trigram",
        trigram.tokenize,
        trigram.unigram_logprob,
        floor_logprob=TRIGRAM_FLOOR_LOGPROB,
        policy={
            "model_file": trigram.lm_path.name,
            "tokenisation": "the trigram scorer's: lower-case; words of letters/digits joined "
            "by ' or -; punctuation dropped; OOV hyphenated words split",
            "unknown_words": "the model's smallest unigram log-probability",
        },
        versions={"pocketsphinx": version("pocketsphinx")},
    )


_SOURCES: dict[str, Callable[[], UnigramModel]] = {
    "wordfreq": _wordfreq_model,
    "trigram": _trigram_model,
}


def unigram_model(source: str = DEFAULT_UNIGRAM_SOURCE) -> UnigramModel:
    """The unigram model of a source in :data:`UNIGRAM_SOURCES`.

    Examples
    --------
    >>> trigram = unigram_model("trigram")
    >>> trigram.sentence("The food that does n't help.").words
    ('the', 'food', 'that', "doesn't", 'help')
    >>> trigram.word_logprob("aborn") == (TRIGRAM_FLOOR_LOGPROB, True)
    True
    """
    return _SOURCES[check_unigram_source(source)]()
