"""The pinned source files of LI-Adger: where to find them, how to fetch them, how to check them.

Every file is an exact copy of a file in a public GitHub repository at a fixed commit and is
checked against its SHA-256 before use. A file is looked up, in this order, in

1. an explicit source folder: the ``source`` argument (``--source DIR``), else the
   environment variable ``LI_ADGER_SOURCE``; when one is given, only it is searched;
2. ``shared/data/`` beside the checkout (``<checkout>/../shared/data``), then
   ``../shared/data`` seen from the working directory;
3. the user cache (``$LI_ADGER_CACHE/sources``, default ``~/.cache/li_adger/sources``);
4. the pinned upstream URL (or a mirror given by ``upstream_base`` /
   ``LI_ADGER_UPSTREAM_BASE`` with the same layout), downloaded into the user cache.

A source folder has the layout of ``shared/data``: ``li-adger/<file>``,
``sprouse2013/<file>``, ``thesis-outputs/<file>`` (the thesis's model scores, read by
:mod:`metric_adc.thesis`) and (for the CoLA classifier of ``baselines``) ``cola/<file>``.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from li_adger.atomic import atomic_write_bytes

__all__ = [
    "BUILD_FILES",
    "SOURCE_FILES",
    "THESIS_OUTPUT_FILES",
    "ChecksumError",
    "SourceFile",
    "SourceNotFoundError",
    "cache_dir",
    "check_file",
    "default_search_dirs",
    "find_sources",
    "sha256_file",
    "source_file",
    "upstream_url",
]

_THESIS_REPO = "hjvm/acceptability_delta_criterion"
_THESIS_COMMIT = "ea4f26fe49181e7b0eff6d14184f12fe13e71ceb"
_SPROUSE_REPO = "jmerch/slor-acceptability-satiation"
_SPROUSE_COMMIT = "582930600bac401ee721c6f45597f0c720009988"
_SPROUSE_DIR = "acceptability_modeling/data/Sprouse2013"
_COLA_REPO = "nyu-mll/CoLA-baselines"
_COLA_COMMIT = "dd095d3646ed05a315280aaa8ed4ec84ba435b3e"
_COLA_DIR = "acceptability_corpus/cola_public/raw"


@dataclass(frozen=True)
class SourceFile:
    """One pinned source file."""

    path: str  # relative path inside a source folder, e.g. "li-adger/li-adger_min_pairs.csv"
    sha256: str
    repo: str
    commit: str
    upstream_path: str

    @property
    def url(self) -> str:
        """The pinned upstream raw URL.

        Examples
        --------
        >>> SOURCE_FILES["sprouse2013/LI.conditions.csv"].url  # doctest: +ELLIPSIS
        'https://raw.githubusercontent.com/jmerch/slor-acceptability-satiation/5829.../Sprouse2013/LI.conditions.csv'
        """
        return f"https://raw.githubusercontent.com/{self.repo}/{self.commit}/{self.upstream_path}"


def _thesis(name: str, sha256: str) -> SourceFile:
    return SourceFile(f"li-adger/{name}", sha256, _THESIS_REPO, _THESIS_COMMIT, f"data/{name}")


def _thesis_output(name: str, sha256: str) -> SourceFile:
    return SourceFile(
        f"thesis-outputs/{name}", sha256, _THESIS_REPO, _THESIS_COMMIT, f"output/{name}"
    )


def _sprouse(name: str, sha256: str) -> SourceFile:
    return SourceFile(
        f"sprouse2013/{name}", sha256, _SPROUSE_REPO, _SPROUSE_COMMIT, f"{_SPROUSE_DIR}/{name}"
    )


def _cola(name: str, sha256: str) -> SourceFile:
    return SourceFile(f"cola/{name}", sha256, _COLA_REPO, _COLA_COMMIT, f"{_COLA_DIR}/{name}")


#: Every pinned file the project reads, by relative path.
SOURCE_FILES: dict[str, SourceFile] = {
    f.path: f
    for f in (
        _thesis(
            "human_ME_results_li-adger_sentences.csv",
            "4806f7163550ff18482eab6d07768e9b4f7736e3ebe707b6995bbd6be057e34d",
        ),
        _thesis(
            "li-adger_sentences.csv",
            "137648d91debed7e452456376dcb2688d08edced08d070443cb72fab49ecb30e",
        ),
        _thesis(
            "li-adger_min_pairs.csv",
            "4e13a4ded06ac23d5041f8bd04af4ad273f2784fe624857ff5f7b235c4f5cb1b",
        ),
        _thesis_output(
            "li-adger_min_pairs_all_models.csv",
            "66e0dc36ce93617dba973e584454160988576239cd875af9df7a173810da2b4d",
        ),
        _thesis_output(
            "bert_mlm_results_li-adger_sentences.csv",
            "fe80bcd4b53427891a970d5f53f56e6b1d8a5fe91871d82da2a0e5285a61af74",
        ),
        _thesis_output(
            "bert_acc_results_li-adger_sentences.csv",
            "5e392e1ea7e33a1a958c1e61e9c2aee7fdab3f5dedcfb39ea7bdf2d04fff4a57",
        ),
        _sprouse(
            "LI.conditions.csv", "712d3008df628e1b1a599f84e8cc7d711abc887965ce599882ff41729787c715"
        ),
        _sprouse(
            "LI.me.results.csv", "7078c35c9568312ca4b10573e70f22377c53147b703d8446725dd8229780f87a"
        ),
        _sprouse(
            "LI.ls.results.csv", "6a0d294c66648224d32c049868f0a7abe8279c1fd740866addee8815c7a10789"
        ),
        _sprouse(
            "FC.conditions.csv", "1952072f926bff1e41ca0418290cdd0a171e1d5b9f80ceea9be89403e79f295a"
        ),
        _sprouse(
            "FC.logistic.csv", "4821091d1500b431a00c14bb16a71161d2dff06d4a2a2dc06f49c317b972cc46"
        ),
        _sprouse(
            "FC.signtest.csv", "95a3d9305675739a9f53dfef9528009d886cf32003fe78151a14ce41368bf957"
        ),
        _sprouse(
            "ME.read.me.txt", "643ec73f0d220dcf1187ec5564894f553c2a25b9296cc1e924dfca6e3b155c90"
        ),
        _sprouse(
            "LS.read.me.txt", "bbfa3ae9fb91425c79b5d13874051448c5dfaed1f25e8e48c4fc5414a98b0d1d"
        ),
        _sprouse(
            "FC.read.me.txt", "47fc960df350055f0a5ead85860729317d82af82b4a685f41cacb482609a2a4f"
        ),
        _sprouse(
            "SSA.Materials.xlsx", "8fbedba9b77795cac25f6015f4b3d259c01a4423ed9d19f9f0071c9a38bc028f"
        ),
        _cola(
            "in_domain_train.tsv",
            "f320a10f92d3bce6b29152fde322a362eac39238e50d8de0c8815457fdf4fc12",
        ),
        _cola(
            "in_domain_dev.tsv",
            "77176f6a03faa5a1c4f23c69971fc1bff565931112fb65af47b2d6e24b7f42f7",
        ),
        _cola(
            "out_of_domain_dev.tsv",
            "201b9c57b2a20f1282242eec0ed8995729e3be19c29a46c047b3727338836c05",
        ),
    )
}

#: The files the dataset is built from.
BUILD_FILES: tuple[str, ...] = (
    "li-adger/human_ME_results_li-adger_sentences.csv",
    "li-adger/li-adger_sentences.csv",
    "li-adger/li-adger_min_pairs.csv",
    "sprouse2013/LI.conditions.csv",
)


#: The thesis's model scores that :mod:`metric_adc.thesis` reads (its 8 reference models).
THESIS_OUTPUT_FILES: tuple[str, ...] = (
    "thesis-outputs/li-adger_min_pairs_all_models.csv",
    "thesis-outputs/bert_mlm_results_li-adger_sentences.csv",
    "thesis-outputs/bert_acc_results_li-adger_sentences.csv",
)


class SourceNotFoundError(FileNotFoundError):
    """A source file is in none of the places searched and could not be downloaded."""


class ChecksumError(ValueError):
    """A source file's SHA-256 differs from the pinned one."""


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of a file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"abc")
    >>> sha256_file(p)[:16]
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_dir() -> Path:
    """Where downloaded source files are kept: ``$LI_ADGER_CACHE/sources``, default
    ``~/.cache/li_adger/sources``.

    Examples
    --------
    >>> cache_dir().name
    'sources'
    """
    root = os.environ.get("LI_ADGER_CACHE")
    return (Path(root) if root else Path.home() / ".cache" / "li_adger") / "sources"


