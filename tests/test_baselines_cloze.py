"""Cloze scoring (a completion given the context before its blank) by every kind of language
model, checked against hand computations: causal and masked LMs on tiny random models, the
n-gram scorer on a toy ARPA model and on the real trigram for diagnostics items."""

from __future__ import annotations

import math

import numpy as np
import pocketsphinx
import pytest
import torch
from baselines_tiny import save_tiny_bert, tiny_bpe_tokenizer, tiny_causal_lm, tiny_tokenizer

from baselines.interface import ClozeScorer
from baselines.kinds.causal import CausalLMScorer
from baselines.kinds.cloze import word_start_mask
from baselines.kinds.ngram import NGramScorer
from baselines.models.ngram_file import default_lm_path, ngram_vocabulary

CLOZE = [
    ("the keys to the cabinet", "are"),
    ("who did you think that kim", "solved"),
    ("the keys to the", "cabinet are"),  # two tokens: the chain rule, the first one ranked
    ("kim solved the problem on a", "table"),
]


def full_logp(model, ids: list[int]) -> torch.Tensor:
    """log-softmax of one unpadded sequence, in double precision: row i predicts ids[i + 1]."""
    with torch.no_grad():
        return torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0].double(), -1)


def by_hand(logp_row: torch.Tensor, target: int, candidates: list[int]) -> tuple[int, list[int]]:
    """Rank of ``target`` (1 + candidates strictly more probable) and the top five candidates."""
    values = {c: logp_row[c].item() for c in candidates}
    rank = 1 + sum(v > logp_row[target].item() for v in values.values())
    top = sorted(candidates, key=lambda c: (-values[c], c))[:5]
    return rank, top


@pytest.fixture(scope="module", params=["llama", "gpt2"])
def causal(request):
    return CausalLMScorer.from_objects(
        tiny_causal_lm(request.param), tiny_tokenizer(), name=f"tiny-{request.param}"
    )


def test_causal_cloze_records_equal_a_hand_computation(causal):
    tokenizer, model = causal.tokenizer, causal.model
    special = set(tokenizer.all_special_ids)
    candidates = [i for i in range(len(tokenizer)) if i not in special]  # a word-level vocab
    records = causal.score_cloze([c for c, _ in CLOZE], [w for _, w in CLOZE])
    assert isinstance(causal, ClozeScorer)
    for (context, completion), record in zip(CLOZE, records, strict=True):
        before = tokenizer(context, add_special_tokens=False)["input_ids"]
        after = tokenizer(completion, add_special_tokens=False)["input_ids"]
        ids = [tokenizer.bos_token_id, *before, *after]
        logp = full_logp(model, ids)
        start = 1 + len(before)
        expected = sum(logp[i - 1, ids[i]].item() for i in range(start, len(ids)))
        rank, top = by_hand(logp[start - 1], ids[start], candidates)
        assert record["score"] == pytest.approx(expected, abs=1e-5)
        assert record["rank"] == rank
        assert record["top"] == tokenizer.convert_ids_to_tokens(top)


def test_causal_cloze_is_the_completion_s_share_of_the_sentence(causal):
    """Default convention: the completion's tokens scored exactly as inside the sentence."""
    for context, completion in CLOZE:
        record = causal.score_cloze([context], [completion])[0]
        n = len(causal.tokenizer(completion, add_special_tokens=False)["input_ids"])
        sentence = causal.token_logprobs([f"{context} {completion}"])[0]
        assert record["score"] == pytest.approx(sum(sentence.logprobs[-n:]), abs=1e-5)


