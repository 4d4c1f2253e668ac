"""The thesis's stability study (§2.3), read from its pinned outputs.

``thesis-outputs/bert_stability_testing_data.csv``: one row per LI-Adger sentence (4,178),
columns ``id, sentence, dataset, label, baseline``, then ``seed<n>`` for each of the 200
training orders of one BERT-base-uncased initialisation fine-tuned on CoLA (the 0/1
prediction), then ``flips`` and ``num_flips``. ``label`` is the thesis's label column
(``id.str.contains('g')``, :func:`metric_adc.thesis.outputs.load_thesis_labels`), ``baseline``
the majority-class prediction. ``bert-large-cased_acrobatic_sentences.csv`` lists the
sentences whose prediction flipped over the restarts of BERT-large-cased. Both files are
found and verified by :mod:`li_adger.sources`; only ids and numbers are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from li_adger.io.readers import InputFileError, read_csv
from li_adger.sources import find_sources

__all__ = [
    "LARGE_CASED_FILE",
    "STABILITY_FILE",
    "OrderStudy",
    "large_cased_acrobatic",
    "thesis_study",
]

STABILITY_FILE = "thesis-outputs/bert_stability_testing_data.csv"
LARGE_CASED_FILE = "thesis-outputs/bert-large-cased_acrobatic_sentences.csv"


@dataclass(frozen=True)
class OrderStudy:
    """Predictions of one initialisation over training orders: ``predictions[i, k]`` is
    sentence ``ids[i]``'s label (True = acceptable) after order ``orders[k]``.
    ``p_acceptable`` holds the probabilities when the source has them (a run), else ``None``
    (the thesis's file holds labels only)."""

    name: str
    ids: list[str]
    orders: list[str]
    predictions: np.ndarray
    p_acceptable: np.ndarray | None = None


@dataclass(frozen=True)
class ThesisStudy:
    """The thesis's file: the study, its label and baseline columns and its ``num_flips``."""

    study: OrderStudy
    thesis_label: np.ndarray
    baseline: np.ndarray
    num_flips: np.ndarray


def _binary(values, name: str, column: str, lines: np.ndarray) -> np.ndarray:
    arr = np.asarray(values, dtype=object)
    bad = ~np.isin(arr, ["0", "1"])
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise InputFileError(f"{name} line {lines[k]}: {column!r} must be 0 or 1 (got {arr[k]!r})")
    return arr == "1"


def thesis_study(*, download: bool = True) -> ThesisStudy:
    """The thesis's 200 training orders of BERT-base-uncased on LI-Adger (checksum-verified).

    Examples
    --------
    >>> t = thesis_study()
    >>> t.study.predictions.shape, t.study.orders[:2], int(t.thesis_label.sum())
    ((4178, 200), ['seed518', 'seed702'], 2217)
    """
    path = find_sources([STABILITY_FILE], download=download)[STABILITY_FILE]
    frame = read_csv(path, ["id", "label", "baseline", "num_flips"], name=STABILITY_FILE)
    orders = [c for c in frame.columns if c.startswith("seed")]
    if not orders:
        raise InputFileError(f"{STABILITY_FILE} line 1: no 'seed<n>' columns (expected 200)")
    lines = np.arange(len(frame)) + 2
    predictions = np.column_stack([_binary(frame[c], STABILITY_FILE, c, lines) for c in orders])
    flips = frame["num_flips"].to_numpy(dtype=object)
    if not all(str(v).isdigit() for v in flips):
        k = next(k for k, v in enumerate(flips) if not str(v).isdigit())
        raise InputFileError(
            f"{STABILITY_FILE} line {lines[k]}: 'num_flips' must be a count (got {flips[k]!r})"
        )
    ids = frame["id"].tolist()
    return ThesisStudy(
        OrderStudy("bert-base-uncased (thesis, §2.3)", ids, orders, predictions),
        _binary(frame["label"], STABILITY_FILE, "label", lines),
        _binary(frame["baseline"], STABILITY_FILE, "baseline", lines),
        flips.astype(int),
    )


def large_cased_acrobatic(*, download: bool = True) -> list[str]:
    """The ids of ``bert-large-cased_acrobatic_sentences.csv`` (checksum-verified): the
    sentences whose prediction flipped over the thesis's BERT-large-cased restarts.

    Examples
    --------
    >>> len(large_cased_acrobatic())
    1031
    """
    path = find_sources([LARGE_CASED_FILE], download=download)[LARGE_CASED_FILE]
    return read_csv(path, ["id", "num_flips"], name=LARGE_CASED_FILE)["id"].tolist()
