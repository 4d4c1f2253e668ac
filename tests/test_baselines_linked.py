"""NormLP and SLOR for causal and masked LMs: hand-computed cases, tiny models end to end, the
scores file's fields and metadata, the registry and the command line."""

from __future__ import annotations

import json
import math

import pytest
from baselines_tiny import save_tiny_bert, save_tiny_causal_lm

from baselines.interface import BatchedScorer, PlacedScorer, RecordScorer, TokenLogProbs
from baselines.kinds.linked import LINKED_VARIANTS, LinkedScorer, linked_factory
from baselines.kinds.unigram import UnigramModel, unigram_model
from baselines.spec import build_scorer
from metric_adc.scores.file import read_scores

pytest.importorskip("wordfreq")

SENTENCES = ["The keys to the cabinet are lost.", "Who did you think solved the problem?"]
TOY_TABLE = {"the": -2.0, "keys": -7.0, "are": -4.0, "lost": -6.0}


class ToyBase:
    """A scorer with fixed sub-word tokens: 'the' 'ke' 'ys' 'are' 'lo' 'st'."""

    name, kind, variant, reduction = "toy", "causal", "logprob", "sum"
    tokens = ("the", "ke", "ys", "are", "lo", "st")
    logprobs = (-1.0, -3.0, -0.5, -2.0, -4.0, -0.5)

    def token_logprobs(self, sentences):
        return [TokenLogProbs(self.tokens, self.logprobs) for _ in sentences]

    def score(self, sentences):
        return [t.total for t in self.token_logprobs(sentences)]

    def metadata(self):
        return {"model": "toy", "kind": "causal", "variant": "logprob", "versions": {"x": "1"}}


def toy_unigrams() -> UnigramModel:
    return UnigramModel("toy", str.split, TOY_TABLE.get, floor_logprob=-20.0)


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        # logP = -11 over 6 tokens; logPu = -2 - 7 - 4 - 6 = -19 over 4 words
        ("slor", (-11.0 + 19.0) / 4),
        ("normlp", 11.0 / -19.0),  # -logP / logPu
    ],
)
def test_hand_computed_records(variant, expected):
    scorer = LinkedScorer(ToyBase(), variant, toy_unigrams())
    [record] = scorer.score_records(["the keys are lost"])
    assert record == {
        "score": pytest.approx(expected, rel=1e-12),
        "logprob": -11.0,
        "unigram_logprob": -19.0,
        "n_words": 4,
        "n_tokens": 6,
    }
    assert scorer.score(["the keys are lost"]) == [record["score"]]
    assert isinstance(scorer, RecordScorer)


def test_unknown_word_takes_the_floor_in_slor():
    scorer = LinkedScorer(ToyBase(), "slor", toy_unigrams())
    [record] = scorer.score_records(["the keys are gone"])
    assert record["unigram_logprob"] == -2.0 - 7.0 - 4.0 - 20.0
    assert record["score"] == pytest.approx((-11.0 + 33.0) / 4)


def test_metadata_records_linking_unigram_and_units():
    meta = LinkedScorer(ToyBase(), "slor", toy_unigrams()).metadata()
    assert (meta["model"], meta["kind"], meta["variant"], meta["base_variant"]) == (
        "toy", "causal", "slor", "logprob"
    )  # fmt: skip
    assert meta["linking"]["function"] == "slor"
    assert "words" in meta["linking"]["units"]
    assert meta["linking"]["unigram"]["source"] == "toy"
    assert meta["versions"] == {"x": "1"}


def test_bad_variant_and_base():
    with pytest.raises(
        ValueError, match="variant must be one of 'normlp', 'slor' \\(got 'meanlp'\\)"
    ):
        LinkedScorer(ToyBase(), "meanlp", toy_unigrams())
    with pytest.raises(TypeError, match="base must be a scorer with token_logprobs"):
        LinkedScorer(object(), "slor", toy_unigrams())


@pytest.fixture(scope="module")
def tiny_causal(tmp_path_factory):
    return str(save_tiny_causal_lm(tmp_path_factory.mktemp("causal")))