def test_word_initial_tokens_of_a_byte_level_vocabulary():
    tokenizer = tiny_bpe_tokenizer()
    mask = word_start_mask(tokenizer, len(tokenizer) + 3)  # a model's padded vocabulary
    tokens = tokenizer.convert_ids_to_tokens(list(range(len(tokenizer))))
    assert [t for t, m in zip(tokens, mask, strict=False) if m] == [
        t for t in tokens if t.startswith("Ġ")
    ]
    assert not mask[len(tokenizer) :].any()
    causal = CausalLMScorer.from_objects(
        tiny_causal_lm("gpt2", vocab_size=len(tokenizer)), tokenizer, name="bpe"
    )
    record = causal.score_cloze(["A robin is a"], ["bird"])[0]
    ids = tokenizer("A robin is a bird", add_special_tokens=False)["input_ids"]
    context = tokenizer("A robin is a", add_special_tokens=False)["input_ids"]
    logp = full_logp(causal.model, [tokenizer.bos_token_id, *ids])
    first = ids[len(context)]
    assert tokenizer.convert_ids_to_tokens(first).startswith("Ġ")
    starts = [i for i, t in enumerate(tokens) if t.startswith("Ġ")]
    assert record["rank"] == by_hand(logp[len(context)], first, starts)[0]


# -- lm-evaluation-harness's convention, against the harness itself --------------------------


def harness_loglikelihoods(model, tokenizer, requests: list[tuple[str, str]]) -> list[float]:
    pytest.importorskip("lm_eval")  # the dev extra
    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    lm = HFLM(pretrained=model, tokenizer=tokenizer, batch_size=4)
    instances = [Instance("loglikelihood", {}, r, k) for k, r in enumerate(requests)]
    return [lp for lp, _ in lm.loglikelihood(instances, disable_tqdm=True)]


SENTENCES = [
    "The keys to the cabinet are lost.",
    "Who did you think that Kim solved?",
    "A robin is not a tree.",
    "the keys",
]


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_harness_convention_equals_the_harness_on_sentences_and_cloze_units(arch):
    tokenizer = tiny_bpe_tokenizer()
    model = tiny_causal_lm(arch, vocab_size=len(tokenizer))
    scorer = CausalLMScorer.from_objects(
        model, tokenizer, name="tiny", convention="harness", batch_size=3
    )
    expected = harness_loglikelihoods(model, tokenizer, [("", " " + s) for s in SENTENCES])
    assert scorer.score(SENTENCES) == pytest.approx(expected, abs=1e-4)
    cloze = [("A robin is a", "bird"), ("The keys to the", "cabinet are"), ("Kim solved", "it")]
    expected = harness_loglikelihoods(model, tokenizer, [(c, " " + w) for c, w in cloze])
    got = scorer.score_cloze([c for c, _ in cloze], [w for _, w in cloze])
    assert [r["score"] for r in got] == pytest.approx(expected, abs=1e-4)
    # and the default convention is another one: no leading space, <s> as context token
    default = CausalLMScorer.from_objects(model, tokenizer, name="tiny")
    assert default.score(SENTENCES[:1]) != pytest.approx(scorer.score(SENTENCES[:1]), abs=1e-3)
    assert (scorer.metadata()["convention"], default.metadata()["convention"]) == (
        "harness",
        "default",
    )


def test_harness_convention_when_the_prefix_token_starts_the_sentence():
    """The harness's special case: the continuation's first token is the prefix token, so it
    becomes the context and is not scored."""
    tokenizer = tiny_tokenizer(bos="the")  # a word-level vocabulary: " the keys" → [the, keys]
    model = tiny_causal_lm("llama")
    scorer = CausalLMScorer.from_objects(model, tokenizer, name="tiny", convention="harness")
    sentences = ["the keys are lost", "kim solved the problem"]
    expected = harness_loglikelihoods(model, tokenizer, [("", " " + s) for s in sentences])
    assert scorer.score(sentences) == pytest.approx(expected, abs=1e-4)
    assert len(scorer.token_logprobs(sentences[:1])[0]) == 3  # "the" is the context


def test_harness_convention_takes_no_other_context_token():
    with pytest.raises(ValueError, match="context_token must be 'auto'"):
        CausalLMScorer.from_objects(
            tiny_causal_lm(), tiny_tokenizer(), name="t", convention="harness", context_token="."
        )
    with pytest.raises(ValueError, match="convention must be one of 'default', 'harness'"):
        CausalLMScorer.from_objects(tiny_causal_lm(), tiny_tokenizer(), name="t", convention="x")


