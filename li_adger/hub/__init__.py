"""Publishing a staged folder to the Hugging Face Hub: the dataset, the metric, the Space.

Each package stages exactly the folder its Hub repository should hold and hands it to
:func:`publish_folder`, which creates the repository (if it does not exist) and uploads the
folder in one commit, or, with ``dry_run_dir``, only writes the folder there so that it can be
inspected. :func:`add_push_arguments` gives the three ``push`` commands the same options.

The token is ``--token``, else whatever ``huggingface_hub`` finds (``$HF_TOKEN`` or a
``hf auth login``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from li_adger.io.atomic import atomic_dir
from li_adger.io.cli_args import output_path

__all__ = [
    "REPO_TYPES",
    "SPACE_PYTHON_VERSION",
    "SPACE_SDK_VERSION",
    "HubError",
    "PublishResult",
    "add_push_arguments",
    "check_repo_id",
    "publish_folder",
    "push_staged",
    "report_result",
    "staged_files",
]

REPO_TYPES: tuple[str, ...] = ("dataset", "space", "model")
"""The repository types :func:`publish_folder` accepts."""

SPACE_SDK_VERSION = "6.31.0"
"""The gradio version the Spaces (the app's and the metric's) declare as ``sdk_version``."""

SPACE_PYTHON_VERSION = "3.11"
"""The Python the Spaces declare as ``python_version`` (the project needs 3.11 or later)."""

_NAME = re.compile(r"^(?!.*(--|\.\.))[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$")


class HubError(RuntimeError):
    """Publishing is impossible as asked: no ``huggingface_hub``, offline, a bad repo id."""


@dataclass(frozen=True)
class PublishResult:
    """What :func:`publish_folder` did: the files of the folder, and where they went.

    ``url`` is the repository's URL after an upload, ``None`` for a dry run; ``folder`` is the
    folder uploaded, or the dry-run folder written.
    """

    repo_id: str
    repo_type: str
    files: list[str]
    folder: Path
    uploaded: bool
    url: str | None = None


def check_repo_id(repo_id: str) -> str:
    """Return ``repo_id`` if it is ``owner/name`` as the Hub accepts it, else raise.

    Each part: letters, digits, ``-``, ``_``, ``.``; at most 96 characters; starting and
    ending with a letter or digit; no ``--`` or ``..``.

    Examples
    --------
    >>> check_repo_id("someone/li-adger")
    'someone/li-adger'
    >>> check_repo_id("li-adger")
    Traceback (most recent call last):
    li_adger.hub.HubError: repo id 'li-adger': expected 'owner/name' (e.g. 'your-name/li-adger'), ...
    """
    parts = repo_id.split("/") if isinstance(repo_id, str) else []
    if len(parts) != 2 or not all(_NAME.match(p) for p in parts):
        raise HubError(
            f"repo id {repo_id!r}: expected 'owner/name' (e.g. 'your-name/li-adger'), each "
            "part 1-96 letters, digits, '-', '_' or '.', starting and ending with a letter or "
            "digit, without '--' or '..'"
        )
    return repo_id


def staged_files(folder: str | Path) -> list[str]:
    """The files under ``folder``, as sorted POSIX paths relative to it.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "README.md").write_text("x"); (d / "data").mkdir()
    >>> _ = (d / "data" / "a.parquet").write_bytes(b"")
    >>> staged_files(d)
    ['README.md', 'data/a.parquet']
    """
    root = Path(folder)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in {"1", "ON", "YES", "TRUE"}


def _write_dry_run(folder: Path, dest: Path) -> None:
    """Copy the staged ``folder`` to ``dest`` (new or an empty folder; a symlink to an empty
    folder is written through), every target problem refused in one line before writing."""
    try:
        output_path(folder=True, empty=True)(str(dest))
    except argparse.ArgumentTypeError as exc:
        raise HubError(f"--dry-run: {exc}") from None
    dest = dest.resolve() if dest.is_symlink() else dest
    try:
        with atomic_dir(dest) as tmp:
            shutil.copytree(folder, tmp, dirs_exist_ok=True)
    except OSError as exc:
        raise HubError(f"--dry-run: cannot write {dest}: {exc.strerror or exc}") from None


def publish_folder(
    folder: str | Path,
    repo_id: str,
    *,
    repo_type: str,
    private: bool = False,
    token: str | None = None,
    commit_message: str | None = None,
    dry_run_dir: str | Path | None = None,
    space_sdk: str = "gradio",
) -> PublishResult:
    """Create the Hub repository ``repo_id`` (if need be) and upload ``folder`` to its root.

    Parameters
    ----------
    folder
        The staged folder: exactly the files the repository should hold.
    repo_id
        ``owner/name`` (checked by :func:`check_repo_id`).
    repo_type
        ``"dataset"``, ``"space"`` or ``"model"``.
    private, token, commit_message
        Passed to ``HfApi.create_repo`` / ``HfApi.upload_folder``.
    dry_run_dir
        Write the folder here (which must not exist or be empty) instead of uploading;
        needs neither ``huggingface_hub`` nor a network.
    space_sdk
        The SDK of a new Space (``repo_type="space"`` only).

    Raises
    ------
    HubError
        A malformed repo id or repo type, ``huggingface_hub`` missing, ``HF_HUB_OFFLINE`` set,
        a non-empty dry-run folder, or the Hub refusing the request.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> staged = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (staged / "README.md").write_text("---\\n---\\n")
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "dry"
    >>> r = publish_folder(staged, "someone/x", repo_type="dataset", dry_run_dir=out)
    >>> r.uploaded, r.files, (out / "README.md").is_file()
    (False, ['README.md'], True)
    >>> publish_folder(staged, "someone/x", repo_type="datasets")
    Traceback (most recent call last):
    li_adger.hub.HubError: repo_type 'datasets': expected one of ('dataset', 'space', 'model')
    """
    check_repo_id(repo_id)
    if repo_type not in REPO_TYPES:
        raise HubError(f"repo_type {repo_type!r}: expected one of {REPO_TYPES}")
    folder = Path(folder)
    files = staged_files(folder)
    if not files:
        raise HubError(f"nothing to publish: the staged folder {folder} holds no file")
    if dry_run_dir is not None:
        dest = Path(dry_run_dir)
        _write_dry_run(folder, dest)
        return PublishResult(repo_id, repo_type, files, dest, uploaded=False)
    try:
        from huggingface_hub import HfApi
    except ImportError as exc:
        raise HubError(
            "publishing needs the huggingface_hub package (pip install huggingface_hub); "
            "--dry-run DIR writes the folder without it"
        ) from exc
    if _offline():
        raise HubError(
            "HF_HUB_OFFLINE is set, so the Hub cannot be reached: unset it to publish, or use "
            "--dry-run DIR to write the folder that would be uploaded"
        )
    api = HfApi(token=token)
    extra = {"space_sdk": space_sdk} if repo_type == "space" else {}
    try:
        url = api.create_repo(
            repo_id, repo_type=repo_type, private=private, exist_ok=True, token=token, **extra
        )
        api.upload_folder(
            folder_path=str(folder),
            repo_id=repo_id,
            repo_type=repo_type,
            token=token,
            commit_message=commit_message or f"Upload {len(files)} files",
        )
    except (OSError, ValueError) as exc:  # HTTP errors of huggingface_hub are OSError/ValueError
        raise HubError(f"publishing to the {repo_type} repo {repo_id!r} failed: {exc}") from exc
    return PublishResult(repo_id, repo_type, files, folder, uploaded=True, url=str(url))


def add_push_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every ``push`` command takes: ``REPO_ID``, ``--private``, ``--token``,
    ``--commit-message``, ``--dry-run DIR``.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_push_arguments(p)
    >>> a = p.parse_args(["someone/x", "--dry-run", "out"])
    >>> a.repo_id, a.private, a.token, a.dry_run
    ('someone/x', False, None, 'out')
    """
    parser.add_argument("repo_id", metavar="REPO_ID", help="the Hub repository, owner/name")
    parser.add_argument("--private", action="store_true", help="create the repository private")
    parser.add_argument(
        "--token", default=None, help="Hub token (default: $HF_TOKEN or the saved login)"
    )
    parser.add_argument("--commit-message", default=None, help="message of the upload commit")
    parser.add_argument(
        "--dry-run",
        metavar="DIR",
        default=None,
        type=output_path(folder=True, empty=True),
        help="write the folder that would be uploaded into DIR (new or empty) and upload nothing",
    )


