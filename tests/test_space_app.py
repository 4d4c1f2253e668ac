"""The Space served for real: ``python -m space`` on 127.0.0.1, driven through its API
(``gradio_client``) and in headless Chromium (Playwright, Debian's ``/usr/bin/chromium``).

One server runs for the whole module. Its results directory holds one scores file, a
word-count baseline (score = minus the number of words) written with the metric's own
writer, so the app shows a model that does not come from the thesis. Expected numbers are
computed independently with :func:`metric_adc.rows.evaluate_li_adger`.

Screenshots go to ``artifacts/space/`` (git-ignored).
"""

from __future__ import annotations

import contextlib
import csv
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "space"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BASELINE = "word-count baseline"
STARTUP_TIMEOUT_S = 240


# ----------------------------------------------------------------------------- fixtures
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def sentences():
    import li_adger

    ds = li_adger.load("sentences")
    return list(zip(ds["id"], ds["sentence"], strict=True))


def _word_count_scores(sentences) -> dict[str, float]:
    return {i: -float(len(s.split())) for i, s in sentences}


@pytest.fixture(scope="module")
def baseline_scores(sentences) -> dict[str, float]:
    return _word_count_scores(sentences)


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory, sentences, baseline_scores) -> Path:
    from metric_adc.scores_file import write_scores

    d = tmp_path_factory.mktemp("results")
    write_scores(
        d / "word_count.jsonl",
        [{"id": i, "sentence": s, "score": baseline_scores[i]} for i, s in sentences],
        {"model": BASELINE, "kind": "baseline", "reduction": "sum"},
    )
    (d / "broken.csv").write_text("id,value\nx,1\n")  # must be skipped, not crash the app
    return d


@pytest.fixture(scope="module")
def server(results_dir, tmp_path_factory):
    """``python -m space`` on a free port of 127.0.0.1; yields its base URL."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    cmd = [sys.executable, "-m", "space", "--port", str(port), "--results", str(results_dir)]
    cmd += ["--ceiling-splits", "10"]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
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


@pytest.fixture()
def client(server):
    """A fresh API session (its own uploads)."""
    from gradio_client import Client

    return Client(server, verbose=False)


@pytest.fixture(scope="module")
def expected(baseline_scores):
    """The metric's own row for the word-count baseline on the LI-Adger pairs."""
    from metric_adc import pairs, rows

    table = pairs.li_adger_pairs()
    return table, rows.evaluate_li_adger(baseline_scores, model=BASELINE, deltas=[0.5, 1.0])


# ----------------------------------------------------------------------------- helpers
def _frame(value):
    import pandas as pd

    return pd.DataFrame(value["data"], columns=value["headers"])


def _csv(path: Path, rows: list[tuple[str, str]], header: str = "id,score") -> Path:
    """A CSV file, quoted as the csv module does (some LI-Adger ids hold a comma)."""
    with path.open("w", newline="") as fh:
        fh.write(header + "\n")
        csv.writer(fh, lineterminator="\n").writerows(rows)
    return path


# ----------------------------------------------------------------------------- API
def test_api_leaderboard_follows_delta_and_matches_the_metric(client, expected):
    _, row = expected
    for delta in (0.5, 1.0):
        df = _frame(client.predict(delta, api_name="/leaderboard"))
        col = f"ADC δ={delta:.2f}"
        assert col in df.columns
        got = df.set_index("Model").loc[BASELINE]
        assert got[col] == pytest.approx(row["adc"][repr(delta)], abs=5e-4)
        assert got["BLiMP"] == pytest.approx(row["blimp"], abs=5e-4)
        assert got["Pairs"] == row["n_pairs"]
        lo, hi = (float(x) for x in got["95% CI"].split("–"))
        assert lo <= got[col] <= hi
        assert list(df[col].dropna()) == sorted(df[col].dropna(), reverse=True)


def test_api_leaderboard_has_thesis_models_and_ceiling(client):
    from metric_adc import thesis

    df = _frame(client.predict(0.5, api_name="/leaderboard"))
    kinds = set(df["Kind"])
    if thesis.default_dir().is_dir():
        assert (df["Kind"] == "thesis reference").sum() == len(thesis.MODELS)
    assert any("LI pairs only" in k for k in kinds), kinds
    assert "broken" not in " ".join(df["Model"])


