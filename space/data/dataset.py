"""LI-Adger as the app reads it: the published dataset, never the raw source files.

The rows come from the dataset repository on the Hub when one is configured
(``--dataset-repo`` or ``$ADC_DATASET_REPO``: ``datasets.load_dataset(repo, config,
split="test")``), else from the package's own committed build (:func:`li_adger.load`), which
needs no build step and no source file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from li_adger.benchmarks.liadger import from_tables
from metric_adc.pairs import PairTable, li_adger_pairs

__all__ = [
    "DATASET_REPO_ENV",
    "FRAME_COLUMNS",
    "LiAdger",
    "configured_repo",
    "dataset_loader",
    "load_li_adger",
    "short_label",
]

DATASET_REPO_ENV = "ADC_DATASET_REPO"
"""Environment variable naming the published dataset's Hub repository (``owner/li-adger``)."""

FRAME_COLUMNS = [
    "pair_id",
    "source",
    "phenomenon",
    "good_id",
    "good_sentence",
    "good_judgement",
    "bad_id",
    "bad_sentence",
    "bad_judgement",
    "human_delta",
]
"""The columns of :attr:`LiAdger.frame` (one row per pair), in order."""


def pair_units(frame: pd.DataFrame) -> pd.DataFrame:
    """The sentences of a pairs frame (:data:`FRAME_COLUMNS`) as units ``id, sentence``, each
    once: the LI-Adger texts the app holds, against which a scores file's texts are checked.

    Examples
    --------
    >>> f = pd.DataFrame({"good_id": ["g1", "g1"], "good_sentence": ["A.", "A."],
    ...                   "bad_id": ["b1", "b2"], "bad_sentence": ["B.", "C."]})
    >>> pair_units(f).values.tolist()
    [['g1', 'A.'], ['b1', 'B.'], ['b2', 'C.']]
    """
    units = pd.DataFrame(
        {
            "id": [*frame["good_id"], *frame["bad_id"]],
            "sentence": [*frame["good_sentence"], *frame["bad_sentence"]],
        }
    )
    return units.drop_duplicates("id").reset_index(drop=True)


@dataclass(frozen=True)
class LiAdger:
    """The LI-Adger pairs as the app shows them.

    ``pairs`` is the metric's pair table of the 2,365 evaluable pairs; ``frame`` the same pairs
    in the same order with the columns of the pair explorer; ``acceptable`` each sentence's
    expert label; ``labels`` each phenomenon's readable short name (:func:`short_label`).
    """

    pairs: PairTable
    frame: pd.DataFrame
    acceptable: dict[str, bool]
    labels: dict[str, str]


def dataset_loader(repo: str | None = None) -> Callable[[str], Any]:
    """A function config → rows (a ``datasets.Dataset``): from the Hub repository ``repo``,
    else (``None``) from the package's committed build.

    Examples
    --------
    >>> dataset_loader()("phenomena").num_rows
    233
    """
    if repo is None:
        import li_adger

        return li_adger.load

    def load(config: str):
        import datasets

        return datasets.load_dataset(repo, config, split="test")

    return load


def short_label(reference: str) -> str:
    """A phenomenon's readable short name: its reference without the journal or book title.

    Examples
    --------
    >>> short_label("Martin (2001), Linguistic Inquiry 32(1), ex. 1a, 2c")
    'Martin (2001) ex. 1a, 2c'
    >>> short_label("Adger (2003), Core Syntax, ch. 10, ex. 116, 119")
    'Adger (2003) ch. 10, ex. 116, 119'
    """
    text = re.sub(r", (Linguistic Inquiry [^,]*|Core Syntax)(?=,|$)", "", reference)
    return text.replace(", ", " ", 1)


def _labels(phenomena: pd.DataFrame) -> dict[str, str]:
    pairs = zip(phenomena["phenomenon"], phenomena["reference"], strict=True)
    labels = {p: short_label(r) for p, r in pairs}
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    return {p: (f"{lab} [{p}]" if seen[lab] > 1 else lab) for p, lab in labels.items()}


def load_li_adger(repo: str | None = None) -> LiAdger:
    """The LI-Adger evaluable pairs, their display frame, expert labels and phenomenon names,
    from ``repo`` on the Hub or (``None``) the package's build.

    Raises
    ------
    RuntimeError
        The pairs frame and the metric's pair table list different pairs.

    Examples
    --------
    >>> d = load_li_adger()
    >>> len(d.pairs) == len(d.frame), len(d.acceptable), d.labels["32.1.martin.1a+2c"]
    (True, 4178, 'Martin (2001) ex. 1a, 2c')
    """
    load = dataset_loader(repo)
    sentences = load("sentences").to_pandas()
    frame = load("pairs").to_pandas()
    table = li_adger_pairs(from_tables(sentences, frame))
    acceptable = dict(
        zip(sentences["id"], sentences["expert_acceptable"].astype(bool).tolist(), strict=True)
    )
    frame = frame[~frame["discarded"].astype(bool)].reset_index(drop=True)[FRAME_COLUMNS]
    if frame["good_id"].tolist() != table.good_ids or frame["bad_id"].tolist() != table.bad_ids:
        raise RuntimeError(
            "the LI-Adger pairs frame and the metric's pair table list different pairs; "
            "rebuild the dataset (python -m li_adger build)"
        )
    return LiAdger(table, frame, acceptable, _labels(load("phenomena").to_pandas()))


def configured_repo(option: str | None = None) -> str | None:
    """The dataset repository to read: ``option`` (``--dataset-repo``), else
    ``$ADC_DATASET_REPO``, else ``None`` (the package's build).

    Examples
    --------
    >>> configured_repo("someone/li-adger")
    'someone/li-adger'
    """
    return option or os.environ.get(DATASET_REPO_ENV) or None
