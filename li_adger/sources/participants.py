"""Participant-level LI judgements of Sprouse, Schütze & Almeida (2013), read in memory only.

The study rated the 2,400 LI sentences of LI-Adger in three tasks: magnitude estimation
(``me``, the source of the LI-Adger judgements), a 7-point Likert scale (``ls``) and a
two-alternative forced choice between the members of each official pair (``fc``). The raw
files live in the verified source folder (``sprouse2013/``); this module reads them, maps
their item ids to LI-Adger ids and hands the rows to analyses such as the split-half human
ceiling (:mod:`metric_adc.ceiling.compute`).

The authors share these files so that others can verify their analyses; see
:data:`AUTHORS_NOTE`, which every reader here prints to standard error. Nothing derived at
participant level is written anywhere by this project: no file, no dataset config.

Id differences between the study's files and LI-Adger (all checked against the judgements
by :func:`cross_check`):

- authors written with a space (``33.1.den Dikken.58a.*.01``, ``37.2.de Vries.39a.*.01``,
  forced-choice files only) are written without one (``denDikken``, ``deVries``);
- five conditions carry other example numbers (:data:`CONDITION_RENAMES`, e.g.
  ``33.2.bowers.7b.i.*`` is ``33.2.bowers.7b.*``);
- two control conditions were shared by two phenomena rated in different experiments, with
  different sentences under the same item id (:data:`SHARED_CONTROLS`): ``32.2.nunes.3a.g``
  is ``32.2.nunes.3a1.g`` in experiment 1 and ``32.2.nunes.3a2.g`` in experiment 2. The
  experiment is the first part of the ``survey`` column (``experiment.version``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from li_adger.io.readers import read_csv

__all__ = [
    "AUTHORS_NOTE",
    "CITATION",
    "CONDITION_RENAMES",
    "FILES",
    "SHARED_CONTROLS",
    "CrossCheck",
    "RatingMatrix",
    "cross_check",
    "experiment_of",
    "item_means",
    "li_adger_id",
    "print_authors_note",
    "rating_matrix",
    "read_forced_choice",
    "read_matrix",
    "read_ratings",
]

CITATION: str = (
    "Sprouse, J., Schütze, C. T., & Almeida, D. (2013). A comparison of informal and formal "
    "acceptability judgments using a random sample from Linguistic Inquiry 2001-2010. "
    "Lingua, 134, 219-248."
)

AUTHORS_NOTE: str = (
    "Participant-level data of " + CITATION + " The authors provide it in the spirit of "
    "open science so that others can verify the analyses; please contact Jon Sprouse before "
    "using it for novel research. It is read in memory only and never republished: nothing "
    "at participant level is written by this project."
)
"""The authors' request, kept with every use of the participant-level files."""

Task = Literal["me", "ls"]

FILES: Mapping[str, str] = {
    "me": "sprouse2013/LI.me.results.csv",
    "ls": "sprouse2013/LI.ls.results.csv",
    "fc": "sprouse2013/FC.signtest.csv",
}
"""Source file of each task, relative to the source folder.

Forced choice is read from ``FC.signtest.csv`` (one row per participant and pair, with
whether the participant chose the member the LI article marked better). ``FC.logistic.csv``
holds the same choices one row per member, but a few of its item ids are corrupted (e.g.
``40.1.caponigro.25b.*.01`` on 104 rows, a ``good.`` row labelled ``34.3.landau.39b.*.08``).
"""

_COMMENT_LINES = 5
_MISSING = ("NA", "")
"""How the study's files write a missing value (a rating not given): read as NaN."""
_RATING_COLUMNS = ("participant", "survey", "order", "judgment", "item", "condition", "zscores")
_FC_COLUMNS = (
    "participant",
    "survey",
    "order",
    "judgment",
    "item",
    "condition",
    "expected",
    "pattern",
)

CONDITION_RENAMES: Mapping[str, str] = {
    "32.3.Culicover.22b7.*": "32.3.Culicover.22b.*",
    "32.3.Culicover.22b7.g": "32.3.Culicover.22b.g",
    "33.2.bowers.31b.*": "33.2.bowers.31b1.*",
    "33.2.bowers.31c.*": "33.2.bowers.31c2.*",
    "33.2.bowers.7b.i.*": "33.2.bowers.7b.*",
    "33.2.bowers.7b.i.g": "33.2.bowers.7b.g",
    "35.3.hazout.75a.*": "35.3.hazout.75.*",
    "35.3.hazout.75a.g": "35.3.hazout.75.g",
}
"""Study condition → LI-Adger condition, where the example number is written differently."""

