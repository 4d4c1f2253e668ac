"""Uploads: a user's scores file validated, with messages a user can act on, then precomputed.

An upload is read by the metric's own reader (:func:`metric_adc.scores_file.read_scores`,
JSON Lines or a two-column CSV ``id,score``), checked against the LI-Adger sentences and
turned into a :class:`~space.data.ModelEntry` that lives in the uploader's session only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from metric_adc.scores_file import ScoresFileError, read_scores
from space.data import (
    KIND_UPLOAD,
    ModelEntry,
    SpaceData,
    entry_from_scores,
    model_name,
    unique_name,
)

__all__ = ["MAX_UPLOADS", "MAX_UPLOAD_BYTES", "UploadError", "evaluate_upload"]

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
"""Largest accepted upload (8 MiB; a full LI-Adger scores file with sentences is ~0.5 MiB)."""

MAX_UPLOADS = 10
"""Uploads kept per session; older ones must be removed first (reload the page)."""


class UploadError(ValueError):
    """An uploaded scores file was refused; the message says why and what was expected."""


def _missing_message(missing: list[str], n_needed: int) -> str:
    return (
        f"no score for {len(missing)} of the {n_needed} sentences that the LI-Adger pairs "
        f"need, e.g. {missing[0]!r}: score every sentence of the dataset "
        "(`python -m baselines` writes such a file)"
    )


def evaluate_upload(
    path: str | os.PathLike | None,
    data: SpaceData,
    uploads: Sequence[ModelEntry],
    *,
    name: str | None = None,
    max_bytes: int = MAX_UPLOAD_BYTES,
) -> ModelEntry:
    """Validate and precompute an uploaded scores file; raise :class:`UploadError` if refused.

    The message names the file by its own name (never the server's temporary path) and says
    what was expected and what was found: wrong columns, unknown or duplicate ids, missing
    sentences, non-numeric / NaN / infinite scores, an empty or too large file.
    ``name`` overrides the model name (default: the file's ``model`` metadata, else its
    file name); a name already shown gets a ``#2`` suffix.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> _ = p.write_text("id,score\\nx,1\\nx,2\\n")
    >>> evaluate_upload(p, None, [])
    Traceback (most recent call last):
    ...
    space.upload.UploadError: mine.csv: duplicate id 'x' (records 1 and 2)
    """
    if path is None:
        raise UploadError("no file: choose a scores file (JSON Lines, or CSV with header id,score)")
    path = Path(path)
    try:
        sf = read_scores(path, max_bytes=max_bytes)
    except ScoresFileError as exc:
        raise UploadError(_readable(str(exc), path)) from None
    if data is None:
        raise UploadError(f"{path.name}: no dataset loaded to evaluate it against")
    if len(uploads) >= MAX_UPLOADS:
        raise UploadError(
            f"{path.name}: this session already holds {len(uploads)} uploads "
            f"(at most {MAX_UPLOADS}); reload the page to start afresh"
        )
    known = data.pairs.judgements
    unknown = [i for i in sf.ids if i not in known]
    if unknown:
        raise UploadError(
            f"{path.name}: {len(unknown)} sentence id(s) unknown to LI-Adger, e.g. {unknown[0]!r} "
            f"(expected ids of the {len(known)} LI-Adger sentences, such as "
            f"{data.pairs.good_ids[0]!r})"
        )
    have = set(sf.ids)
    needed = dict.fromkeys([*data.pairs.good_ids, *data.pairs.bad_ids])
    missing = [i for i in needed if i not in have]
    if missing:
        raise UploadError(f"{path.name}: {_missing_message(missing, len(needed))}")
    taken = {m.name for m in [*data.models, *uploads]}
    wanted = (name or "").strip() or model_name(sf, path.stem)
    try:
        return entry_from_scores(
            sf.as_dict(), data.pairs, name=unique_name(wanted, taken), kind=KIND_UPLOAD
        )
    except ValueError as exc:
        raise UploadError(f"{path.name}: {_readable(str(exc), path)}") from None


def _readable(message: str, path: Path) -> str:
    """The reader's message with the server's temporary path replaced by the file's name."""
    return message.replace(str(path), path.name)
