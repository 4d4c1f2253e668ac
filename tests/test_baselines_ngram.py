"""The n-gram scorer against direct pocketsphinx calls; tokenisation, OOV handling, bad input."""

from __future__ import annotations

import csv
import math
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pocketsphinx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselines.kinds.ngram import NGramScorer, ngram_contexts, words_of
from baselines.models.ngram_file import default_lm_path

LI_ADGER = Path(__file__).parents[2] / "shared" / "data" / "li-adger" / "li-adger_sentences.csv"


@pytest.fixture(scope="module")
def lm():
    return pocketsphinx.NGramModel(
        pocketsphinx.Config(), pocketsphinx.LogMath(), str(default_lm_path())
    )


def ln(raw: int) -> float:
    return pocketsphinx.LogMath().log_to_ln(raw)


def test_trigram_log_probs_match_direct_pocketsphinx_calls(lm):
    t = NGramScorer().token_logprobs(["The keys are lost."])[0]
    assert t.tokens == ("the", "keys", "are", "lost", "</s>")
    # prob() takes the word first, then its history newest first.
    direct = [
        lm.prob(["the", "<s>"]),
        lm.prob(["keys", "the", "<s>"]),
        lm.prob(["are", "keys", "the"]),
        lm.prob(["lost", "are", "keys"]),
        lm.prob(["</s>", "lost", "are"]),
    ]
    assert t.logprobs == pytest.approx([ln(r) for r in direct], abs=1e-9)
    unigrams = [ln(lm.prob([w])) for w in t.tokens]
    assert t.unigram_logprobs == pytest.approx(unigrams, abs=1e-9)
    slor = (math.fsum(t.logprobs) - math.fsum(unigrams)) / 5
    assert NGramScorer(variant="slor").score(["The keys are lost."])[0] == pytest.approx(slor)
    assert NGramScorer(variant="logprob").score(["The keys are lost."])[0] == pytest.approx(
        math.fsum(ln(r) for r in direct)
    )


def test_without_end_of_sentence(lm):
    t = NGramScorer(end_of_sentence=False).token_logprobs(["Keys are lost!"])[0]
    assert t.tokens == ("keys", "are", "lost")
    assert t.logprobs[-1] == pytest.approx(ln(lm.prob(["lost", "are", "keys"])))


def test_out_of_vocabulary_words_are_skipped_but_stay_in_the_history(lm):
    scorer = NGramScorer()
    assert not scorer.in_vocabulary("xqzzy")
    t = scorer.token_logprobs(["The xqzzy left early."])[0]
    assert t.tokens == ("the", "left", "early", "</s>")
    assert t.logprobs[1] == pytest.approx(ln(lm.prob(["left", "xqzzy", "the"])))
    assert t.logprobs[2] == pytest.approx(ln(lm.prob(["early", "left", "xqzzy"])))
    assert scorer.count_oov(["The xqzzy left early."]) == (1, 4)


def test_long_sentence_equals_the_trigram_on_each_window(lm):
    """Every word of a 3,000-word sentence scored after exactly the two units before it."""
    rng = np.random.default_rng(0)
    vocabulary = ["the", "keys", "are", "lost", "and", "who", "left", "xqzzy", "early", "home"]
    words = [vocabulary[i] for i in rng.integers(0, len(vocabulary), size=3000)]
    t = NGramScorer().token_logprobs([" ".join(words)])[0]
    units = ["<s>", *words, "</s>"]
    by_hand = [
        ln(lm.prob([units[i], units[i - 1], *units[max(i - 2, 0) : i - 1]]))
        for i in range(1, len(units))
        if units[i] != "xqzzy"
    ]
    assert len(t) == len(words) + 1 - words.count("xqzzy")
    assert t.logprobs == pytest.approx(by_hand, abs=1e-9)