SHARED_CONTROLS: Mapping[tuple[str, int], str] = {
    ("32.2.nunes.3a.g", 1): "32.2.nunes.3a1.g",
    ("32.2.nunes.3a.g", 2): "32.2.nunes.3a2.g",
    ("33.2.bowers.31a.g", 3): "33.2.bowers.31a1.g",
    ("33.2.bowers.31a.g", 2): "33.2.bowers.31a2.g",
}
"""(study condition, experiment) → LI-Adger condition for the controls whose sentences differ
between experiments under one item id."""


def print_authors_note(file=None) -> None:
    """Print :data:`AUTHORS_NOTE` (to standard error unless ``file`` is given).

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> print_authors_note(buf)
    >>> "contact Jon Sprouse" in buf.getvalue()
    True
    """
    print(AUTHORS_NOTE, file=sys.stderr if file is None else file)


def experiment_of(survey: str) -> int:
    """The experiment number of a ``survey`` value written ``experiment.version`` (``"2.7"`` → 2).

    Examples
    --------
    >>> experiment_of("2.7")
    2
    >>> experiment_of("x")
    Traceback (most recent call last):
    ...
    ValueError: 'survey' must look like 'experiment.version', e.g. '1.3' (got 'x')
    """
    head, sep, tail = str(survey).partition(".")
    if not (sep and head.isdigit() and tail.isdigit()):
        raise ValueError(
            f"'survey' must look like 'experiment.version', e.g. '1.3' (got {survey!r})"
        )
    return int(head)


def li_adger_id(item: str, experiment: int | None = None) -> str:
    """The LI-Adger id of a study item id (``condition.token``).

    ``experiment`` is needed only for the shared controls (:data:`SHARED_CONTROLS`); without
    it those raise.

    Examples
    --------
    >>> li_adger_id("33.1.den Dikken.58a.*.03")
    '33.1.denDikken.58a.*.03'
    >>> li_adger_id("33.2.bowers.7b.i.g.05")
    '33.2.bowers.7b.g.05'
    >>> li_adger_id("32.2.nunes.3a.g.02", 2)
    '32.2.nunes.3a2.g.02'
    >>> li_adger_id("32.1.martin.1a.g.01")
    '32.1.martin.1a.g.01'
    >>> li_adger_id("32.2.nunes.3a.g.02")
    Traceback (most recent call last):
    ...
    ValueError: item '32.2.nunes.3a.g.02' is a shared control: its sentence depends on the experiment (expected 'experiment' in [1, 2], got None)
    """
    condition, sep, token = str(item).rpartition(".")
    if not sep or not condition:
        raise ValueError(f"'item' must look like 'condition.token' (got {item!r})")
    parts = condition.split(".")
    if len(parts) >= 3:  # volume.issue.author...: authors are written without spaces
        parts[2] = parts[2].replace(" ", "")
        condition = ".".join(parts)
    condition = CONDITION_RENAMES.get(condition, condition)
    shared = sorted(e for c, e in SHARED_CONTROLS if c == condition)
    if shared:
        if experiment not in shared:
            raise ValueError(
                f"item {item!r} is a shared control: its sentence depends on the experiment "
                f"(expected 'experiment' in {shared}, got {experiment!r})"
            )
        condition = SHARED_CONTROLS[(condition, experiment)]
    return f"{condition}.{token}"


def _read_csv(task: str, source: str | Path | None, columns: tuple[str, ...]) -> pd.DataFrame:
    from li_adger.sources import source_file

    # verified by SHA-256; lookup order: source, LI_ADGER_SOURCE, ../shared/data, cache, download
    path = source_file(FILES[task], source=source)
    # The comment lines hold a Latin-1 "ü"; the data rows are ASCII.
    raw = read_csv(path, columns, skip_lines=_COMMENT_LINES, encoding="latin-1")
    return raw.mask(raw.isin(_MISSING))


