"""The metric's Hub repository: ``python -m metric_adc push REPO_ID`` stages and uploads it.

An ``evaluate`` module on the Hub is a Space (SDK gradio) whose module file is named after the
repository: ``evaluate.load("owner/adc")`` fetches ``adc.py`` from the Space ``owner/adc``.
The staged folder holds::

    <name>.py          the module (metric_adc/adc/adc.py), named after the repo's name
    README.md          the module card, with the Space keys (sdk, app_file, ...) in its front
                       matter and the repository's id in its examples
    requirements.txt   the project's third-party requirements, pinned as tested
    app.py             a small gradio page that shows the card
    li_adger_adc-<version>-py3-none-any.whl
                       the project's wheel, built at staging: what ``pip install`` installs
                       for whoever loads the module
    li_adger/ metric_adc/ baselines/ space/ li_adger_adc-<version>.dist-info/
                       the project's packages, unpacked from that wheel, so that the Space
                       itself imports ``metric_adc`` (:mod:`li_adger.hub.bundle`)

and, when the folder itself has another name than the repository (``--dry-run DIR``), a copy
of the module as ``<folder name>.py``: ``evaluate.load(folder)`` looks for exactly that file,
so the staged folder loads whatever it is called.

The module imports the ``metric_adc`` package (the math is not copied into it), so whoever
loads it needs the project installed. The staged module's import of ``metric_adc`` names the
wheel of the Space by its URL as a ``# From:`` comment, which ``evaluate`` shows as the
``pip install`` command when the package is missing (it would otherwise suggest
``pip install metric_adc``, a package that does not exist). ``--requirement LINE`` installs
the project by that line instead (e.g. ``li-adger-adc @ git+https://...@<commit>``): then no
wheel or package is shipped, and the line goes first in ``requirements.txt`` and into the hint.
``evaluate``'s own widget (``launch_gradio_widget``) is not used: it fails with gradio 6.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from li_adger.hub import SPACE_PYTHON_VERSION, SPACE_SDK_VERSION, check_repo_id
from li_adger.hub.bundle import (
    DISTRIBUTION,
    build_wheel,
    pinned_requirements,
    project_packages,
    requirements_text,
    space_url,
    unpack_wheel,
    wheel_url,
)
from li_adger.io.atomic import atomic_write_text

__all__ = [
    "APP_PY",
    "CARD_OWNER_PLACEHOLDER",
    "module_source",
    "module_urls",
    "space_front_matter",
    "stage_metric",
]

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

_REQUIREMENTS_HEADER = """\
The project itself (li-adger-adc: the packages li_adger, metric_adc, ...) ships in this Space,
unpacked from its wheel, {wheel}, from where app.py and the module
import it; no line installs it. Its third-party requirements, pinned at the versions it was
staged and tested with:"""

_REQUIREMENTS_HEADER_LINE = """\
The project (li-adger-adc: the packages li_adger, metric_adc, ...), then its third-party
requirements, pinned at the versions it was staged and tested with:"""


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


def module_source(source: str, requirement: str) -> str:
    """The module's source with ``# From: <requirement>`` on each import of ``metric_adc``.

    ``evaluate`` names that requirement in its ``pip install`` hint when the import fails.

    Raises
    ------
    ValueError
        The source never imports ``metric_adc``, or an import of it already has a comment.

    Examples
    --------
    >>> print(module_source("import numpy\\nfrom metric_adc import core\\n", "x.whl"), end="")
    import numpy
    from metric_adc import core  # From: x.whl
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


def module_urls(source: str, repo_id: str, *, code_shipped: bool) -> str:
    """The module's source with its ``homepage`` the Space ``repo_id`` and, when the Space
    ships the project's code, the code's folder first among its ``codebase_urls``.

    Examples
    --------
    >>> src = '_HOMEPAGE = "x"\\n_CODEBASE_URLS = ["y"]\\n'
    >>> print(module_urls(src, "someone/adc", code_shipped=True), end="")
    _HOMEPAGE = "https://huggingface.co/spaces/someone/adc"
    _CODEBASE_URLS = ["https://huggingface.co/spaces/someone/adc/tree/main/metric_adc", "y"]
    """
    space = space_url(repo_id)
    out, n_home = re.subn(r'^_HOMEPAGE = "[^"\n]*"$', f'_HOMEPAGE = "{space}"', source, flags=re.M)
    first = f'"{space}/tree/main/metric_adc", ' if code_shipped else ""
    out, n_code = re.subn(r"^_CODEBASE_URLS = \[", f"_CODEBASE_URLS = [{first}", out, flags=re.M)
    if (n_home, n_code) != (1, 1):
        raise ValueError("the evaluate module has no single _HOMEPAGE / _CODEBASE_URLS line")
    return out