# -- masked LMs ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bert(tmp_path_factory):
    from baselines.kinds.mlm import MaskedLMScorer

    folder = save_tiny_bert(tmp_path_factory.mktemp("bert"))
    return MaskedLMScorer(folder, device="cpu", progress=False)


def masked_logp(scorer, text: str) -> torch.Tensor:
    """log-softmax at every position of ``text`` (which holds [MASK] tokens), double."""
    enc = scorer.tokenizer(text, return_tensors="pt")
    with torch.no_grad():
        return torch.log_softmax(scorer.model(**enc).logits[0].double(), -1), enc["input_ids"][0]


def test_masked_lm_cloze_equals_a_hand_computation(bert):
    tokenizer = bert.tokenizer
    special = set(tokenizer.all_special_ids)
    candidates = [
        i for t, i in tokenizer.get_vocab().items() if not t.startswith("##") and i not in special
    ]
    assert tokenizer.tokenize("robins") == ["robin", "##s"]
    units = [("The keys to the cabinet", "are"), ("These birds are", "robins")]
    records = bert.score_cloze([c for c, _ in units], [w for _, w in units])
    # one-token completion: "context [MASK] ." and the log-softmax at the mask
    logp, ids = masked_logp(bert, "The keys to the cabinet [MASK] .")
    at = (ids == tokenizer.mask_token_id).nonzero().item()
    are = tokenizer.convert_tokens_to_ids("are")
    rank, top = by_hand(logp[at], are, candidates)
    assert records[0]["score"] == pytest.approx(logp[at, are].item(), abs=1e-4)
    assert (records[0]["rank"], records[0]["top"]) == (rank, tokenizer.convert_ids_to_tokens(top))
    # two tokens: two masks, then the first filled in, left to right
    robin, s = tokenizer.convert_tokens_to_ids(["robin", "##s"])
    logp1, ids1 = masked_logp(bert, "These birds are [MASK] [MASK] .")
    first = (ids1 == tokenizer.mask_token_id).nonzero()[0].item()
    logp2, ids2 = masked_logp(bert, "These birds are robin [MASK] .")
    second = (ids2 == tokenizer.mask_token_id).nonzero().item()
    expected = logp1[first, robin].item() + logp2[second, s].item()
    assert records[1]["score"] == pytest.approx(expected, abs=1e-4)
    assert records[1]["rank"] == by_hand(logp1[first], robin, candidates)[0]


def test_masked_lm_cloze_keeps_input_order_and_repeats(bert):
    contexts = ["A robin is a", "A robin is not a", "A robin is a"]
    completions = ["bird", "tree", "bird"]
    records = bert.score_cloze(contexts, completions)
    assert records[0] == records[2]
    one = bert.score_cloze(contexts[1:2], completions[1:2])[0]
    assert records[1]["score"] == pytest.approx(one["score"], abs=1e-5)


# -- n-gram models ------------------------------------------------------------------------------

TOY_ARPA = """\\data\\
ngram 1=7
ngram 2=4
ngram 3=1

\\1-grams:
-1.0\t</s>
-99\t<s>\t-0.3
-0.8\ta\t-0.2
-1.2\tbird\t-0.1
-1.5\tis\t-0.25
-1.1\trobin\t-0.15
-1.3\ttree

\\2-grams:
-0.4\t<s> a\t-0.1
-0.3\ta robin\t-0.05
-0.6\tis a\t-0.4
-0.5\ta bird

\\3-grams:
-0.2\tis a bird

\\end\\
"""


