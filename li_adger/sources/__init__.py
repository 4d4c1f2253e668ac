"""The pinned source files of LI-Adger: where to find them, how to fetch them, how to check them.

Every file is an exact copy of a file in a public GitHub repository at a fixed commit and is
checked against its SHA-256 before use. The pins — each file's path, SHA-256 and upstream URL —
are data: ``registry.txt`` beside this module, in pooch's registry format, read into
:data:`SOURCE_FILES`. A file is looked up, in this order, in

1. an explicit source folder: the ``source`` argument (``--source DIR``), else the
   environment variable ``LI_ADGER_SOURCE``; when one is given, only it is searched;
2. ``shared/data/`` beside the checkout (``<checkout>/../shared/data``), then
   ``../shared/data`` seen from the working directory;
3. the user cache (``$LI_ADGER_CACHE/sources``, default ``~/.cache/li_adger/sources``);
4. the pinned upstream URL (or a mirror given by ``upstream_base`` /
   ``LI_ADGER_UPSTREAM_BASE`` with the same layout), downloaded into the user cache by
   ``pooch`` (retried :data:`RETRIES` times; the file is written beside its target and moved
   into place only once its SHA-256 matches).

A source folder has the layout of ``shared/data``: ``li-adger/<file>``,
``sprouse2013/<file>``, ``thesis-outputs/<file>`` (the thesis's model scores, read by
:mod:`metric_adc.thesis.outputs`), ``cola/<file>`` (CoLA: the classifier of ``baselines`` and the
``cola`` benchmark) and the other benchmarks of :mod:`li_adger.benchmarks`: ``blimp/<file>``,
``npi/<file>`` and ``lm-diagnostics/<set>/<file>``.

Examples
--------
>>> SOURCE_FILES["sprouse2013/LI.conditions.csv"].url  # doctest: +ELLIPSIS
'https://raw.githubusercontent.com/jmerch/slor-acceptability-satiation/5829.../Sprouse2013/LI.conditions.csv'
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pooch

from li_adger.io.atomic import file_mode

__all__ = [
    "BUILD_FILES",
    "REGISTRY",
    "RETRIES",
    "SOURCE_FILES",
    "THESIS_OUTPUT_FILES",
    "ChecksumError",
    "SourceFile",
    "SourceNotFoundError",
    "cache_dir",
    "cache_root",
    "check_file",
    "default_search_dirs",
    "find_sources",
    "read_registry",
    "sha256_file",
    "source_file",
    "upstream_url",
]

REGISTRY = Path(__file__).with_name("registry.txt")
"""The pins: ``<path in a source folder> <SHA-256> <upstream URL>``, one file a line."""

RETRIES = 1
"""How many times a failed download (no answer, an HTTP error, a wrong hash) is tried again."""


@dataclass(frozen=True)
class SourceFile:
    """One pinned source file: a line of :data:`REGISTRY`."""

    path: str  # relative path inside a source folder, e.g. "li-adger/li-adger_min_pairs.csv"
    sha256: str
    url: str  # the raw GitHub URL at the pinned commit


def read_registry(path: str | Path = REGISTRY) -> dict[str, SourceFile]:
    """The pinned files of a registry file (pooch's format, every line with its URL).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "registry.txt"
    >>> _ = p.write_text("# a comment\\nx/a.csv " + "ab" * 32 + " https://h/a.csv\\n")
    >>> read_registry(p)["x/a.csv"].url
    'https://h/a.csv'
    >>> _ = p.write_text("x/a.csv md5:0123\\n")
    >>> read_registry(p)
    Traceback (most recent call last):
    ValueError: ...registry.txt: 'x/a.csv' must have a SHA-256 (64 hex digits) and an upstream URL (got 'md5:0123' and no URL)
    """
    pins = pooch.Pooch(path=Path(path).parent, base_url="")
    pins.load_registry(path)
    out = {}
    for name, known in pins.registry.items():
        digest = known.removeprefix("sha256:")
        url = pins.urls.get(name)
        if len(digest) != 64 or not set(digest) <= set("0123456789abcdef") or not url:
            raise ValueError(
                f"{path}: {name!r} must have a SHA-256 (64 hex digits) and an upstream URL "
                f"(got {known!r} and {repr(url) if url else 'no URL'})"
            )
        out[name] = SourceFile(name, digest, url)
    return out


#: Every pinned file the project reads, by relative path (from :data:`REGISTRY`).
SOURCE_FILES: dict[str, SourceFile] = read_registry()

#: The files the dataset is built from.
BUILD_FILES: tuple[str, ...] = (
    "li-adger/human_ME_results_li-adger_sentences.csv",
    "li-adger/li-adger_sentences.csv",
    "li-adger/li-adger_min_pairs.csv",
    "sprouse2013/LI.conditions.csv",
)


#: The thesis's model scores that :mod:`metric_adc.thesis.outputs` reads (its 8 reference models).
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
    """Hex SHA-256 of a file (:func:`pooch.file_hash`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"abc")
    >>> sha256_file(p)[:16]
    'ba7816bf8f01cfea'
    """
    return pooch.file_hash(str(path), alg="sha256")


def cache_root(environ: Mapping[str, str] | None = None) -> Path:
    """The project's user cache: ``$LI_ADGER_CACHE``, default ``~/.cache/li_adger``.

    The one place this folder is decided: downloaded sources, cached models
    (:func:`baselines.models.cache.models_dir`) and cached results live under it. ``environ``
    defaults to :data:`os.environ`; a ``~`` in the variable is the home folder.

    Examples
    --------
    >>> cache_root({"LI_ADGER_CACHE": "/tmp/cache"})
    PosixPath('/tmp/cache')
    >>> cache_root({"LI_ADGER_CACHE": "~/c"}) == Path.home() / "c"
    True
    >>> cache_root({}) == Path.home() / ".cache" / "li_adger"
    True
    """
    root = (os.environ if environ is None else environ).get("LI_ADGER_CACHE")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "li_adger"


def cache_dir() -> Path:
    """Where downloaded source files are kept: ``$LI_ADGER_CACHE/sources``, default
    ``~/.cache/li_adger/sources``.

    Examples
    --------
    >>> cache_dir() == cache_root() / "sources"
    True
    """
    return cache_root() / "sources"


def default_search_dirs() -> list[Path]:
    """The folders searched when no source folder is given (before the user cache).

    Examples
    --------
    >>> [p.parts[-2:] for p in default_search_dirs()][0]
    ('shared', 'data')
    """
    beside_checkout = Path(__file__).resolve().parents[3] / "shared" / "data"
    beside_cwd = (Path.cwd().parent / "shared" / "data").resolve()
    return list(dict.fromkeys([beside_checkout, beside_cwd]))


def _pins(cache: Path, base: str | None, retries: int = RETRIES) -> pooch.Pooch:
    """The registry as a pooch: downloads into ``cache``, from the mirror ``base`` (default
    ``$LI_ADGER_UPSTREAM_BASE``; the layout of a source folder) or else each file's pinned URL."""
    base = base if base is not None else os.environ.get("LI_ADGER_UPSTREAM_BASE")
    return pooch.create(
        path=cache,
        base_url=base or "",
        registry={name: spec.sha256 for name, spec in SOURCE_FILES.items()},
        urls=None if base else {name: spec.url for name, spec in SOURCE_FILES.items()},
        retry_if_failed=retries,
        allow_updates=False,
    )


def upstream_url(relpath: str, base: str | None = None) -> str:
    """URL of a source file: the pinned raw GitHub URL, or ``base/relpath`` for a mirror.

    ``base`` defaults to the environment variable ``LI_ADGER_UPSTREAM_BASE``.

    Examples
    --------
    >>> upstream_url("li-adger/li-adger_min_pairs.csv", "http://127.0.0.1:8000/data/")
    'http://127.0.0.1:8000/data/li-adger/li-adger_min_pairs.csv'
    """
    _known(relpath)
    return _pins(cache_dir(), base).get_url(relpath)


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


def _download(
    url: str, output_file: str, pup: pooch.Pooch, *, spec: SourceFile, timeout: float
) -> None:
    """pooch's downloader for one pinned file: HTTP(S) with a timeout, then the hash checked
    here (pooch checks it again) so that a wrong download is a :class:`ChecksumError` naming
    the URL and both hashes, and the file mode ``open`` would give (not the temporary's)."""
    pooch.HTTPDownloader(timeout=timeout)(url, output_file, pup)
    got = sha256_file(output_file)
    if got != spec.sha256:
        raise ChecksumError(
            f"checksum mismatch for source file {spec.path!r} downloaded from {url}: "
            f"expected SHA-256 {spec.sha256}, got {got}"
        )
    os.chmod(output_file, file_mode())


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
    retries: int = RETRIES,
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
    timeout, retries
        Seconds one download attempt may wait for the server; attempts after the first.

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
    pins = _pins(Path(cache) if cache is not None else cache_dir(), upstream_base, retries)
    for spec in specs:
        candidates = [d / spec.path for d in dirs] + [pins.abspath / spec.path]
        searched = [str(c) for c in candidates]
        path = next((c for c in candidates if c.is_file()), None)
        if path is None and download:
            searched.append(pins.get_url(spec.path))
            try:
                fetch = functools.partial(_download, spec=spec, timeout=timeout)
                path = Path(pins.fetch(spec.path, downloader=fetch))
            except (OSError, ValueError) as exc:  # requests' errors are OSErrors
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