def default_search_dirs() -> list[Path]:
    """The folders searched when no source folder is given (before the user cache).

    Examples
    --------
    >>> [p.parts[-2:] for p in default_search_dirs()][0]
    ('shared', 'data')
    """
    beside_checkout = Path(__file__).resolve().parents[2] / "shared" / "data"
    beside_cwd = (Path.cwd().parent / "shared" / "data").resolve()
    return list(dict.fromkeys([beside_checkout, beside_cwd]))


def upstream_url(relpath: str, base: str | None = None) -> str:
    """URL of a source file: the pinned raw GitHub URL, or ``base/relpath`` for a mirror.

    ``base`` defaults to the environment variable ``LI_ADGER_UPSTREAM_BASE``.

    Examples
    --------
    >>> upstream_url("li-adger/li-adger_min_pairs.csv", "http://127.0.0.1:8000/data/")
    'http://127.0.0.1:8000/data/li-adger/li-adger_min_pairs.csv'
    """
    _known(relpath)
    base = base if base is not None else os.environ.get("LI_ADGER_UPSTREAM_BASE")
    if base:
        return f"{base.rstrip('/')}/{relpath}"
    return SOURCE_FILES[relpath].url


def _known(relpath: str) -> SourceFile:
    try:
        return SOURCE_FILES[relpath]
    except KeyError:
        raise KeyError(
            f"{relpath!r} is not a pinned source file; expected one of {sorted(SOURCE_FILES)}"
        ) from None


