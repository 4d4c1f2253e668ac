"""The paper's bag-of-words baseline: max-pooled static word vectors and an MLP (§3, §5).

Warstadt et al. (2019) max-pool 300-dimensional GloVe vectors (840B tokens) over a sentence's
words and classify the pooled vector with an MLP. Two sources of static vectors:

- ``glove:FILE`` (:func:`glove_vectors`): a GloVe text file (``word v1 … vd`` per line, as
  ``glove.840B.300d.txt``); only the words the sentences use are kept. Words are split off
  punctuation (:func:`words`) and looked up as written, then lower-cased; a word in neither
  form has no vector.
- ``input-embeddings:MODEL`` (:func:`input_embedding_vectors`): offline, the encoder's own input
  (word-piece) embedding matrix, each sentence cut into the tokenizer's word pieces without
  special tokens.

A sentence with no known word pools to the zero vector. The MLP is scikit-learn's
``MLPClassifier`` (one hidden layer of 256 ReLU units, Adam, early stopping on a tenth of the
training set, ``random_state`` the seed). The result always names its vectors
(:attr:`StaticVectors.source`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "StaticVectors",
    "glove_vectors",
    "input_embedding_vectors",
    "max_pool",
    "mlp_classifier",
    "words",
]

_WORD = re.compile(r"\w+(?:'\w+)?|[^\w\s]")


def words(sentence: str) -> list[str]:
    """A sentence's words and punctuation marks, as GloVe's tokens split them.

    Examples
    --------
    >>> words("Has the guy worked with any teenagers?")
    ['Has', 'the', 'guy', 'worked', 'with', 'any', 'teenagers', '?']
    """
    return _WORD.findall(sentence)


def max_pool(rows: np.ndarray, dim: int) -> np.ndarray:
    """The element-wise maximum of a sentence's word vectors (zeros when it has none).

    Examples
    --------
    >>> max_pool(np.array([[1.0, -2.0], [0.5, 3.0]]), 2).tolist()
    [1.0, 3.0]
    >>> max_pool(np.zeros((0, 2)), 2).tolist()
    [0.0, 0.0]
    """
    if rows.shape[0] == 0:
        return np.zeros(dim, dtype=np.float32)
    return rows.max(axis=0).astype(np.float32)


@dataclass(frozen=True)
class StaticVectors:
    """Static vectors and the function cutting a sentence into rows of them."""

    source: str
    matrix: np.ndarray
    index: dict[str, int]
    lowercase_fallback: bool

    def pieces(self, sentence: str) -> list[int]:
        """Row numbers of a sentence's known words (unknown ones dropped)."""
        out = []
        for w in words(sentence):
            i = self.index.get(w)
            if i is None and self.lowercase_fallback:
                i = self.index.get(w.lower())
            if i is not None:
                out.append(i)
        return out

    def pool(self, sentences: Sequence[str]) -> np.ndarray:
        """One max-pooled vector per sentence.

        Examples
        --------
        >>> v = StaticVectors("toy", np.array([[1.0, 0.0], [0.0, 2.0]]), {"a": 0, "b": 1}, True)
        >>> v.pool(["A b.", "c"]).tolist()
        [[1.0, 2.0], [0.0, 0.0]]
        """
        dim = self.matrix.shape[1]
        return np.stack([max_pool(self.matrix[self.pieces(s)], dim) for s in sentences])


@dataclass(frozen=True)
class _PieceVectors(StaticVectors):
    tokenizer: Any = None

    def pieces(self, sentence: str) -> list[int]:
        return list(self.tokenizer(sentence, add_special_tokens=False)["input_ids"])


def glove_vectors(path: str | Path, vocabulary: Iterable[str]) -> StaticVectors:
    """The vectors of a GloVe text file for the words of ``vocabulary`` (and their lower case).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.txt"
    >>> _ = p.write_text("the 1 2\\nany 3 4\\ncat 5 6\\n")
    >>> v = glove_vectors(p, ["The", "any"])
    >>> v.source, sorted(v.index), v.pool(["The any"]).tolist()
    ('glove:g.txt', ['any', 'the'], [[3.0, 4.0]])
    >>> _ = p.write_text("the 1 2\\nany 3\\n")
    >>> glove_vectors(p, ["any"])
    Traceback (most recent call last):
    ...
    ValueError: .../g.txt:2: expected a word and 2 numbers (got 1 numbers)
    """
    path = Path(path)
    wanted = set(vocabulary)
    wanted |= {w.lower() for w in wanted}
    index: dict[str, int] = {}
    rows: list[np.ndarray] = []
    dim = None
    with path.open(encoding="utf-8", errors="strict") as fh:
        for number, line in enumerate(fh, 1):
            word, _, rest = line.rstrip("\n").partition(" ")
            values = rest.split(" ")
            if dim is None:
                dim = len(values)
            elif len(values) != dim:
                raise ValueError(
                    f"{path}:{number}: expected a word and {dim} numbers (got {len(values)} numbers)"
                )
            if word in wanted and word not in index:
                try:
                    rows.append(np.array(values, dtype=np.float32))
                except ValueError:
                    raise ValueError(
                        f"{path}:{number}: the vector of {word!r} is not numbers"
                    ) from None
                index[word] = len(rows) - 1
    if dim is None:
        raise ValueError(f"{path}: no vectors in the file")
    matrix = np.stack(rows) if rows else np.zeros((0, dim), dtype=np.float32)
    return StaticVectors(f"glove:{path.name}", matrix, index, True)


def input_embedding_vectors(folder: str | Path, name: str | None = None) -> StaticVectors:
    """The input embedding matrix of the encoder in ``folder`` and its tokenizer's word pieces."""
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder)
    matrix = model.get_input_embeddings().weight.detach().float().numpy().copy()
    return _PieceVectors(
        f"input-embeddings:{name or Path(folder).name}", matrix, {}, False, tokenizer
    )


def mlp_classifier(seed: int) -> Any:
    """The MLP on pooled vectors (see the module docs)."""
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(
        StandardScaler(),
        MLPClassifier(
            hidden_layer_sizes=(256,),
            early_stopping=True,
            validation_fraction=0.1,
            max_iter=200,
            random_state=seed,
        ),
    )
