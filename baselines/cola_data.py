"""The CoLA corpus (Warstadt, Singh & Bowman 2019): locating, verifying and reading its files.

Lookup order for the folder holding ``in_domain_train.tsv``, ``in_domain_dev.tsv`` and
``out_of_domain_dev.tsv``:

1. the ``LI_ADGER_COLA_DIR`` environment variable;
2. ``../shared/data/cola`` next to the source checkout;
3. the user cache (``$LI_ADGER_CACHE`` or ``~/.cache/li_adger``)/``data/cola``, downloaded
   there from the pinned upstream commit on first use.

Every file is checked against its pinned SHA-256 before it is read.

Examples
--------
>>> sentences, labels = read_cola(cola_file("out_of_domain_dev.tsv"))
>>> len(sentences), sorted(set(labels))
(516, [0, 1])
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.request
from pathlib import Path

UPSTREAM = (
    "https://raw.githubusercontent.com/nyu-mll/CoLA-baselines/"
    "dd095d3646ed05a315280aaa8ed4ec84ba435b3e/acceptability_corpus/cola_public/raw/"
)
SHA256 = {
    "in_domain_train.tsv": "f320a10f92d3bce6b29152fde322a362eac39238e50d8de0c8815457fdf4fc12",
    "in_domain_dev.tsv": "77176f6a03faa5a1c4f23c69971fc1bff565931112fb65af47b2d6e24b7f42f7",
    "out_of_domain_dev.tsv": "201b9c57b2a20f1282242eec0ed8995729e3be19c29a46c047b3727338836c05",
}


def cache_root() -> Path:
    """The user cache folder: ``$LI_ADGER_CACHE`` or ``~/.cache/li_adger``.

    Examples
    --------
    >>> cache_root().name in {"li_adger"} or "LI_ADGER_CACHE" in os.environ
    True
    """
    override = os.environ.get("LI_ADGER_CACHE")
    return Path(override) if override else Path.home() / ".cache" / "li_adger"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _candidates() -> list[Path]:
    found = []
    if os.environ.get("LI_ADGER_COLA_DIR"):
        found.append(Path(os.environ["LI_ADGER_COLA_DIR"]))
    found.append(Path(__file__).resolve().parents[2] / "shared" / "data" / "cola")
    found.append(cache_root() / "data" / "cola")
    return found


def _download(name: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with urllib.request.urlopen(UPSTREAM + name, timeout=60) as response:
        payload = response.read()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{name}.")
    with os.fdopen(fd, "wb") as f:
        f.write(payload)
    os.replace(tmp, target)


def cola_file(name: str, *, download: bool = True) -> Path:
    """The verified path of one CoLA file, downloading it into the cache if needed.

    Examples
    --------
    >>> cola_file("in_domain_train.tsv").name
    'in_domain_train.tsv'
    >>> cola_file("test.tsv")
    Traceback (most recent call last):
    ...
    ValueError: unknown CoLA file 'test.tsv'; expected one of in_domain_train.tsv, in_domain_dev.tsv, out_of_domain_dev.tsv
    """
    if name not in SHA256:
        raise ValueError(f"unknown CoLA file {name!r}; expected one of {', '.join(SHA256)}")
    candidates = _candidates()
    for folder in candidates:
        path = folder / name
        if path.is_file():
            got = _sha256(path)
            if got != SHA256[name]:
                raise ValueError(
                    f"{path} has SHA-256 {got}, expected {SHA256[name]}; the file is not the "
                    f"pinned CoLA release"
                )
            return path
    if not download:
        raise FileNotFoundError(
            f"CoLA file {name!r} not found in {', '.join(map(str, candidates))}; "
            f"set LI_ADGER_COLA_DIR or allow the download"
        )
    target = candidates[-1] / name
    _download(name, target)
    return cola_file(name, download=False)


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
