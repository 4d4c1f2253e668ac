"""What the README, the docs and the cards say about the published project holds when tried.

- No doc, card or install hint names a bare package-index install of the project (it is on no
  index): every ``pip install`` of ``li-adger-adc`` is a direct reference (``… @ URL``).
- The README's speed figures are the last run that docs/speed.md records.
- The dataset card's ``dataset_info`` splits count the rows of the data files.
- Each staged card links the code, at paths the staged Spaces hold.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from li_adger.builder.build import data_files
from li_adger.hub import staged_files
from li_adger.hub.bundle import project_packages

REPO = Path(__file__).resolve().parents[1]

_BARE_INSTALL = re.compile(
    r"pip3?\s+install\s+(?:-\S+\s+)*[\"']?li-adger-adc(?:\[[^\]]*\])?(?![\w\[-])[\"']?(?!\s*@)"
)
"""``pip install li-adger-adc`` (options, extras and quotes allowed) not followed by ``@``."""


def _texts() -> dict[str, str]:
    """Every doc and card, and the packages' modules and files (install hints live there)."""
    paths = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    paths += [REPO / "scripts" / "setup.sh"]
    for package in [*project_packages(), "tools"]:
        paths += sorted(
            p for p in (REPO / package).rglob("*") if p.suffix in {".md", ".py", ".txt"}
        )
    return {p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8") for p in paths}


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ('pip install "li-adger-adc[all]"', True),
        ("`pip install li-adger-adc`;", True),
        ("pip install 'li-adger-adc[onnx]'", True),
        ('pip install -U "li-adger-adc" lm-eval', True),
        ('pip install "li-adger-adc[all] @ git+https://example.org/x.git@abc"', False),
        (
            'pip install "li-adger-adc @ https://huggingface.co/spaces/a/b/resolve/main/x.whl"',
            False,
        ),
        ('pip install ".[all]"', False),
        ("pip install li-adger-adc-extras", False),
    ],
)
def test_the_bare_install_pattern(text, bare):
    assert bool(_BARE_INSTALL.search(text)) is bare


def test_no_doc_card_or_hint_names_a_bare_index_install_of_the_project():
    texts = _texts()
    assert {"README.md", "li_adger/README.md", "metric_adc/adc/README.md",
            "space/README.md", "metric_adc/harness/README.md", "docs/harness.md"} <= set(texts)  # fmt: skip
    found = [
        f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for name, text in texts.items()
        for m in _BARE_INSTALL.finditer(text)
    ]
    assert not found, "the project is on no package index:\n" + "\n".join(found)
    requirements = (REPO / "metric_adc" / "adc" / "requirements.txt").read_text().splitlines()
    assert not [r for r in requirements if r.strip().startswith("li-adger-adc")]


def test_pypi_is_named_only_as_once_published():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = [p for p in re.split(r"\n\s*\n", readme) if "PyPI" in p and "li-adger-adc" in p]
    assert lines and all("once published" in p for p in lines)


def _last_speed_run() -> str:
    speed = (REPO / "docs" / "speed.md").read_text(encoding="utf-8")
    results = speed.split("\n## Results\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```\n(.*?)```", results, re.S).group(1)


def test_the_readme_speed_figures_are_the_last_recorded_run():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    run = _last_speed_run()
    section = readme.split("\n## Speed\n", 1)[1].split("\n## ", 1)[0]
    (ratios,) = [line for line in run.splitlines() if line.startswith("ratios: ")]
    assert f"```\n{ratios}\n```" in section
    per_tool = section.split("```", 2)[2]
    numbers = re.findall(r"\d+\.\d+", per_tool)
    assert len(numbers) >= 4 and all(n in run for n in numbers), numbers
    assert "## Benchmarks" not in readme  # the earlier figures (causal 1.50x) are gone


def _front_matter(text: str) -> dict:
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def test_dataset_card_splits_count_the_rows_of_the_data_files():
    card = _front_matter((REPO / "li_adger" / "README.md").read_text(encoding="utf-8"))
    rows = {name: pq.ParquetFile(path).metadata.num_rows for name, path in data_files().items()}
    # num_bytes as `datasets` counts a split: the Arrow table's size in memory (without it,
    # `datasets` calls the card's splits malformed and ignores them)
    size = {name: pq.read_table(path).nbytes for name, path in data_files().items()}
    assert {i["config_name"]: i["splits"][0]["num_bytes"] for i in card["dataset_info"]} == size
    splits = {
        info["config_name"]: {s["name"]: s["num_examples"] for s in info["splits"]}
        for info in card["dataset_info"]
    }
    configured = {c["config_name"]: {f["split"] for f in c["data_files"]} for c in card["configs"]}
    assert splits == {name: {"test": n} for name, n in rows.items()}
    assert {name: set(s) for name, s in splits.items()} == configured
    assert rows["sentences"] == 4178 and rows["pairs"] == 2393  # the card's own prose


_CODE_LINK = re.compile(r"https://huggingface\.co/spaces/([\w.-]+/[\w.-]+)/tree/main/([\w./-]+)")
_FILE_LINK = re.compile(r"https://huggingface\.co/spaces/([\w.-]+/[\w.-]+)/resolve/main/([\w.-]+)")
_FILE_LINK_FULL = re.compile(r"https://huggingface\.co/spaces/[\w.-]+/[\w.-]+/resolve/main/[\w.-]+")


def test_each_staged_card_links_the_code_its_space_ships(tmp_path):
    from li_adger.__main__ import main as li_adger_main
    from metric_adc.__main__ import main as metric_main
    from space.__main__ import main as space_main

    staged = {
        "someone/li-adger": tmp_path / "dataset",
        "someone/adc": tmp_path / "adc",
        "someone/adc-li-adger": tmp_path / "app",
    }
    assert (
        li_adger_main(["push", "someone/li-adger", "--dry-run", str(staged["someone/li-adger"])])
        == 0
    )
    assert metric_main(["push", "someone/adc", "--dry-run", str(staged["someone/adc"])]) == 0
    assert (
        space_main(
            ["push", "someone/adc-li-adger", "--dry-run", str(staged["someone/adc-li-adger"])]
        )
        == 0
    )
    files = {repo: set(staged_files(folder)) for repo, folder in staged.items()}
    for repo, folder in staged.items():
        card = (folder / "README.md").read_text(encoding="utf-8")
        assert "<owner>" not in card and "<space-id>" not in card, repo
        links = _CODE_LINK.findall(card)
        assert links, f"the card of {repo} links no code"
        for space, path in links:
            assert space in files and space != "someone/li-adger", (repo, space)
            assert any(f.startswith(path.rstrip("/") + "/") for f in files[space]), (repo, path)
        for space, name in _FILE_LINK.findall(card):  # the wheel the card says to install
            assert name in files[space], (repo, name)
    wheel_urls = set(_FILE_LINK_FULL.findall((staged["someone/adc"] / "README.md").read_text()))
    hints = set(_FILE_LINK_FULL.findall((staged["someone/adc"] / "adc.py").read_text()))
    assert len(wheel_urls) == 1 and hints == wheel_urls  # the card's command is evaluate's hint
