"""The app served for real: ``python -m space`` on 127.0.0.1, driven through its API
(``gradio_client``) and in headless Chromium (Playwright, Debian's ``/usr/bin/chromium``).

One server runs for the whole module, **offline and without a single source file**: the
source lookup points at an empty folder (``LI_ADGER_SOURCE``) and ``ADC_THESIS_OUTPUTS`` is
unset, so LI-Adger comes from the package's committed build, the thesis's reference rows are
absent (with a note), and the offline model, the human ceiling and the BLiMP references come
from the results shipped with the app. Its results folder holds one scores file, a word-count
baseline (score = minus the number of words), and is where uploads are kept. Expected
numbers are computed independently with :func:`metric_adc.report.li_adger.evaluate_li_adger` or read
from the README.

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
from space_helpers import readme_row

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
HUMAN = "human split-half (LI only)"
HIGHLIGHT_RGB = "rgb(253, 230, 138)"  # space.ui.leaderboard.HIGHLIGHT's #fde68a
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


@pytest.fixture(scope="module")
def baseline_scores(sentences) -> dict[str, float]:
    return {i: -float(len(s.split())) for i, s in sentences}


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory, sentences, baseline_scores) -> Path:
    from metric_adc.scores.file import write_scores

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
    """``python -m space`` on a free port of 127.0.0.1, with no source file; yields its URL."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    env = {k: v for k, v in os.environ.items() if k not in ("ADC_THESIS_OUTPUTS",)}
    env.update(
        HF_HUB_OFFLINE="1",
        GRADIO_ANALYTICS_ENABLED="False",
        LI_ADGER_SOURCE=str(tmp_path_factory.mktemp("no-sources") / "nonexistent"),
        LI_ADGER_CACHE=str(tmp_path_factory.mktemp("empty-cache")),
    )
    cmd = [sys.executable, "-m", "space", "--port", str(port), "--results", str(results_dir)]
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
    from metric_adc import pairs
    from metric_adc.report.li_adger import evaluate_li_adger

    table = pairs.li_adger_pairs()
    return table, evaluate_li_adger(baseline_scores, model=BASELINE, deltas=[0.5, 1.0])


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


def _upload_api(client, path: Path, name: str = "") -> str:
    """Upload ``path`` through the API; return the status line."""
    from gradio_client import handle_file

    status, _keep_choices = client.predict(
        handle_file(str(path)), name, 0.5, api_name="/evaluate_upload"
    )
    return status


def _char_count_csv(tmp_path: Path, sentences, name: str) -> tuple[Path, dict[str, float]]:
    scores = {i: float(len(s)) for i, s in sentences}  # characters: another honest baseline
    return _csv(tmp_path / f"{name}.csv", [(i, repr(v)) for i, v in scores.items()]), scores


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


def test_api_offline_start_shows_the_shipped_rows_and_no_thesis_rows(client):
    df = _frame(client.predict(0.5, api_name="/leaderboard")).set_index("Model")
    assert "thesis reference" not in set(df["Kind"])
    want = readme_row("trigram (slor)")
    assert df.loc["trigram (slor)", "Kind"] == "offline model"
    assert df.loc["trigram (slor)", "ADC δ=0.50"] == want["0.5"]
    assert df.loc["trigram (slor)", "BLiMP"] == want["blimp"]
    assert "broken" not in " ".join(df.index)


def test_api_the_human_ceiling_is_apart_with_the_readme_numbers(client):
    board = _frame(client.predict(1.0, api_name="/leaderboard"))
    assert HUMAN not in set(board["Model"])
    ceiling = _frame(client.predict(1.0, api_name="/ceiling"))
    top = ceiling.iloc[0]
    want = readme_row(HUMAN)
    assert (top["Model"], top["Pairs"], top["ADC δ=1.00"], top["BLiMP"]) == (
        HUMAN,
        1174,
        want["1.0"],
        want["blimp"],
    )
    assert "100 split-halves, seed 0" in top["Kind"]
    assert set(ceiling["Pairs"][1:]) == {1174}


