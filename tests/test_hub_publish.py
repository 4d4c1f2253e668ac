"""Publishing to the Hugging Face Hub, offline: the staged folders (``--dry-run DIR``) and the
calls a fake ``HfApi`` receives (``create_repo`` / ``upload_folder`` recorded, nothing sent)."""

from __future__ import annotations

import ast
import json
import sys

import pytest
import yaml

from li_adger import hub
from li_adger.__main__ import main as li_adger_main
from li_adger.publish import DATASET_FILES
from metric_adc.__main__ import main as metric_main
from space.__main__ import main as space_main

EXAMPLE = {
    "predictions_good": [-10.0, -12.0, -9.0, -8.0],
    "predictions_bad": [-11.0, -11.5, -15.0, -9.5],
    "references_good": [1.2, 0.9, 1.1, 0.4],
    "references_bad": [-0.8, 0.1, -1.0, -0.2],
}


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


# ------------------------------------------------------------------------------ li_adger/hub.py
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
    reqs = [r for r in (out / "requirements.txt").read_text().splitlines() if r[:1] != "#"]
    assert reqs[0] == line and "li-adger-adc" not in reqs[1:]
    assert "launch_gradio_widget" not in (out / "app.py").read_text()
    import evaluate

    import metric_adc

    got = evaluate.load(str(out)).compute(**EXAMPLE)
    assert got == metric_adc.load_metric().compute(**EXAMPLE)
    assert 0 < got["adc"]["1.0"] <= got["blimp"]


def test_metric_module_file_is_named_after_the_repo(tmp_path):
    out = tmp_path / "li-adger-adc"
    assert metric_main(["push", "someone/li-adger-adc", "--dry-run", str(out)]) == 0
    assert (out / "li-adger-adc.py").is_file() and not (out / "adc.py").exists()
    assert "li-adger-adc" in (out / "requirements.txt").read_text().splitlines()


def test_metric_space_app_shows_the_card(tmp_path):
    gr = pytest.importorskip("gradio")
    out = tmp_path / "adc"
    metric_main(["push", "someone/adc", "--dry-run", str(out)])
    scope = {"__file__": str(out / "app.py"), "__name__": "staged_app"}
    exec(compile((out / "app.py").read_text(), str(out / "app.py"), "exec"), scope)
    assert isinstance(scope["demo"], gr.Blocks)
    assert (
        scope["body"].lstrip().startswith("# Metric card: ADC") and "## Publishing" in scope["body"]
    )


def test_metric_push_uploads_a_space(fake_hub):
    assert metric_main(["push", "someone/adc"]) == 0
    (_, create), (_, upload) = fake_hub
    assert create["repo_type"] == "space" and create["space_sdk"] == "gradio"
    assert upload["files"] == ["README.md", "adc.py", "app.py", "requirements.txt"]


# ------------------------------------------------------------------------------ space
def test_space_dry_run_layout_and_front_matter(tmp_path):
    out = tmp_path / "space"
    assert space_main(["push", "someone/adc-li-adger", "--dry-run", str(out)]) == 0
    assert hub.staged_files(out) == ["README.md", "app.py", "requirements.txt", "space.png"]
    meta = _front_matter(out / "README.md")
    assert meta["sdk"] == "gradio" and (out / meta["app_file"]).is_file()
    assert meta["sdk_version"] == hub.SPACE_SDK_VERSION
    readme = (out / "README.md").read_text()
    assert "](space.png)" in readme and "](../" not in readme
    reqs = [r for r in (out / "requirements.txt").read_text().splitlines() if r[:1] != "#"]
    assert reqs == ["li-adger-adc[space]"]
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
    assert hub.staged_files(out) == ["README.md", "app.py", "requirements.txt"]
    assert "![" not in (out / "README.md").read_text()


def test_space_push_uploads_a_gradio_space(fake_hub):
    assert space_main(["push", "someone/adc-li-adger"]) == 0
    (_, create), (_, upload) = fake_hub
    assert create["repo_type"] == "space" and create["space_sdk"] == "gradio"
    assert upload["files"] == ["README.md", "app.py", "requirements.txt", "space.png"]
