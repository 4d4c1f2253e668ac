"""The metric's Hub repository: ``python -m metric_adc push REPO_ID`` stages and uploads it.

An ``evaluate`` module on the Hub is a Space (SDK gradio) whose module file is named after the
repository: ``evaluate.load("owner/adc")`` fetches ``adc.py`` from the Space ``owner/adc``.
The staged folder holds exactly::

    <name>.py          the module (metric_adc/adc/adc.py), named after the repo's name
    README.md          the module card, with the Space keys (sdk, app_file, ...) in its front
                       matter and the repository's id in its examples
    requirements.txt   what the module imports; its first requirement installs ``metric_adc``
    app.py             a small gradio page that shows the card

and, when the folder itself has another name than the repository (``--dry-run DIR``), a copy
of the module as ``<folder name>.py``: ``evaluate.load(folder)`` looks for exactly that file,
so the staged folder loads whatever it is called.

The module imports the ``metric_adc`` package (the math is not copied into it), so the
Space's ``requirements.txt`` must make that package installable: the line is
``--requirement`` (default the distribution name ``li-adger-adc``; a pinned
``li-adger-adc @ git+https://...`` works where the distribution is not on an index). The
staged module's import of ``metric_adc`` carries the same line as a ``# From:`` comment, which
``evaluate`` shows as the ``pip install`` command when the package is missing (it would
otherwise suggest ``pip install metric_adc``, a package that does not exist).
``evaluate``'s own widget (``launch_gradio_widget``) is not used: it fails with gradio 6.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from li_adger.hub import SPACE_SDK_VERSION, check_repo_id, requirements_txt
from li_adger.io.atomic import atomic_write_text

__all__ = [
    "APP_PY",
    "CARD_OWNER_PLACEHOLDER",
    "DEFAULT_REQUIREMENT",
    "module_source",
    "space_front_matter",
    "stage_metric",
]

DEFAULT_REQUIREMENT = "li-adger-adc"
"""The requirement that installs the ``metric_adc`` package on the Hub (its distribution)."""

CARD_OWNER_PLACEHOLDER = "<owner>"
"""How the card writes the Hub owner: staging writes the Space's id for ``<owner>/adc`` and the
Space's owner for the other ``<owner>/...`` (the dataset, ``<owner>/li-adger``)."""

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


def module_source(source: str, requirement: str = DEFAULT_REQUIREMENT) -> str:
    """The module's source with ``# From: <requirement>`` on each import of ``metric_adc``.

    ``evaluate`` names that requirement in its ``pip install`` hint when the import fails.

    Raises
    ------
    ValueError
        The source never imports ``metric_adc``, or an import of it already has a comment.

    Examples
    --------
    >>> print(module_source("import numpy\\nfrom metric_adc import core\\n"), end="")
    import numpy
    from metric_adc import core  # From: li-adger-adc
    >>> print(module_source("from metric_adc import core\\n", "li-adger-adc @ git+https://x/y"))
    from metric_adc import core  # From: "li-adger-adc @ git+https://x/y"
    <BLANKLINE>
    """
    pattern = re.compile(r"^((?:from|import)\s+metric_adc\b[^\n]*)$", re.M)
    imports = pattern.findall(source)
    if not imports:
        raise ValueError("the evaluate module does not import metric_adc; expected it to")
    if any("#" in line for line in imports):
        raise ValueError(f"expected no comment on the imports of metric_adc (got {imports})")
    # evaluate prints the hint inside single quotes: quote a line with spaces in double ones
    quoted = requirement if shlex.quote(requirement) == requirement else f'"{requirement}"'
    if '"' in requirement:
        quoted = shlex.quote(requirement)
    return pattern.sub(lambda m: f"{m.group(1)}  # From: {quoted}", source)


def stage_metric(dest: str | Path, *, repo_id: str, requirement: str = DEFAULT_REQUIREMENT) -> Path:
    """Write the metric's Hub folder into ``dest`` (created if need be) and return it.

    ``repo_id`` is the Space (``owner/name``): the module file is ``<name>.py`` and the card's
    examples load ``repo_id`` (and the dataset from the same owner). ``requirement`` is the ``requirements.txt`` line that installs
    ``metric_adc``. When ``dest`` has another name than the repository, the module is also
    written as ``<dest name>.py``, the file ``evaluate.load(dest)`` looks for. Neither name
    may contain ``.`` (``evaluate`` imports the module by it).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_metric(pathlib.Path(tempfile.mkdtemp()) / "adc", repo_id="someone/adc",
    ...                    requirement="li-adger-adc @ git+https://example.org/li-adger.git")
    >>> sorted(p.name for p in out.iterdir())
    ['README.md', 'adc.py', 'app.py', 'requirements.txt']
    >>> (out / "requirements.txt").read_text().splitlines()[1]
    'li-adger-adc @ git+https://example.org/li-adger.git'
    >>> card = (out / "README.md").read_text()
    >>> 'evaluate.load("someone/adc")' in card, '"someone/li-adger"' in card, "<owner>" in card
    (True, True, False)
    >>> out = stage_metric(pathlib.Path(tempfile.mkdtemp()) / "staged", repo_id="someone/adc")
    >>> sorted(p.name for p in out.iterdir())
    ['README.md', 'adc.py', 'app.py', 'requirements.txt', 'staged.py']
    """
    module_name = check_repo_id(repo_id).split("/")[1]
    dest = Path(dest)
    for what, name in (("repository name", module_name), ("folder name", dest.resolve().name)):
        if "." in name:
            raise ValueError(
                f"{what} {name!r}: evaluate imports the module of a folder by that name, "
                "which cannot contain '.'; choose a name without '.'"
            )
    dest.mkdir(parents=True, exist_ok=True)
    source = module_source((_MODULE_DIR / "adc.py").read_text(encoding="utf-8"), requirement)
    for name in dict.fromkeys([module_name, dest.resolve().name]):
        atomic_write_text(dest / f"{name}.py", source)
    card = (_MODULE_DIR / "README.md").read_text(encoding="utf-8")
    owner = repo_id.split("/")[0]
    card = card.replace(f"{CARD_OWNER_PLACEHOLDER}/adc", repo_id)
    card = card.replace(f"{CARD_OWNER_PLACEHOLDER}/", f"{owner}/")
    keys = {"sdk": "gradio", "sdk_version": SPACE_SDK_VERSION, "app_file": "app.py"}
    atomic_write_text(dest / "README.md", space_front_matter(card, keys | {"pinned": "false"}))
    template = _MODULE_DIR / "requirements.txt"
    atomic_write_text(
        dest / "requirements.txt",
        requirements_txt(template, default=DEFAULT_REQUIREMENT, requirement=requirement),
    )
    atomic_write_text(dest / "app.py", APP_PY)
    return dest