@pytest.fixture(scope="module")
def tiny_mlm(tmp_path_factory):
    return save_tiny_bert(tmp_path_factory.mktemp("mlm"))


@pytest.mark.parametrize("variant", LINKED_VARIANTS)
def test_tiny_causal_lm_end_to_end(tiny_causal, variant):
    linked = build_scorer(tiny_causal, kind="causal", variant=variant, device="cpu")
    base = build_scorer(tiny_causal, kind="causal", variant="logprob", device="cpu")
    assert isinstance(linked, LinkedScorer) and linked.base.variant == "logprob"
    records = linked.score_records(SENTENCES)
    words = unigram_model("wordfreq")
    for sentence, record, logprob, tokens in zip(
        SENTENCES, records, base.score(SENTENCES), base.token_logprobs(SENTENCES), strict=True
    ):
        # logP is the base scorer's logprob variant; the unigrams are the sentence's words
        assert record["logprob"] == pytest.approx(logprob, abs=1e-9)
        assert record["n_tokens"] == len(tokens)
        assert record["n_words"] == 7
        u = words.sentence(sentence)
        n = record["n_words"]
        expected = (logprob - u.total) / n if variant == "slor" else -logprob / u.total
        assert record["score"] == pytest.approx(expected, rel=1e-9)


def test_unigram_log_probability_is_the_same_whichever_scorer_asks(tiny_causal, tiny_mlm):
    scorers = [
        build_scorer(tiny_causal, kind="causal", variant="slor", device="cpu"),
        build_scorer(tiny_mlm, kind="mlm", variant="normlp", device="cpu", progress=False),
        LinkedScorer(ToyBase(), "slor", unigram_model("wordfreq")),
    ]
    fields = [
        [(r["unigram_logprob"], r["n_words"]) for r in s.score_records(SENTENCES)] for s in scorers
    ]
    assert fields[0] == fields[1] == fields[2]
    # by hand, wordfreq 3.1.1 'large': the keys to the cabinet are lost
    freq = {"the": 0.0537, "keys": 2.45e-05, "to": 0.0269, "cabinet": 3.09e-05, "are": 0.0055,
            "lost": 0.000245}  # fmt: skip
    words = ["the", "keys", "to", "the", "cabinet", "are", "lost"]
    assert fields[0][0][0] == pytest.approx(sum(math.log(freq[w]) for w in words), rel=1e-9)


def test_masked_lm_slor_wraps_the_original_pll(tiny_mlm):
    linked = build_scorer(tiny_mlm, kind="mlm", variant="slor", device="cpu", progress=False)
    assert linked.base.variant == "pll-original" and linked.kind == "mlm"
    pll = build_scorer(tiny_mlm, kind="mlm", variant="original", device="cpu", progress=False)
    logprobs = [r["logprob"] for r in linked.score_records(SENTENCES)]
    assert logprobs == pytest.approx(pll.score(SENTENCES), abs=1e-6)


def test_registry_routes_the_unigram_option(tiny_causal):
    scorer = build_scorer(tiny_causal, kind="causal", variant="slor", unigram="trigram")
    assert scorer.metadata()["linking"]["unigram"]["source"] == "trigram"
    with pytest.raises(ValueError, match="unigram applies to the variants 'normlp', 'slor' only"):
        build_scorer(tiny_causal, kind="causal", variant="logprob", unigram="wordfreq")
    with pytest.raises(ValueError, match="unigram does not apply to kind 'ngram'"):
        build_scorer("trigram", variant="slor", unigram="wordfreq")
    with pytest.raises(ValueError, match="unigram must be one of"):
        build_scorer(tiny_causal, kind="causal", variant="slor", unigram="google")


def test_linked_factory_passes_other_variants_through():
    calls = []

    def build(model, **options):
        calls.append(options)
        return ToyBase()

    factory = linked_factory(build, "logprob")
    factory("m", variant="meanlp", device="cpu")
    factory("m", device="cpu")
    linked = factory("m", variant="slor", device="cpu")
    assert calls == [
        {"variant": "meanlp", "device": "cpu"},
        {"device": "cpu"},
        {"variant": "logprob", "device": "cpu"},
    ]
    assert linked.variant == "slor" and linked.unigrams.source == "wordfreq"


