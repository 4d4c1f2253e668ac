"""Publishing to the Hugging Face Hub, offline: the staged folders (``--dry-run DIR``), loaded
from another directory as the Hub would serve them, and the calls a fake ``HfApi`` receives
(``create_repo`` / ``upload_folder`` recorded, nothing sent)."""

from __future__ import annotations

import ast
import doctest
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import metric_adc
from li_adger import hub
from li_adger.__main__ import main as li_adger_main
from li_adger.hub.dataset import DATASET_FILES
from metric_adc.__main__ import main as metric_main
from space.__main__ import main as space_main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = {
    "predictions_good": [-10.0, -12.0, -9.0, -8.0],
    "predictions_bad": [-11.0, -11.5, -15.0, -9.5],
    "references_good": [1.2, 0.9, 1.1, 0.4],
    "references_bad": [-0.8, 0.1, -1.0, -0.2],
}
# By hand: the model prefers the acceptable member in pairs 1, 3, 4 (BLiMP 3/4). Its scores
# have mean -10.75 and population sd sqrt(32.5 / 8) = 2.0156, so its deltas (1, -0.5, 6, 1.5)
# become 0.496, -0.248, 2.977, 0.744 against human deltas 2.0, 0.8, 2.1, 0.6: within 1 of the
# human delta with the same sign are pairs 3 and 4 (ADC(1) = 1/2), within 0.5 pair 4 only.
EXAMPLE_BLIMP, EXAMPLE_ADC = 0.75, {"0.5": 0.25, "1.0": 0.5}


WHEEL = "li_adger_adc-0.1.0-py3-none-any.whl"
PROJECT = ["baselines", "li_adger", "li_adger_adc-0.1.0.dist-info", "metric_adc", "space"]
"""The project's packages (and its wheel's metadata), unpacked into a staged Space."""


def _tops(folder) -> list[str]:
    """The top-level names of a staged folder, sorted."""
    return sorted(p.name for p in Path(folder).iterdir())


def _front_matter(path) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), f"{path} has no front matter"
    return yaml.safe_load(text.split("---\n")[1])


@pytest.fixture
def fake_hub(monkeypatch):
    """``HfApi.create_repo`` / ``upload_folder`` replaced by recorders; HF_HUB_OFFLINE unset."""
    from huggingface_hub import HfApi

    calls: list[tuple[str, dict]] = []

    def create_repo(self, repo_id, **kwargs):
        calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))
        return f"https://huggingface.co/{repo_id}"

    def upload_folder(self, **kwargs):
        files = hub.staged_files(kwargs["folder_path"])  # the folder is temporary: list it now
        calls.append(("upload_folder", {**kwargs, "files": files}))
        return "commit"

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(HfApi, "create_repo", create_repo)
    monkeypatch.setattr(HfApi, "upload_folder", upload_folder)
    return calls


# ------------------------------------------------------------------------------ li_adger/hub/__init__.py
@pytest.mark.parametrize(
    "repo_id", ["li-adger", "a/b/c", "/x", "owner/", "own er/x", "owner/-x", "o/x--y", "o/x..y"]
)
def test_malformed_repo_ids_are_refused(repo_id, tmp_path):
    with pytest.raises(hub.HubError, match="expected 'owner/name'"):
        hub.publish_folder(tmp_path, repo_id, repo_type="dataset", dry_run_dir=tmp_path / "o")


def test_offline_says_so_and_suggests_a_dry_run(tmp_path, monkeypatch):
    (tmp_path / "README.md").write_text("x")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(hub.HubError, match=r"HF_HUB_OFFLINE is set.*--dry-run DIR"):
        hub.publish_folder(tmp_path, "someone/x", repo_type="dataset")


def test_missing_huggingface_hub_is_named(tmp_path, monkeypatch):
    (tmp_path / "README.md").write_text("x")
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)  # makes the import fail
    with pytest.raises(hub.HubError, match=r"needs the huggingface_hub package"):
        hub.publish_folder(tmp_path, "someone/x", repo_type="dataset")
    # a dry run needs neither the package nor a network
    r = hub.publish_folder(tmp_path, "someone/x", repo_type="dataset", dry_run_dir=tmp_path / "o")
    assert r.files == ["README.md"] and not r.uploaded