def stage_metric(
    dest: str | Path,
    *,
    repo_id: str,
    requirement: str | None = None,
    wheel: str | Path | None = None,
) -> Path:
    """Write the metric's Hub folder into ``dest`` (created if need be) and return it.

    ``repo_id`` is the Space (``owner/name``): the module file is ``<name>.py`` and the card's
    examples load ``repo_id`` (and the dataset from the same owner). The project ships in the
    folder: ``wheel`` (default: built from the checkout, :func:`li_adger.hub.bundle.build_wheel`)
    and its packages, unpacked; ``requirements.txt`` pins the third-party requirements as
    installed here. With ``requirement``, that line installs the project instead and nothing
    of it is shipped. When ``dest`` has another name than the repository, the module is also
    written as ``<dest name>.py``, the file ``evaluate.load(dest)`` looks for. Neither name
    may contain ``.`` (``evaluate`` imports the module by it) or be one of the project's
    top-level names (``metric_adc``, ...).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = stage_metric(pathlib.Path(tempfile.mkdtemp()) / "adc", repo_id="someone/adc",
    ...                    requirement="li-adger-adc @ git+https://example.org/li-adger.git")
    >>> sorted(p.name for p in out.iterdir())
    ['README.md', 'adc.py', 'app.py', 'requirements.txt']
    >>> [r for r in (out / "requirements.txt").read_text().splitlines() if r[0] != "#"][0]
    'li-adger-adc @ git+https://example.org/li-adger.git'
    >>> card = (out / "README.md").read_text()
    >>> 'evaluate.load("someone/adc")' in card, '"someone/li-adger"' in card, "<owner>" in card
    (True, True, False)
    """
    module_name = check_repo_id(repo_id).split("/")[1]
    dest = Path(dest)
    for what, name in (("repository name", module_name), ("folder name", dest.resolve().name)):
        if "." in name:
            raise ValueError(
                f"{what} {name!r}: evaluate imports the module of a folder by that name, "
                "which cannot contain '.'; choose a name without '.'"
            )
        if name in project_packages():
            raise ValueError(
                f"{what} {name!r} is the name of one of the project's packages, which the "
                "Space holds beside the module; choose another name"
            )
    dest.mkdir(parents=True, exist_ok=True)
    pins = pinned_requirements()
    if requirement is None:
        wheel = build_wheel(dest) if wheel is None else Path(shutil.copy2(wheel, dest))
        unpack_wheel(wheel, dest)
        hint = f"{DISTRIBUTION} @ {wheel_url(repo_id, wheel.name)}"
        header = _REQUIREMENTS_HEADER.format(wheel=wheel.name)
    else:
        hint, header, pins = requirement, _REQUIREMENTS_HEADER_LINE, [requirement, *pins]
    source = module_source((_MODULE_DIR / "adc.py").read_text(encoding="utf-8"), hint)
    source = module_urls(source, repo_id, code_shipped=requirement is None)
    for name in dict.fromkeys([module_name, dest.resolve().name]):
        atomic_write_text(dest / f"{name}.py", source)
    card = (_MODULE_DIR / "README.md").read_text(encoding="utf-8")
    owner = repo_id.split("/")[0]
    card = card.replace(f"{CARD_OWNER_PLACEHOLDER}/adc", repo_id)
    card = card.replace(f"{CARD_OWNER_PLACEHOLDER}/", f"{owner}/")
    keys = {"sdk": "gradio", "sdk_version": SPACE_SDK_VERSION,
            "python_version": f'"{SPACE_PYTHON_VERSION}"', "app_file": "app.py"}  # fmt: skip
    atomic_write_text(dest / "README.md", space_front_matter(card, keys | {"pinned": "false"}))
    atomic_write_text(dest / "requirements.txt", requirements_text(header, pins))
    atomic_write_text(dest / "app.py", APP_PY)
    return dest
