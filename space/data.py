"""What the Space shows, loaded once and precomputed: the pairs and every model's deltas.

A model enters the Space as a :class:`ModelEntry`: its z-scores per sentence and its model
delta per pair are computed once (by :func:`metric_adc.pairs.model_deltas`), together with
the statistics that do not depend on δ (BLiMP, Pearson, ADC area, the ADC(δ) curve). Moving
the δ slider then only recomputes ADC(δ) and its bootstrap interval. All the math is in
:mod:`metric_adc`; this module only gathers inputs and caches results.

Models come from three places:

- the thesis's 8 reference models (:mod:`metric_adc.thesis`), when its output files exist;
- scores files in a results directory (``results/`` by default, ``$ADC_RESULTS_DIR`` or
  ``--results`` to change it), as the scorers write them;
- uploads, which live only in the uploading user's session (:mod:`space.upload`).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from metric_adc import core, rows
from metric_adc.pairs import PairTable, li_adger_pairs, model_deltas
from metric_adc.scores_file import ScoresFile, ScoresFileError, read_scores

__all__ = [
    "CI_RESAMPLES",
    "CI_SEED",
    "KIND_RESULTS",
    "KIND_THESIS",
    "KIND_UPLOAD",
    "SCORES_SUFFIXES",
    "THESIS_TIMEOUT",
    "Ceiling",
    "ModelEntry",
    "SpaceData",
    "default_results_dir",
    "entry_from_scores",
    "finite_or_none",
    "load_ceiling",
    "load_pairs",
    "load_results_entries",
    "load_space_data",
    "load_thesis_entries",
    "model_name",
    "toy_space_data",
    "unique_name",
]

log = logging.getLogger(__name__)

KIND_THESIS = "thesis reference"
KIND_RESULTS = "results file"
KIND_UPLOAD = "your upload"

SCORES_SUFFIXES = (".jsonl", ".csv")
"""File name endings of scores files picked up from the results directory."""

CI_SEED = 20210601
"""Seed of the bootstrap generator: every interval in the Space is reproducible."""

CI_RESAMPLES = 1000
"""Bootstrap resamples per interval (resampling phenomena, which are few, keeps this fast)."""


def default_results_dir() -> Path:
    """The results directory: ``$ADC_RESULTS_DIR``, else ``results/`` in the working directory.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("ADC_RESULTS_DIR", None) and None
    >>> default_results_dir().name
    'results'
    """
    return Path(os.environ.get("ADC_RESULTS_DIR") or "results")


@dataclass(frozen=True, eq=False)
class ModelEntry:
    """One model, precomputed for the Space.

    ``z`` maps each scored sentence id to its z-score; ``model_delta`` holds Δlm for every
    pair of the pair table, in table order; ``row`` is the metric's result row (the
    δ-independent statistics); ``curve`` is the ADC(δ) sweep of :func:`metric_adc.core.delta_sweep`.
    Entries compare and hash by identity (a session's state is hashed to detect changes).
    """

    name: str
    kind: str
    z: dict[str, float]
    model_delta: np.ndarray
    row: dict
    curve: dict
    note: str | None = None


@dataclass(frozen=True)
class Ceiling:
    """The human split-half ceiling (LI pairs only): its result row and mean ADC(δ) curve."""

    row: dict
    deltas: np.ndarray
    adc: np.ndarray
    note: str

    def adc_at(self, delta: float) -> float:
        """Mean split-half ADC at ``delta``: the curve's value at the largest grid δ ≤ ``delta``.

        Examples
        --------
        >>> c = Ceiling({}, np.array([0.5, 1.0]), np.array([0.6, 0.8]), "")
        >>> c.adc_at(0.5), c.adc_at(0.99), c.adc_at(3.0)
        (0.6, 0.6, 0.8)
        """
        k = int(np.searchsorted(self.deltas, delta + 1e-9, side="right")) - 1
        return float(self.adc[max(k, 0)])


@dataclass(frozen=True)
class SpaceData:
    """Everything the app needs: the pair table, its display frame, the models, the ceiling.

    ``frame`` has one row per pair of ``pairs`` (same order) with the columns the pair
    explorer shows; ``acceptable`` maps each sentence id to its expert label. ``skipped`` lists ``(file, reason)`` for results files that were refused.
    """

    pairs: PairTable
    frame: pd.DataFrame
    models: list[ModelEntry]
    acceptable: dict[str, bool]
    ceiling: Ceiling | None = None
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def by_name(self, extra: Sequence[ModelEntry] = ()) -> dict[str, ModelEntry]:
        """Model name → entry, for the shared models followed by ``extra`` (a session's uploads)."""
        return {m.name: m for m in [*self.models, *extra]}


# ----------------------------------------------------------------------------- pairs
_FRAME_COLUMNS = [
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


def _load(config: str) -> pd.DataFrame:
    import li_adger

    ds = li_adger.load(config)
    if hasattr(ds, "keys") and "test" in ds:
        ds = ds["test"]
    return ds.to_pandas()


def load_pairs() -> tuple[PairTable, pd.DataFrame, dict[str, bool]]:
    """The LI-Adger evaluable pairs as the metric's :class:`~metric_adc.pairs.PairTable`,
    a display frame with the same pairs in the same order, and each sentence's expert label.

    Examples
    --------
    >>> table, frame, acceptable = load_pairs()
    >>> len(table) == len(frame), len(acceptable)
    (True, 4178)
    """
    table = li_adger_pairs()
    sentences = _load("sentences")
    acceptable = dict(
        zip(sentences["id"], sentences["expert_acceptable"].astype(bool).tolist(), strict=True)
    )
    frame = _load("pairs")
    frame = frame[~frame["discarded"].astype(bool)].reset_index(drop=True)[_FRAME_COLUMNS]
    if frame["good_id"].tolist() != table.good_ids or frame["bad_id"].tolist() != table.bad_ids:
        raise RuntimeError(
            "the LI-Adger pairs frame and the metric's pair table list different pairs; "
            "rebuild the dataset (python -m li_adger build)"
        )
    return table, frame, acceptable


# ----------------------------------------------------------------------------- models
def entry_from_scores(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    name: str,
    kind: str,
    standardize: bool = True,
    note: str | None = None,
) -> ModelEntry:
    """Precompute one model: z-scores, Δlm per pair, its result row and ADC(δ) curve.

    Raises :class:`ValueError` (from the metric) for unknown ids, a pair member without a
    score, constant or non-finite scores.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": 0.2, "e": 0.3, "f": -0.4})
    >>> e = entry_from_scores({"a": 3, "b": 1, "c": 2.5, "d": 2, "e": 1, "f": 0}, t,
    ...                       name="toy", kind=KIND_UPLOAD)
    >>> e.model_delta.round(3).tolist(), e.row["blimp"]
    ([1.966, 0.492, 0.983], 1.0)
    """
    scored = model_deltas(scores, pairs, standardize=standardize)
    row = rows.model_row(scored, pairs, model=name, note=note)
    curve = core.delta_sweep(scored.delta, pairs.human_delta)
    return ModelEntry(name, kind, scored.z, scored.delta, row, curve, note)


THESIS_TIMEOUT = 15.0
"""Seconds a download of the thesis outputs may wait for the network at start-up: files not
found locally are fetched from their pinned upstream URLs (as on a hosted Space); without a
network the lookup fails at once or after this wait, and the app starts without them."""


def load_thesis_entries(pairs: PairTable) -> list[ModelEntry]:
    """The thesis's 8 reference models, or ``[]`` (logged) when its output files are absent,
    cannot be downloaded within :data:`THESIS_TIMEOUT`, or differ from the pinned files.

    Examples
    --------
    >>> [e.name for e in load_thesis_entries(load_pairs()[0])][:2]  # doctest: +SKIP
    ['BERT base-uncased (MLM, PLL)', 'BERT large-uncased (MLM, PLL)']
    """
    from li_adger.sources import ChecksumError
    from metric_adc import thesis

    try:
        models = thesis.load_thesis_models(timeout=THESIS_TIMEOUT)
    except (FileNotFoundError, OSError, ChecksumError) as exc:
        log.warning("thesis reference models not shown: %s", exc)
        return []
    return [
        entry_from_scores(
            m.scores,
            pairs,
            name=m.label,
            kind=KIND_THESIS,
            standardize=not m.standardized,
            note=m.note,
        )
        for m in models
    ]


def model_name(sf: ScoresFile, fallback: str) -> str:
    """A display name for a scores file: its ``model`` (and ``variant``) metadata, else ``fallback``.

    Examples
    --------
    >>> import numpy as np
    >>> model_name(ScoresFile({"model": "gpt2", "variant": "slor"}, [], np.array([])), "f")
    'gpt2 (slor)'
    >>> model_name(ScoresFile({}, [], np.array([])), "my_scores")
    'my_scores'
    """
    base = str(sf.metadata.get("model") or "").strip() or fallback
    variant = str(sf.metadata.get("variant") or "").strip()
    return f"{base} ({variant})" if variant and variant not in base else base


def load_results_entries(
    results_dir: str | os.PathLike, pairs: PairTable
) -> tuple[list[ModelEntry], list[tuple[str, str]]]:
    """Every valid scores file in ``results_dir`` (not recursive), and the files refused.

    A missing directory gives no models. A file that fails validation or evaluation is
    skipped with its reason, so one bad file never stops the app.

    Examples
    --------
    >>> load_results_entries("/nonexistent", None)
    ([], [])
    """
    root = Path(results_dir)
    if not root.is_dir():
        return [], []
    entries: list[ModelEntry] = []
    skipped: list[tuple[str, str]] = []
    for path in sorted(p for p in root.iterdir() if p.suffix in SCORES_SUFFIXES and p.is_file()):
        try:
            sf = read_scores(path)
            entries.append(
                entry_from_scores(
                    sf.as_dict(), pairs, name=model_name(sf, path.stem), kind=KIND_RESULTS
                )
            )
        except (ScoresFileError, ValueError) as exc:
            log.warning("results file skipped: %s: %s", path, exc)
            skipped.append((path.name, str(exc).replace(f"{path}: ", "")))
    return entries, skipped


def load_ceiling(n_splits: int = 50) -> Ceiling | None:
    """The human split-half ceiling, or ``None`` (logged) when the participant data is absent.

    Examples
    --------
    >>> c = load_ceiling(n_splits=5)  # doctest: +SKIP
    >>> 0 < c.adc_at(1.0) < 1  # doctest: +SKIP
    True
    """
    from metric_adc import ceiling

    try:
        result = ceiling.compute_ceiling(n_splits=n_splits, tasks=False)
    except (FileNotFoundError, OSError, ValueError, ImportError) as exc:
        log.warning("human ceiling not shown: %s", exc)
        return None
    curve = result["curve"]
    return Ceiling(
        rows.ceiling_row(result),
        np.asarray(curve["deltas"], dtype=float),
        np.asarray(curve["adc_mean"], dtype=float),
        ceiling.NOTE,
    )


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name #2``, ``name #3`` … if it is already taken.

    Examples
    --------
    >>> unique_name("gpt2", {"gpt2", "gpt2 #2"}), unique_name("bert", {"gpt2"})
    ('gpt2 #3', 'bert')
    """
    if name not in taken:
        return name
    k = 2
    while f"{name} #{k}" in taken:
        k += 1
    return f"{name} #{k}"


def _unique_names(entries: list[ModelEntry]) -> list[ModelEntry]:
    out: list[ModelEntry] = []
    for e in entries:
        name = unique_name(e.name, {o.name for o in out})
        out.append(
            e if name == e.name else dataclasses.replace(e, name=name, row={**e.row, "model": name})
        )
    return out


def load_space_data(
    results_dir: str | os.PathLike | None = None, *, ceiling_splits: int = 50
) -> SpaceData:
    """Load and precompute everything the Space shows (a few seconds).

    Examples
    --------
    >>> data = load_space_data("/nonexistent", ceiling_splits=0)
    >>> len(data.pairs), [m.kind for m in data.models][:1]  # thesis models, if present
    (2365, ['thesis reference'])
    """
    pairs, frame, acceptable = load_pairs()
    results, skipped = load_results_entries(
        default_results_dir() if results_dir is None else results_dir, pairs
    )
    models = _unique_names([*load_thesis_entries(pairs), *results])
    ceiling = load_ceiling(ceiling_splits) if ceiling_splits > 0 else None
    return SpaceData(pairs, frame, models, acceptable, ceiling, skipped)


_TOY = [
    # pair id, phenomenon, good id, good sentence, judgement, bad id, bad sentence, judgement
    ("toy.1", "agreement", "g1", "The keys are lost.", 1.0, "b1", "The keys is lost.", -1.0),
    ("toy.2", "islands", "g2", "Who did you see?", 0.8, "b2", "Who did you see him?", -0.2),
    ("toy.3", "islands", "g3", "She left.", 0.5, "b3", "She left left.", -0.9),
]


def toy_space_data() -> SpaceData:
    """A tiny :class:`SpaceData` (3 pairs, one model scoring minus the word count), for
    examples and tests that need no dataset.

    Examples
    --------
    >>> d = toy_space_data()
    >>> len(d.pairs), d.models[0].name, d.models[0].model_delta.round(3).tolist()
    (3, 'toy-length', [0.0, 1.061, 1.061])
    """
    cols = ["pair_id", "phenomenon", "good_id", "good_sentence", "good_judgement"]
    cols += ["bad_id", "bad_sentence", "bad_judgement"]
    frame = pd.DataFrame(_TOY, columns=cols)
    frame["source"] = "toy"
    frame["human_delta"] = frame["good_judgement"] - frame["bad_judgement"]
    judgements = dict(zip(frame["good_id"], frame["good_judgement"], strict=True))
    judgements |= dict(zip(frame["bad_id"], frame["bad_judgement"], strict=True))
    pairs = PairTable.from_judgements(
        frame["good_id"].tolist(),
        frame["bad_id"].tolist(),
        judgements,
        source=frame["source"].tolist(),
        phenomenon=frame["phenomenon"].tolist(),
    )
    sentences = dict(zip(frame["good_id"], frame["good_sentence"], strict=True))
    sentences |= dict(zip(frame["bad_id"], frame["bad_sentence"], strict=True))
    scores = {i: -float(len(s.split())) for i, s in sentences.items()}
    model = entry_from_scores(scores, pairs, name="toy-length", kind=KIND_RESULTS)
    acceptable = {i: i.startswith("g") for i in sentences}
    return SpaceData(pairs, frame[_FRAME_COLUMNS], [model], acceptable)


def finite_or_none(x: float | None) -> float | None:
    """``x`` rounded to 3 decimals, or ``None`` when undefined (for tables).

    Examples
    --------
    >>> finite_or_none(0.12345), finite_or_none(None), finite_or_none(float("nan"))
    (0.123, None, None)
    """
    if x is None or not math.isfinite(x):
        return None
    return round(float(x), 3)
