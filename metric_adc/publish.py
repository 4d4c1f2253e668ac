"""The metric's Hub repository: ``python -m metric_adc push REPO_ID`` stages and uploads it.

An ``evaluate`` module on the Hub is a Space (SDK gradio) whose module file is named after the
repository: ``evaluate.load("owner/adc")`` fetches ``adc.py`` from the Space ``owner/adc``.
The staged folder holds exactly::

    <name>.py          the module (metric_adc/adc/adc.py), named after the repo's name
    README.md          the module card, with the Space keys (sdk, app_file, ...) in its front matter
    requirements.txt   what the module imports; its first requirement installs ``metric_adc``
    app.py             a small gradio page that shows the card

The module imports the ``metric_adc`` package (the math is not copied into it), so the
Space's ``requirements.txt`` must make that package installable: the line is
``--requirement`` (default the distribution name ``li-adger-adc``; a pinned
``li-adger-adc @ git+https://...`` works where the distribution is not on an index).
``evaluate``'s own widget (``launch_gradio_widget``) is not used: it fails with gradio 6.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from li_adger.atomic import atomic_write_text
from li_adger.hub import SPACE_SDK_VERSION

__all__ = ["APP_PY", "DEFAULT_REQUIREMENT", "space_front_matter", "stage_metric"]

DEFAULT_REQUIREMENT = "li-adger-adc"
"""The requirement that installs the ``metric_adc`` package on the Hub (its distribution)."""

APP_PY = '''\
"""The page of the ADC evaluate module: its card. Load the module with evaluate.load."""

from pathlib import Path

import gradio as gr

card = Path(__file__).with_name("README.md").read_text(encoding="utf-8")
body = card.split("---", 2)[2] if card.startswith("---") else card

with gr.Blocks(title="ADC: the Acceptability Delta Criterion") as demo:
    gr.Markdown(body)

if __name__ == "__main__":
    demo.launch()
'''
"""The staged ``app.py``: shows the module card (no computation, no widget)."""

_MODULE_DIR = Path(__file__).resolve().parent / "adc"


def space_front_matter(card: str, keys: dict[str, str]) -> str:
    """``card`` with ``keys`` added to its YAML front matter (keys it already has are kept).

    Examples
    --------
    >>> print(space_front_matter("---\\ntitle: ADC\\n---\\n# Card\\n", {"sdk": "gradio", "title": "x"}))
    ---
    title: ADC
    sdk: gradio
    ---
    # Card
    """
    match = re.match(r"---\n(.*?\n)---\n", card, re.S)
    if match is None:
        raise ValueError("the card has no YAML front matter (expected a first line '---')")
    present = set(re.findall(r"^([A-Za-z_]+):", match.group(1), re.M))
    extra = "".join(f"{k}: {v}\n" for k, v in keys.items() if k not in present)
    return f"---\n{match.group(1)}{extra}---\n{card[match.end() :]}"


def _requirements(requirement: str) -> str:
    if not requirement.strip() or "\n" in requirement:
        raise ValueError(f"--requirement must be one requirement line (got {requirement!r})")
    lines = (_MODULE_DIR / "requirements.txt").read_text(encoding="utf-8").splitlines()
    out = [requirement.strip() if line.strip() == DEFAULT_REQUIREMENT else line for line in lines]
    return "\n".join(out) + "\n"


def stage_metric(
    dest: str | Path, *, module_name: str = "adc", requirement: str = DEFAULT_REQUIREMENT
) -> Path:
    """Write the metric's Hub folder into ``dest`` (created if need be) and return it.

    ``module_name`` is the repository's name (the module file is ``<module_name>.py``);
    ``requirement`` is the ``requirements.txt`` line that installs ``metric_adc``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_metric(pathlib.Path(tempfile.mkdtemp()) / "adc",
    ...                    requirement="li-adger-adc @ git+https://example.org/li-adger.git")
    >>> sorted(p.name for p in out.iterdir())
    ['README.md', 'adc.py', 'app.py', 'requirements.txt']
    >>> (out / "requirements.txt").read_text().splitlines()[1]
    'li-adger-adc @ git+https://example.org/li-adger.git'
    """
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", module_name):
        raise ValueError(f"module_name {module_name!r}: expected the repository's name")
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_MODULE_DIR / "adc.py", dest / f"{module_name}.py")
    card = (_MODULE_DIR / "README.md").read_text(encoding="utf-8")
    keys = {"sdk": "gradio", "sdk_version": SPACE_SDK_VERSION, "app_file": "app.py"}
    atomic_write_text(dest / "README.md", space_front_matter(card, keys | {"pinned": "false"}))
    atomic_write_text(dest / "requirements.txt", _requirements(requirement))
    atomic_write_text(dest / "app.py", APP_PY)
    return dest
