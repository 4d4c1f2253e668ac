"""Everything the app shows, loaded once at start-up: :func:`load_space_data`.

Every row comes from the package's shipped files (``space/results/``, written by
``python -m space snapshot``) or from a folder or repository the user names — never from the
network on its own, nor from the folder the app is started in — so the app shows the same rows
wherever it starts. LI-Adger's models come, in this order on the leaderboard's input, from:

- the thesis's 8 reference models (``space/results/thesis/``: z-scores of its published
  outputs); without them a note on the page says which command adds them;
- the offline models shipped with the app (``space/results/li_adger/``);
- the scores files of the results folder (``--results DIR`` or ``$ADC_RESULTS_DIR``,
  :mod:`space.data.results_folder`); a file named like a shipped model replaces it;
- the approved submissions (:class:`space.data.submissions.Submissions`) of the results
  folder or of a Hub results repository (``--results-repo``, ``$ADC_RESULTS_REPO``).

A scores file whose metadata ``dataset`` names another benchmark of the family goes to that
benchmark's view (:class:`space.data.benchmark_data.BenchmarkData`). The human ceiling is the one
shipped with the app (``space/results/ceiling.json``, made with the README's split count and
seed), computed from the participant-level data only when that file is absent.

Only the documented "data not available" errors are caught — a source file not found
(:class:`li_adger.sources.SourceNotFoundError`) or not the pinned one
(:class:`~li_adger.sources.ChecksumError`), a results file that does not validate, a store
that cannot be read — each logged and named on the page; anything else is a bug and stops the
app.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from pathlib import Path

from li_adger.benchmarks import BENCHMARKS
from li_adger.sources import ChecksumError, SourceNotFoundError
from metric_adc.pairs import PairTable
from space.data import shipped
from space.data.benchmark_data import FAMILY, BenchmarkData
from space.data.dataset import load_li_adger, pair_units
from space.data.entries import Ceiling, ModelEntry, entry_from_scores
from space.data.kinds import KIND_SHIPPED, KIND_THESIS
from space.data.names import unique_name
from space.data.results_folder import ResultsFolder, load_results, results_dir
from space.data.space_data import SpaceData
from space.data.store import HubStore, LocalStore, Store
from space.data.submissions import Submissions

__all__ = [
    "THESIS_MISSING",
    "compute_ceiling",
    "load_benchmarks",
    "load_ceiling",
    "load_shipped_entries",
    "load_space_data",
    "load_thesis_entries",
]

log = logging.getLogger(__name__)

THESIS_MISSING = (
    "The thesis's 8 reference models are not shown: their z-scores are not in {folder}; "
    "`python -m space snapshot` adds them from the thesis's output files."
)
"""The page's one line when the shipped folder has no thesis models."""