def test_dry_run_never_overwrites_a_folder_with_files(tmp_path):
    (tmp_path / "staged").mkdir()
    (tmp_path / "staged" / "README.md").write_text("new")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(hub.HubError, match="not an empty folder"):
        hub.publish_folder(
            tmp_path / "staged", "someone/x", repo_type="space", dry_run_dir=tmp_path / "mine"
        )
    assert hub.staged_files(tmp_path / "mine") == ["notes.txt"]


def test_upload_goes_through_create_repo_then_upload_folder(tmp_path, fake_hub):
    (tmp_path / "README.md").write_text("x")
    r = hub.publish_folder(
        tmp_path, "someone/x", repo_type="space", private=True, token="t", commit_message="m"
    )
    assert r.uploaded and r.url == "https://huggingface.co/someone/x"
    (c_name, create), (u_name, upload) = fake_hub
    assert (c_name, u_name) == ("create_repo", "upload_folder")
    assert create == {"repo_id": "someone/x", "repo_type": "space", "private": True,
                      "exist_ok": True, "token": "t", "space_sdk": "gradio"}  # fmt: skip
    assert upload["repo_type"] == "space" and upload["commit_message"] == "m"
    assert upload["files"] == ["README.md"]


# ------------------------------------------------------------------------------ dataset
def test_dataset_dry_run_stages_the_card_and_the_data_only(tmp_path):
    out = tmp_path / "li-adger"
    assert li_adger_main(["push", "someone/li-adger", "--dry-run", str(out)]) == 0
    assert hub.staged_files(out) == list(DATASET_FILES)
    report = json.loads((out / "data" / "build_report.json").read_text())
    assert report["sources"] and all("location" not in s for s in report["sources"])
    assert _front_matter(out / "README.md")["configs"][1]["data_files"][0]["path"] == (
        "data/pairs.parquet"
    )
    import datasets

    pairs = datasets.load_dataset(
        str(out), "pairs", split="test", cache_dir=str(tmp_path / "cache")
    )
    assert pairs.num_rows == 2393
    sentences = datasets.load_dataset(
        str(out), "sentences", split="test", cache_dir=str(tmp_path / "cache")
    )
    assert sentences.num_rows == 4178


def test_dataset_push_uploads_a_dataset_repo(fake_hub, capsys):
    assert li_adger_main(["push", "someone/li-adger", "--private"]) == 0
    (_, create), (_, upload) = fake_hub
    assert create["repo_type"] == upload["repo_type"] == "dataset" and create["private"] is True
    assert upload["repo_id"] == "someone/li-adger" and upload["files"] == list(DATASET_FILES)
    assert "uploaded 5 files to https://huggingface.co/someone/li-adger" in capsys.readouterr().out


