"""The app's Hub Space: ``python -m space push REPO_ID`` stages and uploads it.

The staged folder holds exactly::

    app.py             runs ``python -m space`` (loads the data, builds space.ui.app, launches)
    README.md          space/README.md: its front matter configures the Space (sdk gradio)
    requirements.txt   installs the project with the app's extra (``--requirement`` to change)
    space.png          the screenshot the README shows (left out, with its image line, when
                       the repository's docs/space.png is not there, e.g. in an installed copy)

On the Space the installed package brings what the app needs to start: LI-Adger's committed
build (or the published dataset, ``$ADC_DATASET_REPO``) and the shipped results
(``space/results/``, the thesis's reference models included), so it needs no network;
submissions wait for review in ``$ADC_RESULTS_REPO`` (the README's ``hf_oauth: true`` gives the
page its sign-in button). No scores file is published here.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from li_adger.hub import requirements_txt
from li_adger.io.atomic import atomic_write_text

__all__ = ["APP_PY", "DEFAULT_REQUIREMENT", "stage_space"]

DEFAULT_REQUIREMENT = "li-adger-adc[space]"
"""The requirement that installs the app on the Space (the project with its ``space`` extra)."""

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


def _readme(with_image: bool) -> str:
    text = (_HERE / "README.md").read_text(encoding="utf-8")
    if with_image:
        return text.replace(_IMAGE_LINK, "](space.png)")
    return "".join(line for line in text.splitlines(True) if _IMAGE_LINK not in line)


def stage_space(
    dest: str | Path,
    *,
    requirement: str = DEFAULT_REQUIREMENT,
    screenshot: str | Path | None = _SCREENSHOT,
) -> Path:
    """Write the Space's folder into ``dest`` (created if need be) and return it.

    ``requirement`` is the ``requirements.txt`` line that installs the app; ``screenshot``
    the image the README shows (``None`` or a missing file drops the image).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_space(pathlib.Path(tempfile.mkdtemp()) / "space", screenshot=None)
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
    atomic_write_text(dest / "README.md", _readme(with_image))
    atomic_write_text(
        dest / "requirements.txt",
        requirements_txt(
            _HERE / "requirements.txt", default=DEFAULT_REQUIREMENT, requirement=requirement
        ),
    )
    atomic_write_text(dest / "app.py", APP_PY)
    return dest
