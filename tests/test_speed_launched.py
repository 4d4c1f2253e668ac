"""The engines section's rows of the scoring command (tools/speed/launched.py): the command
run for real, in one process and in two under torchrun."""

from __future__ import annotations

import pytest

from baselines.spec import build_scorer
from tools.speed.launched import measure_launched, parse_seconds

SENTENCES = ["The keys to the cabinet are lost.", "The keys is lost.", "Who did you see?",
             "A robin is a bird.", "Kim solved the problem, didn't she?"] * 3  # fmt: skip


@pytest.mark.parametrize("processes", [1, 2])
def test_the_command_s_scores_come_back_in_the_sentences_order(processes):
    got = measure_launched(
        SENTENCES, processes=processes, threads=None, model="trigram", convention=None,
        batch_size=4, device="cpu",
    )  # fmt: skip
    assert got["scores"] == build_scorer("trigram").score(SENTENCES)
    assert got["seconds"] >= 0 and got["load_seconds"] >= 0


def test_a_failing_command_is_an_error_with_its_message():
    with pytest.raises(
        RuntimeError, match=r"failed on 1 process\(es\) .* convention does not apply"
    ):
        measure_launched(SENTENCES, processes=1, threads=None, model="trigram",
                         convention="harness", batch_size=4, device="cpu")  # fmt: skip
    with pytest.raises(RuntimeError, match="printed no timings"):
        parse_seconds("error: something")
