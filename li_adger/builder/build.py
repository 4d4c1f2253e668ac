"""Build LI-Adger: verified source files → ``li_adger/data/``, atomically and byte for byte.

Layout of a data folder (the package's own, ``li_adger/data/``, is committed, so that a fresh
clone loads without a build step)::

    data/build_report.json                     counts, sources, anomalies, the fingerprint
    data/snapshots/<fingerprint>/sentences.parquet  pairs.parquet  phenomena.parquet

and, beside the data folder, ``.huggingface.yaml``: it points the ``datasets`` configs at the
current snapshot. ``datasets`` caches a local folder by its config (file patterns), not by
file content, so a fixed path would serve the first build forever; a path that contains the
content hash (:func:`fingerprint`) changes whenever the content does.

Reproducible: the same sources give the same bytes (the report holds no local path, the
Parquet writer's options are fixed, the tables carry no pandas metadata). A snapshot whose
content already matches is kept as it is, so a rebuild with another pyarrow (whose version
the Parquet files record) leaves the committed files untouched.

Atomicity: the snapshot is written to a temporary folder and renamed into place; the report
and the pointer are written to temporary files and switched together, the pointer last. A
build that fails while reading, checking or writing leaves the previous build untouched.
Builds into one folder are serialised by a lock file, and each build first removes the
temporary files that a killed build left behind (safe: no other build holds the lock).
:func:`check_build` detects a damaged or incomplete build and names the file.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock

from li_adger.builder.schema import CONFIGS, SCHEMAS
from li_adger.builder.tables import make_tables
from li_adger.builder.validate import find_anomalies
from li_adger.io.atomic import atomic_dir, atomic_paths, remove_temporaries
from li_adger.io.inputs import check_not_input
from li_adger.sources import BUILD_FILES, SOURCE_FILES, find_sources, sha256_file

__all__ = [
    "DATA_DIR",
    "FORMAT_VERSION",
    "HF_YAML",
    "REPORT_FILE",
    "THESIS_COUNTS",
    "DamagedBuildError",
    "build",
    "check_build",
    "data_files",
    "fingerprint",
    "format_summary",
    "is_built",
    "read_report",
    "summary",
]

PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: Where ``build()`` writes by default: the ``data`` folder of the package.
DATA_DIR = PACKAGE_DIR / "data"
#: Version of the data layout and columns; ``load()`` rebuilds data of another version.
FORMAT_VERSION = 2
HF_YAML = ".huggingface.yaml"
REPORT_FILE = "build_report.json"
SNAPSHOTS = "snapshots"
"""The folder of a data folder that holds each build's Parquet files, by fingerprint."""
_LOCK = ".build.lock"
_KEEP_SNAPSHOTS = 3
_CARD = PACKAGE_DIR / "README.md"
#: Parquet writer options, fixed so that the bytes do not follow pyarrow's defaults.
_PARQUET_OPTIONS = {
    "version": "2.6",
    "compression": "snappy",
    "use_dictionary": True,
    "write_statistics": True,
    "data_page_version": "1.0",
    "store_schema": True,
    "write_page_index": False,
    "write_page_checksum": False,
}

#: The counts stated in the thesis that introduced LI-Adger (Vázquez Martínez 2021).
THESIS_COUNTS = {
    "sentences": 4178,
    "sentence_types": 519,
    "pairs_evaluated": 2365,
    "phenomena_LI": 150,
    "phenomena_Adger": 105,
}


class DamagedBuildError(ValueError):
    """A data folder holds a build that cannot be used: a file damaged, missing or outdated.

    The message names the file and the command that repairs the build.
    """


def _arrow_table(frame: pd.DataFrame, schema: pa.Schema) -> pa.Table:
    table = pa.Table.from_pandas(frame[schema.names], schema=schema, preserve_index=False)
    return table.replace_schema_metadata(None)


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, **_PARQUET_OPTIONS)
    return sink.getvalue()