def test_api_upload_valid_csv_joins_this_session_only(
    client, server, tmp_path, sentences, expected
):
    from gradio_client import Client

    from metric_adc import rows

    path, scores = _char_count_csv(tmp_path, sentences, "chars")
    status = _upload_api(client, path, "char count")
    assert status.startswith("**Scored `char count`** on LI-Adger"), status
    df = _frame(client.predict(0.5, api_name="/leaderboard")).set_index("Model")
    row = rows.evaluate_on_pairs(scores, expected[0], deltas=[0.5])
    assert df.loc["char count", "Kind"] == "your upload"
    assert df.loc["char count", "ADC δ=0.50"] == pytest.approx(row["adc"]["0.5"], abs=5e-4)
    assert df.loc["char count", "BLiMP"] == pytest.approx(row["blimp"], abs=5e-4)
    other = _frame(Client(server, verbose=False).predict(0.5, api_name="/leaderboard"))
    assert "char count" not in set(other["Model"])


def test_api_keep_puts_an_upload_on_every_sessions_leaderboard(
    client, server, tmp_path, sentences, results_dir
):
    from gradio_client import Client

    path, _ = _char_count_csv(tmp_path, sentences, "kept-by-api")
    _upload_api(client, path, "kept by api")
    status, _ = client.predict("kept by api", api_name="/keep")
    assert status.startswith("**Kept `kept by api`** on the LI-Adger leaderboard"), status
    assert (results_dir / "kept-by-api.jsonl").is_file()
    other = _frame(Client(server, verbose=False).predict(0.5, api_name="/leaderboard"))
    assert other.set_index("Model").loc["kept by api", "Kind"] == "kept upload"
    # a new upload under the kept name gets a name of its own
    status = _upload_api(client, path, "kept by api")
    assert status.startswith("**Scored `kept by api #2`**"), status


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
        _csv(path, [(i, f"{k}.{'0' * 8200}") for k, i in enumerate(ids)])
    status = _upload_api(client, path)
    assert "Refused" in status and message in status, status
    assert f"{case}.csv" in status and "/tmp" not in status, status
    df = _frame(client.predict(0.5, api_name="/leaderboard"))
    assert "your upload" not in set(df["Kind"])


def test_api_a_benchmark_upload_without_its_sources_is_refused_clearly(client, tmp_path):

    from metric_adc.scores.file import write_scores

    path = write_scores(tmp_path / "gpt.jsonl", [{"id": "adjunct_island.0.good", "score": -3.0}],
                        {"model": "gpt", "dataset": "blimp"})  # fmt: skip
    status = _upload_api(client, path)
    assert "gpt.jsonl: the blimp source files are not available here" in status, status


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
        (("per field", "blimp"), "/blimp_breakdown"),
    ]:
        out = client.predict(*args, api_name=name)
        plots = [o for o in (out if isinstance(out, tuple) else (out,)) if "type" in o]
        assert plots and all(p["type"] == "matplotlib" for p in plots), out


def test_api_benchmark_leaderboards_come_from_the_shipped_results(client):
    blimp = _frame(client.predict(api_name="/blimp_leaderboard")).set_index("Model")
    # Warstadt et al. (2020), Table 3: GPT-2 83.0; the human row is not ranked here
    assert blimp.loc["GPT-2", "BLiMP (mean over paradigms)"] == 0.83
    assert blimp.loc["trigram (slor)", "Kind"] == "offline model"
    assert "human" not in blimp.index
    npi = _frame(client.predict(api_name="/npi_leaderboard"))
    # the shipped offline models, ranked: SmolLM2 0.765, the trigram 0.571 (README family table)
    assert list(npi["Model"]) == ["smollm2 (logprob, default)", "trigram (slor)"]
    assert "ONLY (only)" in npi.columns


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


def _wait_for_board(page) -> None:
    _cell(page, "#leaderboard", BASELINE).wait_for(timeout=60_000)


@pytest.fixture()
def page(browser_context, server):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server, wait_until="domcontentloaded")
    _wait_for_board(page)
    yield page
    page.close()
    assert not errors, errors


