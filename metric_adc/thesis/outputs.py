"""The thesis's own model scores on LI-Adger (``thesis-outputs/``): 8 reference models.

Vázquez Martínez (2021) scored LI-Adger with BERT base-uncased, large-uncased and
large-cased as masked LMs (pseudo-log-likelihood) and as CoLA classifiers (signed softmax
confidence), and with a BNC trigram (log-prob and SLOR, from Sprouse et al. 2018).

- BERT models: raw per-sentence scores for all 4,178 sentences
  (``bert_{mlm,acc}_results_li-adger_sentences.csv``); z-scoring them over the 4,178
  sentences reproduces the thesis's z-scores exactly, so they are returned raw.
- Trigram models: only the pair file (``li-adger_min_pairs_all_models.csv``) holds them, for
  the 4,124 sentences of its pairs that have a score, and the thesis z-scored them over a
  larger population than the file holds (``z = (raw − 0.4896) / 0.3197`` for SLOR). Their
  *z-score columns* are returned, marked ``standardized=True``: evaluate them without
  z-scoring again.

The files are pinned source files (:data:`li_adger.sources.THESIS_OUTPUT_FILES`, with the
sentences' judgements ``li-adger/human_ME_results_li-adger_sentences.csv``), found and
checked against their SHA-256 by :func:`locate`, in this order: a folder given as ``dir``
(``--thesis-dir``), else ``$ADC_THESIS_OUTPUTS``; else the lookup order of
:mod:`li_adger.sources` (``$LI_ADGER_SOURCE``, ``../shared/data``, the user cache, and a
download of the pinned upstream files into that cache).
"""

from __future__ import annotations

import csv
import math
import os
from dataclasses import dataclass
from pathlib import Path

from li_adger import sources
from li_adger.sources import THESIS_OUTPUT_FILES, SourceNotFoundError, check_file, find_sources

__all__ = [
    "COLA_MODELS",
    "MODELS",
    "ThesisModel",
    "ThesisPairs",
    "default_dir",
    "display_name",
    "load_thesis_labels",
    "load_thesis_models",
    "load_thesis_pairs",
    "load_thesis_scores",
    "locate",
]

PAIRS_FILE = "li-adger_min_pairs_all_models.csv"
JUDGEMENTS = "li-adger/human_ME_results_li-adger_sentences.csv"
"""The 4,178 sentences' human judgements (a pinned source file of the dataset)."""
JUDGEMENTS_FILE = Path("..") / JUDGEMENTS
"""Where the judgements are looked for first when a thesis folder is given: beside it."""
SENTENCE_FILES = {
    "mlm": "bert_mlm_results_li-adger_sentences.csv",
    "acc": "bert_acc_results_li-adger_sentences.csv",
}
DOWNLOAD_TIMEOUT = 60.0
"""Seconds a download may wait for the network before it fails (per connection step)."""

# name -> (label, column stem in the thesis files, file kind or None for the pair file)
MODELS: dict[str, tuple[str, str, str | None]] = {
    "bert-base-uncased-mlm": ("BERT base-uncased (MLM, PLL)", "bert-base-uncased_mlm", "mlm"),
    "bert-large-uncased-mlm": ("BERT large-uncased (MLM, PLL)", "bert-large-uncased_mlm", "mlm"),
    "bert-large-cased-mlm": ("BERT large-cased (MLM, PLL)", "bert-large-cased_mlm", "mlm"),
    "bert-base-uncased-cola": ("BERT base-uncased (CoLA)", "bert-base-uncased_acc", "acc"),
    "bert-large-uncased-cola": ("BERT large-uncased (CoLA)", "bert-large-uncased_acc", "acc"),
    "bert-large-cased-cola": ("BERT large-cased (CoLA)", "bert-large-cased_acc", "acc"),
    "trigram-slor": ("BNC trigram (SLOR)", "slor", None),
    "trigram-logprob": ("BNC trigram (log-prob)", "logProb", None),
}
"""The 8 thesis models: name → (label, column stem, per-sentence file kind or None)."""


def display_name(model: str) -> str:
    """How every table, the README and the app name a model: a thesis model's id
    (:data:`MODELS`) by its label, any other row's name (a scores file's
    :func:`~metric_adc.scores.labels.row_label`, a reference row) as it is. Machine-readable
    outputs (``--json``) keep the id.

    Examples
    --------
    >>> display_name("bert-base-uncased-mlm"), display_name("trigram-slor")
    ('BERT base-uncased (MLM, PLL)', 'BNC trigram (SLOR)')
    >>> display_name("smollm2 (logprob, default)")
    'smollm2 (logprob, default)'
    """
    entry = MODELS.get(model)
    return model if entry is None else entry[0]


COLA_MODELS: tuple[str, ...] = tuple(name for name, m in MODELS.items() if m[2] == "acc")
"""The thesis's three CoLA classifiers (signed softmax confidence: acceptable iff > 0)."""

TRIGRAM_NOTE = (
    "thesis z-scores used as given: the thesis z-scored the trigram over a larger "
    "population than its output files hold"
)


