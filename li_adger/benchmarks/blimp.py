"""BLiMP (Warstadt et al. 2020): 67 paradigms × 1,000 minimal pairs, and its reference rows.

Each paradigm file ``blimp/<UID>.jsonl`` holds 1,000 JSON lines with ``sentence_good``,
``sentence_bad``, ``field``, ``linguistics_term``, ``UID`` and ``pairID``. A line becomes one
comparison ``<UID>.<pairID>``; its two sentences become units ``<UID>.<pairID>.good`` and
``.bad``, except that a sentence already seen (same text, anywhere in BLiMP) keeps the id of its
first occurrence, paradigms taken in alphabetical order of UID.

Two quirks of the files are normalised, so that the groups are the paper's: one paradigm
(``principle_A_case_2``) spells its field ``syntax/semantics``, read as ``syntax_semantics``
like the other 13 paradigms of that field; and two paradigms (``animate_subject_passive``,
``animate_subject_trans``) have the ``linguistics_term`` ``s-selection``, which the paper
(Table 3, 12 phenomena) and ``models_summary.jsonl`` count under ``argument_structure``.

The reference rows (:func:`read_references`):

- ``blimp-human`` — ``human_validation_summary.csv``: 20 validators judged 5 pairs of each
  paradigm in a forced choice (Warstadt et al. 2020, §3.4). ``agreement`` (upstream
  ``total_mean``) is the share of the individual judgements (``n_judgements``, upstream
  ``count``, about 100) that chose the acceptable sentence — the paper's "individual human
  agreement", 88.6 % as the mean over paradigms (Table 3). ``majority_pairs`` (upstream
  ``accepted``) is the number of the 5 pairs where the majority chose it — the "aggregate"
  agreement, 96.4 % as the mean of ``majority_pairs / 5``. The file also rates two paradigms
  that failed validation and are not in BLiMP; they are left out.
- ``blimp-models`` — ``models_summary.jsonl``: the paper's per-paradigm accuracies of its
  5-gram, LSTM, Transformer-XL and GPT-2 models, one row per (paradigm, model). The file's
  ``"overall"`` rows (means over paradigms) are left out: they are derived.

Both frames carry BLiMP's group keys ``UID``, ``linguistics_term`` and ``field``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from li_adger.benchmarks.spec import Items
from li_adger.benchmarks.tsv import SourceFormatError
from li_adger.benchmarks.units import minimal_pairs
from li_adger.sources import SOURCE_FILES

__all__ = [
    "GROUPS",
    "HUMAN_FILE",
    "MODELS",
    "MODELS_FILE",
    "PARADIGM_FILES",
    "read",
    "read_references",
]

HUMAN_FILE = "blimp/human_validation_summary.csv"
MODELS_FILE = "blimp/models_summary.jsonl"
GROUPS: tuple[str, ...] = ("UID", "linguistics_term", "field")
PARADIGM_FILES: tuple[str, ...] = tuple(
    sorted(p for p in SOURCE_FILES if p.startswith("blimp/") and p not in (HUMAN_FILE, MODELS_FILE))
)
"""The 67 paradigms' files, ``blimp/<UID>.jsonl``: every pinned BLiMP file but the summaries."""
MODELS: dict[str, str] = {
    "ngram": "5-gram",
    "lstm": "LSTM",
    "txl": "Transformer-XL",
    "gpt2": "GPT-2",
}
"""``models_summary.jsonl`` keys → the paper's model names (Table 3), in the paper's order."""

_FIELD_SPELLINGS = {"syntax/semantics": "syntax_semantics"}
_PAPER_TERMS = {"s-selection": "argument_structure"}


def _term(linguistics_term: str) -> str:
    """The paper's phenomenon (Table 3) for a data file's ``linguistics_term``."""
    return _PAPER_TERMS.get(linguistics_term, linguistics_term)


_KEYS = frozenset(("sentence_good", "sentence_bad", "field", "linguistics_term", "UID", "pairID"))


