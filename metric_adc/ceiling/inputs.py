"""What the human ceiling reads: the LI pairs, the participant-level task matrices, and the
thesis's model deltas on the same pairs (for comparison).

The participant-level files of Sprouse, Schütze & Almeida (2013) are read in memory only
(:mod:`li_adger.sources.participants`); :func:`load_inputs` prints the authors' note.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from li_adger.sources import participants
from li_adger.sources.participants import RatingMatrix
from metric_adc.family.items import items_of
from metric_adc.pairs import PairTable, li_adger_pairs
from metric_adc.thesis.models import thesis_model_deltas

__all__ = ["CeilingInputs", "li_pairs", "load_inputs", "thesis_deltas_frame"]


@dataclass(frozen=True)
class CeilingInputs:
    """Everything the ceiling reads, in memory: LI pairs and the task matrices."""

    pairs: pd.DataFrame
    """Evaluable LI pairs: ``pair_id, good_id, bad_id, human_delta``."""
    me: RatingMatrix
    """:class:`li_adger.sources.participants.RatingMatrix` of the magnitude-estimation z-scores."""
    ls: RatingMatrix | None = None
    """The same for the Likert task (``None`` when not read: the human row needs ME only)."""
    fc: RatingMatrix | None = None
    """Participants × bad ids, 1.0 where the better member was chosen (forced choice; ``None``
    when not read)."""


def li_pairs() -> pd.DataFrame:
    """LI-Adger's evaluable LI pairs (``pair_id, good_id, bad_id, human_delta``), from the
    benchmark's items (:func:`metric_adc.family.items.items_of`).

    Examples
    --------
    >>> p = li_pairs()
    >>> len(p), p.columns.tolist()
    (1174, ['pair_id', 'good_id', 'bad_id', 'human_delta'])
    """
    c = items_of("li_adger").comparisons
    c = c[c["source"] == "LI"]
    return c[["pair_id", "good_id", "bad_id", "human_delta"]].reset_index(drop=True)


def load_inputs(source: str | Path | None = None, *, tasks: bool = True) -> CeilingInputs:
    """Read the LI pairs (:func:`li_pairs`), then the participant-level ratings, each task
    into its matrix (:func:`li_adger.sources.participants.read_matrix`): magnitude estimation,
    and with ``tasks`` the Likert and forced-choice tasks too.

    Prints :data:`li_adger.sources.participants.AUTHORS_NOTE` once to standard error.

    Examples
    --------
    >>> inputs = load_inputs(tasks=False)
    >>> len(inputs.pairs), inputs.me.values.shape, inputs.ls
    (1174, (304, 2400), None)
    """
    pairs = li_pairs()
    participants.print_authors_note()
    me = participants.read_matrix("me", source=source)
    if not tasks:
        return CeilingInputs(pairs=pairs, me=me)
    ls = participants.read_matrix("ls", source=source)
    fc = participants.read_matrix("fc", source=source)
    return CeilingInputs(pairs=pairs, me=me, ls=ls, fc=fc)


def thesis_deltas_frame(pairs: pd.DataFrame, thesis_dir: str | Path | None = None) -> pd.DataFrame:
    """The thesis's models' deltas on ``pairs`` (columns ``good_id``, ``bad_id``), one column
    per model (the names of :mod:`metric_adc.thesis.outputs`), indexed like ``pairs``.

    Each model is scored as any model is
    (:func:`metric_adc.thesis.models.thesis_model_deltas`: z-scored over all its sentences
    unless the thesis gives z-scores), against the LI-Adger judgements.

    Examples
    --------
    >>> d = thesis_deltas_frame(li_pairs().head(3))
    >>> d.shape, "trigram-slor" in d.columns
    ((3, 8), True)
    """
    table = PairTable.from_judgements(
        pairs["good_id"].tolist(), pairs["bad_id"].tolist(), li_adger_pairs().judgements
    )
    out = pd.DataFrame(index=pairs.index)
    for model, scored in thesis_model_deltas(table, thesis_dir):
        out[model.name] = scored.delta
    return out