def _shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _cell(page, table: str, text: str):
    """The first visible cell of the table ``table`` showing ``text`` (Gradio also renders
    hidden copies of the cells, to measure the columns)."""
    return page.locator(f"{table} [role=gridcell]").get_by_text(text).first


def _text(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def _upload(page, path, outcome: str, name: str = ""):
    """Upload ``path`` on the upload tab; wait until the status shows ``outcome``; return it."""
    page.get_by_role("tab", name="Evaluate your scores").click()
    if name:
        page.locator("#name textarea").fill(name)
    page.locator("#upload input[type=file]").set_input_files(str(path))
    status = page.locator("#upload-status")
    status.get_by_text(outcome).wait_for(timeout=60_000)
    return status


def _row_background(page, board: str, model: str) -> str:
    """The background colour of the cell naming ``model`` in the table ``board``."""
    return page.evaluate(
        """([board, model]) => {
            const cells = [...document.querySelectorAll(board + ' [role=gridcell]')];
            const cell = cells.find(c => c.innerText.trim() === model);
            if (!cell) return null;
            for (const e of [cell, ...cell.querySelectorAll('*')]) {
                const bg = getComputedStyle(e).backgroundColor;
                if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
            }
            return getComputedStyle(cell).backgroundColor;
        }""",
        [board, model],
    )


@pytest.mark.browser
def test_browser_page_loads_offline_with_no_source_file(page):
    text = _text(page, "#leaderboard")
    assert "ADC δ=0.50" in text and BASELINE in text and "trigram (slor)" in text
    assert "thesis reference" not in text
    assert "ADC_THESIS_OUTPUTS" in page.content()  # the note saying why the thesis rows are absent
    page.locator("#curves img").wait_for(timeout=30_000)
    _shot(page, "page-offline")


@pytest.mark.browser
def test_browser_the_human_ceiling_is_shown_apart(page):
    assert HUMAN not in _text(page, "#leaderboard")
    _cell(page, "#ceiling", HUMAN).wait_for(timeout=30_000)
    ceiling = _text(page, "#ceiling")
    want = readme_row(HUMAN)
    assert f"{want['0.5']:.3f}" in ceiling and f"{want['blimp']:.3f}" in ceiling
    assert "not ranked above" in _text(page, "#ceiling-notes")
    page.locator("#ceiling").scroll_into_view_if_needed()
    _shot(page, "ceiling-apart")


@pytest.mark.browser
def test_browser_delta_slider_changes_the_table(page):
    before = _text(page, "#leaderboard")
    slider = page.locator("#delta input[type=range]")
    slider.focus()
    for _ in range(10):  # 0.5 → 1.0 in steps of 0.05
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "t => document.querySelector('#leaderboard').innerText.includes(t)",
        arg="ADC δ=1.00",
        timeout=30_000,
    )
    after = _text(page, "#leaderboard")
    assert "ADC δ=0.50" in before and "ADC δ=1.00" in after
    # not only the header: the numbers change too
    assert after.replace("ADC δ=1.00", "") != before.replace("ADC δ=0.50", "")
    _shot(page, "delta-1.0")


@pytest.mark.browser
def test_browser_an_upload_is_scored_and_its_row_highlighted(page, tmp_path, sentences):
    path, _ = _char_count_csv(tmp_path, sentences, "my_model")
    status = _upload(page, path, "Scored")
    assert "my_model" in status.inner_text()
    page.get_by_role("tab", name="LI-Adger (ADC)").click()
    page.get_by_role("tab", name="Leaderboard").first.click()
    _cell(page, "#leaderboard", "my_model").wait_for(timeout=30_000)
    assert _row_background(page, "#leaderboard", "my_model") == HIGHLIGHT_RGB
    assert _row_background(page, "#leaderboard", BASELINE) != HIGHLIGHT_RGB
    _shot(page, "upload-highlighted")


