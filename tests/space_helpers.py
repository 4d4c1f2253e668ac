"""Helpers of the app's tests (tests/test_space_*.py): golden values read from the README, and
``python -m space`` served for real on 127.0.0.1 with no source file and no network."""

from __future__ import annotations

import contextlib
import csv
import functools
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "word-count baseline"
STARTUP_TIMEOUT_S = 240


def readme_row(model: str) -> dict[str, float]:
    """A row of the README's results table (checked against the metric by test_readme.py):
    pairs, BLiMP, ADC at δ = 0.5 / 1 / 5, Pearson at pair and sentence level."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith(f"| {model} |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    keys = ["pairs", "blimp", "0.5", "1.0", "5.0", "pearson_pairs", "pearson_sentences"]
    return dict(zip(keys, map(float, cells[1:]), strict=True))


@functools.cache
def li_adger_sentences() -> list[tuple[str, str]]:
    """LI-Adger's (id, sentence) pairs, from the package's build."""
    import li_adger

    ds = li_adger.load("sentences")
    return list(zip(ds["id"], ds["sentence"], strict=True))


def write_results_dir(folder: Path, sentences) -> Path:
    """A results folder holding one scores file, a word-count baseline (score = minus the number
    of words), and one broken file that the app must skip."""
    from metric_adc.scores.file import write_scores

    write_scores(
        folder / "word_count.jsonl",
        [{"id": i, "sentence": s, "score": -float(len(s.split()))} for i, s in sentences],
        {"model": BASELINE, "kind": "baseline", "reduction": "sum"},
    )
    (folder / "broken.csv").write_text("id,value\nx,1\n")  # must be skipped, not crash the app
    return folder


def csv_file(path: Path, rows: list[tuple[str, str]], header: str = "id,score") -> Path:
    """A CSV file, quoted as the csv module does (some LI-Adger ids hold a comma)."""
    with path.open("w", newline="") as fh:
        fh.write(header + "\n")
        csv.writer(fh, lineterminator="\n").writerows(rows)
    return path


def char_count_csv(folder: Path, sentences, name: str) -> tuple[Path, dict[str, float]]:
    """Scores = the number of characters (another honest baseline), as ``<name>.csv``."""
    scores = {i: float(len(s)) for i, s in sentences}
    return csv_file(folder / f"{name}.csv", [(i, repr(v)) for i, v in scores.items()]), scores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(results_dir: Path | None, work: Path) -> Iterator[str]:
    """``python -m space`` on a free port of 127.0.0.1, yielding its URL: no source file (the
    lookup points at an empty folder), no ``ADC_*`` variable, every download sent to an
    unreachable proxy; its log in ``work``. ``results_dir=None``: no results folder (the
    shipped results only, and nowhere to keep submissions)."""
    port = free_port()
    log = work / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADC_")}
    env.update(
        HF_HUB_OFFLINE="1",
        GRADIO_ANALYTICS_ENABLED="False",
        LI_ADGER_SOURCE=str(work / "no-sources"),
        LI_ADGER_CACHE=str(work / "empty-cache"),
        HTTPS_PROXY="http://127.0.0.1:9",  # no download can reach anything
        HTTP_PROXY="http://127.0.0.1:9",
        NO_PROXY="127.0.0.1,localhost",
        # the checkout under test, whichever checkout the environment installed
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    cmd = [sys.executable, "-m", "space", "--port", str(port)]
    cmd += [] if results_dir is None else ["--results", str(results_dir)]
    with serving(cmd, port, cwd=work, env=env, log=log) as url:
        yield url


@contextlib.contextmanager
def serving(cmd: list[str], port: int, *, cwd: Path, env: dict, log: Path) -> Iterator[str]:
    """Run the server ``cmd`` (listening on ``port`` of 127.0.0.1) until it answers HTTP 200,
    yield its URL, then stop it; its output in ``log``, whose tail a failure shows."""
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the app exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    break
            if time.monotonic() > deadline:
                pytest.fail(f"the app did not answer within {STARTUP_TIMEOUT_S} s:\n"
                            f"{log.read_text()[-3000:]}")  # fmt: skip
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass(frozen=True)
class App:
    """A served app: its URL and its results folder (:func:`write_results_dir`)."""

    url: str
    results: Path


@contextlib.contextmanager
def served_app(tmp_path_factory) -> Iterator[App]:
    """:func:`served` with a fresh results folder of :func:`write_results_dir`."""
    results = write_results_dir(tmp_path_factory.mktemp("results"), li_adger_sentences())
    with served(results, tmp_path_factory.mktemp("server")) as url:
        yield App(url, results)
