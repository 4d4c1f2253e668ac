"""The project inside a Space (li_adger/hub/bundle.py): its wheel, its packages, its pins."""

from __future__ import annotations

import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from li_adger.hub import HubError
from li_adger.hub.bundle import (
    build_wheel,
    pinned_requirements,
    project_table,
    requirements_text,
    unpack_wheel,
)

REPO = Path(__file__).resolve().parents[1]


def _project(root: Path, dependencies: list[str], optional: dict[str, list[str]]) -> Path:
    """A pyproject.toml of the project with these requirements."""
    root.mkdir(parents=True, exist_ok=True)
    lines = [
        "[project]",
        'name = "li-adger-adc"',
        f"dependencies = {dependencies!r}".replace("'", '"'),
    ]
    lines.append("[project.optional-dependencies]")
    lines += [f"{k} = {v!r}".replace("'", '"') for k, v in optional.items()]
    (root / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_a_folder_without_the_project_is_refused(tmp_path):
    with pytest.raises(
        HubError, match=r"pyproject.toml of li-adger-adc: run the push command from a clone"
    ):
        project_table(tmp_path)


def test_pins_are_the_installed_versions_of_the_requirements_and_their_extras(tmp_path):
    root = _project(tmp_path, ["NumPy>=1"], {"a": ["li-adger-adc[b]"], "b": ["scipy>=1", "pyyaml"]})
    expected = [f"numpy=={metadata.version('numpy')}", f"pyyaml=={metadata.version('pyyaml')}",
                f"scipy=={metadata.version('scipy')}"]  # fmt: skip
    assert pinned_requirements(["a"], root) == expected
    assert pinned_requirements([], root) == expected[:1]


@pytest.mark.parametrize(
    ("requirement", "message"),
    [
        ("no-such-distribution-here>=1", r"no-such-distribution-here .* is not installed here"),
        ("numpy<1", r"numpy .* is installed, but pyproject.toml asks for 'numpy<1'"),
    ],
)
def test_a_requirement_that_cannot_be_pinned_is_named(tmp_path, requirement, message):
    with pytest.raises(HubError, match=message):
        pinned_requirements([], _project(tmp_path, [requirement], {}))


def test_an_unknown_extra_is_named(tmp_path):
    with pytest.raises(HubError, match=r"no extra 'gpu' \(it has \['a'\]\)"):
        pinned_requirements(["gpu"], _project(tmp_path, [], {"a": ["scipy"]}))


def test_requirements_text_refuses_a_line_that_is_not_one_requirement():
    with pytest.raises(ValueError, match="one non-empty line"):
        requirements_text("x", ["numpy==1\nscipy==1"])


def test_a_wheel_entry_outside_the_folder_is_refused(tmp_path):
    wheel = tmp_path / "p-1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("../evil.py", "")
    with pytest.raises(HubError, match=r"entry '../evil.py' would be written outside"):
        unpack_wheel(wheel, tmp_path / "out")
    assert not (tmp_path / "evil.py").exists()


def test_building_the_wheel_leaves_the_checkout_as_it_was(tmp_path):
    before = sorted(p.name for p in REPO.iterdir())
    wheel = build_wheel(tmp_path, REPO)
    assert wheel.parent == tmp_path and wheel.name.startswith("li_adger_adc-")
    assert sorted(p.name for p in REPO.iterdir()) == before
    tops = {name.split("/")[0] for name in unpack_wheel(wheel, tmp_path / "unpacked")}
    assert {"li_adger", "metric_adc", "space", "baselines"} <= tops
    assert (tmp_path / "unpacked" / "li_adger" / "data" / "build_report.json").is_file()