def read_ratings(
    task: Task = "me", *, source: str | Path | None = None, note: bool = True
) -> pd.DataFrame:
    """One row per participant rating in the ``me`` or ``ls`` task, with LI-Adger ids.

    Columns: ``participant`` (int, numbered within the task), ``survey`` (str),
    ``experiment`` (int), ``order`` (int), ``judgment`` (raw rating), ``item`` (study id),
    ``id`` (LI-Adger id) and ``zscore`` (the rating z-scored within the participant, as
    published). Ratings without a response (NaN) are dropped. Prints :data:`AUTHORS_NOTE`
    to standard error unless ``note=False`` (for callers that print it themselves).

    Examples
    --------
    >>> me = read_ratings("me", note=False)
    >>> len(me), me["participant"].nunique(), me["id"].nunique()
    (30379, 304, 2400)
    """
    if task not in ("me", "ls"):
        raise ValueError(
            f"'task' must be 'me' or 'ls' (got {task!r}); forced choice: read_forced_choice"
        )
    if note:
        print_authors_note()
    raw = _read_csv(task, source, _RATING_COLUMNS)
    raw = raw[raw["zscores"].notna()]
    experiment = raw["survey"].map(experiment_of)
    ids = [li_adger_id(i, e) for i, e in zip(raw["item"], experiment, strict=True)]
    out = pd.DataFrame(
        {
            "participant": raw["participant"].astype(int).to_numpy(),
            "survey": raw["survey"].to_numpy(),
            "experiment": experiment.astype(int).to_numpy(),
            "order": raw["order"].astype(int).to_numpy(),
            "judgment": raw["judgment"].astype(float).to_numpy(),
            "item": raw["item"].to_numpy(),
            "id": ids,
            "zscore": raw["zscores"].astype(float).to_numpy(),
        }
    )
    dup = out.duplicated(["participant", "id"])
    if dup.any():
        row = out[dup].iloc[0]
        raise ValueError(
            f"{FILES[task]}: participant {row['participant']} rated {row['id']!r} more than once"
        )
    return out


def read_forced_choice(*, source: str | Path | None = None, note: bool = True) -> pd.DataFrame:
    """One row per participant and pair of the forced-choice task, with LI-Adger ids.

    Each row is a choice between the unacceptable sentence ``bad_id`` and its acceptable
    counterpart of the same token in the official pair. Columns: ``participant``,
    ``survey``, ``bad_item`` (study id), ``bad_id`` (LI-Adger id) and ``chose_good`` (bool:
    the participant chose the member the LI article marked better). Prints
    :data:`AUTHORS_NOTE` unless ``note=False``.

    Examples
    --------
    >>> fc = read_forced_choice(note=False)
    >>> len(fc), fc["bad_id"].nunique()
    (15350, 1200)
    """
    if note:
        print_authors_note()
    raw = _read_csv("fc", source, _FC_COLUMNS)
    bad = set(raw["pattern"].unique()) - {"0", "1"}
    if bad:
        raise ValueError(f"{FILES['fc']}: 'pattern' must be 0 or 1 (got {sorted(bad, key=str)})")
    return pd.DataFrame(
        {
            "participant": raw["participant"].astype(int).to_numpy(),
            "survey": raw["survey"].to_numpy(),
            "bad_item": raw["item"].to_numpy(),
            "bad_id": [li_adger_id(i) for i in raw["item"]],
            "chose_good": raw["pattern"].astype(int).to_numpy() == 1,
        }
    )


@dataclass(frozen=True)
class RatingMatrix:
    """Participants × sentences matrix of z-scores (NaN where a participant did not rate).

    ``groups`` holds each participant's survey: participants of one survey rated the same
    sentences, so splits stratified by survey keep every sentence rated in both halves.
    """

    participants: np.ndarray
    ids: np.ndarray
    groups: np.ndarray
    values: np.ndarray = field(repr=False)

    @property
    def rated(self) -> np.ndarray:
        """Boolean mask of the cells that hold a rating."""
        return ~np.isnan(self.values)


def rating_matrix(ratings: pd.DataFrame, *, value: str = "zscore", key: str = "id") -> RatingMatrix:
    """Pivot rows into a :class:`RatingMatrix` (columns sorted by ``key``).

    By default the :func:`read_ratings` z-scores per LI-Adger id; for forced choice use
    ``value="chose_good", key="bad_id"`` (1.0 where the better member was chosen).

    Examples
    --------
    >>> rows = pd.DataFrame({"participant": [1, 1, 2], "survey": ["1.1", "1.1", "1.2"],
    ...                      "id": ["a", "b", "a"], "zscore": [0.5, -0.5, 1.0]})
    >>> m = rating_matrix(rows)
    >>> m.ids.tolist(), m.groups.tolist(), m.values.tolist()
    (['a', 'b'], ['1.1', '1.2'], [[0.5, -0.5], [1.0, nan]])
    """
    need = ["participant", "survey", key, value]
    missing = [c for c in need if c not in ratings.columns]
    if missing:
        raise ValueError(f"'ratings' must have columns {need} (missing {missing})")
    groups = ratings.groupby("participant")["survey"].agg(lambda s: sorted(set(s)))
    mixed = groups[groups.map(len) > 1]
    if len(mixed):
        raise ValueError(
            f"participant {mixed.index[0]} appears in several surveys ({mixed.iloc[0]}); "
            "expected one survey per participant"
        )
    wide = ratings.pivot(index="participant", columns=key, values=value).sort_index(axis=1)
    return RatingMatrix(
        participants=wide.index.to_numpy(),
        ids=wide.columns.to_numpy(dtype=str),
        groups=groups.loc[wide.index].map(lambda s: s[0]).to_numpy(dtype=str),
        values=wide.astype(float).to_numpy(dtype=float),
    )


