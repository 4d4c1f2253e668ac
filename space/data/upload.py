"""Uploads: a user's scores file validated, with messages a user can act on, then evaluated.

An upload is read by the metric's own reader (:func:`metric_adc.scores.file.read_scores`,
JSON Lines or a two-column CSV ``id,score``). The benchmark it belongs to is its metadata's
``dataset`` (``li_adger``, ``blimp``, ``npi``, ``diagnostics``, ``cola``; a CSV, which has no
metadata, is LI-Adger's). It is checked against that benchmark's units and evaluated into an
:class:`Upload` that lives in the uploader's session only: until it is submitted for review
(:mod:`space.data.submissions`), then by everybody once a maintainer approves it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from li_adger.benchmarks import BENCHMARKS
from metric_adc import core
from metric_adc.family.items import needed_ids
from metric_adc.prediction import LOG_PROB_TOLERANCE
from metric_adc.scores.checks import check_coverage, check_log_probs, check_unit_texts
from metric_adc.scores.file import ScoresFile, ScoresFileError, read_scores
from metric_adc.scores.labels import DuplicateResultError, check_distinct
from space.data.benchmark_data import (
    LI_ADGER,
    TITLES,
    FamilyEntry,
    ItemsUnavailable,
    family_entry_from_scores,
)
from space.data.dataset import pair_units
from space.data.entries import ModelEntry, entry_from_scores
from space.data.kinds import KIND_UPLOAD
from space.data.moderation import scores_only
from space.data.names import identity, model_name, unique_name
from space.data.space_data import SpaceData

__all__ = [
    "MAX_UPLOADS",
    "MAX_UPLOAD_BYTES",
    "Upload",
    "UploadError",
    "evaluate_upload",
    "taken_names",
    "upload_summary",
]

MAX_UPLOAD_BYTES = 32 * 1024 * 1024
"""Largest accepted upload (32 MiB: a BLiMP scores file with its sentences is about 18 MiB,
LI-Adger's about 0.5 MiB)."""

MAX_UPLOADS = 10
"""Uploads a session may hold; reload the page to start afresh."""


class UploadError(ValueError):
    """An uploaded scores file was refused; the message says why and what was expected."""


@dataclass(frozen=True, eq=False)
class Upload:
    """One evaluated upload of a session: the benchmark, the model's entry (a
    :class:`~space.data.entries.ModelEntry` on LI-Adger, else a
    :class:`~space.data.benchmark_data.FamilyEntry`), the scores file without the units' texts
    (:func:`space.data.submissions.scores_only`: a session holds no more than it needs), its
    file name, whether the session submitted it for review, and what identifies its result
    (the file's metadata with the name it was uploaded under as its ``model``:
    :func:`metric_adc.scores.labels.check_distinct`; ``None``: not compared)."""

    benchmark: str
    entry: ModelEntry | FamilyEntry
    sf: ScoresFile
    file: str
    submitted: bool = False
    identity: Mapping | None = None

    @property
    def name(self) -> str:
        """The model's name on the leaderboard."""
        return self.entry.name


def taken_names(data: SpaceData, uploads: Sequence[Upload]) -> set[str]:
    """Every model name shown anywhere: shared (approved submissions included) and this
    session's uploads.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> sorted(taken_names(toy_space_data(), []))
    ['human', 'toy-bad', 'toy-good', 'toy-length']
    """
    names = {m.name for m in data.shared_models()}
    for bench, b in data.benchmarks.items():
        names |= {e.name for e in [*b.entries, *data.approved(bench)]}
        names |= {b.human.name} if b.human else set()
    return names | {u.name for u in uploads}


def _check(
    sf: ScoresFile,
    units: pd.DataFrame,
    known: Sequence[str],
    needed: Sequence[str],
    *,
    what: str,
    file: str,
    cloze: bool = False,
) -> None:
    """The commands' checks over the app's units of the benchmark: the file's texts are the
    units' (:func:`metric_adc.scores.checks.check_unit_texts`: ids shifted by one are refused),
    the coverage rule (:func:`metric_adc.scores.checks.check_coverage`: an unknown id or an
    unscored unit that ``needed`` lists is refused; units in no item may be left out), and on a
    cloze benchmark scores that are log-probabilities
    (:func:`metric_adc.scores.checks.check_log_probs`, naming the record's line and id)."""
    try:
        check_unit_texts(sf, units, name=file)
        check_coverage(sf.ids, known, needed=needed, name=file, dataset=what)
        if cloze:
            check_log_probs(sf, name=file, benchmark=what, tolerance=LOG_PROB_TOLERANCE)
    except ScoresFileError as exc:
        raise UploadError(str(exc)) from None


def _evaluate(
    sf: ScoresFile, data: SpaceData, bench: str, name: str, file: str
) -> ModelEntry | FamilyEntry:
    if bench == LI_ADGER:
        p = data.pairs
        units = pair_units(data.frame)
        needed = [*p.good_ids, *p.bad_ids]
        _check(sf, units, list(p.judgements), needed, what="LI-Adger", file=file)
        return entry_from_scores(sf.as_dict(), p, name=name, kind=KIND_UPLOAD, metadata=sf.metadata)
    view = data.benchmarks.get(bench)
    if view is None:
        raise UploadError(f"the app has no view of the benchmark {bench!r}")
    try:
        items = view.load_items()
    except ItemsUnavailable as exc:
        raise UploadError(str(exc)) from None
    known = items.units["id"].tolist()
    cloze = view.spec.form == "cloze"
    _check(sf, items.units, known, needed_ids(items), what=bench, file=file, cloze=cloze)
    return family_entry_from_scores(view.spec, items, sf, name=name, kind=KIND_UPLOAD)


def evaluate_upload(
    path: str | os.PathLike | None,
    data: SpaceData,
    uploads: Sequence[Upload],
    *,
    name: str | None = None,
    max_bytes: int = MAX_UPLOAD_BYTES,
) -> Upload:
    """Validate and evaluate an uploaded scores file; raise :class:`UploadError` if refused.

    The message names the file by its own name (never the server's temporary path) and says
    what was expected and what was found: wrong columns, an unknown benchmark, unknown or
    duplicate ids, missing sentences, texts that are not the benchmark's (ids shifted by one),
    non-numeric / NaN / infinite scores, an empty or too large file, a result this session
    already holds (the same model, convention, variant and benchmark as an earlier upload,
    both files named). ``name`` overrides the model name (default: the file's ``model`` metadata,
    else its file name); a name already shown gets a ``#2`` suffix.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,score\\nx,1\\nx,2\\n")
    >>> evaluate_upload(p, None, [])
    Traceback (most recent call last):
    ...
    space.data.upload.UploadError: mine.csv: duplicate id 'x' (records 1 and 2)
    """
    if path is None:
        raise UploadError("no file: choose a scores file (JSON Lines, or CSV with header id,score)")
    path = Path(path)
    try:
        sf = read_scores(path, max_bytes=max_bytes)
    except ScoresFileError as exc:
        raise UploadError(_readable(str(exc), path)) from None
    if data is None:
        raise UploadError(f"{path.name}: no dataset loaded to evaluate it against")
    if len(uploads) >= MAX_UPLOADS:
        raise UploadError(
            f"{path.name}: this session already holds {len(uploads)} uploads "
            f"(at most {MAX_UPLOADS}); reload the page to start afresh"
        )
    bench = str(sf.metadata.get("dataset") or LI_ADGER)
    if bench not in BENCHMARKS:
        raise UploadError(
            f"{path.name}: its 'dataset' metadata is {bench!r}; expected one of "
            f"{list(BENCHMARKS)} (the benchmark the file scores)"
        )
    wanted = (name or "").strip() or model_name(sf, path.stem)
    named = identity(sf, path.stem, name)
    earlier = [(u.file, u.identity, u.benchmark) for u in uploads if u.identity is not None]
    try:
        check_distinct(
            [*earlier, (path.name, named, bench)],
            advice="this session holds the first: upload this one under another name, or "
            "reload the page to start afresh",
        )
    except DuplicateResultError as exc:
        raise UploadError(str(exc)) from None
    unique = unique_name(wanted, taken_names(data, uploads))
    try:
        entry = _evaluate(sf, data, bench, unique, path.name)
    except UploadError as exc:
        message = str(exc)
        raise UploadError(
            message
            if message.startswith((f"{path.name}: ", f"{path.name} line "))
            else f"{path.name}: {message}"
        ) from None
    except ValueError as exc:
        raise UploadError(f"{path.name}: {_readable(str(exc), path)}") from None
    return Upload(bench, entry, scores_only(sf), path.name, identity=named)


def _readable(message: str, path: Path) -> str:
    """The reader's message with the server's temporary path replaced by the file's name."""
    return message.replace(str(path), path.name)


def upload_summary(upload: Upload, data: SpaceData, delta: float) -> str:
    """The status line after a successful upload: the model's main numbers and where it shows.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> d = toy_space_data()
    >>> u = Upload("li_adger", d.models[0], None, "x.csv")
    >>> print(upload_summary(u, d, 0.5))
    **Scored `toy-length`** on LI-Adger: 6 sentences, 3 pairs. BLiMP 0.667 · ADC at δ = 0.5: 0.667
    (δ = 0.5 / 1 / 5: 0.667 / 0.667 / 0.667) · Pearson (pairs) -0.918. It now appears, highlighted,
    in the LI-Adger tab of this session only; submit it for the leaderboard below.
    """
    e = upload.entry
    tail = (
        f"It now appears, highlighted,\nin the {TITLES[upload.benchmark]} tab of this session "
        "only; submit it for the leaderboard below."
    )
    if isinstance(e, FamilyEntry):
        h = e.result["headline"]
        value = "—" if h["value"] is None else f"{h['value']:.3f}"
        return (
            f"**Scored `{e.name}`** on {TITLES[upload.benchmark]}: {h['statistic']} {value}. {tail}"
        )
    r = e.row
    adc = core.adc(e.model_delta, data.pairs.human_delta, delta)
    keys = " / ".join(f"{float(k):g}" for k in r["adc"])
    fixed = " / ".join("—" if v is None else f"{v:.3f}" for v in r["adc"].values())
    pearson = "—" if r["pearson_pairs"] is None else f"{r['pearson_pairs']:.3f}"
    excluded = (
        f" ({r['n_excluded']} more without a human judgement left out)" if r["n_excluded"] else ""
    )
    return (
        f"**Scored `{e.name}`** on LI-Adger: {r['n_sentences']:,} sentences, {r['n_pairs']:,} pairs"
        f"{excluded}. BLiMP {r['blimp']:.3f} · ADC at δ = {delta:g}: {adc:.3f}\n"
        f"(δ = {keys}: {fixed}) · Pearson (pairs) {pearson}. {tail}"
    )
