"""The CoLA evaluation sets of a fine-tuning run, from their pinned sources: each set's ids
(as the run folder names them, docs/chapter2.md) with their gold labels, and the analysis
set's features.

- ``thesis_cola_test``: ``thesis-cola/cola_out_of_domain_test.csv`` (533), id ``test.<the
  CSV's first, unnamed column>``;
- ``cola_in_domain_dev``, ``cola_out_of_domain_dev``: ``cola/<split>.tsv``, id
  ``<split>.<line>`` (:func:`li_adger.benchmarks.cola.read_rows`);
- ``cola_analysis``: ``cola/CoLA_grammatical_annotations_{major,minor}_features.tsv``
  (1,043), id ``analysis.<n>`` with n the data row, gold its ``Acceptability``; the two files
  hold the same sentences in the same order, which :func:`analysis_features` checks.
"""

from __future__ import annotations

import functools

from li_adger.benchmarks.cola import read_rows
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv
from li_adger.io.readers import read_csv
from li_adger.sources import find_sources

__all__ = ["ANALYSIS_FILES", "SETS", "analysis_features", "gold_labels"]

THESIS_TEST = "thesis-cola/cola_out_of_domain_test.csv"
ANALYSIS_FILES = {
    "major": "cola/CoLA_grammatical_annotations_major_features.tsv",
    "minor": "cola/CoLA_grammatical_annotations_minor_features.tsv",
}
SETS = ("thesis_cola_test", "cola_out_of_domain_dev", "cola_in_domain_dev", "cola_analysis")
_LEADING = ("Source", "Domain", "Acceptability", "Sentence")


def _analysis_rows(level: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    rel = ANALYSIS_FILES[level]
    path = find_sources([rel])[rel]
    with path.open(encoding="utf-8") as fh:
        header = tuple(fh.readline().rstrip("\r\n").split("\t"))
    if header[:4] != _LEADING:
        raise SourceFormatError(
            f"{path}:1: expected the columns {list(_LEADING)} first, got {list(header[:4])}"
        )
    return list(header[4:]), list(read_tsv(path, len(header), header=header))


@functools.cache
def analysis_features(level: str) -> tuple[list[str], dict[str, list[str]]]:
    """The analysis set's features of ``level`` (``"major"`` or ``"minor"``): their names and
    id → the names of the features the sentence has. Raises if the two files' sentences differ.

    Examples
    --------
    >>> names, of = analysis_features("major")
    >>> len(names), len(of), names[0], of["analysis.1"][:2]
    (15, 1043, 'Simple', ['Predicate', 'Argument Type'])
    """
    if level not in ANALYSIS_FILES:
        raise ValueError(f"'level' must be one of {sorted(ANALYSIS_FILES)} (got {level!r})")
    names, rows = _analysis_rows(level)
    other = "minor" if level == "major" else "major"
    _, twin = _analysis_rows(other)
    if len(twin) != len(rows):
        raise SourceFormatError(
            f"{ANALYSIS_FILES[level]} has {len(rows)} rows, {ANALYSIS_FILES[other]} {len(twin)}"
        )
    out = {}
    for n, ((line, fields), (_, twin_fields)) in enumerate(zip(rows, twin, strict=True), start=1):
        if fields[:4] != twin_fields[:4]:
            raise SourceFormatError(
                f"{ANALYSIS_FILES[level]}:{line}: the sentence differs from {ANALYSIS_FILES[other]}'s row {n}"
            )
        values = fields[4:]
        bad = [v for v in values if v not in ("0", "1")]
        if bad:
            raise SourceFormatError(
                f"{ANALYSIS_FILES[level]}:{line}: feature values must be 0 or 1 (got {bad[0]!r})"
            )
        out[f"analysis.{n}"] = [f for f, v in zip(names, values, strict=True) if v == "1"]
    return names, out


@functools.cache
def gold_labels(set_name: str) -> dict[str, bool]:
    """id → gold label (True = acceptable) of a CoLA evaluation set, from its pinned source.

    Examples
    --------
    >>> gold = gold_labels("thesis_cola_test")
    >>> len(gold), sum(gold.values()), gold["test.0"]
    (533, 372, True)
    >>> len(gold_labels("cola_out_of_domain_dev")), len(gold_labels("cola_analysis"))
    (516, 1043)
    """
    if set_name == "thesis_cola_test":
        path = find_sources([THESIS_TEST])[THESIS_TEST]
        frame = read_csv(path, ["", "label"], name=THESIS_TEST)
        out = {}
        for k, (index, label) in enumerate(zip(frame[""], frame["label"], strict=True)):
            if label not in ("0", "1"):
                raise SourceFormatError(
                    f"{THESIS_TEST}:{k + 2}: label must be 0 or 1 (got {label!r})"
                )
            out[f"test.{index}"] = label == "1"
        return out
    if set_name in ("cola_in_domain_dev", "cola_out_of_domain_dev"):
        split = set_name.removeprefix("cola_")
        rel = f"cola/{split}.tsv"
        return {f"{split}.{line}": ok for line, _, ok, _ in read_rows(find_sources([rel])[rel])}
    if set_name == "cola_analysis":
        _, rows = _analysis_rows("major")
        return {f"analysis.{n}": fields[2] == "1" for n, (_, fields) in enumerate(rows, start=1)}
    raise ValueError(f"unknown CoLA set {set_name!r}; expected one of {SETS}")
