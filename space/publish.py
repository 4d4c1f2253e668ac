"""The app's Hub Space: ``python -m space push REPO_ID`` stages and uploads it.

The staged folder holds::

    app.py             runs ``python -m space`` (loads the data, builds space.ui.app, launches)
    README.md          space/README.md: its front matter configures the Space (sdk gradio)
    requirements.txt   the project's third-party requirements with the app's extra, pinned as
                       tested
    space.png          the screenshot the README shows (left out, with its image line, when
                       the repository's docs/space.png is not there, e.g. in an installed copy)
    li_adger/ metric_adc/ baselines/ space/ li_adger_adc-<version>.dist-info/
                       the project's packages, unpacked from its wheel built at staging
                       (:mod:`li_adger.hub.bundle`): a Space installs its requirements before
                       its files are there, so it carries the project, which ``app.py``
                       imports from its own folder

The project's packages bring what the app needs to start: LI-Adger's committed build (or the
published dataset, ``$ADC_DATASET_REPO``) and the shipped results (``space/results/``, the
thesis's reference models included), so it needs no network; submissions wait for review in
``$ADC_RESULTS_REPO`` (the README's ``hf_oauth: true`` gives the page its sign-in button). No
scores file is published here. ``--requirement LINE`` installs the project by that line
instead (e.g. ``li-adger-adc[space] @ git+https://...@<commit>``), and then none of it ships.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from li_adger.hub import check_repo_id
from li_adger.hub.bundle import build_wheel, pinned_requirements, requirements_text, unpack_wheel
from li_adger.io.atomic import atomic_write_text

__all__ = ["APP_PY", "EXTRAS", "SPACE_ID_PLACEHOLDER", "stage_space"]

EXTRAS = ("space",)
"""The project's extras the app needs (their requirements are pinned in ``requirements.txt``)."""

_REQUIREMENTS_HEADER = """\
The project itself (li-adger-adc: the packages li_adger, metric_adc, space, ...) ships in this
Space, unpacked from its wheel, from where app.py imports it; no line installs it. Its
third-party requirements with the app's extra, pinned at the versions it was staged and tested
with:"""

_REQUIREMENTS_HEADER_LINE = """\
The project with the app's extra, then its third-party requirements, pinned at the versions it
was staged and tested with:"""

APP_PY = '''\
"""Entry point of the Hugging Face Space: serve the ADC app (``python -m space``)."""

import sys

from space.__main__ import main

if __name__ == "__main__":
    sys.exit(main([]))
'''
"""The staged ``app.py``: host and port come from the Space's ``GRADIO_SERVER_*`` variables."""

_HERE = Path(__file__).resolve().parent
_SCREENSHOT = _HERE.parent / "docs" / "space.png"
_IMAGE_LINK = "](../docs/space.png)"


SPACE_ID_PLACEHOLDER = "<space-id>"
"""How the README writes the Space's own id (its links to the code the Space ships)."""


def _readme(with_image: bool, repo_id: str | None) -> str:
    text = (_HERE / "README.md").read_text(encoding="utf-8")
    if repo_id is not None:
        text = text.replace(SPACE_ID_PLACEHOLDER, check_repo_id(repo_id))
    if with_image:
        return text.replace(_IMAGE_LINK, "](space.png)")
    return "".join(line for line in text.splitlines(True) if _IMAGE_LINK not in line)


def stage_space(
    dest: str | Path,
    *,
    requirement: str | None = None,
    screenshot: str | Path | None = _SCREENSHOT,
    wheel: str | Path | None = None,
    repo_id: str | None = None,
) -> Path:
    """Write the Space's folder into ``dest`` (created if need be) and return it.

    The project ships in the folder: the packages of ``wheel`` (default: built from the
    checkout, :func:`li_adger.hub.bundle.build_wheel`), unpacked. With ``requirement``, that
    ``requirements.txt`` line installs the project instead and none of it ships.
    ``screenshot`` is the image the README shows (``None`` or a missing file drops the image).
    ``repo_id`` (the Space, ``owner/name``) goes into the README's links to the code the Space
    ships (:data:`SPACE_ID_PLACEHOLDER` is kept when ``None``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_space(pathlib.Path(tempfile.mkdtemp()) / "space", screenshot=None,
    ...                   requirement="li-adger-adc[space] @ git+https://example.org/x.git")
    >>> sorted(p.name for p in out.iterdir())
    ['README.md', 'app.py', 'requirements.txt']
    >>> "docs/space.png" in (out / "README.md").read_text()
    False
    """
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    with_image = screenshot is not None and Path(screenshot).is_file()
    if with_image:
        shutil.copyfile(screenshot, dest / "space.png")
    atomic_write_text(dest / "README.md", _readme(with_image, repo_id))
    pins = pinned_requirements(EXTRAS)
    if requirement is None:
        with tempfile.TemporaryDirectory(prefix="space-wheel-") as tmp:
            unpack_wheel(build_wheel(tmp) if wheel is None else wheel, dest)
        header = _REQUIREMENTS_HEADER
    else:
        header, pins = _REQUIREMENTS_HEADER_LINE, [requirement, *pins]
    atomic_write_text(dest / "requirements.txt", requirements_text(header, pins))
    atomic_write_text(dest / "app.py", APP_PY)
    return dest
