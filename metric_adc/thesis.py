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
"""

from __future__ import annotations

import csv
import math
import os
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "MODELS",
    "ThesisModel",
    "ThesisPairs",
    "default_dir",
    "load_thesis_models",
    "load_thesis_pairs",
    "load_thesis_scores",
]

PAIRS_FILE = "li-adger_min_pairs_all_models.csv"
JUDGEMENTS_FILE = Path("..") / "li-adger" / "human_ME_results_li-adger_sentences.csv"
"""The 4,178 sentences' human judgements, beside ``thesis-outputs/`` in the source data."""
SENTENCE_FILES = {
    "mlm": "bert_mlm_results_li-adger_sentences.csv",
    "acc": "bert_acc_results_li-adger_sentences.csv",
}

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

TRIGRAM_NOTE = (
    "thesis z-scores used as given: the thesis z-scored the trigram over a larger "
    "population than its output files hold"
)


def default_dir() -> Path:
    """Where the thesis outputs are read from: ``$ADC_THESIS_OUTPUTS``, else
    ``../shared/data/thesis-outputs`` beside the repository.

    Examples
    --------
    >>> default_dir().name
    'thesis-outputs'
    """
    env = os.environ.get("ADC_THESIS_OUTPUTS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "data" / "thesis-outputs"


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise FileNotFoundError(
            f"thesis output file not found: {path} (set ADC_THESIS_OUTPUTS or pass dir=)"
        )
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


def load_thesis_pairs(dir: str | os.PathLike | None = None) -> ThesisPairs:
    """Read the thesis's pair file (ids and source of each pair) and the judgements of all
    4,178 sentences (``../li-adger/human_ME_results_li-adger_sentences.csv``); raises if the
    pair file's judgements disagree with the sentence file's by 1e-9 or more (the pair
    file's floats are kept: they are what the thesis computed its deltas from).

    Examples
    --------
    >>> p = load_thesis_pairs()
    >>> len(p.good_ids), len(p.judgements), round(p.judgements[p.good_ids[0]], 6)
    (2367, 4178, 1.467188)
    """
    base = Path(dir or default_dir())
    rows = _read_csv(base / PAIRS_FILE)
    judgements = {r["id"]: _num(r["judgement"]) for r in _read_csv(base / JUDGEMENTS_FILE)}
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


def load_thesis_models(dir: str | os.PathLike | None = None) -> list[ThesisModel]:
    """The 8 thesis models in :data:`MODELS` order.

    Examples
    --------
    >>> ms = load_thesis_models()
    >>> [(m.name, len(m.scores), m.standardized) for m in ms][::3]
    [('bert-base-uncased-mlm', 4178, False), ('bert-base-uncased-cola', 4178, False), ('trigram-slor', 4124, True)]
    """
    base = Path(dir or default_dir())
    sentence_rows = {k: _read_csv(base / f) for k, f in SENTENCE_FILES.items()}
    pair_rows = _read_csv(base / PAIRS_FILE)
    out = []
    for name, (label, stem, kind) in MODELS.items():
        if kind is None:
            out.append(
                ThesisModel(name, label, _pair_file_scores(pair_rows, stem), True, TRIGRAM_NOTE)
            )
        else:
            scores = {r["id"]: _num(r[stem]) for r in sentence_rows[kind]}
            out.append(ThesisModel(name, label, scores, False))
    return out


def load_thesis_scores(dir: str | os.PathLike | None = None) -> dict[str, dict[str, float]]:
    """Model name → (sentence id → score) for the 8 thesis models.

    The two trigram entries hold the thesis's z-scores (see :func:`load_thesis_models`,
    ``standardized``); the BERT entries hold raw scores.

    Examples
    --------
    >>> s = load_thesis_scores()
    >>> sorted(s)[:2], round(s["trigram-slor"]["32.1.martin.1a.g.01"], 4)
    (['bert-base-uncased-cola', 'bert-base-uncased-mlm'], 0.9993)
    """
    return {m.name: m.scores for m in load_thesis_models(dir)}
