"""The project inside a Space: its packages, and its third-party requirements pinned as tested.

A Space installs what its ``requirements.txt`` names before its files are copied in (the
builder mounts that one file), so the file cannot name a wheel or a folder of the Space, and
the project (the distribution ``li-adger-adc``) is on no package index. A staged Space
therefore carries the project itself: :func:`build_wheel` builds the project's wheel from the
checkout and :func:`unpack_wheel` writes its packages (``li_adger/``, ``metric_adc/``, ...,
with their data files) into the Space's folder, from where the Space's ``app.py`` imports
them. Its ``requirements.txt`` (:func:`pinned_requirements`, :func:`requirements_text`)
names only third-party packages, each pinned at the version installed where it was staged
and tested.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from li_adger.hub import HubError

__all__ = [
    "DISTRIBUTION",
    "PROJECT_ROOT",
    "build_wheel",
    "pinned_requirements",
    "project_packages",
    "project_table",
    "requirements_text",
    "space_url",
    "unpack_wheel",
    "wheel_url",
]

DISTRIBUTION = "li-adger-adc"
"""The project's distribution name (``[project] name`` of ``pyproject.toml``)."""

PROJECT_ROOT = Path(__file__).resolve().parents[2]
"""Where the checkout would be: the folder above the ``li_adger`` package."""

_TOP_FILES = ("pyproject.toml", "README.md", "LICENSE")
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".pytest_cache")


def project_table(root: str | Path = PROJECT_ROOT) -> dict:
    """The ``[project]`` table of the checkout's ``pyproject.toml``.

    Raises
    ------
    HubError
        ``root`` holds no ``pyproject.toml`` of the project (an installed copy has none).

    Examples
    --------
    >>> project_table()["name"]
    'li-adger-adc'
    """
    path = Path(root) / "pyproject.toml"
    table = (
        tomllib.loads(path.read_text(encoding="utf-8")).get("project", {}) if path.is_file() else {}
    )
    if table.get("name") != DISTRIBUTION:
        raise HubError(
            f"staging a Space builds the project from its source checkout, and {path} is not "
            f"the pyproject.toml of {DISTRIBUTION}: run the push command from a clone of the "
            "project (an installed copy cannot stage a Space)"
        )
    return table


