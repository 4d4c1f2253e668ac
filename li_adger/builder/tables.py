"""Source files → the three tables of LI-Adger (``sentences``, ``pairs``, ``phenomena``).

Reading is strict: a file that does not have the expected columns, an id that cannot be
parsed or a pair naming an unknown sentence is a :class:`BuildError` that names the file,
the row and what was expected. Irregularities that leave the data usable are not errors:
:mod:`li_adger.builder.validate` lists them as anomalies and nothing is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from li_adger.builder.ids import LI_OFFICIAL_PAIR_ALIASES, condition_of, li_year, parse_id
from li_adger.builder.text import clean_note
from li_adger.io.readers import InputFileError, csv_table, read_csv, read_text

__all__ = [
    "CONDITIONS_FILE",
    "JUDGEMENTS_FILE",
    "LENGTHS_FILE",
    "PAIRS_FILE",
    "BuildError",
    "Tables",
    "make_tables",
    "official_li_pairs",
    "phenomenon_groups",
]

JUDGEMENTS_FILE = "li-adger/human_ME_results_li-adger_sentences.csv"
LENGTHS_FILE = "li-adger/li-adger_sentences.csv"
PAIRS_FILE = "li-adger/li-adger_min_pairs.csv"
CONDITIONS_FILE = "sprouse2013/LI.conditions.csv"

_MISSING = {"", "#N/A", "NA", "N/A", "nan"}


class BuildError(InputFileError):
    """A source file cannot be turned into the dataset (names the file, row and problem)."""


@dataclass
class Tables:
    """The built tables plus what the build needs to report on them."""

    sentences: pd.DataFrame
    pairs: pd.DataFrame
    phenomena: pd.DataFrame
    official_li_pairs: list[tuple[str, str]]  # (good, bad) conditions, LI-Adger spelling
    upstream_pairs: pd.DataFrame  # the pairs file as read (for text comparisons)
    notes_repaired: int  # notes changed by the mojibake repair


def _read(paths: Mapping[str, Path], relpath: str, columns: tuple[str, ...]) -> pd.DataFrame:
    """A build file as a frame of strings, named in errors by its pinned name and its path."""
    return read_csv(paths[relpath], columns, name=f"{relpath} ({paths[relpath]})")


def _judgement(value: str, sentence_id: str) -> float | None:
    if value.strip() in _MISSING:
        return None
    try:
        return float(value)
    except ValueError:
        raise BuildError(
            f"{JUDGEMENTS_FILE}: judgement of {sentence_id!r} must be a number or #N/A "
            f"(got {value!r})"
        ) from None


def official_li_pairs(path: Path) -> list[tuple[str, str]]:
    """The official LI condition pairs as ``(good, bad)`` conditions in LI-Adger spelling.

    ``LI.conditions.csv`` lists one ``(bad, good)`` pair of token-1 item ids per row, with
    CR line endings; the spelling differences of
    :data:`li_adger.builder.ids.LI_OFFICIAL_PAIR_ALIASES` are applied.

    Examples
    --------
    >>> from li_adger.sources import source_file
    >>> pairs = official_li_pairs(source_file(CONDITIONS_FILE))
    >>> len(pairs), pairs[4]
    (150, ('32.3.Culicover.7a.g', '32.3.Culicover.7b.*'))
    """
    name = f"{CONDITIONS_FILE} ({path})"
    header, rows = csv_table(read_text(path, name=name), name, ("bad", "good"))
    at = {c: header.index(c) for c in ("bad", "good")}
    out = []
    for number, row in rows:
        try:
            bad, good = condition_of(row[at["bad"]]), condition_of(row[at["good"]])
        except ValueError as exc:
            raise BuildError(f"{CONDITIONS_FILE} line {number}: {exc}") from None
        bad, good = LI_OFFICIAL_PAIR_ALIASES.get((bad, good), (bad, good))
        out.append((good, bad))
    return out


def _read_sentences(paths: Mapping[str, Path]) -> tuple[pd.DataFrame, int]:
    cols = ("dataset", "notes", "typo?", "id", "sentence")
    me = _read(paths, JUDGEMENTS_FILE, (*cols, "judgement"))
    ln = _read(paths, LENGTHS_FILE, (*cols, "sent_length"))
    if len(me) != len(ln):
        raise BuildError(
            f"{JUDGEMENTS_FILE} has {len(me)} rows but {LENGTHS_FILE} has {len(ln)}; "
            "expected the same sentences in the same order"
        )
    for col in ("id", "sentence"):
        differ = (me[col] != ln[col]).to_numpy().nonzero()[0]
        if len(differ):
            i = int(differ[0])
            raise BuildError(
                f"{JUDGEMENTS_FILE} and {LENGTHS_FILE} differ in column {col!r} at data row "
                f"{i + 1}: {me[col].iloc[i]!r} vs {ln[col].iloc[i]!r}"
            )
    duplicated = me["id"][me["id"].duplicated()].tolist()
    if duplicated:
        raise BuildError(
            f"{JUDGEMENTS_FILE}: sentence ids must be unique (repeated: {duplicated[:5]})"
        )

    rows = []
    repaired = 0
    for rec, length in zip(me.to_dict("records"), ln["sent_length"], strict=True):
        try:
            sid = parse_id(rec["id"])
        except ValueError as exc:
            raise BuildError(f"{JUDGEMENTS_FILE}: {exc}") from None
        if rec["dataset"] != sid.source:
            raise BuildError(
                f"{JUDGEMENTS_FILE}: {sid.id!r} has dataset {rec['dataset']!r} but its id "
                f"follows the {sid.source} design"
            )
        try:
            sent_length = int(length)
        except ValueError:
            raise BuildError(
                f"{LENGTHS_FILE}: sent_length of {sid.id!r} must be an integer (got {length!r})"
            ) from None
        notes, typo = clean_note(rec["notes"]), clean_note(rec["typo?"])
        repaired += (notes or "") != rec["notes"].strip() or (typo or "") != rec["typo?"].strip()
        rows.append(
            {
                "id": sid.id,
                "source": sid.source,
                "phenomenon": None,
                "condition": sid.condition,
                "token": sid.token,
                "mark": sid.mark,
                "expert_acceptable": sid.expert_acceptable,
                "sentence": rec["sentence"],
                "judgement": _judgement(rec["judgement"], sid.id),
                "word_count": len(rec["sentence"].split()),
                "notes": notes,
                "typo": typo,
                "example": sid.example,
                "sent_length": sent_length,
                "_prefix": sid.prefix,
            }
        )
    return pd.DataFrame(rows), repaired


def _read_pairs(
    paths: Mapping[str, Path], sentences: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    cols = ("dataset", "discard", "notes", "phenomenon", "gramm_id", "gramm_sentence")
    raw = _read(paths, PAIRS_FILE, (*cols, "ungramm_id", "ungramm_sentence"))
    by_id = {rec["id"]: rec for rec in sentences.to_dict("records")}
    rows = []
    repaired = 0
    for pair_id, rec in enumerate(raw.to_dict("records")):
        line = pair_id + 2
        for col in ("gramm_id", "ungramm_id"):
            if rec[col] not in by_id:
                raise BuildError(
                    f"{PAIRS_FILE} line {line}: {col} {rec[col]!r} is not a sentence id of "
                    f"{JUDGEMENTS_FILE}"
                )
        good, bad = by_id[rec["gramm_id"]], by_id[rec["ungramm_id"]]
        if not rec["dataset"] == good["source"] == bad["source"]:
            raise BuildError(
                f"{PAIRS_FILE} line {line}: dataset {rec['dataset']!r} but the sentences are "
                f"{good['source']} ({rec['gramm_id']}) and {bad['source']} ({rec['ungramm_id']})"
            )
        if rec["discard"].strip() not in {"", "X"}:
            raise BuildError(
                f"{PAIRS_FILE} line {line}: discard must be empty or 'X' (got {rec['discard']!r})"
            )
        discarded = rec["discard"].strip() == "X"
        notes = clean_note(rec["notes"])
        repaired += (notes or "") != rec["notes"].strip()
        g, b = (None if pd.isna(x) else float(x) for x in (good["judgement"], bad["judgement"]))
        delta = None if g is None or b is None else g - b
        rows.append(
            {
                "pair_id": pair_id,
                "source": rec["dataset"],
                "phenomenon": None,
                "good_id": rec["gramm_id"],
                "good_sentence": good["sentence"],
                "good_judgement": g,
                "bad_id": rec["ungramm_id"],
                "bad_sentence": bad["sentence"],
                "bad_judgement": b,
                "human_delta": delta,
                "discarded": discarded,
                "discard_reason": (notes or "discarded upstream, no reason given")
                if discarded
                else None,
                "good_condition": good["condition"],
                "bad_condition": bad["condition"],
                "good_mark": good["mark"],
                "bad_mark": bad["mark"],
                "notes": notes,
            }
        )
    return pd.DataFrame(rows), raw, repaired


def phenomenon_groups(conditions: list[str], links: list[tuple[str, str]]) -> dict[str, int]:
    """Group conditions into phenomena: the connected components of the pair graph.

    Returns ``{condition: group number}``, groups numbered in order of first appearance.

    Examples
    --------
    >>> phenomenon_groups(["a", "b", "c", "d"], [("a", "c"), ("b", "c")])
    {'a': 0, 'b': 0, 'c': 0, 'd': 1}
    """
    parent = {c: c for c in conditions}

    def root(c: str) -> str:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for a, b in links:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[rb] = ra
    numbers: dict[str, int] = {}
    out = {}
    for c in conditions:
        out[c] = numbers.setdefault(root(c), len(numbers))
    return out


def _phenomenon_name(members: list[tuple[str, str]]) -> str:
    """Name from ``(prefix, example)`` of each condition: ``32.3.Culicover.7a+7b``."""
    parts: dict[str, list[str]] = {}
    for prefix, example in members:
        examples = parts.setdefault(prefix, [])
        if example not in examples:
            examples.append(example)
    return "+".join(f"{prefix}.{'+'.join(ex)}" for prefix, ex in parts.items())


def _author(name: str) -> str:
    """An author as cited: ``martin`` → ``Martin``, ``denDikken`` → ``den Dikken``.

    Examples
    --------
    >>> [_author(a) for a in ("martin", "Culicover", "denDikken", "deVries")]
    ['Martin', 'Culicover', 'den Dikken', 'de Vries']
    """
    particle = re.match(r"^(den|de|van|von)([A-Z].*)$", name)
    if particle:
        return f"{particle[1]} {particle[2]}"
    return name[:1].upper() + name[1:]


def _reference(source: str, members: list[tuple[str, str]]) -> str:
    refs = []
    by_prefix: dict[str, list[str]] = {}
    for prefix, example in members:
        by_prefix.setdefault(prefix, [])
        if example not in by_prefix[prefix]:
            by_prefix[prefix].append(example)
    for prefix, examples in by_prefix.items():
        listed = ", ".join(examples)
        if source == "LI":
            volume, issue, author = prefix.split(".", 2)
            refs.append(
                f"{_author(author)} ({li_year(int(volume))}), Linguistic Inquiry "
                f"{volume}({issue}), ex. {listed}"
            )
        else:
            refs.append(f"Adger (2003), Core Syntax, ch. {prefix[2:]}, ex. {listed}")
    return "; ".join(refs)


def _phenomena(sentences: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    first = sentences.drop_duplicates("condition")
    info = {
        c: (prefix, example, source)
        for c, prefix, example, source in zip(
            first["condition"], first["_prefix"], first["example"], first["source"], strict=True
        )
    }
    conditions = list(info)
    group = phenomenon_groups(
        conditions, list(zip(pairs["good_condition"], pairs["bad_condition"], strict=True))
    )
    members_of: dict[int, list[str]] = {}
    for c in conditions:
        members_of.setdefault(group[c], []).append(c)
    rows = []
    names: dict[int, str] = {}
    for number, members in members_of.items():
        parts = [info[c][:2] for c in members]
        name = _phenomenon_name(parts)
        if name in names.values():
            raise BuildError(f"two phenomena would both be named {name!r}; expected unique names")
        names[number] = name
        source = info[members[0]][2]
        rows.append(
            {
                "phenomenon": name,
                "source": source,
                "conditions": members,
                "reference": _reference(source, parts),
            }
        )
    phenomena = pd.DataFrame(rows)
    by_condition = {c: names[g] for c, g in group.items()}
    sentences["phenomenon"] = sentences["condition"].map(by_condition)
    pairs["phenomenon"] = pairs["good_condition"].map(by_condition)

    kept = pairs[~pairs["discarded"]]
    phenomena["n_sentences"] = (
        phenomena["phenomenon"].map(sentences.groupby("phenomenon").size()).astype("int64")
    )
    phenomena["n_pairs"] = (
        phenomena["phenomenon"].map(kept.groupby("phenomenon").size()).fillna(0).astype("int64")
    )
    phenomena["mean_human_delta"] = phenomena["phenomenon"].map(
        kept.groupby("phenomenon")["human_delta"].mean()
    )
    phenomena["n_conditions"] = phenomena["conditions"].map(len).astype("int64")
    phenomena["n_pairs_discarded"] = (
        phenomena["phenomenon"]
        .map(pairs[pairs["discarded"]].groupby("phenomenon").size())
        .fillna(0)
        .astype("int64")
    )
    return phenomena


def make_tables(paths: Mapping[str, Path]) -> Tables:
    """Read the four build files (``{relpath: path}``) and assemble the three tables.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> t = make_tables(find_sources())
    >>> len(t.sentences), len(t.pairs), int((~t.pairs["discarded"]).sum()), len(t.phenomena)
    (4178, 2393, 2365, 233)
    """
    sentences, repaired_s = _read_sentences(paths)
    pairs, upstream, repaired_p = _read_pairs(paths, sentences)
    official = official_li_pairs(paths[CONDITIONS_FILE])
    phenomena = _phenomena(sentences, pairs)
    return Tables(
        sentences=sentences.drop(columns="_prefix"),
        pairs=pairs,
        phenomena=phenomena,
        official_li_pairs=official,
        upstream_pairs=upstream,
        notes_repaired=int(repaired_s + repaired_p),
    )
