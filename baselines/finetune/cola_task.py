"""The CoLA task: CoLA's training set, and the five sets every restart predicts.

Evaluation sets (name: ids, gold):

- ``cola_in_domain_dev``, ``cola_out_of_domain_dev``: ``<split>.<line>`` (the 1-based line of the
  raw TSV, as :func:`li_adger.benchmarks.cola.read_rows` numbers it), CoLA's label;
- ``thesis_cola_test``: the thesis's CoLA test set (``thesis-cola/cola_out_of_domain_test.csv``),
  ``test.<the CSV's first, unnamed index column>``, its ``label``;
- ``cola_analysis``: CoLA's analysis set (``cola/CoLA_grammatical_annotations_major_features.tsv``),
  ``analysis.<n>`` with n the 1-based data row (header excluded), its ``Acceptability``;
- ``li_adger``: the LI-Adger sentence ids, no gold here (the metric takes the expert labels and
  human judgements from the dataset).

Every file is verified by checksum (:mod:`li_adger.sources`). A malformed row is an error
naming the file, line and field.

Examples
--------
>>> sets = cola_eval_sets(None)
>>> {name: len(items) for name, items in sets.items()}  # doctest: +NORMALIZE_WHITESPACE
{'cola_in_domain_dev': 527, 'cola_out_of_domain_dev': 516, 'thesis_cola_test': 533,
 'cola_analysis': 1043, 'li_adger': 4178}
>>> sets["thesis_cola_test"][0].id, sets["cola_analysis"][0].id, sets["cola_in_domain_dev"][0].id
('test.0', 'analysis.1', 'in_domain_dev.1')
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING

from baselines.finetune.items import EvalItem, Example
from li_adger.benchmarks.tsv import SourceFormatError

if TYPE_CHECKING:
    from baselines.finetune.spec import FinetuneSpec

__all__ = [
    "ANALYSIS_FILE",
    "EVAL_SETS",
    "TEST_FILE",
    "cola_eval_sets",
    "cola_train_set",
    "read_analysis_set",
    "read_thesis_test",
]

TEST_FILE = "thesis-cola/cola_out_of_domain_test.csv"
ANALYSIS_FILE = "cola/CoLA_grammatical_annotations_major_features.tsv"
EVAL_SETS: tuple[str, ...] = (
    "cola_in_domain_dev",
    "cola_out_of_domain_dev",
    "thesis_cola_test",
    "cola_analysis",
    "li_adger",
)


def _label(path: Path, line: int, field: str, value: str | None) -> int:
    if value not in ("0", "1"):
        raise SourceFormatError(f"{path}:{line}: field {field!r} must be 0 or 1 (got {value!r})")
    return int(value)


def _text(path: Path, line: int, field: str, value: str | None) -> str:
    if value is None or not value.strip():
        raise SourceFormatError(f"{path}:{line}: field {field!r} is empty")
    return value


def read_thesis_test(path: str | Path) -> list[EvalItem]:
    """The thesis's CoLA test set: a CSV whose first, unnamed column is an index, with
    ``label`` and ``sentence`` columns; ids ``test.<index>``.

    Examples
    --------
    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "t.csv"
    >>> _ = bad.write_text(',label,sentence\\n0,1,Go.\\n1,yes,Stop.\\n')
    >>> read_thesis_test(bad)
    Traceback (most recent call last):
    ...
    li_adger.benchmarks.tsv.SourceFormatError: ...t.csv:3: field 'label' must be 0 or 1 (got 'yes')
    """
    path = Path(path)
    items: list[EvalItem] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        if not header or header[0] != "" or not {"label", "sentence"} <= set(header):
            raise SourceFormatError(
                f"{path}:1: expected a header with an unnamed first column, 'label' and "
                f"'sentence' (got {header})"
            )
        for row in reader:
            line = reader.line_num
            index = _text(path, line, "(index)", row[""])
            if not index.isdigit() or f"test.{index}" in seen:
                raise SourceFormatError(f"{path}:{line}: the index {index!r} is not a new number")
            seen.add(f"test.{index}")
            label = _label(path, line, "label", row["label"])
            items.append(
                EvalItem(f"test.{index}", _text(path, line, "sentence", row["sentence"]), label)
            )
    if not items:
        raise SourceFormatError(f"{path} holds no sentences")
    return items


def read_analysis_set(path: str | Path) -> list[EvalItem]:
    """CoLA's analysis set (a TSV with ``Acceptability`` and ``Sentence`` columns); ids
    ``analysis.<n>``, n the 1-based data row."""
    path = Path(path)
    items: list[EvalItem] = []
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = reader.fieldnames or []
        if not {"Acceptability", "Sentence"} <= set(header):
            raise SourceFormatError(
                f"{path}:1: expected 'Acceptability' and 'Sentence' columns (got {header})"
            )
        for n, row in enumerate(reader, start=1):
            line = reader.line_num
            label = _label(path, line, "Acceptability", row["Acceptability"])
            text = _text(path, line, "Sentence", row["Sentence"])
            items.append(EvalItem(f"analysis.{n}", text, label))
    if not items:
        raise SourceFormatError(f"{path} holds no sentences")
    return items


def _cola_split(split: str) -> list[EvalItem]:
    from baselines.models.cola_data import cola_file
    from li_adger.benchmarks.cola import read_rows

    rows = read_rows(cola_file(f"{split}.tsv"))
    return [EvalItem(f"{split}.{line}", text, int(ok)) for line, _, ok, text in rows]


def cola_train_set(spec: FinetuneSpec | None) -> list[Example]:
    """CoLA's in-domain training set (8,551 sentences), the first ``spec.train_cap`` of them
    when the spec caps it."""
    from baselines.models.cola_data import cola_file, read_cola

    texts, labels = read_cola(cola_file("in_domain_train.tsv"))
    cap = None if spec is None else spec.train_cap
    pairs = [Example(t, y) for t, y in zip(texts, labels, strict=True)]
    return pairs if cap is None else pairs[:cap]


def cola_eval_sets(spec: FinetuneSpec | None) -> dict[str, list[EvalItem]]:
    """The five evaluation sets of the module docs, in that order."""
    from baselines.units import load_units
    from li_adger.sources import find_sources

    paths = find_sources([TEST_FILE, ANALYSIS_FILE])
    li = load_units("li_adger")
    return {
        "cola_in_domain_dev": _cola_split("in_domain_dev"),
        "cola_out_of_domain_dev": _cola_split("out_of_domain_dev"),
        "thesis_cola_test": read_thesis_test(paths[TEST_FILE]),
        "cola_analysis": read_analysis_set(paths[ANALYSIS_FILE]),
        "li_adger": [EvalItem(i, t, None) for i, t in zip(li.ids, li.texts, strict=True)],
    }