def test_command_line_writes_the_fields_and_metadata(tiny_causal, tmp_path):
    from baselines.__main__ import main

    data = tmp_path / "mine.csv"
    data.write_text("id,sentence\na,The keys are lost.\nb,The keys is lost.\n", encoding="utf-8")
    out = tmp_path / "slor.jsonl"
    argv = ["score", "--model", tiny_causal, "--kind", "causal", "--variant", "slor",
            "--unigram", "trigram", "--dataset", str(data), "--out", str(out), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    sf = read_scores(out)
    assert sorted(sf.fields) == ["logprob", "n_tokens", "n_words", "sentence", "unigram_logprob"]
    assert sf.fields["n_words"] == [4, 4]
    assert (
        sf.metadata["variant"] == "slor"
        and sf.metadata["linking"]["unigram"]["source"] == "trigram"
    )
    assert "wordfreq" not in sf.metadata["versions"] and "pocketsphinx" in sf.metadata["versions"]
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[1])
    assert list(first) == ["id", "sentence", "score", "n_tokens", "n_words", "logprob",
                           "unigram_logprob"]  # fmt: skip


class StubGpuCausal(ToyBase):
    """A causal scorer standing in for one on a GPU: out of memory above 40 sentences in a
    forward pass (its ``batch_size``, or fewer when given fewer)."""

    packing, positions_share, device = "rows", None, "cuda:0"

    def __init__(self, batch_size):
        self.batch_size = batch_size
        self.passes = []

    def count_positions(self):
        pass

    def token_logprobs(self, sentences):
        size = min(len(sentences), self.batch_size)
        if size > 40:
            raise RuntimeError("CUDA out of memory. Tried to allocate 1.00 GiB")
        self.passes.append(size)
        return super().token_logprobs(sentences)

    def metadata(self):
        return {**super().metadata(), "device": "cuda:0"}


def test_batch_size_auto_applies_the_size_it_finds_to_a_linked_scorer(tmp_path, monkeypatch):
    # --variant slor wraps the causal scorer: the size --batch-size auto finds must reach the
    # scorer it wraps (which does the forward passes), not only the scores file
    from baselines import registry
    from baselines.__main__ import main

    built = []

    def build(model, *, batch_size, **options):
        built.append(StubGpuCausal(batch_size))
        return built[-1]

    factory = registry.SCORER_FACTORIES["causal"]
    stub = registry.ScorerFactory(
        linked_factory(build, "logprob"), factory.options, ("batch_size",)
    )
    monkeypatch.setitem(registry.SCORER_FACTORIES, "causal", stub)
    data = tmp_path / "mine.csv"
    rows = "".join(f"s{k},The keys to cabinet {k} are lost.\n" for k in range(100))
    data.write_text("id,sentence\n" + rows, encoding="utf-8")
    out = tmp_path / "slor.jsonl"
    argv = ["score", "--model", "smollm2", "--variant", "slor", "--unigram", "trigram",
            "--batch-size", "auto", "--dataset", str(data), "--out", str(out), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    (base,) = built
    assert base.batch_size == 32 and read_scores(out).metadata["batch_size"] == 32
    assert max(base.passes) == 32 and len(read_scores(out).ids) == 100


def test_a_linked_scorer_passes_on_what_a_run_asks_of_the_scorer_it_wraps(tiny_causal):
    """device, batch_size and packing come from the wrapped scorer (the protocols of
    baselines/interface.py), not from guesses about the wrapper."""
    linked = LinkedScorer(StubGpuCausal(8), "slor", toy_unigrams())
    assert isinstance(linked, PlacedScorer) and isinstance(linked, BatchedScorer)
    assert (linked.device, linked.batch_size, linked.packing) == ("cuda:0", 8, "rows")
    assert LinkedScorer(ToyBase(), "slor", toy_unigrams()).device is None  # says nothing
    built = build_scorer(tiny_causal, kind="causal", variant="slor", device="cpu")
    assert built.device == built.base.device == "cpu"
