"""Everything the app shows, loaded once at start-up: :func:`load_space_data`.

LI-Adger models come from four places, in this order on the leaderboard's input:

- the thesis's 8 reference models (:mod:`metric_adc.thesis.outputs`), when its output files can be
  found (``$ADC_THESIS_OUTPUTS`` or the lookup of :mod:`li_adger.sources`); else left out,
  with a note on the page;
- the offline models shipped with the app (:mod:`space.data.shipped`);
- scores files in the results folder (``--results``, ``$ADC_RESULTS_DIR`` or ``results/``),
  including the uploads kept there; a file named like a shipped model replaces it;
- uploads kept in a Hub results repository (:class:`space.data.store.HubStore`).

A scores file whose metadata ``dataset`` names another benchmark of the family goes to that
benchmark's view (:class:`space.data.benchmark_data.BenchmarkData`). The human ceiling is the one
shipped with the app (``space/results/ceiling.json``, made with the README's split count and
seed), computed from the participant-level data only when that file is absent.

Only the documented "data not available" errors are caught — a source file not found
(:class:`li_adger.sources.SourceNotFoundError`) or not the pinned one
(:class:`~li_adger.sources.ChecksumError`), a results file that does not validate — each
logged and named on the page; anything else is a bug and stops the app.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import tempfile
from pathlib import Path

import numpy as np

from li_adger.benchmarks import BENCHMARKS
from li_adger.sources import ChecksumError, SourceNotFoundError
from metric_adc.pairs import PairTable
from metric_adc.scores.file import ScoresFileError, read_scores
from space.data import shipped
from space.data.benchmark_data import (
    BenchmarkData,
    FamilyEntry,
    ItemsUnavailable,
    benchmark_items,
    family_entry_from_scores,
)
from space.data.dataset import load_li_adger
from space.data.entries import (
    KIND_KEPT,
    KIND_RESULTS,
    KIND_SHIPPED,
    KIND_THESIS,
    Ceiling,
    ModelEntry,
    SpaceData,
    entry_from_scores,
    model_name,
    unique_name,
)
from space.data.store import HubStore, KeepError, Kept, LocalStore, kept_name

__all__ = [
    "FAMILY",
    "SCORES_SUFFIXES",
    "THESIS_TIMEOUT",
    "ResultsFolder",
    "compute_ceiling",
    "default_results_dir",
    "load_benchmarks",
    "load_ceiling",
    "load_results",
    "load_shipped_entries",
    "load_space_data",
    "load_thesis_entries",
    "scores_files",
]

log = logging.getLogger(__name__)

SCORES_SUFFIXES = (".jsonl", ".csv")
"""File name endings of scores files picked up from the results folder."""

FAMILY = tuple(name for name in BENCHMARKS if name != shipped.LI_ADGER)
"""The benchmarks with a view of their own beside LI-Adger's."""

THESIS_TIMEOUT = 15.0
"""Seconds a download of the thesis outputs may wait for the network at start-up: files not
found locally are fetched from their pinned upstream URLs (as on a hosted Space); without a
network the lookup fails at once or after this wait, and the app starts without them."""


def default_results_dir() -> Path:
    """The results folder: ``$ADC_RESULTS_DIR``, else ``results/`` in the working directory.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("ADC_RESULTS_DIR", None) and None
    >>> default_results_dir().name
    'results'
    """
    return Path(os.environ.get("ADC_RESULTS_DIR") or "results")