def test_dataset_push_offline_is_one_line_error(monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert li_adger_main(["push", "someone/li-adger"]) == 1
    assert capsys.readouterr().err.startswith("error: HF_HUB_OFFLINE is set")


# ------------------------------------------------------------------------------ metric
def test_metric_dry_run_is_an_evaluate_space_that_loads_offline(tmp_path):
    out = tmp_path / "adc"
    line = "li-adger-adc @ git+https://example.org/owner/li-adger.git@abc123"
    assert metric_main(["push", "someone/adc", "--dry-run", str(out), "--requirement", line]) == 0
    assert hub.staged_files(out) == ["README.md", "adc.py", "app.py", "requirements.txt"]
    meta = _front_matter(out / "README.md")
    assert meta["sdk"] == "gradio" and (out / meta["app_file"]).is_file()
    assert meta["sdk_version"] == hub.SPACE_SDK_VERSION and "evaluate" in meta["tags"]
    assert meta["python_version"] == hub.SPACE_PYTHON_VERSION
    reqs = [r for r in (out / "requirements.txt").read_text().splitlines() if r[:1] != "#"]
    assert reqs[0] == line and "li-adger-adc" not in reqs[1:]
    assert "launch_gradio_widget" not in (out / "app.py").read_text()
    import evaluate

    got = evaluate.load(str(out)).compute(**EXAMPLE)
    assert got["blimp"] == EXAMPLE_BLIMP
    assert {k: got["adc"][k] for k in EXAMPLE_ADC} == EXAMPLE_ADC


def test_metric_module_file_is_named_after_the_repo(tmp_path):
    out = tmp_path / "li-adger-adc"
    assert metric_main(["push", "someone/li-adger-adc", "--dry-run", str(out)]) == 0
    assert (out / "li-adger-adc.py").is_file() and not (out / "adc.py").exists()
    assert _tops(out) == sorted(
        ["README.md", "app.py", "li-adger-adc.py", "requirements.txt", WHEEL, *PROJECT]
    )
    reqs = [r for r in (out / "requirements.txt").read_text().splitlines() if r[:1] != "#"]
    assert reqs and all(re.fullmatch(r"[a-z0-9-]+==[0-9][^ ]*", r) for r in reqs)
    assert not [r for r in reqs if r.startswith(("li-adger-adc", "gradio", "torch"))]
    assert "li_adger/data/build_report.json" in hub.staged_files(out)
    assert "space/results/ceiling.json" in hub.staged_files(out)


def test_metric_name_of_a_shipped_package_is_refused(tmp_path, capsys):
    assert metric_main(["push", "someone/metric_adc", "--dry-run", str(tmp_path / "m")]) != 0
    assert "repository name 'metric_adc' is the name of one of the project's packages" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("requirement", [None, "li-adger-adc @ git+https://example.org/x.git@abc"])
def test_metric_info_names_its_homepage_and_code(tmp_path, monkeypatch, requirement):
    import evaluate

    thesis_code = "https://github.com/hjvm/acceptability_delta_criterion"
    info = metric_adc.load_metric().info  # the module as it is in the package
    assert info.homepage == "https://dspace.mit.edu/handle/1721.1/139986"
    assert info.codebase_urls == [thesis_code]
    out = tmp_path / "adc"
    extra = [] if requirement is None else ["--requirement", requirement]
    assert metric_main(["push", "someone/adc", "--dry-run", str(out), *extra]) == 0
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    info = evaluate.load(str(out)).info
    assert info.homepage == "https://huggingface.co/spaces/someone/adc"
    shipped = "https://huggingface.co/spaces/someone/adc/tree/main/metric_adc"
    if requirement is None:
        assert info.codebase_urls == [shipped, thesis_code]
        assert (out / "metric_adc" / "core.py").is_file()
    else:
        assert info.codebase_urls == [thesis_code] and not (out / "metric_adc").exists()


def test_metric_folder_of_another_name_holds_the_module_under_both_names(tmp_path):
    out = tmp_path / "staged metric"
    assert metric_main(["push", "someone/adc", "--dry-run", str(out)]) == 0
    assert _tops(out) == sorted(
        ["README.md", "adc.py", "app.py", "requirements.txt", "staged metric.py", WHEEL, *PROJECT]
    )
    assert (out / "staged metric.py").read_bytes() == (out / "adc.py").read_bytes()


def test_metric_folder_name_evaluate_cannot_import_is_refused(tmp_path, capsys):
    assert metric_main(["push", "someone/adc", "--dry-run", str(tmp_path / "adc.v2")]) != 0
    err = capsys.readouterr().err
    assert "folder name 'adc.v2'" in err and "cannot contain '.'" in err
    assert not (tmp_path / "adc.v2").exists()


@pytest.mark.parametrize(
    ("requirement", "hint"),
    [
        (
            None,
            f'pip install "li-adger-adc @ https://huggingface.co/spaces/someone/adc/resolve/main/{WHEEL}"',
        ),
        ("li-adger-adc @ git+https://example.org/x.git@abc", 'pip install "li-adger-adc @ git+'),
    ],
)
def test_without_the_project_evaluate_names_the_real_distribution(
    tmp_path, monkeypatch, requirement, hint
):
    import evaluate

    out = tmp_path / "adc"
    extra = [] if requirement is None else ["--requirement", requirement]
    assert metric_main(["push", "someone/adc", "--dry-run", str(out), *extra]) == 0
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    monkeypatch.setitem(sys.modules, "metric_adc", None)  # as if it were not installed
    with pytest.raises(ImportError) as err:
        evaluate.load(str(out))
    assert hint in str(err.value) and "pip install metric_adc" not in str(err.value)


def test_metric_space_app_shows_the_card(tmp_path):
    gr = pytest.importorskip("gradio")
    out = tmp_path / "adc"
    metric_main(["push", "someone/adc", "--dry-run", str(out)])
    scope = {"__file__": str(out / "app.py"), "__name__": "staged_app"}
    exec(compile((out / "app.py").read_text(), str(out / "app.py"), "exec"), scope)
    assert isinstance(scope["demo"], gr.Blocks)
    assert (
        scope["body"].lstrip().startswith("# Metric Card for ADC")
        and "## Publishing" in scope["body"]
    )


def test_metric_push_uploads_a_space(fake_hub):
    assert metric_main(["push", "someone/adc"]) == 0
    (_, create), (_, upload) = fake_hub
    assert create["repo_type"] == "space" and create["space_sdk"] == "gradio"
    files = upload["files"]
    assert {"README.md", "adc.py", "app.py", "requirements.txt", WHEEL} <= set(files)
    assert "metric_adc/core.py" in files and "li_adger/data/build_report.json" in files


# ------------------------------------------------------------------------------ space
def test_space_dry_run_layout_and_front_matter(tmp_path):
    out = tmp_path / "space"
    assert space_main(["push", "someone/adc-li-adger", "--dry-run", str(out)]) == 0
    assert _tops(out) == sorted(["README.md", "app.py", "requirements.txt", "space.png", *PROJECT])
    meta = _front_matter(out / "README.md")
    assert meta["sdk"] == "gradio" and (out / meta["app_file"]).is_file()
    assert meta["sdk_version"] == hub.SPACE_SDK_VERSION
    assert meta["python_version"] == hub.SPACE_PYTHON_VERSION
    assert "space/results/thesis/bnc-trigram-slor.csv" in hub.staged_files(out)
    readme = (out / "README.md").read_text()
    assert "](space.png)" in readme and "](../" not in readme
    reqs = [r for r in (out / "requirements.txt").read_text().splitlines() if r[:1] != "#"]
    assert f"gradio=={hub.SPACE_SDK_VERSION}" in reqs
    assert all(re.fullmatch(r"[a-z0-9-]+==[0-9][^ ]*", r) for r in reqs)
    assert not [r for r in reqs if r.startswith(("li-adger-adc", "torch", "./"))]
    tree = ast.parse((out / "app.py").read_text())
    imports = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert "space.__main__" in imports


def test_space_requirement_is_configurable(tmp_path):
    out = tmp_path / "space"
    line = "li-adger-adc[space] @ git+https://example.org/owner/li-adger.git@abc123"
    assert space_main(["push", "someone/s", "--dry-run", str(out), "--requirement", line]) == 0
    assert line in (out / "requirements.txt").read_text().splitlines()


def test_space_without_screenshot_drops_the_image(tmp_path):
    from space.publish import stage_space

    out = stage_space(tmp_path / "s", screenshot=tmp_path / "absent.png")
    assert _tops(out) == sorted(["README.md", "app.py", "requirements.txt", *PROJECT])
    assert "![" not in (out / "README.md").read_text()


def test_space_push_uploads_a_gradio_space(fake_hub):
    assert space_main(["push", "someone/adc-li-adger"]) == 0
    (_, create), (_, upload) = fake_hub
    assert create["repo_type"] == "space" and create["space_sdk"] == "gradio"
    assert {"README.md", "app.py", "requirements.txt", "space.png"} <= set(upload["files"])
    assert "space/__main__.py" in upload["files"]


# ------------------------------------------------------------------ every staged tree, as served
_SERVE = r"""
import json, re, runpy, sys
from pathlib import Path

import evaluate
from datasets import load_dataset

dataset, metric, space = (Path(a) for a in sys.argv[1:4])
out = {}
out["pairs"] = load_dataset(str(dataset), "pairs", split="test").num_rows
out["sentences"] = load_dataset(str(dataset), "sentences", split="test").num_rows
# the dataset card's Hub snippet, with the repository id pointing at the staged folder
card = (dataset / "README.md").read_text(encoding="utf-8")
code, expected = re.search(
    r"From the Hugging Face Hub:.*?```python\n(.*?)```\s*```text\n(.*?)```", card, re.S
).groups()
out["card_code_uses_repo"] = '"someone/li-adger"' in code
printed = []
exec(code.replace('"someone/li-adger"', repr(str(dataset))),
     {"print": lambda *a: printed.append(" ".join(map(str, a)))})
out["card_output_matches"] = printed == expected.splitlines()
result = evaluate.load(str(metric)).compute(
    predictions_good=[-10.0, -12.0, -9.0, -8.0], predictions_bad=[-11.0, -11.5, -15.0, -9.5],
    references_good=[1.2, 0.9, 1.1, 0.4], references_bad=[-0.8, 0.1, -1.0, -0.2])
out["blimp"], out["adc"] = result["blimp"], result["adc"]
app = runpy.run_path(str(space / "app.py"), run_name="staged_space")  # imports, does not serve
out["space_main"] = callable(app["main"])
print(json.dumps(out))
"""


def _stage_all(root: Path) -> tuple[Path, Path, Path]:
    dataset, metric, space = root / "the data set", root / "metric", root / "my app"
    assert li_adger_main(["push", "someone/li-adger", "--dry-run", str(dataset)]) == 0
    assert metric_main(["push", "someone/adc", "--dry-run", str(metric)]) == 0
    assert space_main(["push", "someone/adc-li-adger", "--dry-run", str(space)]) == 0
    return dataset, metric, space


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1",
            "HF_HOME": str(tmp_path / "hf"), "HF_DATASETS_CACHE": str(tmp_path / "hf" / "ds"),
            "HF_MODULES_CACHE": str(tmp_path / "hf" / "modules")}  # fmt: skip