def report_result(result: PublishResult) -> str:
    """One line saying what was published or staged (for the ``push`` commands).

    A folder's files are counted rather than listed (``metric_adc/ (59 files)``).

    Examples
    --------
    >>> print(report_result(PublishResult("a/b", "dataset", ["README.md"], Path("out"), False)))
    staged 1 files for the dataset repo a/b in out (dry run, nothing uploaded): README.md
    >>> print(report_result(PublishResult("a/b", "space", ["a.py", "p/x.py", "p/y/z.py"],
    ...                                   Path("out"), True, "https://hf.co/spaces/a/b")))
    uploaded 3 files to https://hf.co/spaces/a/b: a.py, p/ (2 files)
    """
    tops: dict[str, int] = {}
    for name in result.files:
        top = name.split("/", 1)[0] + ("/" if "/" in name else "")
        tops[top] = tops.get(top, 0) + 1
    listed = ", ".join(f"{t} ({n} files)" if t.endswith("/") else t for t, n in tops.items())
    if not result.uploaded:
        return (
            f"staged {len(result.files)} files for the {result.repo_type} repo {result.repo_id} "
            f"in {result.folder} (dry run, nothing uploaded): {listed}"
        )
    return f"uploaded {len(result.files)} files to {result.url}: {listed}"


def push_staged(
    args: argparse.Namespace, stage: Callable[[Path], Path], *, repo_type: str
) -> PublishResult:
    """Stage a folder with ``stage(folder)`` and publish it with the ``push`` options in ``args``.

    ``args`` holds what :func:`add_push_arguments` defines. The repo id is checked before
    anything is staged. ``folder`` is a new temporary folder named like the dry-run folder
    (``--dry-run DIR``), else like the repository, so that a staging function can name files
    after the folder that will hold them (an ``evaluate`` module must be ``<folder>.py``).

    Examples
    --------
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "staged"
    >>> args = argparse.Namespace(repo_id="me/toy", private=False, token=None,
    ...                           commit_message=None, dry_run=str(out))
    >>> def stage(folder):
    ...     folder.mkdir()
    ...     (folder / "README.md").write_text(f"# {folder.name}")
    ...     return folder
    >>> push_staged(args, stage, repo_type="dataset").files, (out / "README.md").read_text()
    (['README.md'], '# staged')
    """
    check_repo_id(args.repo_id)
    name = Path(args.dry_run).resolve().name if args.dry_run else args.repo_id.split("/")[1]
    with tempfile.TemporaryDirectory(prefix="hub-stage-") as tmp:
        return publish_folder(
            stage(Path(tmp) / name),
            args.repo_id,
            repo_type=repo_type,
            private=args.private,
            token=args.token,
            commit_message=args.commit_message,
            dry_run_dir=args.dry_run,
        )