def load_thesis_entries(pairs: PairTable) -> tuple[list[ModelEntry], str | None]:
    """The thesis's 8 reference models and ``None``, or ``[]`` and why they are not shown
    (output files absent, not downloadable within :data:`THESIS_TIMEOUT`, or not the pinned
    files).

    Examples
    --------
    >>> entries, why = load_thesis_entries(load_li_adger().pairs)
    >>> [e.name for e in entries][:1], why
    (['BERT base-uncased (MLM, PLL)'], None)
    """
    from metric_adc.thesis import outputs as thesis

    try:
        models = thesis.load_thesis_models(timeout=THESIS_TIMEOUT)
    except (SourceNotFoundError, ChecksumError) as exc:
        log.warning("thesis reference models not shown: %s", exc)
        return [], (
            "The thesis's 8 reference models are not shown: their output files were not found "
            "(set `ADC_THESIS_OUTPUTS` to the folder holding them)."
        )
    entries = [
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
    return entries, None


def load_shipped_entries(pairs: PairTable, folder: str | os.PathLike) -> list[ModelEntry]:
    """The offline models shipped with the app (:func:`space.data.shipped.read_li_adger`).

    Examples
    --------
    >>> [e.kind for e in load_shipped_entries(load_li_adger().pairs, shipped.SHIPPED_DIR)][:1]
    ['offline model']
    """
    return [
        entry_from_scores(s.scores, pairs, name=s.name, kind=KIND_SHIPPED)
        for s in shipped.read_li_adger(folder)
    ]


@dataclasses.dataclass
class ResultsFolder:
    """What a folder of scores files holds: LI-Adger models, other benchmarks' models by
    benchmark, and the files refused with their reason."""

    li_adger: list[ModelEntry] = dataclasses.field(default_factory=list)
    family: dict[str, list[FamilyEntry]] = dataclasses.field(default_factory=dict)
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def scores_files(folder: str | os.PathLike) -> list[Path]:
    """The scores files in ``folder`` and its subfolders (``results/<model>/<benchmark>.jsonl``
    as ``python -m baselines score --dataset all`` writes them), sorted; hidden files and
    folders and partial files skipped; a missing folder holds none.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> for name in ("a.jsonl", "m/blimp.jsonl", "m/blimp.jsonl.0123.partial", ".hid.jsonl"):
    ...     (root / name).parent.mkdir(exist_ok=True)
    ...     _ = (root / name).write_text("")
    >>> [p.relative_to(root).as_posix() for p in scores_files(root)]
    ['a.jsonl', 'm/blimp.jsonl']
    >>> scores_files(root / "missing")
    []
    """
    root = Path(folder)
    if not root.is_dir():
        return []
    return sorted(
        p
        for p in root.rglob("*")
        if p.suffix in SCORES_SUFFIXES
        and p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


def load_results(folder: str | os.PathLike, pairs: PairTable) -> ResultsFolder:
    """Every valid scores file in ``folder`` (:func:`scores_files`: with its subfolders), by the
    benchmark its ``dataset`` metadata names (LI-Adger when it names none, e.g. a CSV).

    A missing folder holds nothing. A file that fails validation or evaluation, or names a
    benchmark whose source files are not available, is skipped with its reason, so one bad
    file never stops the app. A kept upload (:func:`space.data.store.kept_name`) is named as kept.

    Examples
    --------
    >>> r = load_results("/nonexistent", None)
    >>> r.li_adger, r.family, r.skipped
    ([], {}, [])
    """
    out = ResultsFolder()
    for path in scores_files(folder):
        try:
            sf = read_scores(path)
            bench = str(sf.metadata.get("dataset") or shipped.LI_ADGER)
            name = kept_name(sf.metadata) or model_name(sf, path.stem)
            kind = KIND_KEPT if kept_name(sf.metadata) else KIND_RESULTS
            if bench == shipped.LI_ADGER:
                out.li_adger.append(entry_from_scores(sf.as_dict(), pairs, name=name, kind=kind))
            elif bench in FAMILY:
                items = benchmark_items(bench)
                entry = family_entry_from_scores(BENCHMARKS[bench], items, sf, name=name, kind=kind)
                out.family.setdefault(bench, []).append(entry)
            else:
                raise ValueError(
                    f"its 'dataset' metadata is {bench!r}; expected one of {list(BENCHMARKS)}"
                )
        except (ScoresFileError, ValueError, ItemsUnavailable) as exc:
            log.warning("results file skipped: %s: %s", path, exc)
            out.skipped.append((path.name, str(exc).replace(f"{path}: ", "")))
    return out


def load_ceiling(
    folder: str | os.PathLike = shipped.SHIPPED_DIR,
) -> tuple[Ceiling | None, str | None]:
    """The human ceiling and ``None``, or ``None`` and why it is not shown.

    The ceiling shipped in ``folder`` when there is one (made by ``python -m space snapshot``
    with :data:`metric_adc.ceiling.compute.HUMAN_ROW_SPLITS` split-halves and seed 0, as the README's
    human row); else computed the same way from the participant-level data, when present.

    Examples
    --------
    >>> c, why = load_ceiling()
    >>> c.row["n_pairs"], c.row["n_splits"], c.row["seed"], why
    (1174, 100, 0, None)
    """
    ceiling = shipped.read_ceiling(folder)
    if ceiling is not None:
        return ceiling, None
    try:
        return compute_ceiling(), None
    except (SourceNotFoundError, ChecksumError) as exc:
        log.warning("human ceiling not shown: %s", exc)
        return None, "The human ceiling is not shown: the participant-level data was not found."


def compute_ceiling() -> Ceiling:
    """The human split-half ceiling as the README's human row computes it: the participant-level
    data, :data:`metric_adc.ceiling.compute.HUMAN_ROW_SPLITS` split-halves, seed 0 (a few seconds).

    Raises :class:`~li_adger.sources.SourceNotFoundError` without the participant-level data.

    Examples
    --------
    >>> c = compute_ceiling()
    >>> c.row["n_splits"], round(c.row["adc"]["0.5"], 3)
    (100, 0.486)
    """
    from metric_adc import rows
    from metric_adc.ceiling import compute as ceiling
    from metric_adc.ceiling.compute import HUMAN_ROW_SPLITS

    result = ceiling.compute_ceiling(n_splits=HUMAN_ROW_SPLITS, seed=0, tasks=False)
    curve = result["curve"]
    return Ceiling(
        rows.ceiling_row(result),
        np.asarray(curve["deltas"], dtype=float),
        np.asarray(curve["adc_mean"], dtype=float),
        ceiling.NOTE,
    )


def _renamed(entry, name: str):
    if hasattr(entry, "row"):
        return dataclasses.replace(entry, name=name, row={**entry.row, "model": name})
    return dataclasses.replace(entry, name=name)


def _merge(*groups: list) -> list:
    """Entries of ``groups`` in order; within a group, names are made unique (``#2``); an
    entry replaces one of the same name from an earlier group (a results file replaces the
    shipped model it re-scores)."""
    out: list = []
    for group in groups:
        mine: list = []
        for e in group:
            name = unique_name(e.name, {o.name for o in mine})
            mine.append(e if name == e.name else _renamed(e, name))
        names = {e.name for e in mine}
        out = [o for o in out if o.name not in names] + mine
    return out


def load_benchmarks(
    shipped_dir: str | os.PathLike, results: ResultsFolder, *extra: ResultsFolder
) -> dict[str, BenchmarkData]:
    """The view data of every benchmark of :data:`FAMILY`: shipped models and reference rows
    (the human row apart), then the models of ``results`` and ``extra`` folders.

    Examples
    --------
    >>> b = load_benchmarks(shipped.SHIPPED_DIR, ResultsFolder())
    >>> list(b), b["blimp"].human.name
    (['blimp', 'npi', 'diagnostics', 'cola'], 'human')
    """
    out = {}
    for name in FAMILY:
        refs = shipped.read_references(shipped_dir, name)
        human = next((r for r in refs if r.name == "human"), None)
        models = [r for r in refs if r is not human]
        found = [e for folder in (results, *extra) for e in folder.family.get(name, [])]
        entries = _merge(shipped.read_family(shipped_dir, name), models, found)
        notes = []
        if not entries:
            notes.append(
                "No model results ship for this benchmark yet: `python -m space snapshot` adds "
                "them from the scorers' scores files."
            )
        out[name] = BenchmarkData(BENCHMARKS[name], entries, human=human, notes=notes)
    return out


def _hub_results(repo: str, pairs: PairTable, store: HubStore) -> tuple[ResultsFolder, str | None]:
    try:
        folder = store.fetch(Path(tempfile.mkdtemp(prefix="adc-kept-")))
    except KeepError as exc:
        log.warning("kept uploads not shown: %s", exc)
        return ResultsFolder(), f"The uploads kept in `{repo}` could not be read: {exc}"
    return load_results(folder, pairs), None


def load_space_data(
    results_dir: str | os.PathLike | None = None,
    *,
    dataset_repo: str | None = None,
    results_repo: str | None = None,
    hub_api=None,
    shipped_dir: str | os.PathLike = shipped.SHIPPED_DIR,
    thesis: bool = True,
) -> SpaceData:
    """Load and precompute everything the app shows (a few seconds).

    ``results_dir`` (default :func:`default_results_dir`) is scanned for scores files and is
    where uploads are kept, unless ``results_repo`` names a Hub dataset repository to keep
    them in (``hub_api``: its ``HfApi``, for tests). ``dataset_repo`` is the published
    dataset to read LI-Adger from (default: the package's build). ``thesis=False`` leaves the
    thesis's reference models out.

    Examples
    --------
    >>> data = load_space_data("/nonexistent", thesis=False)
    >>> len(data.pairs), [m.kind for m in data.models][:1], data.ceiling.row["n_splits"]
    (2365, ['offline model'], 100)
    """
    li = load_li_adger(dataset_repo)
    results_dir = Path(default_results_dir() if results_dir is None else results_dir)
    notes: list[str] = []
    thesis_entries: list[ModelEntry] = []
    if thesis:
        thesis_entries, why = load_thesis_entries(li.pairs)
        notes += [why] if why else []
    local = load_results(results_dir, li.pairs)
    hub = ResultsFolder()
    if results_repo:
        store = HubStore(results_repo, api=hub_api)
        hub, why = _hub_results(results_repo, li.pairs, store)
        notes += [why] if why else []
    else:
        store = LocalStore(results_dir)
    ceiling, why = load_ceiling(shipped_dir)
    notes += [why] if why else []
    models = _merge(
        thesis_entries,
        load_shipped_entries(li.pairs, shipped_dir),
        local.li_adger,
        hub.li_adger,
    )
    return SpaceData(
        li.pairs,
        li.frame,
        models,
        li.acceptable,
        ceiling,
        [*local.skipped, *hub.skipped],
        labels=li.labels,
        benchmarks=load_benchmarks(shipped_dir, local, hub),
        kept=Kept(store),
        notes=notes,
    )
