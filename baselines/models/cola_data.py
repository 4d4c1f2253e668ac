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
    """Sentences and labels (1 acceptable, 0 unacceptable) of a raw CoLA TSV file, read by
    the benchmark's reader (:func:`li_adger.benchmarks.cola.read_rows`).

    The file has no header and four tab-separated columns: source, label, original mark,
    sentence. A bad line is a ``ValueError`` naming the file and line.

    Examples
    --------
    >>> sentences, labels = read_cola(cola_file("in_domain_dev.tsv"))
    >>> sentences[0], labels[0]
    ('The sailors rode the breeze clear of the rocks.', 1)
    """
    from li_adger.benchmarks.cola import read_rows

    rows = read_rows(path)
    return [sentence for *_, sentence in rows], [int(label) for _, _, label, _ in rows]
