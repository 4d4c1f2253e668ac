"""The CoLA corpus (Warstadt, Singh & Bowman 2019): locating, verifying and reading its files.

``in_domain_train.tsv``, ``in_domain_dev.tsv`` and ``out_of_domain_dev.tsv`` are pinned source
files (``cola/<file>`` in :data:`li_adger.sources.SOURCE_FILES`, from nyu-mll/CoLA-baselines
at a fixed commit). They are found, downloaded if need be and checked against their SHA-256
by :func:`li_adger.sources.source_file`, in its lookup order: an explicit source folder
(``source=``, else ``$LI_ADGER_SOURCE``) holding ``cola/<file>``; ``../shared/data/cola``; the
user cache; the pinned upstream URL.

Examples
--------
>>> sentences, labels = read_cola(cola_file("out_of_domain_dev.tsv"))
>>> len(sentences), sorted(set(labels))
(516, [0, 1])
"""

from __future__ import annotations

import os
from pathlib import Path

from li_adger.sources import find_sources

COLA_FILES: tuple[str, ...] = ("in_domain_train.tsv", "in_domain_dev.tsv", "out_of_domain_dev.tsv")


def cola_file(name: str, *, source: str | os.PathLike | None = None, download: bool = True) -> Path:
    """The verified path of one CoLA file, downloading it into the user cache if needed.

    ``source`` is a folder with the layout of ``shared/data`` (the file is ``source/cola/name``);
    when given, it is the only place searched.

    Examples
    --------
    >>> cola_file("in_domain_train.tsv").name
    'in_domain_train.tsv'
    >>> cola_file("test.tsv")
    Traceback (most recent call last):
    ...
    ValueError: unknown CoLA file 'test.tsv'; expected one of in_domain_train.tsv, in_domain_dev.tsv, out_of_domain_dev.tsv
    """
    if name not in COLA_FILES:
        raise ValueError(f"unknown CoLA file {name!r}; expected one of {', '.join(COLA_FILES)}")
    relpath = f"cola/{name}"
    return find_sources([relpath], source=source, download=download)[relpath]


def read_cola(path: str | os.PathLike) -> tuple[list[str], list[int]]:
    """Sentences and labels (1 acceptable, 0 unacceptable) of a raw CoLA TSV file.

    The file has no header and four tab-separated columns: source, label, original mark,
    sentence.

    Examples
    --------
    >>> sentences, labels = read_cola(cola_file("in_domain_dev.tsv"))
    >>> sentences[0], labels[0]
    ('The sailors rode the breeze clear of the rocks.', 1)
    """
    path = Path(path)
    sentences, labels = [], []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            line = line.rstrip("\r\n")
            if not line:
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                raise ValueError(
                    f"{path}:{number}: expected 4 tab-separated fields "
                    f"(source, label, mark, sentence), got {len(fields)}"
                )
            if fields[1] not in {"0", "1"}:
                raise ValueError(f"{path}:{number}: label must be 0 or 1 (got {fields[1]!r})")
            if not fields[3].strip():
                raise ValueError(f"{path}:{number}: the sentence is empty")
            sentences.append(fields[3])
            labels.append(int(fields[1]))
    if not sentences:
        raise ValueError(f"{path} holds no sentences")
    return sentences, labels