def _check(spec: SourceFile, path: Path, searched: Sequence[str]) -> None:
    got = sha256_file(path)
    if got != spec.sha256:
        raise ChecksumError(
            f"checksum mismatch for source file {spec.path!r} at {path}: expected SHA-256 "
            f"{spec.sha256}, got {got}. Places searched: {', '.join(searched)}. "
            f"The pinned file is {spec.url}"
        )


def check_file(relpath: str, path: str | Path) -> Path:
    """Check one file against the pinned SHA-256 of ``relpath``; return its path.

    For files found outside the lookup order (e.g. a folder given to a loader directly).

    Raises
    ------
    SourceNotFoundError
        ``path`` is not a file.
    ChecksumError
        Its SHA-256 differs from the pinned one (the message names both hashes).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "bert_acc_results_li-adger_sentences.csv"
    >>> _ = p.write_text("id\\n")
    >>> check_file("thesis-outputs/bert_acc_results_li-adger_sentences.csv", p)
    Traceback (most recent call last):
    li_adger.sources.ChecksumError: checksum mismatch for source file 'thesis-outputs/bert_acc_results_li-adger_sentences.csv' at ...
    """
    spec = _known(relpath)
    path = Path(path)
    if not path.is_file():
        raise SourceNotFoundError(
            f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found at {path}"
        )
    _check(spec, path, [str(path)])
    return path


def _download(spec: SourceFile, url: str, dest: Path, timeout: float) -> None:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        data = response.read()
    got = hashlib.sha256(data).hexdigest()
    if got != spec.sha256:
        raise ChecksumError(
            f"checksum mismatch for source file {spec.path!r} downloaded from {url}: "
            f"expected SHA-256 {spec.sha256}, got {got}"
        )
    atomic_write_bytes(dest, data)


