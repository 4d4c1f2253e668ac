"""What the human ceiling reads: the LI pairs, the participant-level task matrices, and the
thesis's model deltas on the same pairs (for comparison).

The participant-level files of Sprouse, Schütze & Almeida (2013) are read in memory only
(:mod:`li_adger.sources.participants`); :func:`load_inputs` prints the authors' note.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from li_adger.sources.participants import RatingMatrix

__all__ = ["CeilingInputs", "load_inputs", "thesis_deltas_frame"]


@dataclass(frozen=True)
class CeilingInputs:
    """Everything the ceiling reads, in memory: LI pairs and the task matrices."""

    pairs: pd.DataFrame
    """Evaluable LI pairs: ``pair_id, good_id, bad_id, human_delta``."""
    me: RatingMatrix
    """:class:`li_adger.sources.participants.RatingMatrix` of the magnitude-estimation z-scores."""
    ls: RatingMatrix
    """The same for the Likert task."""
    fc: RatingMatrix
    """Participants × bad ids, 1.0 where the better member was chosen (forced choice)."""


def load_inputs(source: str | Path | None = None) -> CeilingInputs:
    """Read the LI pairs (``li_adger.load("pairs")``) and the participant-level tasks.

    Prints :data:`li_adger.sources.participants.AUTHORS_NOTE` once to standard error.

    Examples
    --------
    >>> inputs = load_inputs()
    >>> len(inputs.pairs), inputs.me.values.shape
    (1174, (304, 2400))
    """
    import li_adger
    from li_adger.sources import participants

    participants.print_authors_note()
    pairs = li_adger.load("pairs").to_pandas()
    pairs = pairs[(pairs["source"] == "LI") & ~pairs["discarded"].astype(bool)]
    pairs = pairs[["pair_id", "good_id", "bad_id", "human_delta"]].reset_index(drop=True)
    me = participants.rating_matrix(participants.read_ratings("me", source=source, note=False))
    ls = participants.rating_matrix(participants.read_ratings("ls", source=source, note=False))
    fc_rows = participants.read_forced_choice(source=source, note=False)
    fc_rows = fc_rows.assign(chose_good=fc_rows["chose_good"].astype(float))
    fc = participants.rating_matrix(fc_rows, value="chose_good", key="bad_id")
    return CeilingInputs(pairs=pairs, me=me, ls=ls, fc=fc)


def thesis_deltas_frame(pairs: pd.DataFrame, thesis_dir: str | Path | None = None) -> pd.DataFrame:
    """The thesis's models' deltas on ``pairs`` (columns ``good_id``, ``bad_id``), one column
    per model (the names of :mod:`metric_adc.thesis.outputs`), indexed like ``pairs``.

    Each model is scored as any model is (:func:`metric_adc.pairs.thesis_model_deltas`:
    z-scored over all its sentences unless the thesis gives z-scores), against the LI-Adger
    judgements.

    Examples
    --------
    >>> import li_adger
    >>> p = li_adger.load("pairs").to_pandas().head(3)
    >>> d = thesis_deltas_frame(p)
    >>> d.shape, "trigram-slor" in d.columns
    ((3, 8), True)
    """
    import li_adger
    from metric_adc.pairs import PairTable, thesis_model_deltas

    sentences = li_adger.load("sentences")
    table = PairTable.from_judgements(
        pairs["good_id"].tolist(),
        pairs["bad_id"].tolist(),
        dict(zip(sentences["id"], sentences["judgement"], strict=True)),
    )
    out = pd.DataFrame(index=pairs.index)
    for model, scored in thesis_model_deltas(table, thesis_dir):
        out[model.name] = scored.delta
    return out