def fingerprint(tables: dict[str, pa.Table]) -> str:
    """Content hash of the tables: their schemas and values, not their file bytes.

    Independent of the Parquet writer (whose version is recorded in the files), so the same
    data keeps the same fingerprint, hence the same ``datasets`` cache entry.

    Examples
    --------
    >>> t = pa.table({"x": [1.5, None]})
    >>> fingerprint({"a": t}) == fingerprint({"a": pa.table({"x": [1.5, None]})})
    True
    >>> fingerprint({"a": t}) == fingerprint({"a": pa.table({"x": [1.5, 2.0]})})
    False
    """
    digest = hashlib.sha256()
    for name in sorted(tables):
        table = tables[name]
        digest.update(f"{name}\n{table.schema}\n".encode())
        for record in table.to_pylist():
            digest.update(json.dumps(record, ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()[:16]


def _hf_yaml(data_dir: Path, fp: str) -> str:
    lines = [
        "# Generated by `python -m li_adger build`; not part of the sources. It points the",
        "# configs of README.md at the current content-addressed snapshot, so that",
        "# `datasets` never serves a cache of an earlier build.",
        "configs:",
    ]
    for name in CONFIGS:
        lines += [
            f"- config_name: {name}",
            *(["  default: true"] if name == "pairs" else []),
            "  data_files:",
            "  - split: test",
            f"    path: {data_dir.name}/{SNAPSHOTS}/{fp}/{name}.parquet",
        ]
    return "\n".join(lines) + "\n"


def _rebuild_hint(data_dir: Path) -> str:
    command = "python -m li_adger build"
    if data_dir.resolve() != DATA_DIR:
        command += f" --data-dir {data_dir}"
    return f"run `{command}` to rebuild it"


def _read_snapshot_file(path: Path, name: str) -> pa.Table:
    """One snapshot file as a table of the config's schema, or a :class:`DamagedBuildError`."""
    try:
        return pq.read_table(path).cast(SCHEMAS[name])
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise DamagedBuildError(
            f"{path}: not a readable Parquet file of the {name!r} config ({exc}); "
            f"{_rebuild_hint(path.parent.parent.parent)}"
        ) from None


def _snapshot_matches(folder: Path, fp: str) -> bool:
    try:
        tables = {n: _read_snapshot_file(folder / f"{n}.parquet", n) for n in CONFIGS}
    except DamagedBuildError:
        return False
    return fingerprint(tables) == fp


def _write_bytes(path: Path, data: bytes) -> None:
    """Every file of a build is written by this one call (a test makes it fail)."""
    path.write_bytes(data)


def _install(data_dir: Path, blobs: dict[str, bytes], fp: str, report: dict) -> None:
    root = data_dir.parent
    snapshots = data_dir / SNAPSHOTS
    # left by a killed build (we hold the lock, so no other build is writing them)
    remove_temporaries(data_dir)
    remove_temporaries(snapshots)
    remove_temporaries(root, targets=["README.md", HF_YAML])
    outputs = {data_dir / REPORT_FILE: json.dumps(report, indent=1, ensure_ascii=False) + "\n"}
    if not (root / "README.md").is_file():
        outputs[root / "README.md"] = _CARD.read_text(encoding="utf-8")
    outputs[root / HF_YAML] = _hf_yaml(data_dir, fp)  # last: readers follow it
    # Everything is written to temporaries first; only then do they replace their targets,
    # the snapshot folder first (contexts exit last-in first-out), the pointer last.
    with ExitStack() as stack:
        temps = stack.enter_context(atomic_paths(list(outputs)))
        target = snapshots / fp
        if not _snapshot_matches(target, fp):  # absent or damaged: (re)write it
            folder = stack.enter_context(atomic_dir(target))
            for name, blob in blobs.items():
                _write_bytes(folder / f"{name}.parquet", blob)
        for tmp, text in zip(temps, outputs.values(), strict=True):
            _write_bytes(tmp, text.encode())
    old = sorted(
        (p for p in snapshots.iterdir() if p.is_dir() and p.name != fp),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for stale in old[_KEEP_SNAPSHOTS - 1 :]:
        shutil.rmtree(stale, ignore_errors=True)


def build(
    source: str | Path | None = None,
    *,
    data_dir: str | Path | None = None,
    verify: bool = True,
    search_dirs: Sequence[str | Path] | None = None,
    cache: str | Path | None = None,
    upstream_base: str | None = None,
    echo: Callable[[str], object] | None = None,
) -> Path:
    """Build the dataset from the source files and return the data folder.

    Parameters
    ----------
    source
        Source folder (layout of ``shared/data``); see :mod:`li_adger.sources` for the
        lookup order when it is ``None``.
    data_dir
        Output folder, default :data:`DATA_DIR`. Its parent becomes a loadable dataset
        folder: it receives a copy of the card (``README.md``) if it has none, and the
        ``.huggingface.yaml`` pointer.
    verify
        Check the sources' SHA-256 (``False`` only for an explicit ``source``, e.g. a
        deliberately modified copy; the report then says ``verified: false``).
    search_dirs, cache, upstream_base
        Passed to :func:`li_adger.sources.find_sources`.
    echo
        Called with one line per progress message (e.g. ``print``); silent by default.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = build(data_dir=pathlib.Path(tempfile.mkdtemp()) / "li_adger" / "data")
    >>> sorted(p.name for p in data_files(out).values())
    ['pairs.parquet', 'phenomena.parquet', 'sentences.parquet']
    >>> summary(out)["total"]["evaluable"]
    2365
    """
    say = echo or (lambda _line: None)
    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    paths = find_sources(
        BUILD_FILES,
        source=source,
        verify=verify,
        search_dirs=search_dirs,
        cache=cache,
        upstream_base=upstream_base,
    )
    say(f"sources: {', '.join(str(p) for p in paths.values())}")
    written = [data_dir / REPORT_FILE, data_dir.parent / "README.md", data_dir.parent / HF_YAML]
    check_not_input(
        [*(("--data-dir", w, False) for w in written), ("--data-dir", data_dir / SNAPSHOTS, True)],
        [("--source" if source is not None else "the source lookup", p) for p in paths.values()],
    )
    tables = make_tables(paths)
    anomalies = find_anomalies(tables)
    frames = {"sentences": tables.sentences, "pairs": tables.pairs, "phenomena": tables.phenomena}
    tables_ = {name: _arrow_table(frames[name], SCHEMAS[name]) for name in CONFIGS}
    fp = fingerprint(tables_)
    blobs = {name: _parquet_bytes(table) for name, table in tables_.items()}
    report = {
        "format_version": FORMAT_VERSION,
        "fingerprint": fp,
        "sources": [
            {
                "path": rel,
                "sha256": sha256_file(path),
                "pinned_sha256": SOURCE_FILES[rel].sha256,
                "verified": verify,
                "upstream": SOURCE_FILES[rel].url,
            }
            for rel, path in paths.items()
        ],
        "summary": _summarize(tables.sentences, tables.pairs, tables.phenomena),
        "thesis_counts": THESIS_COUNTS,
        "anomalies": [a.to_dict() for a in anomalies],
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(data_dir / _LOCK)):
        _install(data_dir, blobs, fp, report)
    say(f"built {data_dir} (fingerprint {fp})")
    return data_dir


def _summarize(sentences: pd.DataFrame, pairs: pd.DataFrame, phenomena: pd.DataFrame) -> dict:
    out = {}
    for source in ("LI", "Adger", "total"):
        s = sentences if source == "total" else sentences[sentences["source"] == source]
        p = pairs if source == "total" else pairs[pairs["source"] == source]
        ph = phenomena if source == "total" else phenomena[phenomena["source"] == source]
        out[source] = {
            "sentences": len(s),
            "conditions": int(s["condition"].nunique()),
            "phenomena": len(ph),
            "pairs": len(p),
            "discarded": int(p["discarded"].sum()),
            "evaluable": int((~p["discarded"]).sum()),
            "missing_judgements": int(s["judgement"].isna().sum()),
        }
    return out


def read_report(data_dir: str | Path | None = None) -> dict:
    """The build report (``build_report.json``) of a data folder.

    Examples
    --------
    >>> read_report()["summary"]["total"]["sentences"]
    4178
    >>> import tempfile, pathlib
    >>> read_report(pathlib.Path(tempfile.mkdtemp()))
    Traceback (most recent call last):
    FileNotFoundError: no LI-Adger build in ...: build_report.json is missing; run `python -m li_adger build --data-dir ...` to rebuild it
    """
    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    path = data_dir / REPORT_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"no LI-Adger build in {data_dir}: {REPORT_FILE} is missing; {_rebuild_hint(data_dir)}"
        )
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DamagedBuildError(
            f"{path}: not a readable build report ({exc}); {_rebuild_hint(data_dir)}"
        ) from None
    if not isinstance(report, dict) or report.get("format_version") != FORMAT_VERSION:
        version = report.get("format_version") if isinstance(report, dict) else None
        raise DamagedBuildError(
            f"{path}: a build of format {version!r}, expected {FORMAT_VERSION}; "
            f"{_rebuild_hint(data_dir)}"
        )
    return report


def data_files(data_dir: str | Path | None = None) -> dict[str, Path]:
    """The Parquet file of each config in the current build of a data folder.

    For direct use (``pandas.read_parquet``); :func:`li_adger.load` checks them first.

    Examples
    --------
    >>> {name: path.parent.parent.name for name, path in data_files().items()}
    {'sentences': 'snapshots', 'pairs': 'snapshots', 'phenomena': 'snapshots'}
    """
    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    snapshot = data_dir / SNAPSHOTS / str(read_report(data_dir).get("fingerprint"))
    return {name: snapshot / f"{name}.parquet" for name in CONFIGS}


_CHECKED: dict[Path, tuple] = {}  # data folder -> file states of its last successful check


def _file_state(path: Path) -> tuple:
    try:
        st = path.stat()
    except OSError:
        return (str(path), None)
    return (str(path), st.st_size, st.st_mtime_ns, st.st_ino)


def check_build(data_dir: str | Path | None = None) -> dict:
    """Check that a data folder holds a complete, undamaged build; return its report.

    Every Parquet file of the current snapshot must read back to the content its
    fingerprint names, and the ``.huggingface.yaml`` beside the folder must point at that
    snapshot. A folder checked once is not read again while its files are unchanged.

    Raises
    ------
    FileNotFoundError
        No build in the folder (no report).
    DamagedBuildError
        A file missing, unreadable, of another format or with other content; the message
        names the file and the command that repairs the build.

    Examples
    --------
    >>> check_build()["fingerprint"] == data_files()["pairs"].parent.name
    True
    """
    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    report = read_report(data_dir)
    fp = str(report.get("fingerprint"))
    files = data_files(data_dir)
    pointer = data_dir.parent / HF_YAML
    state = tuple(_file_state(p) for p in (data_dir / REPORT_FILE, pointer, *files.values()))
    if _CHECKED.get(data_dir.resolve()) == state:
        return report
    for name, path in files.items():
        if not path.is_file():
            raise DamagedBuildError(
                f"{path}: missing (the {name!r} file of the build {fp} that {REPORT_FILE} "
                f"names); {_rebuild_hint(data_dir)}"
            )
    tables = {name: _read_snapshot_file(path, name) for name, path in files.items()}
    if fingerprint(tables) != fp:
        raise DamagedBuildError(
            f"{files['sentences'].parent}: the Parquet files do not hold the content of build "
            f"{fp} (damaged or edited); {_rebuild_hint(data_dir)}"
        )
    try:
        pointed = pointer.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pointed = None
    if pointed != _hf_yaml(data_dir, fp):
        raise DamagedBuildError(
            f"{pointer}: missing or not pointing at the current build {fp}; "
            f"{_rebuild_hint(data_dir)}"
        )
    _CHECKED[data_dir.resolve()] = state
    return report


def is_built(data_dir: str | Path | None = None) -> bool:
    """Whether a data folder holds a complete, undamaged build of the current format.

    Examples
    --------
    >>> import tempfile
    >>> is_built(), is_built(tempfile.mkdtemp())
    (True, False)
    """
    try:
        check_build(data_dir)
    except (FileNotFoundError, DamagedBuildError):
        return False
    return True


def summary(data_dir: str | Path | None = None) -> dict:
    """Counts by source (``LI``, ``Adger``, ``total``) computed from the built Parquet files.

    Examples
    --------
    >>> {k: v["sentences"] for k, v in summary().items()}
    {'LI': 2400, 'Adger': 1778, 'total': 4178}
    """
    check_build(data_dir)
    frames = {name: pd.read_parquet(path) for name, path in data_files(data_dir).items()}
    return _summarize(frames["sentences"], frames["pairs"], frames["phenomena"])


def format_summary(counts: dict) -> str:
    """A plain-text table of :func:`summary` counts.

    Examples
    --------
    >>> row = dict(sentences=1, conditions=1, phenomena=1, pairs=0, discarded=0, evaluable=0,
    ...            missing_judgements=0)
    >>> print(format_summary({"LI": row}))
    source  sentences  conditions  phenomena  pairs  discarded  evaluable  missing_judgements
    LI              1           1          1      0          0          0                   0
    """
    from li_adger.io.text_table import text_table

    columns = list(next(iter(counts.values())))
    rows = [[source, *(str(row[c]) for c in columns)] for source, row in counts.items()]
    return text_table(["source", *columns], rows, min_width=6)