def test_api_upload_valid_csv_joins_this_session_only(
    client, server, tmp_path, sentences, expected
):
    from gradio_client import Client, handle_file

    from metric_adc import rows

    scores = {i: float(len(s)) for i, s in sentences}  # characters: another honest baseline
    path = _csv(tmp_path / "chars.csv", [(i, repr(v)) for i, v in scores.items()])
    status = client.predict(handle_file(str(path)), "char count", 0.5, api_name="/evaluate_upload")
    assert status.startswith("**Scored `char count`**"), status
    df = _frame(client.predict(0.5, api_name="/leaderboard")).set_index("Model")
    row = rows.evaluate_on_pairs(scores, expected[0], deltas=[0.5])
    assert df.loc["char count", "Kind"] == "your upload"
    assert df.loc["char count", "ADC δ=0.50"] == pytest.approx(row["adc"]["0.5"], abs=5e-4)
    assert df.loc["char count", "BLiMP"] == pytest.approx(row["blimp"], abs=5e-4)
    other = _frame(Client(server, verbose=False).predict(0.5, api_name="/leaderboard"))
    assert "char count" not in set(other["Model"])


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("wrong_columns", "expected the CSV header 'id,score' (got 'id,value')"),
        ("unknown_id", "sentence id(s) unknown to LI-Adger, e.g. 'no.such.id'"),
        ("duplicate_id", "duplicate id"),
        ("nan", "'score' must be finite (got nan)"),
        ("non_numeric", "'score' must be a number (got 'high')"),
        ("empty", "file is empty"),
        ("missing", "no score for"),
        ("huge", "larger than max_bytes"),
    ],
)
def test_api_upload_refuses_malformed_files_clearly(client, tmp_path, sentences, case, message):
    from gradio_client import handle_file

    ids = [i for i, _ in sentences]
    rows = [(i, "1.0") for i in ids]
    path = tmp_path / f"{case}.csv"
    if case == "wrong_columns":
        _csv(path, rows, header="id,value")
    elif case == "unknown_id":
        _csv(path, [*rows, ("no.such.id", "0.5")])
    elif case == "duplicate_id":
        _csv(path, [*rows, (ids[0], "0.5")])
    elif case == "nan":
        _csv(path, [(i, "nan" if k == 3 else f"{k}") for k, i in enumerate(ids)])
    elif case == "non_numeric":
        _csv(path, [(i, "high" if k == 3 else f"{k}") for k, i in enumerate(ids)])
    elif case == "empty":
        path.write_text("")
    elif case == "missing":
        _csv(path, [(i, f"{k}") for k, i in enumerate(ids[:100])])
    elif case == "huge":
        _csv(path, [(i, f"{k}.{'0' * 2100}") for k, i in enumerate(ids)])
    status = client.predict(handle_file(str(path)), "", 0.5, api_name="/evaluate_upload")
    assert "Refused" in status and message in status, status
    assert f"{case}.csv" in status and "/tmp" not in status, status
    df = _frame(client.predict(0.5, api_name="/leaderboard"))
    assert "your upload" not in set(df["Kind"])


def test_api_pair_explorer_filters(client, expected):
    pairs, _ = expected
    summary, value = client.predict(
        0.5, "all", "all", BASELINE, "fail", "(none)", "all", api_name="/pairs"
    )
    df = _frame(value)
    assert set(df["A"]) == {"fail"}
    n = int(summary.split()[0])
    assert n > 0 and len(df) == min(n, 500)
    summary_b, _ = client.predict(
        0.5, "LI", "all", BASELINE, "all", BASELINE, "A and B differ", api_name="/pairs"
    )
    assert summary_b.startswith("0 pairs match"), summary_b  # a model never differs from itself
    phen = pairs.phenomenon[0]
    _, value_p = client.predict(
        1.0, "all", phen, BASELINE, "all", "(none)", "all", api_name="/pairs"
    )
    assert set(_frame(value_p)["phenomenon"]) == {phen}


def test_api_plots_render(client):
    for args, name in [
        ((0.5,), "/adc_curves"),
        ((BASELINE, 0.5), "/model_plots"),
        ((1.0, "LI"), "/heatmap"),
    ]:
        out = client.predict(*args, api_name=name)
        outs = out if isinstance(out, tuple) else (out,)
        for plot in outs:
            assert plot and plot["type"] == "matplotlib", plot


# ----------------------------------------------------------------------------- browser
@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent: install Debian's chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        yield context
        context.close()


@pytest.fixture()
def page(browser_context, server):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server, wait_until="domcontentloaded")
    page.locator("#leaderboard").get_by_text(BASELINE).first.wait_for(timeout=60_000)
    yield page
    page.close()
    assert not errors, errors


def _shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _board_text(page) -> str:
    return page.locator("#leaderboard").inner_text()


@pytest.mark.browser
def test_browser_page_loads(page):
    text = _board_text(page)
    assert "ADC δ=0.50" in text and BASELINE in text
    page.locator("#curves img").first.wait_for(timeout=30_000)
    _shot(page, "page")


@pytest.mark.browser
def test_browser_delta_slider_changes_the_table(page):
    before = _board_text(page)
    slider = page.locator("#delta input[type=range]")
    slider.focus()
    for _ in range(10):  # 0.5 → 1.0 in steps of 0.05
        page.keyboard.press("ArrowRight")
    page.locator("#leaderboard").get_by_text("ADC δ=1.00").first.wait_for(timeout=30_000)
    after = _board_text(page)
    assert "ADC δ=0.50" in before and "ADC δ=1.00" in after
    # not only the header: the numbers change too
    assert after.replace("ADC δ=1.00", "") != before.replace("ADC δ=0.50", "")
    _shot(page, "delta-1.0")


def _upload(page, path, outcome: str):
    """Upload ``path`` on the upload tab; wait until the status shows ``outcome``; return it."""
    page.get_by_role("tab", name="Evaluate your scores").click()
    page.locator("#upload input[type=file]").set_input_files(str(path))
    status = page.locator("#upload-status")
    status.get_by_text(outcome).wait_for(timeout=60_000)
    return status


@pytest.mark.browser
def test_browser_valid_upload_is_scored(page, tmp_path, sentences):
    scores = {i: float(len(s)) for i, s in sentences}
    path = _csv(tmp_path / "my_model.csv", [(i, repr(v)) for i, v in scores.items()])
    status = _upload(page, path, "Scored")
    assert "my_model" in status.inner_text()
    _shot(page, "upload-valid")
    page.get_by_role("tab", name="Leaderboard").click()
    page.locator("#leaderboard").get_by_text("my_model").first.wait_for(timeout=30_000)
    assert "your upload" in _board_text(page)


@pytest.mark.browser
def test_browser_malformed_upload_shows_its_error(page, tmp_path):
    path = _csv(tmp_path / "bad.csv", [("a", "1")], header="sentence,logprob")
    status = _upload(page, path, "Refused")
    assert "expected the CSV header 'id,score' (got 'sentence,logprob')" in status.inner_text()
    _shot(page, "upload-refused")
