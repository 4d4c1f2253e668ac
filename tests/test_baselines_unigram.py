"""The unigram models: how words, punctuation, numbers, case, clitics and unknown words are
handled, for both sources. Word frequencies are those of wordfreq 3.1.1's English 'large' list
and of pocketsphinx's en-us.lm.bin, typed in from the sources."""

from __future__ import annotations

import math

import pytest

from baselines.kinds.unigram import (
    TRIGRAM_FLOOR_LOGPROB,
    UNIGRAM_SOURCES,
    WORDFREQ_FLOOR,
    UnigramModel,
    check_unigram_source,
    unigram_model,
)

pytest.importorskip("wordfreq")

# wordfreq 3.1.1, English, 'large' list: word_frequency(word, "en", "large")
WORDFREQ = {"the": 0.0537, "keys": 2.45e-05, "are": 0.0055, "lost": 0.000245, "is": 0.0117}


@pytest.fixture(scope="module")
def wordfreq_model() -> UnigramModel:
    return unigram_model("wordfreq")


@pytest.fixture(scope="module")
def trigram_model() -> UnigramModel:
    return unigram_model("trigram")


def test_wordfreq_sentence_log_probability_by_hand(wordfreq_model):
    u = wordfreq_model.sentence("The keys are lost.")
    assert u.words == ("the", "keys", "are", "lost")
    expected = sum(math.log(WORDFREQ[w]) for w in u.words)
    assert u.total == pytest.approx(expected, rel=1e-9)
    assert len(u) == 4 and u.n_unknown == 0


@pytest.mark.parametrize(
    ("sentence", "words"),
    [
        # case is folded, punctuation is dropped
        ("The KEYS are lost!!!", ("the", "keys", "are", "lost")),
        # inner apostrophes keep a word whole, curly or straight; a hyphen splits it
        ("“Who’s there?” asked the ex-wife.", ("who’s", "there", "asked", "the", "ex", "wife")),
        (
            "Don't touch that co-worker's dial!",
            ("don't", "touch", "that", "co", "worker's", "dial"),
        ),
        # a detached clitic is a word of its own; numbers are words
        ("The food that does n't help.", ("the", "food", "that", "does", "n't", "help")),
        ("It rained 3 times in 1999.", ("it", "rained", "3", "times", "in", "1999")),
    ],
)
def test_wordfreq_words(wordfreq_model, sentence, words):
    assert wordfreq_model.sentence(sentence).words == words


def test_wordfreq_numbers_and_clitics_have_their_listed_frequencies(wordfreq_model):
    u = wordfreq_model.sentence("does n't 3 1999")
    expected = [0.00055, 3.8e-06, 0.000813, 3.52e-05]
    assert u.logprobs == pytest.approx([math.log(f) for f in expected], rel=1e-9)
    assert all(u.known)


def test_case_and_punctuation_do_not_change_the_unigram_log_probability(wordfreq_model):
    plain = wordfreq_model.sentence("the keys are lost")
    assert wordfreq_model.sentence("The KEYS, are... lost?!").total == plain.total


def test_unknown_words_get_the_floor_and_nothing_scores_below_it(wordfreq_model):
    u = wordfreq_model.sentence("The xqzzyblorf is lost.")
    assert u.words[1] == "xqzzyblorf" and u.known == (True, False, True, True)
    assert u.logprobs[1] == math.log(WORDFREQ_FLOOR) == pytest.approx(-18.420680743952367)
    # wordfreq gives a 12-digit number 1.69e-18, below the list's cutoff: raised to the floor
    number = wordfreq_model.sentence("123456789012")
    assert number.known == (True,) and number.logprobs == (math.log(WORDFREQ_FLOOR),)


def test_the_floor_is_below_every_listed_word_of_the_source():
    import wordfreq

    lowest = min(wordfreq.get_frequency_dict("en", wordlist="large").values())
    assert WORDFREQ_FLOOR <= lowest < 1.1 * WORDFREQ_FLOOR


def test_trigram_words_and_unigrams(trigram_model):
    u = trigram_model.sentence("The food that does n't help.")
    # the trigram re-attaches a detached clitic it knows; no end-of-sentence unit
    assert u.words == ("the", "food", "that", "doesn't", "help")
    # en-us.lm.bin's unigram of "the": pocketsphinx integer -31995 in base 1.0001
    assert u.logprobs[0] == pytest.approx(-31995 * math.log(1.0001), rel=1e-6)
    assert all(u.known)


def test_trigram_unknown_words_get_its_smallest_unigram(trigram_model):
    # 'aborn' is one of the rarest unigrams of en-us.lm.bin (integer -218060 in base 1.0001)
    assert pytest.approx(-218060 * math.log(1.0001), rel=1e-6) == TRIGRAM_FLOOR_LOGPROB
    assert trigram_model.word_logprob("aborn") == (TRIGRAM_FLOOR_LOGPROB, True)
    assert trigram_model.word_logprob("xqzzyblorf") == (TRIGRAM_FLOOR_LOGPROB, False)


def test_trigram_floor_is_below_every_unigram_of_li_adger(trigram_model):
    import li_adger

    words = {w for s in li_adger.load("sentences")["sentence"] for w in trigram_model.words(s)}
    known = [lp for lp, k in map(trigram_model.word_logprob, words) if k]
    assert len(known) > 3000 and min(known) >= TRIGRAM_FLOOR_LOGPROB


@pytest.mark.parametrize("source", UNIGRAM_SOURCES)
def test_a_sentence_without_words_is_an_error(source):
    with pytest.raises(ValueError, match=f"the unigram model '{source}' finds no word"):
        unigram_model(source).sentence("... !?")


def test_toy_table_and_bad_arguments():
    toy = UnigramModel("toy", str.split, {"a": -1.0, "b": -30.0}.get, floor_logprob=-20.0)
    u = toy.sentence("a b c")
    # 'b' is listed below the floor: raised to it; 'c' is unknown: the floor
    assert u.logprobs == (-1.0, -20.0, -20.0) and u.known == (True, True, False)
    with pytest.raises(
        ValueError, match=r"floor_logprob must be a finite log-probability <= 0 \(got 1.0\)"
    ):
        UnigramModel("toy", str.split, {}.get, floor_logprob=1.0)
    with pytest.raises(ValueError, match="unigram must be one of 'wordfreq', 'trigram'"):
        check_unigram_source("WORDFREQ")


@pytest.mark.parametrize(
    ("source", "floor", "library"),
    [
        ("wordfreq", math.log(1e-8), "wordfreq"),  # the large list's cutoff frequency
        ("trigram", -218060 * math.log(1.0001), "pocketsphinx"),  # its smallest unigram
    ],
)
def test_metadata_names_the_source_policy_and_floor(source, floor, library):
    from importlib.metadata import version

    meta = unigram_model(source).metadata()
    assert meta["source"] == source
    assert meta["floor_logprob"] == pytest.approx(floor, abs=1e-12)
    assert meta["tokenisation"] and meta["unknown_words"]
    assert meta["versions"] == {library: version(library)}