def project_packages(root: str | Path = PROJECT_ROOT) -> list[str]:
    """The top-level packages the wheel holds (``[tool.setuptools] packages.find.include``).

    Examples
    --------
    >>> project_packages()
    ['baselines', 'li_adger', 'metric_adc', 'space']
    """
    project_table(root)
    tool = tomllib.loads((Path(root) / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    include = tool["setuptools"]["packages"]["find"]["include"]
    return sorted({pattern.rstrip("*") for pattern in include})


def _fingerprint(src: Path) -> str:
    """A digest of the paths, sizes and contents of the files under ``src``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(src).as_posix()}\0{path.stat().st_size}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


_BUILT: dict[str, Path] = {}
"""Wheels built in this process, by the fingerprint of the sources they were built from."""


def build_wheel(dest: str | Path, root: str | Path = PROJECT_ROOT) -> Path:
    """Build the project's wheel from the checkout at ``root`` into ``dest``; return its path.

    The build runs on a copy of the checkout's packages and top-level files, so it leaves
    nothing (``build/``, ``*.egg-info``) in the checkout, and needs no network: it uses the
    ``setuptools`` of this environment (the ``dev`` extra has it). Within one process, a
    wheel of the same sources is built once and copied.

    Raises
    ------
    HubError
        ``root`` is not the project's checkout, or the build fails (pip's last lines named).
    """
    root, dest = Path(root), Path(dest)
    project_table(root)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hub-wheel-") as tmp:
        src = Path(tmp) / "src"
        for name in project_packages(root):
            shutil.copytree(root / name, src / name, ignore=_SKIP)
        for name in _TOP_FILES:
            shutil.copy2(root / name, src / name)
        key = _fingerprint(src)
        if key in _BUILT and _BUILT[key].is_file():
            return Path(shutil.copy2(_BUILT[key], dest / _BUILT[key].name))
        out = Path(tempfile.mkdtemp(prefix="hub-wheel-"))
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
             "--no-index", "-q", "-w", str(out)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        wheels = sorted(out.glob("*.whl")) if done.returncode == 0 else []
        if len(wheels) != 1:
            tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            raise HubError(
                f"building the wheel of {DISTRIBUTION} from {root} failed (pip wheel exited "
                f"{done.returncode}; the build needs setuptools, the dev extra): {tail}"
            )
        _BUILT[key] = wheels[0]
        return Path(shutil.copy2(wheels[0], dest / wheels[0].name))


def unpack_wheel(wheel: str | Path, dest: str | Path) -> list[str]:
    """Write the files of ``wheel`` (its packages and its ``.dist-info``) into ``dest``.

    Returns the top-level names written, sorted. A folder on ``sys.path`` that holds them
    imports the packages as an installed wheel would, data files included.

    Examples
    --------
    >>> import tempfile, zipfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> with zipfile.ZipFile(tmp / "p-1-py3-none-any.whl", "w") as z:
    ...     z.writestr("p/__init__.py", "X = 1\\n"); z.writestr("p-1.dist-info/METADATA", "")
    >>> unpack_wheel(tmp / "p-1-py3-none-any.whl", tmp / "out")
    ['p', 'p-1.dist-info']
    """
    dest = Path(dest)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for name in names:
            if name.startswith("/") or ".." in Path(name).parts:
                raise HubError(f"{wheel}: entry {name!r} would be written outside {dest}")
        archive.extractall(dest)
    return sorted({Path(name).parts[0] for name in names})


def space_url(repo_id: str) -> str:
    """The page of the Space ``repo_id`` on the Hub.

    Examples
    --------
    >>> space_url("someone/adc")
    'https://huggingface.co/spaces/someone/adc'
    """
    return f"https://huggingface.co/spaces/{repo_id}"


def wheel_url(repo_id: str, wheel_name: str) -> str:
    """The URL of a file of the Space ``repo_id``: a direct reference that pip installs.

    Examples
    --------
    >>> wheel_url("someone/adc", "li_adger_adc-0.1.0-py3-none-any.whl")
    'https://huggingface.co/spaces/someone/adc/resolve/main/li_adger_adc-0.1.0-py3-none-any.whl'
    """
    return f"{space_url(repo_id)}/resolve/main/{wheel_name}"


def _requirements(table: dict, extras: Iterable[str]) -> list[str]:
    """The project's requirement strings for ``extras``, its self-references expanded."""
    from packaging.requirements import Requirement

    optional = table.get("optional-dependencies", {})
    out: list[str] = list(table.get("dependencies", []))
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        if extra not in optional:
            raise HubError(f"pyproject.toml has no extra {extra!r} (it has {sorted(optional)})")
        seen.add(extra)
        for line in optional[extra]:
            req = Requirement(line)
            if req.name == DISTRIBUTION:
                todo.extend(req.extras)
            else:
                out.append(line)
    return out


def pinned_requirements(extras: Iterable[str] = (), root: str | Path = PROJECT_ROOT) -> list[str]:
    """The project's third-party requirements with ``extras``, each pinned (``name==version``)
    at the version installed in this environment, sorted by name.

    Raises
    ------
    HubError
        A requirement is not installed here, or its installed version is outside the range
        ``pyproject.toml`` asks for: staging pins what was tested, so it must be installed.

    Examples
    --------
    >>> pins = pinned_requirements(["space"])
    >>> any(p.startswith("gradio==") for p in pins), any(p.startswith("torch") for p in pins)
    (True, False)
    """
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins: dict[str, str] = {}
    for line in _requirements(project_table(root), extras):
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate():
            continue
        name = canonicalize_name(req.name)
        try:
            version = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            raise HubError(
                f"{req.name} ({line!r} in pyproject.toml) is not installed here: staging pins "
                "each requirement at the version installed and tested here; install the "
                f"project with its extras ({', '.join(extras) or 'none'}) first"
            ) from None
        if not req.specifier.contains(version, prereleases=True):
            raise HubError(
                f"{req.name} {version} is installed, but pyproject.toml asks for {line!r}: "
                "install a version in that range before staging"
            )
        pins[name] = f"{name}=={version}"
    return [pins[name] for name in sorted(pins)]


def requirements_text(header: str, lines: Iterable[str]) -> str:
    """A ``requirements.txt``: ``header`` as comment lines, then one requirement a line.

    Examples
    --------
    >>> print(requirements_text("what the app needs", ["numpy==2.0.0"]), end="")
    # what the app needs
    numpy==2.0.0
    """
    comments = [f"# {line}".rstrip() for line in header.strip().splitlines()]
    lines = list(lines)
    for line in lines:
        if not line.strip() or "\n" in line:
            raise ValueError(f"a requirement must be one non-empty line (got {line!r})")
    return "\n".join([*comments, *lines]) + "\n"
