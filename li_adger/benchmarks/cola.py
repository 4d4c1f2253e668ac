"""CoLA (Warstadt, Singh & Bowman 2019): the in-domain and out-of-domain development sets.

``cola/in_domain_dev.tsv`` (527 sentences) and ``cola/out_of_domain_dev.tsv`` (516) have no
header and four tab-separated columns: source, label (``1`` acceptable, ``0`` not), the
original mark, sentence. Their union (1,043) is GLUE's CoLA validation set. The training file
(``in_domain_train.tsv``) is for fine-tuning a classifier and is not part of the benchmark.

Units are the unique sentences; a sentence's id is ``<split>.<line>`` of its first
occurrence (three sentences occur twice in the out-of-domain set and one in both sets).
``labels`` keeps every line: ``id`` (the unit), ``label`` (``True`` = acceptable), ``split``
(``in_domain_dev`` or ``out_of_domain_dev``), and the file's ``source`` code and ``line``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from li_adger.benchmarks.spec import Items
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv
from li_adger.benchmarks.units import unique_units

__all__ = ["FILES", "SPLITS", "read", "read_rows"]

SPLITS: tuple[str, ...] = ("in_domain_dev", "out_of_domain_dev")
FILES: dict[str, str] = {split: f"cola/{split}.tsv" for split in SPLITS}


def read_rows(path: str | Path) -> list[tuple[int, str, bool, str]]:
    """The rows of one raw CoLA file (the development sets, or the training set a classifier
    is fine-tuned on): ``(line number, source code, acceptable, sentence)``.

    Raises :class:`~li_adger.benchmarks.tsv.SourceFormatError` naming the file and line for a
    line without four fields, a label other than ``0``/``1`` or an empty sentence, and for a
    file with no rows.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> path = find_sources([FILES["in_domain_dev"]])[FILES["in_domain_dev"]]
    >>> rows = read_rows(path)
    >>> len(rows), rows[0]
    (527, (1, 'gj04', True, 'The sailors rode the breeze clear of the rocks.'))
    """
    path = Path(path)
    rows = []
    for number, (source, label, _mark, sentence) in read_tsv(path, 4):
        if label not in ("0", "1"):
            raise SourceFormatError(f"{path}:{number}: label must be 0 or 1 (got {label!r})")
        if not sentence.strip():
            raise SourceFormatError(f"{path}:{number}: the sentence is empty")
        rows.append((number, source, label == "1", sentence))
    if not rows:
        raise SourceFormatError(f"{path} holds no sentences")
    return rows


def read(paths: Mapping[str, Path]) -> Items:
    """CoLA's two development sets as labelled sentences.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> items = read(find_sources(list(FILES.values())))
    >>> items.labels["split"].value_counts().to_dict(), len(items.units)
    ({'in_domain_dev': 527, 'out_of_domain_dev': 516}, 1039)
    >>> items.labels.iloc[0].astype(str).tolist()
    ['in_domain_dev.1', 'True', 'in_domain_dev', 'gj04', '1']
    """
    rows = [
        (f"{split}.{number}", sentence, label, split, source, number)
        for split in SPLITS
        for number, source, label, sentence in read_rows(paths[FILES[split]])
    ]
    candidates, sentences, label, split, source, line = zip(*rows, strict=True)
    units, ids = unique_units(candidates, {"sentence": sentences})
    labels = pd.DataFrame(
        {"id": ids, "label": label, "split": split, "source": source, "line": line}
    )
    return Items("cola", "labelled", units, labels=labels)