def load_thesis_entries(
    pairs: PairTable, folder: str | os.PathLike = shipped.SHIPPED_DIR
) -> tuple[list[ModelEntry], str | None]:
    """The thesis's 8 reference models shipped in ``folder`` (z-scores of its published outputs,
    :func:`space.data.shipped.read_thesis`) and ``None``, or ``[]`` and the note saying which
    command adds them.

    Examples
    --------
    >>> entries, why = load_thesis_entries(load_li_adger().pairs)
    >>> [e.name for e in entries][:1], why
    (['BERT base-uncased (CoLA)'], None)
    >>> load_thesis_entries(None, "/nonexistent")[1]
    "The thesis's 8 reference models are not shown: their z-scores are not in /nonexistent/thesis; ..."
    """
    found = shipped.read_thesis(folder)
    if not found:
        return [], THESIS_MISSING.format(folder=Path(folder) / shipped.THESIS)
    entries = [
        entry_from_scores(
            s.scores,
            pairs,
            name=s.name,
            kind=KIND_THESIS,
            standardize=False,
            note=s.note,
            metadata=s.metadata,
        )
        for s in found
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
        entry_from_scores(
            s.scores, pairs, name=s.name, kind=KIND_SHIPPED, note=s.note, metadata=s.metadata
        )
        for s in shipped.read_li_adger(folder)
    ]


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
    data through :func:`metric_adc.ceiling.compute.human_ceiling` (the one source of the human row).

    Raises :class:`~li_adger.sources.SourceNotFoundError` without the participant-level data.

    Examples
    --------
    >>> c = compute_ceiling()
    >>> c.row["n_splits"], round(c.row["adc"]["0.5"], 3)
    (100, 0.486)
    """
    from metric_adc.ceiling.compute import human_ceiling

    return shipped.ceiling_from_record(human_ceiling())


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
    shipped_dir: str | os.PathLike, results: ResultsFolder
) -> dict[str, BenchmarkData]:
    """The view data of every benchmark of :data:`~space.data.benchmark_data.FAMILY`: shipped
    models and reference rows (the human row apart), then the models of ``results``.

    Examples
    --------
    >>> b = load_benchmarks(shipped.SHIPPED_DIR, ResultsFolder())
    >>> list(b), b["blimp"].human.name
    (['blimp', 'npi', 'npi_cloze', 'diagnostics', 'cola'], 'human')
    """
    out = {}
    for name in FAMILY:
        refs = shipped.read_references(shipped_dir, name)
        human = next((r for r in refs if r.name == "human"), None)
        models = [r for r in refs if r is not human]
        entries = _merge(
            shipped.read_family(shipped_dir, name), models, results.family.get(name, [])
        )
        notes = []
        if not entries:
            notes.append(
                "No model results ship for this benchmark yet: `python -m space snapshot` adds "
                "them from the scorers' scores files."
            )
        out[name] = BenchmarkData(BENCHMARKS[name], entries, human=human, notes=notes)
    return out


def _store(folder: Path | None, repo: str | None, hub_api) -> Store | None:
    if repo:
        return HubStore(repo, api=hub_api)
    return None if folder is None else LocalStore(folder)


def load_space_data(
    results: str | os.PathLike | None = None,
    *,
    dataset_repo: str | None = None,
    results_repo: str | None = None,
    hub_api=None,
    shipped_dir: str | os.PathLike = shipped.SHIPPED_DIR,
    thesis: bool = True,
    require_login: bool = False,
) -> SpaceData:
    """Load and precompute everything the app shows (a few seconds).

    ``results`` (default ``$ADC_RESULTS_DIR``, else none: :func:`space.data.results_folder.results_dir`)
    is scanned for scores files and holds the submissions, unless ``results_repo`` names a
    Hub dataset repository to hold them (``hub_api``: its ``HfApi``, for tests); with
    neither, submitting is off. ``dataset_repo`` is the published dataset to read LI-Adger
    from (default: the package's build). ``thesis=False`` leaves the thesis's reference models
    out; ``require_login`` refuses submissions without a Hugging Face login (on a Space).

    Examples
    --------
    >>> data = load_space_data("/nonexistent", thesis=False)
    >>> len(data.pairs), [m.kind for m in data.models][:1], data.ceiling.row["n_splits"]
    (2365, ['offline model'], 100)
    """
    li = load_li_adger(dataset_repo)
    folder = results_dir(results)
    notes: list[str] = []
    thesis_entries: list[ModelEntry] = []
    if thesis:
        thesis_entries, why = load_thesis_entries(li.pairs, shipped_dir)
        notes += [why] if why else []
    if folder is not None and folder.exists() and not folder.is_dir():
        notes.append(
            f"The results folder `{folder}` is a file, not a folder: nothing read from it."
        )
    local = (
        ResultsFolder() if folder is None else load_results(folder, li.pairs, pair_units(li.frame))
    )
    store = _store(folder, results_repo, hub_api)
    submissions = None
    if store is not None:
        submissions = Submissions(store, li.pairs, require_login=require_login)
        submissions.refresh(force=True)
        if submissions.error:
            notes.append(f"The approved submissions could not be read: {submissions.error}")
    ceiling, why = load_ceiling(shipped_dir)
    notes += [why] if why else []
    models = _merge(thesis_entries, load_shipped_entries(li.pairs, shipped_dir), local.li_adger)
    skipped = [*local.skipped, *([] if submissions is None else submissions.skipped)]
    return SpaceData(
        li.pairs,
        li.frame,
        models,
        li.acceptable,
        ceiling,
        skipped,
        labels=li.labels,
        benchmarks=load_benchmarks(shipped_dir, local),
        submissions=submissions,
        notes=notes,
    )