def default_dir() -> Path:
    """The folder the thesis outputs are read from when none is given (not verified):
    ``$ADC_THESIS_OUTPUTS``; else the ``thesis-outputs`` folder of the first place of the
    :mod:`li_adger.sources` lookup order that holds the pair file; else the cache folder a
    download would write to.

    Examples
    --------
    >>> default_dir().name
    'thesis-outputs'
    """
    env = os.environ.get("ADC_THESIS_OUTPUTS")
    if env:
        return Path(env)
    source = os.environ.get("LI_ADGER_SOURCE")
    roots = [Path(source)] if source else [*sources.default_search_dirs(), sources.cache_dir()]
    candidates = [root / "thesis-outputs" for root in roots]
    return next((c for c in candidates if (c / PAIRS_FILE).is_file()), candidates[-1])


def locate(
    dir: str | os.PathLike | None = None,
    *,
    download: bool = True,
    timeout: float = DOWNLOAD_TIMEOUT,
) -> dict[str, Path]:
    """The verified paths of the thesis files: ``{relpath: path}`` for
    :data:`~li_adger.sources.THESIS_OUTPUT_FILES` and :data:`JUDGEMENTS`.

    ``dir`` (default ``$ADC_THESIS_OUTPUTS``) is a folder holding the thesis output files
    under their upstream names; the judgements are then read from ``dir/../li-adger/`` when
    present, else by the lookup order. Without ``dir``, every file goes through the lookup
    order of :func:`li_adger.sources.find_sources`; ``download=False`` never touches the
    network, and ``timeout`` bounds the wait of a download.

    Raises
    ------
    li_adger.sources.SourceNotFoundError
        (a :class:`FileNotFoundError`) a file is nowhere to be found.
    li_adger.sources.ChecksumError
        (a :class:`ValueError`) a file differs from the pinned one.

    Examples
    --------
    >>> paths = locate(download=False)
    >>> sorted(p.name for p in paths.values())[:2]
    ['bert_acc_results_li-adger_sentences.csv', 'bert_mlm_results_li-adger_sentences.csv']
    >>> locate("/nonexistent/thesis-outputs")
    Traceback (most recent call last):
    li_adger.sources.SourceNotFoundError: thesis output file 'li-adger_min_pairs_all_models.csv' not found in /nonexistent/thesis-outputs ...
    """
    explicit = dir if dir is not None else os.environ.get("ADC_THESIS_OUTPUTS") or None
    if explicit is None:
        return find_sources([*THESIS_OUTPUT_FILES, JUDGEMENTS], download=download, timeout=timeout)
    base = Path(explicit).expanduser()
    found: dict[str, Path] = {}
    for rel in THESIS_OUTPUT_FILES:
        path = base / Path(rel).name
        if not path.is_file():
            raise SourceNotFoundError(
                f"thesis output file {path.name!r} not found in {base} (the folder given by "
                f"{'dir= / --thesis-dir' if dir is not None else '$ADC_THESIS_OUTPUTS'}); "
                "leave both unset to use the lookup order of li_adger.sources"
            )
        found[rel] = check_file(rel, path)
    beside = base / JUDGEMENTS_FILE
    if beside.is_file():
        found[JUDGEMENTS] = check_file(JUDGEMENTS, beside)
    else:
        found |= find_sources([JUDGEMENTS], download=download, timeout=timeout)
    return found


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _num(text: str) -> float:
    text = text.strip()
    return math.nan if text in ("", "#N/A") else float(text)


@dataclass(frozen=True)
class ThesisModel:
    """One thesis model: sentence id → score, and whether the scores are already z-scores."""

    name: str
    label: str
    scores: dict[str, float]
    standardized: bool
    note: str | None = None


@dataclass(frozen=True)
class ThesisPairs:
    """The pairs the thesis evaluated, as in its pair file (2,367 rows; 2 lack a judgement)."""

    source: list[str]
    good_ids: list[str]
    bad_ids: list[str]
    judgements: dict[str, float]
    """All 4,178 sentence ids → mean z-scored human judgement (NaN for the 2 missing)."""