def test_ngram_cloze_on_a_toy_model_by_hand(tmp_path):
    """P(w | is a) with Katz back-off, by hand from the ARPA file (log10 → ln)."""
    path = tmp_path / "toy.arpa"
    path.write_text(TOY_ARPA)
    assert ngram_vocabulary(path) == ["</s>", "<s>", "a", "bird", "is", "robin", "tree"]
    scorer = NGramScorer(path, name="toy")
    assert scorer.lm.vocabulary == ("a", "bird", "is", "robin", "tree")
    log10 = {
        "bird": -0.2,  # the trigram
        "robin": -0.4 + -0.3,  # bo(is a) + P(robin | a)
        "tree": -0.4 + -0.2 + -1.3,  # bo(is a) + bo(a) + P(tree)
        "a": -0.4 + -0.2 + -0.8,
        "is": -0.4 + -0.2 + -1.5,
    }
    order = sorted(log10, key=lambda w: -log10[w])
    assert order == ["bird", "robin", "a", "tree", "is"]
    words = ["bird", "robin", "tree", "xqzzy"]
    records = scorer.score_cloze(["Is a"] * 4, words)
    for word, record in zip(words[:3], records, strict=False):
        assert record["score"] == pytest.approx(log10[word] * math.log(10), abs=1e-3)
        assert record["rank"] == 1 + order.index(word)
        assert record["top"] == order
    # an out-of-vocabulary completion: the model's log zero, after every candidate
    assert records[3]["rank"] == len(scorer.lm.vocabulary) + 1
    assert records[3]["score"] < -50_000


@pytest.fixture(scope="module")
def lm():
    return pocketsphinx.NGramModel(
        pocketsphinx.Config(), pocketsphinx.LogMath(), str(default_lm_path())
    )


def test_the_trigram_s_vocabulary_is_its_unigrams(lm):
    words = ngram_vocabulary(default_lm_path())
    assert len(words) == len(set(words)) == 72547  # "ngram 1=72547" of its ARPA form
    zero = pocketsphinx.LogMath().get_zero()
    assert all(lm.prob([w]) > zero for w in words[::97])
    assert {"<s>", "</s>", "robin", "checkmate"} <= set(words) and "xqzzy" not in words


def test_trigram_cloze_on_diagnostics_items_by_hand(lm):
    """Two of Ettinger's items, each word scored after the last two words of its context."""
    ln = pocketsphinx.LogMath().log_to_ln
    vocabulary = [w for w in ngram_vocabulary(default_lm_path()) if w not in ("<s>", "</s>")]
    items = [
        # NEG-136-SIMP: "A robin is a bird" / "... a tree"
        ("A robin is a", "bird", ["is", "a"]),
        ("A robin is a", "tree", ["is", "a"]),
        # CPRAG-102, item 0: curly quotes and commas dropped, the history is "good at"
        (
            "\u201cCheckmate,\u201d Rosaline announced with glee. She was getting to be "
            "really good at",
            "chess",
            ["good", "at"],
        ),
    ]
    records = NGramScorer().score_cloze([c for c, _, _ in items], [w for _, w, _ in items])
    for (_, word, (u, v)), record in zip(items, records, strict=True):
        raw = lm.prob([word, v, u])
        assert record["score"] == pytest.approx(ln(raw), abs=1e-9)
        everything = np.array([lm.prob([w, v, u]) for w in vocabulary])
        assert record["rank"] == 1 + int((everything > raw).sum())
        best = sorted(range(len(vocabulary)), key=lambda i: (-everything[i], i))[:5]
        assert record["top"] == [vocabulary[i] for i in best]
    assert records[0]["rank"] > records[1]["rank"]  # the trigram prefers "a tree"


def test_bad_cloze_input_is_named():
    scorer = NGramScorer()
    with pytest.raises(ValueError, match=r"completions\[0\] has no words"):
        scorer.score_cloze(["A robin is a"], ["?!"])
    with pytest.raises(ValueError, match=r"completions\[0\] is empty"):
        scorer.score_cloze(["A robin is a"], [" "])
    with pytest.raises(ValueError, match="same length"):
        scorer.score_cloze(["A robin is a"], ["bird", "tree"])