@pytest.mark.browser
def test_browser_a_kept_upload_is_still_there_after_a_reload(page, tmp_path, sentences):
    path, _ = _char_count_csv(tmp_path, sentences, "browser-kept")
    _upload(page, path, "Scored", name="kept in the browser")
    page.locator("#keep").click()
    page.locator("#keep-status").get_by_text("Kept").wait_for(timeout=60_000)
    _shot(page, "kept")
    page.reload(wait_until="domcontentloaded")
    _wait_for_board(page)
    _cell(page, "#leaderboard", "kept in the browser").wait_for(timeout=30_000)
    assert "kept upload" in _text(page, "#leaderboard")
    assert _row_background(page, "#leaderboard", "kept in the browser") != HIGHLIGHT_RGB
    _shot(page, "kept-after-reload")


@pytest.mark.browser
def test_browser_malformed_upload_shows_its_error(page, tmp_path):
    path = _csv(tmp_path / "bad.csv", [("a", "1")], header="sentence,logprob")
    status = _upload(page, path, "Refused")
    assert "expected the CSV header 'id,score' (got 'sentence,logprob')" in status.inner_text()
    _shot(page, "upload-refused")


@pytest.mark.browser
def test_browser_a_benchmark_tab_shows_its_leaderboard_and_breakdown(page):
    page.get_by_role("tab", name="BLiMP").click()
    board = page.locator("#blimp-leaderboard")
    _cell(page, "#blimp-leaderboard", "GPT-2").wait_for(timeout=30_000)
    text = board.inner_text()
    assert "trigram (slor)" in text and "offline model" in text and "0.830" in text
    assert "0.886" in _text(page, "#blimp-human") and "0.886" not in text
    _shot(page, "blimp")
    page.get_by_role("tab", name="Breakdown").first.click()
    _cell(page, "#blimp-breakdown", "island effects").wait_for(timeout=30_000)
    page.locator("#blimp-breakdown-plot img").wait_for(timeout=30_000)
    _shot(page, "blimp-breakdown")


@pytest.mark.browser
def test_browser_pair_explorer_never_breaks_a_word(page):
    page.get_by_role("tab", name="Pair explorer").click()
    _cell(page, "#pairs", "attempted to").wait_for(timeout=30_000)
    cells = page.evaluate(
        """() => {
            // per visible cell: its column, text, CSS, number of lines, and every place where
            // a line ends inside a word (the characters on both sides of the break)
            const out = [];
            for (const span of document.querySelectorAll('#pairs [role=gridcell] span.text')) {
                const node = [...span.childNodes].find(n => n.nodeType === 3);
                if (!node || !node.textContent.trim()) continue;
                const text = node.textContent, tops = [], inside = [];
                for (let i = 0; i < text.length; i++) {
                    const r = document.createRange();
                    r.setStart(node, i); r.setEnd(node, i + 1);
                    const rect = r.getClientRects()[0];
                    tops.push(rect ? Math.round(rect.top) : null);
                    if (i > 0 && tops[i] !== null && tops[i - 1] !== null && tops[i] > tops[i - 1]
                        && text[i - 1] !== ' ' && text[i] !== ' ') inside.push(text.slice(i - 1, i + 1));
                }
                const style = getComputedStyle(span);
                out.push({col: span.closest('[role=gridcell]').dataset.col, text,
                          lines: new Set(tops.filter(t => t !== null)).size, inside,
                          css: style.wordBreak + '/' + style.overflowWrap});
            }
            return out;
        }"""
    )
    outcome = [c for c in cells if c["text"] in ("pass", "fail")]
    assert outcome and all(c["lines"] == 1 for c in outcome), outcome[:5]
    sentences = [c for c in cells if c["col"] in ("3", "4")]
    assert sentences and {c["css"] for c in sentences} == {"normal/normal"}
    assert any(c["lines"] > 1 for c in sentences)  # long sentences do wrap…
    broken = [(c["text"], c["inside"]) for c in cells if c["col"] not in ("0", "2") and c["inside"]]
    assert not broken, broken[:5]  # …but only between words
    _shot(page, "pairs")


@pytest.mark.browser
def test_browser_the_heatmap_is_drawn(page):
    page.get_by_role("tab", name="Phenomena").click()
    page.locator("#heatmap img").wait_for(timeout=30_000)
    _shot(page, "phenomena")