def load_thesis_pairs(
    dir: str | os.PathLike | None = None,
    *,
    download: bool = True,
    timeout: float = DOWNLOAD_TIMEOUT,
) -> ThesisPairs:
    """Read the thesis's pair file (ids and source of each pair) and the judgements of all
    4,178 sentences (:data:`JUDGEMENTS`), as found by :func:`locate`; raises if the
    pair file's judgements disagree with the sentence file's by 1e-9 or more (the pair
    file's floats are kept: they are what the thesis computed its deltas from).

    Examples
    --------
    >>> p = load_thesis_pairs()
    >>> len(p.good_ids), len(p.judgements), round(p.judgements[p.good_ids[0]], 6)
    (2367, 4178, 1.467188)
    """
    paths = locate(dir, download=download, timeout=timeout)
    rows = _read_csv(paths[f"thesis-outputs/{PAIRS_FILE}"])
    judgements = {r["id"]: _num(r["judgement"]) for r in _read_csv(paths[JUDGEMENTS])}
    for r in rows:
        for key, col in (("gramm_id", "gramm_judgement"), ("ungramm_id", "ungramm_judgement")):
            mine, theirs = judgements.get(r[key]), _num(r[col])
            same_nan = mine is not None and math.isnan(mine) and math.isnan(theirs)
            if mine is None or not (same_nan or abs(mine - theirs) < 1e-9):
                raise ValueError(
                    f"{PAIRS_FILE}: judgement of {r[key]!r} is {theirs}, but "
                    f"{JUDGEMENTS_FILE.name} has {mine}"
                )
            judgements[r[key]] = theirs  # the pair file's exact floats, as the thesis used
    return ThesisPairs(
        source=[r["dataset"] for r in rows],
        good_ids=[r["gramm_id"] for r in rows],
        bad_ids=[r["ungramm_id"] for r in rows],
        judgements=judgements,
    )


def _pair_file_scores(rows: list[dict[str, str]], stem: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for r in rows:
        for side, key in (("gramm", "gramm_id"), ("ungramm", "ungramm_id")):
            value = _num(r[f"{stem}_zscores_{side}"])
            if math.isnan(value):
                continue
            prev = out.setdefault(r[key], value)
            if prev != value:
                raise ValueError(
                    f"{PAIRS_FILE}: sentence {r[key]!r} has two {stem} z-scores ({prev}, {value})"
                )
    return out


def load_thesis_models(
    dir: str | os.PathLike | None = None,
    *,
    download: bool = True,
    timeout: float = DOWNLOAD_TIMEOUT,
) -> list[ThesisModel]:
    """The 8 thesis models in :data:`MODELS` order (files found by :func:`locate`).

    Examples
    --------
    >>> ms = load_thesis_models()
    >>> [(m.name, len(m.scores), m.standardized) for m in ms][::3]
    [('bert-base-uncased-mlm', 4178, False), ('bert-base-uncased-cola', 4178, False), ('trigram-slor', 4124, True)]
    """
    paths = locate(dir, download=download, timeout=timeout)
    sentence_rows = {k: _read_csv(paths[f"thesis-outputs/{f}"]) for k, f in SENTENCE_FILES.items()}
    pair_rows = _read_csv(paths[f"thesis-outputs/{PAIRS_FILE}"])
    out = []
    for name, (_, stem, kind) in MODELS.items():
        label = display_name(name)
        if kind is None:
            out.append(
                ThesisModel(name, label, _pair_file_scores(pair_rows, stem), True, TRIGRAM_NOTE)
            )
        else:
            scores = {r["id"]: _num(r[stem]) for r in sentence_rows[kind]}
            out.append(ThesisModel(name, label, scores, False))
    return out


def load_thesis_scores(
    dir: str | os.PathLike | None = None,
    *,
    download: bool = True,
    timeout: float = DOWNLOAD_TIMEOUT,
) -> dict[str, dict[str, float]]:
    """Model name → (sentence id → score) for the 8 thesis models.

    The two trigram entries hold the thesis's z-scores (see :func:`load_thesis_models`,
    ``standardized``); the BERT entries hold raw scores.

    Examples
    --------
    >>> s = load_thesis_scores()
    >>> sorted(s)[:2], round(s["trigram-slor"]["32.1.martin.1a.g.01"], 4)
    (['bert-base-uncased-cola', 'bert-base-uncased-mlm'], 0.9993)
    """
    return {m.name: m.scores for m in load_thesis_models(dir, download=download, timeout=timeout)}


def load_thesis_labels(
    dir: str | os.PathLike | None = None,
    *,
    download: bool = True,
    timeout: float = DOWNLOAD_TIMEOUT,
) -> dict[str, bool]:
    """Sentence id → the thesis's own ``label`` column of its CoLA outputs (True = 1).

    This is *not* the expert label: the thesis's notebook set ``label =
    id.str.contains('g')``, true for every id with a *g* anywhere, so 128 unacceptable
    sentences whose author's name has a *g* (Caponigro, Haegeman, …) are labelled 1. Kept to
    reproduce the thesis's Table 2.2 as published (:func:`metric_adc.thesis.table_2_2.table_2_2_rows`).

    Examples
    --------
    >>> labels = load_thesis_labels()
    >>> len(labels), labels["32.1.martin.1a.g.01"], sum(labels.values())
    (4178, True, 2217)
    """
    paths = locate(dir, download=download, timeout=timeout)
    rows = _read_csv(paths[f"thesis-outputs/{SENTENCE_FILES['acc']}"])
    out = {}
    for k, r in enumerate(rows, start=2):
        if r["label"] not in ("0", "1"):
            raise ValueError(
                f"{SENTENCE_FILES['acc']} line {k}: 'label' must be 0 or 1 (got {r['label']!r})"
            )
        out[r["id"]] = r["label"] == "1"
    return out
