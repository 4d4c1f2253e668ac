"""Model name → scorer: one factory per kind, plain keyword options, and options that do not apply."""

from __future__ import annotations

import pytest

from baselines.interface import KINDS
from baselines.registry import SCORER_FACTORIES, ScorerFactory
from baselines.spec import build_scorer

OPTIONS = {"variant": "logprob", "device": "cpu", "precision": "bf16"}


def test_every_kind_has_one_factory():
    assert set(SCORER_FACTORIES) == set(KINDS)


@pytest.mark.parametrize(
    ("kind", "option"),
    [(k, o) for k, f in SCORER_FACTORIES.items() for o in OPTIONS if o not in f.options],
)
def test_an_option_a_kind_does_not_take_is_an_error_naming_both(kind, option, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the factory ran although an option does not apply")

    monkeypatch.setitem(
        SCORER_FACTORIES, kind, ScorerFactory(never, SCORER_FACTORIES[kind].options)
    )
    with pytest.raises(ValueError, match=rf"^{option} does not apply to kind '{kind}' \(got "):
        build_scorer("some-model", kind=kind, **{option: OPTIONS[option]})


def test_the_trigram_refuses_a_precision_and_a_gpu():
    with pytest.raises(
        ValueError, match=r"precision does not apply to kind 'ngram' \(got 'fp16'\)"
    ):
        build_scorer("trigram", precision="fp16")
    with pytest.raises(ValueError, match=r"device must be 'auto' or 'cpu' for kind 'ngram'"):
        build_scorer("trigram", device="cuda")


def test_options_are_passed_as_plain_keywords_and_none_takes_the_default(monkeypatch):
    calls = []

    def record(model, **options):
        calls.append((model, options))
        return "scorer"

    monkeypatch.setitem(
        SCORER_FACTORIES, "causal", ScorerFactory(record, ("variant", "device"), ("batch_size",))
    )
    assert build_scorer("gpt2", kind="causal", device="cpu") == "scorer"
    assert build_scorer("gpt2", kind="causal", variant="meanlp", batch_size=3) == "scorer"
    assert calls == [
        ("gpt2", {"device": "cpu", "batch_size": 16}),  # a causal LM's documented default
        ("gpt2", {"variant": "meanlp", "device": "auto", "batch_size": 3}),
    ]
    with pytest.raises(ValueError, match=r"precision does not apply to kind 'causal'"):
        build_scorer("gpt2", kind="causal", precision="fp32")


def test_a_builtin_model_gets_its_own_batch_size(monkeypatch):
    calls = []
    monkeypatch.setitem(
        SCORER_FACTORIES,
        "causal",
        ScorerFactory(lambda model, **o: calls.append((model, o)), ("device",), ("batch_size",)),
    )
    build_scorer("smollm2")
    build_scorer("gpt2", kind="causal")
    assert calls == [
        ("smollm2", {"device": "auto", "batch_size": 64}),
        ("gpt2", {"device": "auto", "batch_size": 16}),
    ]


def test_a_variant_the_kind_lacks_is_refused_before_minilm_cola_is_trained(monkeypatch, capsys):
    from baselines.__main__ import main
    from baselines.models import minilm

    def never():
        raise AssertionError("MiniLM was fine-tuned although the variant is refused")

    monkeypatch.setattr(minilm, "minilm_cola_path", never)
    argv = ["score", "--model", "minilm-cola", "--variant", "slor", "--out", "x.jsonl"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "output must be one of 'signed-confidence', 'logit-margin' (got 'slor')" in err
