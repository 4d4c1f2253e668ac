"""The public scorer API (``from baselines import load_scorer``): the same scores as minicons's
``IncrementalLMScorer.sequence_score`` for a causal LM, Hugging Face revisions and dtypes, and
``--batch-size auto``."""

from __future__ import annotations

import inspect
import json

import pytest
from baselines_tiny import save_tiny_causal_lm

from baselines import load_scorer
from baselines.__main__ import main
from baselines.batch_size import auto_batch_size, largest_batch
from baselines.spec import build_scorer

SENTENCES = ["The keys are lost.", "The keys is lost.", "Who did you think solved the problem?"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return str(save_tiny_causal_lm(tmp_path_factory.mktemp("tiny") / "lm", "gpt2"))


def test_load_scorer_sums_token_log_probs_as_minicons_does(tiny):
    minicons = pytest.importorskip("minicons.scorer")
    ours = load_scorer(tiny, kind="causal", device="cpu").score(SENTENCES)
    inc = minicons.IncrementalLMScorer(tiny, device="cpu")
    # minicons prepends the tokenizer's BOS when asked; ours conditions the first word on it
    theirs = inc.sequence_score(SENTENCES, reduction=lambda x: x.sum(0).item(), bos_token=True)
    assert ours == pytest.approx(theirs, abs=1e-4)
    assert len({round(s, 6) for s in ours}) == len(SENTENCES)  # not a constant


def test_revision_reaches_from_pretrained_and_the_commit_is_recorded(tiny, monkeypatch):
    import transformers

    seen = []
    load = transformers.AutoModelForCausalLM.from_pretrained

    def spy(source, **kwargs):  # the Hub model "org/tiny" is the tiny local folder
        seen.append((source, kwargs.get("revision")))
        model = load(tiny, **{k: v for k, v in kwargs.items() if k != "revision"})
        model.config._commit_hash = "0123abcd"
        return model

    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", spy)
    monkeypatch.setattr(
        transformers.AutoTokenizer,
        "from_pretrained",
        lambda source, load=transformers.AutoTokenizer.from_pretrained, **kw: load(tiny),
    )
    scorer = load_scorer("org/tiny", kind="causal", device="cpu", revision="v1.0")
    assert seen == [("org/tiny", "v1.0")] and scorer.metadata()["revision"] == "0123abcd"
    # a local folder holds one revision: asking for another is refused, not recorded
    with pytest.raises(ValueError, match="not to the local folder"):
        load_scorer(tiny, kind="causal", device="cpu", revision="v1.0")


def test_a_local_model_records_no_revision_and_the_cli_takes_dtype(tiny, tmp_path):
    out = tmp_path / "s.jsonl"
    table = tmp_path / "t.csv"
    table.write_text("id,sentence\n" + "".join(f"s{k},{s}\n" for k, s in enumerate(SENTENCES[:2])))
    argv = [
        "score",
        "--model",
        tiny,
        "--kind",
        "causal",
        "--dataset",
        str(table),
        "--out",
        str(out),
    ]
    assert main([*argv, "--dtype", "float32", "--batch-size", "auto", "--quiet"]) == 0
    meta = json.loads(out.read_text().splitlines()[0])
    assert "revision" not in meta and meta["batch_size"] == 16  # a CPU: the kind's default
    assert meta["dtype"] == "float32"
    with pytest.raises(SystemExit):
        main([*argv, "--dtype", "float64"])
    assert main([*argv, "--dtype", "bfloat16", "--precision", "fp16", "--fresh"]) == 2


BUILD_OPTIONS = [
    p.name
    for p in inspect.signature(build_scorer).parameters.values()
    if p.kind is inspect.Parameter.KEYWORD_ONLY
]


@pytest.mark.parametrize("option", BUILD_OPTIONS)
def test_load_scorer_takes_every_option_of_build_scorer(option, monkeypatch):
    """Each keyword option of build_scorer (read from its signature, so that a new one is
    covered) reaches build_scorer unchanged through load_scorer."""
    from baselines import spec

    seen = []

    def spy(model, **options):
        inspect.signature(build_scorer).bind(model, **options)  # names build_scorer takes
        seen.append((model, options))
        return "scorer"

    monkeypatch.setattr(spec, "build_scorer", spy)
    value = object()
    assert load_scorer("m", **{option: value}) == "scorer"
    assert len(seen) == 1 and seen[0][0] == "m" and seen[0][1][option] is value


def test_load_scorer_shows_no_progress_unless_asked(monkeypatch):
    from baselines import spec

    seen = []
    monkeypatch.setattr(spec, "build_scorer", lambda model, **o: seen.append(o["progress"]))
    load_scorer("m")
    load_scorer("m", progress=True)
    assert seen == [False, True]
    assert "runtime" in BUILD_OPTIONS and len(BUILD_OPTIONS) >= 10  # the signature is read


def test_revision_is_refused_for_a_built_in_model():
    with pytest.raises(ValueError, match="revision applies to Hugging Face models"):
        load_scorer("trigram", revision="main")


def test_auto_batch_size_halves_until_the_longest_sentences_fit():
    class FakeGpuScorer:  # a BatchedScorer
        name, kind, variant, reduction = "fake", "causal", "logprob", "sum"
        device = "cuda:0"
        batch_size = 16
        packing, positions_share = None, None

        def count_positions(self):
            pass

        def metadata(self):
            return {"model": self.name}

        def __init__(self):
            self.tried = []

        def score(self, sentences):
            self.tried.append(len(sentences))
            if self.batch_size > 40:
                raise RuntimeError("CUDA out of memory. Tried to allocate 1.00 GiB")
            return [0.0] * len(sentences)

    torch = pytest.importorskip("torch")
    if not hasattr(torch.cuda, "empty_cache"):
        pytest.skip("torch without torch.cuda")
    scorer = FakeGpuScorer()
    texts = [f"sentence number {k}" for k in range(1000)]
    assert auto_batch_size(scorer, texts, default=64) == 32
    assert scorer.tried == [512, 256, 128, 64, 32] and scorer.batch_size == 32
    # never an out-of-memory error at size 1: the error is raised, not hidden
    with pytest.raises(RuntimeError, match="out of memory"):
        largest_batch(lambda size: (_ for _ in ()).throw(RuntimeError("out of memory")), 4)