def find_sources(
    relpaths: Sequence[str] = BUILD_FILES,
    *,
    source: str | Path | None = None,
    verify: bool = True,
    search_dirs: Sequence[str | Path] | None = None,
    cache: str | Path | None = None,
    upstream_base: str | None = None,
    download: bool = True,
    timeout: float = 60.0,
) -> dict[str, Path]:
    """Locate (and if need be download) source files; return ``{relpath: path}``, verified.

    Parameters
    ----------
    relpaths
        Relative paths of pinned files (keys of :data:`SOURCE_FILES`).
    source
        An explicit source folder; defaults to ``$LI_ADGER_SOURCE``. When set, it is the only
        place searched and nothing is downloaded.
    verify
        Check each file's SHA-256. ``False`` is allowed only with an explicit ``source`` (a
        deliberately modified copy); the pinned places are always verified.
    search_dirs
        Folders searched before the cache when no ``source`` is given; defaults to
        :func:`default_search_dirs`. Pass ``()`` to go straight to the cache and download.
    cache
        Download folder; defaults to :func:`cache_dir`.
    upstream_base
        Mirror base URL (same layout as a source folder); defaults to
        ``$LI_ADGER_UPSTREAM_BASE``, else the pinned GitHub URLs.

    Raises
    ------
    SourceNotFoundError
        A file is nowhere to be found, naming the file, its expected hash and every place
        searched (and why a download failed).
    ChecksumError
        A file found differs from the pinned one.

    Examples
    --------
    >>> paths = find_sources(["sprouse2013/LI.conditions.csv"])
    >>> paths["sprouse2013/LI.conditions.csv"].parts[-2:]
    ('sprouse2013', 'LI.conditions.csv')
    >>> find_sources(["li-adger/li-adger_min_pairs.csv"], verify=False)
    Traceback (most recent call last):
    ValueError: verify=False is only allowed for an explicit source folder (source=... or LI_ADGER_SOURCE)
    """
    specs = [_known(r) for r in relpaths]
    explicit = source if source is not None else os.environ.get("LI_ADGER_SOURCE") or None
    if not verify and explicit is None:
        raise ValueError(
            "verify=False is only allowed for an explicit source folder "
            "(source=... or LI_ADGER_SOURCE)"
        )
    found: dict[str, Path] = {}
    if explicit is not None:
        root = Path(explicit).expanduser()
        for spec in specs:
            path = root / spec.path
            searched = [str(path)]
            if not path.is_file():
                raise SourceNotFoundError(
                    f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found in the "
                    f"source folder {root}. Places searched: {', '.join(searched)}"
                )
            if verify:
                _check(spec, path, searched)
            found[spec.path] = path
        return found

    dirs = [Path(d) for d in (default_search_dirs() if search_dirs is None else search_dirs)]
    cache_root = Path(cache) if cache is not None else cache_dir()
    for spec in specs:
        candidates = [d / spec.path for d in dirs] + [cache_root / spec.path]
        searched = [str(c) for c in candidates]
        path = next((c for c in candidates if c.is_file()), None)
        if path is None and download:
            url = upstream_url(spec.path, upstream_base)
            searched.append(url)
            path = cache_root / spec.path
            try:
                _download(spec, url, path, timeout)
            except (urllib.error.URLError, OSError, ValueError) as exc:
                if isinstance(exc, ChecksumError):
                    raise
                raise SourceNotFoundError(
                    f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found and its "
                    f"download failed ({exc}). Places searched: {', '.join(searched)}. "
                    "Pass --source DIR or set LI_ADGER_SOURCE to a folder holding it."
                ) from exc
        if path is None:
            raise SourceNotFoundError(
                f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found. "
                f"Places searched: {', '.join(searched)}"
            )
        _check(spec, path, searched)
        found[spec.path] = path
    return found


def source_file(relpath: str, *, source: str | Path | None = None, verify: bool = True) -> Path:
    """The verified path of one pinned source file, by the lookup order of this module.

    Examples
    --------
    >>> source_file("sprouse2013/LI.conditions.csv").name
    'LI.conditions.csv'
    >>> source_file("nope.csv")
    Traceback (most recent call last):
    KeyError: "'nope.csv' is not a pinned source file; expected one of [...]"
    """
    return find_sources([relpath], source=source, verify=verify)[relpath]