def test_every_staged_tree_loads_from_another_directory(tmp_path):
    dataset, metric, space = _stage_all(tmp_path / "staged")
    assert _tops(space) == sorted(
        ["README.md", "app.py", "requirements.txt", "space.png", *PROJECT]
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", _SERVE, str(dataset), str(metric), str(space)],
        cwd=elsewhere, env=_env(tmp_path), capture_output=True, text=True, timeout=600,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["pairs"] == 2393 and got["sentences"] == 4178
    assert got["card_code_uses_repo"] and got["card_output_matches"]
    assert got["blimp"] == EXAMPLE_BLIMP
    assert {k: got["adc"][k] for k in EXAMPLE_ADC} == EXAMPLE_ADC
    assert got["space_main"]


def test_the_staged_metric_card_examples_run_against_the_staged_trees(tmp_path):
    dataset, metric, _ = _stage_all(tmp_path / "staged")
    card = (metric / "README.md").read_text(encoding="utf-8")
    assert "<owner>" not in card and card.count('"someone/adc"') >= 2
    card = card.replace('"someone/adc"', repr(str(metric)))
    card = card.replace('"someone/li-adger"', repr(str(dataset)))
    examples = tmp_path / "elsewhere" / "card.md"
    examples.parent.mkdir()
    examples.write_text(card, encoding="utf-8")
    assert len(doctest.DocTestParser().get_examples(card)) >= 10
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "--doctest-glob=card.md", "-o", "doctest_optionflags=NUMBER ELLIPSIS NORMALIZE_WHITESPACE",
         "--rootdir", str(examples.parent), str(examples)],
        cwd=examples.parent, env=_env(tmp_path), capture_output=True, text=True, timeout=600,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:]
    assert re.search(r"\b1 passed\b", done.stdout)