def read_matrix(
    task: Literal["me", "ls", "fc"], *, source: str | Path | None = None
) -> RatingMatrix:
    """A task's participant-level file read into its :class:`RatingMatrix` in one pass: the
    ``me`` or ``ls`` z-scores per LI-Adger id (:func:`read_ratings`), or the forced choices per
    ``bad_id`` (:func:`read_forced_choice`), 1.0 where the better member was chosen. The
    caller prints :data:`AUTHORS_NOTE`.

    Examples
    --------
    >>> fc = read_matrix("fc")
    >>> fc.values.shape, sorted(set(fc.values[fc.rated].tolist()))
    ((307, 1200), [0.0, 1.0])
    """
    if task == "fc":
        rows = read_forced_choice(source=source, note=False)
        rows = rows.assign(chose_good=rows["chose_good"].astype(float))
        return rating_matrix(rows, value="chose_good", key="bad_id")
    return rating_matrix(read_ratings(task, source=source, note=False))


def item_means(ratings: pd.DataFrame) -> pd.Series:
    """Mean z-score per LI-Adger id (the quantity LI-Adger publishes as ``judgement``).

    Examples
    --------
    >>> rows = pd.DataFrame({"id": ["a", "a", "b"], "zscore": [1.0, 0.0, -1.0]})
    >>> item_means(rows).to_dict()
    {'a': 0.5, 'b': -1.0}
    """
    return ratings.groupby("id")["zscore"].mean().rename("mean_zscore")


@dataclass(frozen=True)
class CrossCheck:
    """Outcome of :func:`cross_check`."""

    n_sentences: int
    n_matched: int
    n_within: int
    max_abs_diff: float | None
    unmatched: tuple[str, ...]
    mismatched: tuple[str, ...]
    unmatched_items: tuple[str, ...]
    tolerance: float

    def summary(self) -> str:
        """One line for people.

        Examples
        --------
        >>> CrossCheck(3, 2, 2, 1e-6, ("x",), (), (), 1e-3).summary()
        '2 of 3 sentences matched; 2 reproduce the judgement within 0.001 (max |diff| 1e-06); unmatched: x'
        >>> CrossCheck(1, 0, 0, None, ("x",), (), (), 1e-3).summary()  # nothing matched
        '0 of 1 sentences matched; 0 reproduce the judgement within 0.001 (max |diff| undefined); unmatched: x'
        """
        diff = "undefined" if self.max_abs_diff is None else f"{self.max_abs_diff:.3g}"
        text = (
            f"{self.n_matched} of {self.n_sentences} sentences matched; {self.n_within} "
            f"reproduce the judgement within {self.tolerance:g} (max |diff| {diff})"
        )
        if self.unmatched:
            text += "; unmatched: " + ", ".join(self.unmatched)
        if self.mismatched:
            text += "; off by more than the tolerance: " + ", ".join(self.mismatched)
        return text


def cross_check(
    means: pd.Series, judgements: Mapping[str, float | None], *, tolerance: float = 1e-3
) -> CrossCheck:
    """Compare per-sentence mean z-scores with published judgements, id by id.

    ``judgements`` maps LI-Adger ids (the LI sentences) to their judgement; ``None``/NaN
    judgements are skipped. ``unmatched`` lists sentences with no participant data,
    ``unmatched_items`` participant ids with no sentence, ``mismatched`` the matched ids off
    by more than ``tolerance``.

    Examples
    --------
    >>> c = cross_check(pd.Series({"a": 0.5, "b": 1.0, "z": 2.0}), {"a": 0.5, "b": 1.1, "c": 0.0})
    >>> c.n_matched, c.n_within, c.unmatched, c.mismatched, c.unmatched_items
    (2, 1, ('c',), ('b',), ('z',))
    """
    known = {str(k): float(v) for k, v in judgements.items() if v is not None and not np.isnan(v)}
    matched = sorted(set(known) & set(means.index))
    diffs = np.array([abs(float(means[i]) - known[i]) for i in matched])
    within = diffs <= tolerance
    return CrossCheck(
        n_sentences=len(known),
        n_matched=len(matched),
        n_within=int(within.sum()),
        max_abs_diff=float(diffs.max()) if diffs.size else None,
        unmatched=tuple(sorted(set(known) - set(means.index))),
        mismatched=tuple(m for m, ok in zip(matched, within, strict=True) if not ok),
        unmatched_items=tuple(sorted(set(means.index) - set(known))),
        tolerance=tolerance,
    )
