"""An n-gram model file read through pocketsphinx: where the English trigram is, its words, and
the log-probability of a word after its history, in nats.

The default model is the US English trigram that ships with the ``pocketsphinx`` package
(``pocketsphinx/model/en-us/en-us.lm.bin``): a lower-case, closed-vocabulary model with
``<s>`` and ``</s>`` and no ``<unk>``. Any other model pocketsphinx reads (ARPA text or Sphinx
binary) can be given as a path. pocketsphinx gives integer log-probabilities in base 1.0001;
:class:`NGramFile` converts them to natural logs. How sentences become words and scores is the
scorer's business (:mod:`baselines.kinds.ngram`).

Examples
--------
>>> lm = NGramFile(default_lm_path())
>>> lm.order, lm.in_vocabulary("keys"), lm.in_vocabulary("xqzzy")
(3, True, False)
>>> round(lm.ln(lm.raw("are", ("the", "keys"))), 4)
-3.4589
"""

from __future__ import annotations

import struct
from collections import OrderedDict
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

__all__ = ["MARKERS", "NGramFile", "default_lm_path", "ngram_vocabulary"]

MARKERS = frozenset({"<s>", "</s>", "<unk>", "<UNK>"})
"""The sentence markers and unknown-word tokens of an n-gram model: not words."""

_TRIE_HEADER = b"Trie Language Model"
_KEEP_DISTRIBUTIONS = 32  # histories whose vocabulary distribution is kept (0.6 MB each)


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


class NGramFile:
    """An n-gram model file, loaded through pocketsphinx on first use.

    Log-probabilities come as pocketsphinx's integers (:meth:`raw`, :meth:`raw_all`), which
    compare and sum exactly, and :meth:`ln` turns one into a natural log.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"n-gram model file not found: {self.path}")
        self._known: dict[str, bool] = {}
        self._unigrams: dict[str, float] = {}
        self._distributions: OrderedDict[tuple[str, ...], Any] = OrderedDict()

    @cached_property
    def _model(self) -> Any:
        import pocketsphinx

        try:
            return pocketsphinx.NGramModel(
                pocketsphinx.Config(), pocketsphinx.LogMath(), str(self.path)
            )
        except (RuntimeError, ValueError) as err:
            raise ValueError(
                f"pocketsphinx could not read the n-gram model {self.path}: {err}"
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

    @cached_property
    def log_zero(self) -> int:
        """pocketsphinx's floor: the raw log-probability of a word the model does not know."""
        return int(self._logmath.get_zero())

    @cached_property
    def _ln_base(self) -> float:
        """ln of pocketsphinx's log base: ``raw * _ln_base`` is ``log_to_ln(raw)`` exactly."""
        return float(self._logmath.log_to_ln(1))

    def raw(self, word: str, context: Sequence[str] = ()) -> int:
        """pocketsphinx's integer log-probability of ``word`` after ``context`` (oldest first,
        at most :attr:`context_size` words)."""
        # prob() takes the word then its history newest first.
        return int(self._model.prob([word, *reversed(context)]))

    def ln(self, raw: int) -> float:
        """A raw log-probability as a natural log."""
        return raw * self._ln_base

    def in_vocabulary(self, word: str) -> bool:
        """Whether the model has a unigram for ``word`` (memoised: a dictionary lookup is
        cheaper than a model call)."""
        known = self._known.get(word)
        if known is None:
            known = self._known[word] = self.raw(word) > self.log_zero
        return known

    def unigram(self, word: str) -> float:
        """The model's unigram natural-log probability of ``word`` (memoised; the floor for a
        word it does not know)."""
        value = self._unigrams.get(word)
        if value is None:
            value = self._unigrams[word] = self.ln(self.raw(word))
        return value

    @cached_property
    def vocabulary(self) -> tuple[str, ...]:
        """The model's words, less :data:`MARKERS` (read once from the file,
        :func:`ngram_vocabulary`)."""
        return tuple(w for w in ngram_vocabulary(self.path) if w not in MARKERS)

    def raw_all(self, context: tuple[str, ...]) -> Any:
        """The raw log-probability of every word of :attr:`vocabulary` after ``context``, a
        NumPy array; the last :data:`_KEEP_DISTRIBUTIONS` are kept (the units of one item share
        their history). About 0.1 s each for the English trigram."""
        import numpy as np

        kept = self._distributions
        if context in kept:
            kept.move_to_end(context)
            return kept[context]
        prob, history = self._model.prob, list(reversed(context))
        raws = np.fromiter(
            (prob([w, *history]) for w in self.vocabulary),
            dtype=np.int64,
            count=len(self.vocabulary),
        )
        kept[context] = raws
        if len(kept) > _KEEP_DISTRIBUTIONS:
            kept.popitem(last=False)
        return raws