def _records(path: Path) -> list[dict]:
    """The JSON records of a JSON-lines file (one parse per file; on failure, the line)."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        records = json.loads("[" + ",".join(lines) + "]")
    except json.JSONDecodeError:
        records = None
    if (
        records is None
        or len(records) != len(lines)
        or not all(isinstance(r, dict) for r in records)
    ):
        for number, line in enumerate(lines, 1):
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SourceFormatError(f"{path}:{number}: not a JSON object ({exc})") from None
            if not isinstance(value, dict):
                raise SourceFormatError(f"{path}:{number}: not a JSON object: {line!r:.80}")
    return records


def _paradigm(path: Path, expected_uid: str) -> list[dict]:
    records = _records(path)
    for number, r in enumerate(records, 1):
        if not r.keys() >= _KEYS:
            raise SourceFormatError(f"{path}:{number}: missing field(s) {sorted(_KEYS - r.keys())}")
        if r["UID"] != expected_uid:
            raise SourceFormatError(
                f"{path}:{number}: field 'UID' is {r['UID']!r}, expected {expected_uid!r}"
            )
        good, bad = r["sentence_good"], r["sentence_bad"]
        if not (isinstance(good, str) and good.strip() and isinstance(bad, str) and bad.strip()):
            raise SourceFormatError(f"{path}:{number}: 'sentence_good' or 'sentence_bad' is empty")
    return records


def _uid(relpath: str) -> str:
    return Path(relpath).name.removesuffix(".jsonl")


def read(paths: Mapping[str, Path]) -> Items:
    """BLiMP's 67,000 comparisons over its unique sentences.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> items = read(find_sources(PARADIGM_FILES))
    >>> len(items.comparisons), items.comparisons["UID"].nunique(), len(items.units)
    (67000, 67, 133945)
    >>> items.comparisons.iloc[0].tolist()
    ['adjunct_island.0', 'adjunct_island.0.good', 'adjunct_island.0.bad', 'adjunct_island', 'island_effects', 'syntax']
    """
    columns: dict[str, list[str]] = {k: [] for k in ("pair_id", "good", "bad", *GROUPS)}
    for relpath in PARADIGM_FILES:
        uid = _uid(relpath)
        records = _paradigm(Path(paths[relpath]), uid)
        columns["pair_id"] += [f"{uid}.{r['pairID']}" for r in records]
        columns["good"] += [r["sentence_good"] for r in records]
        columns["bad"] += [r["sentence_bad"] for r in records]
        columns["UID"] += [uid] * len(records)
        columns["linguistics_term"] += [_term(r["linguistics_term"]) for r in records]
        columns["field"] += [_FIELD_SPELLINGS.get(r["field"], r["field"]) for r in records]
    units, comparisons = minimal_pairs(
        columns["pair_id"], columns["good"], columns["bad"], {g: columns[g] for g in GROUPS}
    )
    return Items("blimp", "pairs", units, comparisons)


def _paradigm_groups(paths: Mapping[str, Path]) -> pd.DataFrame:
    """UID → linguistics_term and field, from the first line of each paradigm file."""
    rows = []
    for relpath in PARADIGM_FILES:
        path = Path(paths[relpath])
        with path.open(encoding="utf-8") as fh:
            first = json.loads(fh.readline())
        field = _FIELD_SPELLINGS.get(first["field"], first["field"])
        rows.append((_uid(relpath), _term(first["linguistics_term"]), field))
    return pd.DataFrame(rows, columns=list(GROUPS))


def read_references(paths: Mapping[str, Path]) -> dict[str, pd.DataFrame]:
    """BLiMP's reference rows as tidy frames: ``blimp-human`` and ``blimp-models``.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> refs = read_references(find_sources([*PARADIGM_FILES, HUMAN_FILE, MODELS_FILE]))
    >>> refs["blimp-human"].shape, refs["blimp-models"].shape
    ((67, 6), (268, 5))
    >>> round(float(refs["blimp-human"]["agreement"].mean()), 3)
    0.886
    """
    groups = _paradigm_groups(paths)
    uids = set(groups["UID"])

    human = pd.read_csv(paths[HUMAN_FILE])
    expected = ["Condition", "accepted", "total_mean", "count"]
    if list(human.columns) != expected:
        raise SourceFormatError(
            f"{paths[HUMAN_FILE]}: expected the columns {expected}, got {list(human.columns)}"
        )
    human = human[human["Condition"].isin(uids)].rename(
        columns={
            "Condition": "UID",
            "total_mean": "agreement",
            "count": "n_judgements",
            "accepted": "majority_pairs",
        }
    )
    human = groups.merge(human, on="UID", how="left", validate="one_to_one")
    if human["agreement"].isna().any():
        missing = human.loc[human["agreement"].isna(), "UID"].tolist()
        raise SourceFormatError(f"{paths[HUMAN_FILE]}: no human validation for {missing}")
    human = human[[*GROUPS, "agreement", "n_judgements", "majority_pairs"]]

    records = [r for r in _records(Path(paths[MODELS_FILE])) if r.get("UID") != "overall"]
    models = pd.DataFrame(records)
    missing_cols = [c for c in ("UID", *MODELS) if c not in models.columns]
    if missing_cols:
        raise SourceFormatError(f"{paths[MODELS_FILE]}: missing field(s) {missing_cols}")
    if set(models["UID"]) != uids or models["UID"].duplicated().any():
        raise SourceFormatError(
            f"{paths[MODELS_FILE]}: expected one row per BLiMP paradigm "
            f"({len(uids)}), got {len(models)} rows over {models['UID'].nunique()} paradigms"
        )
    models = models.melt(
        id_vars=["UID"], value_vars=list(MODELS), var_name="key", value_name="accuracy"
    )
    models["model"] = models["key"].map(MODELS)
    models["order"] = models["key"].map({k: i for i, k in enumerate(MODELS)})
    models = groups.merge(models, on="UID", validate="one_to_many")
    models = models.sort_values(["order", "UID"], kind="stable").reset_index(drop=True)
    return {"blimp-human": human, "blimp-models": models[[*GROUPS, "model", "accuracy"]]}
