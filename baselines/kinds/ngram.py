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

**Cloze units** (:meth:`NGramScorer.score_cloze`): the context and the completion are
tokenised as above; ``score`` is ln P(completion | the last ``order - 1`` units of ``<s>`` +
context), summed over the completion's words by the chain rule; ``rank`` is 1 + the number of
vocabulary words (:func:`ngram_vocabulary`, without ``<s>``, ``</s>`` and ``<unk>``) with a
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
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from baselines.interface import (
    TOP_K,
    TokenLogProbs,
    check_cloze,
    check_sentences,
    scorer_identity,
)
from metric_adc.linking.formulas import LINKING_NAMES, check_linking_name

__all__ = [
    "CLITICS",
    "NGramScorer",
    "default_lm_path",
    "ngram_contexts",
    "ngram_vocabulary",
    "words_of",
]

CLITICS: tuple[str, ...] = ("n't", "'s", "'re", "'ll", "'ve", "'d", "'m")
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*|'[^\W_]+")
_BOS, _EOS = "<s>", "</s>"
_MARKERS = frozenset({_BOS, _EOS, "<unk>", "<UNK>"})
_TRIE_HEADER = b"Trie Language Model"
_KEEP_DISTRIBUTIONS = 32  # histories whose vocabulary distribution is kept (0.6 MB each)


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


def ngram_vocabulary(path: str | Path) -> list[str]:
    r"""The words of an n-gram model file (its unigrams, in the file's order).

    Reads the two formats whose word list can be read without loading the model: ARPA text
    (the ``\1-grams:`` section) and pocketsphinx's binary trie (``Trie Language Model``:
    a header with the order and the n-gram counts, and the unigram strings at the end of the
    file, each ended by a NUL, preceded by their total length).

    Examples
    --------
    >>> words = ngram_vocabulary(default_lm_path())
    >>> len(words), words[:3], "keys" in words
    (72547, ["'bout", "'cause", "'em"], True)
    >>> import tempfile, pathlib
    >>> arpa = pathlib.Path(tempfile.mkdtemp()) / "toy.arpa"
    >>> _ = arpa.write_text("\\data\\\nngram 1=2\n\n\\1-grams:\n-1.0\t<s>\t-0.5\n"
    ...                     "-0.3\tkeys\n\n\\end\\\n")
    >>> ngram_vocabulary(arpa)
    ['<s>', 'keys']
    """
    import struct

    path = Path(path)
    data = path.read_bytes()
    if data.startswith(_TRIE_HEADER):
        start = len(_TRIE_HEADER) + 1  # the header, then the order as one byte
        (n_words,) = struct.unpack_from("<I", data, start)
        words = data.rsplit(b"\x00", n_words + 1)[1:-1]
        size = sum(len(w) + 1 for w in words)
        stored = struct.unpack_from("<i", data, len(data) - size - 4)[0] if size < len(data) else 0
        if len(words) != n_words or not data.endswith(b"\x00") or stored != size:
            raise ValueError(
                f"{path}: the word list at the end of the binary n-gram model is not where "
                f"expected ({n_words} words announced, {len(words)} found)"
            )
        return [w.decode("utf-8") for w in words]
    text = data.decode("utf-8", errors="replace")
    if "\\1-grams:" not in text:
        raise ValueError(
            f"{path}: cannot list the words of this n-gram model (expected an ARPA file with "
            "a \\1-grams: section or a pocketsphinx binary trie); cloze ranks need them"
        )
    section = text.split("\\1-grams:", 1)[1].split("\\", 1)[0]
    return [line.split()[1] for line in section.splitlines() if len(line.split()) >= 2]


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
        known = self._in_vocabulary.get(word)
        if known is None:
            known = self._in_vocabulary[word] = self._raw(word) > self._logmath.get_zero()
        return known

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

    @cached_property
    def _in_vocabulary(self) -> dict[str, bool]:
        """Memo of :meth:`in_vocabulary` (a dictionary lookup is cheaper than a model call)."""
        return {}

    @cached_property
    def _ln_base(self) -> float:
        """ln of pocketsphinx's log base: ``raw * _ln_base`` is ``log_to_ln(raw)`` exactly."""
        return float(self._logmath.log_to_ln(1))

    @cached_property
    def _unigram_ln(self) -> dict[str, float]:
        """Memo of each word's unigram natural-log probability."""
        return {}

    def _ln(self, raw: int) -> float:
        return raw * self._ln_base

    def _unigram(self, word: str) -> float:
        value = self._unigram_ln.get(word)
        if value is None:
            value = self._unigram_ln[word] = self._ln(self._raw(word))
        return value

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
                unigrams.append(self._unigram(word))
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

    @cached_property
    def candidates(self) -> tuple[str, ...]:
        """The words a cloze blank is ranked among: the vocabulary less ``<s>``, ``</s>`` and
        ``<unk>`` (read once from the model file, :func:`ngram_vocabulary`)."""
        return tuple(w for w in ngram_vocabulary(self.lm_path) if w not in _MARKERS)

    @cached_property
    def _distributions(self) -> OrderedDict[tuple[str, ...], Any]:
        """The last :data:`_KEEP_DISTRIBUTIONS` results of :meth:`_raw_all`, by history."""
        return OrderedDict()

    def _raw_all(self, context: tuple[str, ...]) -> Any:
        """pocketsphinx's integer log-probability of every candidate word after ``context``
        (the last few are kept: the units of one item share their history)."""
        import numpy as np

        kept = self._distributions
        if context in kept:
            kept.move_to_end(context)
            return kept[context]
        prob, history = self._model.prob, list(reversed(context))
        raws = np.fromiter(
            (prob([w, *history]) for w in self.candidates),
            dtype=np.int64,
            count=len(self.candidates),
        )
        kept[context] = raws
        if len(kept) > _KEEP_DISTRIBUTIONS:
            kept.popitem(last=False)
        return raws

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
        units = []
        for i, (context, completion) in enumerate(zip(contexts, completions, strict=True)):
            words = self.tokenize(completion)
            if not words:
                raise ValueError(
                    f"completions[{i}] has no words the n-gram model can read (got {completion!r})"
                )
            scored = list(ngram_contexts([*self.tokenize(context), *words], self.context_size))
            units.append(scored[-len(words) :])
        records: list[dict[str, Any]] = []
        by_history: dict[tuple[str, ...], list[int]] = {}
        for k, scored in enumerate(units):
            records.append({"score": math.fsum(self._ln(self._raw(w, c)) for w, c in scored)})
            by_history.setdefault(scored[0][1], []).append(k)
        everything = np.ones(len(self.candidates), dtype=bool)
        for history, members in by_history.items():
            raws = self._raw_all(history)
            top = [self.candidates[j] for j in top_indices(raws, everything, TOP_K)]
            for k in members:
                word = units[k][0][0]
                records[k]["rank"] = rank_among(raws, self._raw(word, history), everything)
                records[k]["top"] = list(top)
        return records

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