def test_the_model_is_never_handed_more_than_two_words_of_history(monkeypatch):
    """Scoring is linear in sentence length: the history is a window, never a growing copy."""
    scorer = NGramScorer(variant="logprob")
    seen: list[int] = []
    raw = scorer.lm.raw
    monkeypatch.setattr(
        scorer.lm, "raw", lambda word, context=(): seen.append(len(context)) or raw(word, context)
    )
    scorer.score(["the keys are lost and " * 400])
    assert len(seen) >= 2000 and max(seen) == 2


@given(st.lists(st.sampled_from("abcde"), max_size=30), st.integers(min_value=0, max_value=4))
def test_contexts_are_the_windows_before_each_unit_read_in_one_pass(units, size):
    pulled = []

    def stream():
        for unit in units:
            pulled.append(unit)
            yield unit

    history = ["<s>", *units]
    for i, (unit, context) in enumerate(ngram_contexts(stream(), size)):
        assert len(pulled) == i + 1  # one unit read per unit yielded: nothing is re-read
        assert unit == units[i]
        assert context == tuple(history[max(i + 1 - size, 0) : i + 1])


def test_tokenisation_conventions():
    scorer = NGramScorer()
    assert words_of("“It’s the ex-wife’s!”, she said.") == [
        "it's",
        "the",
        "ex-wife's",
        "she",
        "said",
    ]
    # an in-vocabulary clitic form is kept whole; a detached one is re-attached
    assert scorer.tokenize("The food that does n't help.") == [
        "the",
        "food",
        "that",
        "doesn't",
        "help",
    ]
    # an out-of-vocabulary hyphenated word is split at its hyphens
    assert not scorer.in_vocabulary("dog-biscuit")
    assert scorer.tokenize("A dog-biscuit.") == ["a", "dog", "biscuit"]


@pytest.mark.parametrize("variant", ["logprob", "meanlp", "penlp", "normlp", "slor"])
def test_case_and_punctuation_do_not_change_scores(variant):
    scorer = NGramScorer(variant=variant)
    a, b, c = scorer.score(["The keys are lost.", "the keys are lost", "THE KEYS, ARE LOST!"])
    assert a == b == c


def test_a_classic_pair_is_ordered():
    good, bad = NGramScorer(variant="logprob").score(
        ["Who did you think left?", "Who did you think that left?"]
    )
    assert good > bad


def test_bad_input_is_named(tmp_path):
    scorer = NGramScorer()
    with pytest.raises(ValueError, match=r"sentences\[1\] is empty"):
        scorer.score(["Go home.", ""])
    with pytest.raises(ValueError, match=r"sentences\[0\] has no words the n-gram model can read"):
        scorer.score(["?!"])
    with pytest.raises(ValueError, match="only out-of-vocabulary words"):
        NGramScorer(end_of_sentence=False).score(["Xqzzy!"])
    with pytest.raises(ValueError, match="variant must be one of"):
        NGramScorer(variant="bleu")
    with pytest.raises(FileNotFoundError, match="n-gram model file not found"):
        NGramScorer(tmp_path / "missing.lm")
    # an n-gram model has no length limit: a very long sentence is scored
    assert math.isfinite(scorer.score(["the keys are lost and " * 200])[0])


def test_li_adger_out_of_vocabulary_rate_is_small():
    with LI_ADGER.open(encoding="utf-8") as fh:
        sentences = [row["sentence"] for row in csv.DictReader(fh)]
    scorer = NGramScorer()
    oov, words = scorer.count_oov(sentences)
    print(f"LI-Adger: {oov} of {words} words out of vocabulary ({oov / words:.2%})")
    assert len(sentences) == 4178
    assert 0 < oov / words < 0.01
    assert all(math.isfinite(s) for s in scorer.score(sentences))


def test_metadata():
    meta = NGramScorer().metadata()
    assert (meta["model"], meta["kind"], meta["variant"]) == ("trigram", "ngram", "slor")
    assert meta["order"] == 3 and meta["model_file"] == "en-us.lm.bin"
    assert meta["versions"] == {"pocketsphinx": version("pocketsphinx")}
    assert meta["reduction"] == "(sum - unigram sum) / n" and meta["end_of_sentence"] is True
