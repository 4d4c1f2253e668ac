"""The app served for real: ``python -m space`` on 127.0.0.1, driven through its API
(``gradio_client``); in a browser: tests/test_space_browser.py.

The server runs for the whole module, **offline and without a single source file**, from a
folder of its own (:func:`space_helpers.served`): LI-Adger comes from the package's committed
build, and the thesis's reference rows, the offline models, the human ceiling and the BLiMP
references from the results shipped with the app. Its results folder holds one scores file, a
word-count baseline (score = minus the number of words), and is where submissions wait for
review. Expected numbers are computed independently with
:func:`metric_adc.report.li_adger.evaluate_li_adger` or read from the README.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from space_helpers import (
    BASELINE,
    char_count_csv,
    csv_file,
    li_adger_sentences,
    readme_row,
    served_app,
)

HUMAN = "human split-half (LI only)"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with served_app(tmp_path_factory) as served:
        yield served


@pytest.fixture(scope="module")
def server(app) -> str:
    return app.url


@pytest.fixture(scope="module")
def sentences():
    return li_adger_sentences()


@pytest.fixture()
def client(server):
    """A fresh API session (its own uploads)."""
    from gradio_client import Client

    return Client(server, verbose=False)


@pytest.fixture(scope="module")
def expected(sentences):
    """The metric's own row for the word-count baseline on the LI-Adger pairs."""
    from metric_adc import pairs
    from metric_adc.report.li_adger import evaluate_li_adger

    table = pairs.li_adger_pairs()
    scores = {i: -float(len(s.split())) for i, s in sentences}
    return table, evaluate_li_adger(scores, model=BASELINE, deltas=[0.5, 1.0])


def _frame(value):
    import pandas as pd

    return pd.DataFrame(value["data"], columns=value["headers"])


def _upload_api(client, path: Path, name: str = "") -> str:
    """Upload ``path`` through the API; return the status line."""
    from gradio_client import handle_file

    status, _choices = client.predict(
        handle_file(str(path)), name, 0.5, api_name="/evaluate_upload"
    )
    return status


# ----------------------------------------------------------------------------- API
def test_api_leaderboard_follows_delta_and_matches_the_metric(client, expected):
    _, row = expected
    for delta in (0.5, 1.0):
        df = _frame(client.predict(delta, api_name="/leaderboard"))
        col = f"ADC δ={delta:.2f}"
        assert col in df.columns
        got = df.set_index("Model").loc[BASELINE]
        assert got[col] == pytest.approx(row.adc[repr(delta)], abs=5e-4)
        assert got["BLiMP"] == pytest.approx(row.blimp, abs=5e-4)
        assert got["Pairs"] == row.n_pairs
        lo, hi = (float(x) for x in got["95% CI"].split("–"))
        assert lo <= got[col] <= hi
        assert list(df[col].dropna()) == sorted(df[col].dropna(), reverse=True)


def test_api_offline_start_shows_the_shipped_rows_with_the_readmes_numbers(client):
    df = _frame(client.predict(0.5, api_name="/leaderboard")).set_index("Model")
    assert list(df["Kind"]).count("thesis reference") == 8  # shipped: no source file needed
    for label, kind in [  # one name per model: the app's row is the README's row
        ("trigram (slor)", "offline model"),
        ("smollm2 (fitted, default)", "offline model"),
        ("BERT large-cased (MLM, PLL)", "thesis reference"),
        ("BNC trigram (log-prob)", "thesis reference"),
    ]:
        want = readme_row(label)
        assert df.loc[label, "Kind"] == kind
        assert df.loc[label, "ADC δ=0.50"] == want["0.5"], label
        assert df.loc[label, "BLiMP"] == want["blimp"], label
    assert "broken" not in " ".join(df.index)


def test_api_delta_zero_is_shown_at_the_smallest_delta(client):
    df = _frame(client.predict(0, api_name="/leaderboard"))
    assert "ADC δ=0.05" in df.columns


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

    from metric_adc import result_rows

    path, scores = char_count_csv(tmp_path, sentences, "chars")
    status = _upload_api(client, path, "char count")
    assert status.startswith("**Scored `char count`** on LI-Adger"), status
    df = _frame(client.predict(0.5, api_name="/leaderboard")).set_index("Model")
    row = result_rows.evaluate_on_pairs(scores, expected[0], deltas=[0.5])
    assert df.loc["char count", "Kind"] == "your upload"
    assert df.loc["char count", "ADC δ=0.50"] == pytest.approx(row.adc["0.5"], abs=5e-4)
    assert df.loc["char count", "BLiMP"] == pytest.approx(row.blimp, abs=5e-4)
    other = _frame(Client(server, verbose=False).predict(0.5, api_name="/leaderboard"))
    assert "char count" not in set(other["Model"])


def test_api_submit_waits_for_review_and_shows_in_this_session_only(
    client, server, tmp_path, sentences, app
):
    from gradio_client import Client

    path, _ = char_count_csv(tmp_path, sentences, "submitted-by-api")
    _upload_api(client, path, "submitted by api")
    status, _ = client.predict("submitted by api", api_name="/submit")
    assert status.startswith("**Submitted `submitted by api`** for the LI-Adger"), status
    request = json.loads((app.results / "pending" / "submitted-by-api.json").read_text())
    assert request["login"] is None and request["benchmark"] == "li_adger"
    mine = _frame(client.predict(0.5, api_name="/leaderboard")).set_index("Model")
    assert mine.loc["submitted by api", "Kind"] == "your upload"
    other = _frame(Client(server, verbose=False).predict(0.5, api_name="/leaderboard"))
    assert "submitted by api" not in set(other["Model"])  # not public before a review


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
        csv_file(path, rows, header="id,value")
    elif case == "unknown_id":
        csv_file(path, [*rows, ("no.such.id", "0.5")])
    elif case == "duplicate_id":
        csv_file(path, [*rows, (ids[0], "0.5")])
    elif case == "nan":
        csv_file(path, [(i, "nan" if k == 3 else f"{k}") for k, i in enumerate(ids)])
    elif case == "non_numeric":
        csv_file(path, [(i, "high" if k == 3 else f"{k}") for k, i in enumerate(ids)])
    elif case == "empty":
        path.write_text("")
    elif case == "missing":
        csv_file(path, [(i, f"{k}") for k, i in enumerate(ids[:100])])
    elif case == "huge":
        csv_file(path, [(i, f"{k}.{'0' * 8200}") for k, i in enumerate(ids)])
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


def test_api_the_npi_tab_shows_the_shipped_npi_methods(client):
    fig1 = _frame(client.predict(api_name="/npi_methods_acceptability"))
    assert {"Model", "Configuration", "Wilcox", "Caps"} <= set(fig1.columns)
    assert "CoLA" in set(fig1["Configuration"]) and "minilm" in set(fig1["Model"])
    pairs = _frame(client.predict("scope", api_name="/npi_methods_pairs"))
    assert set(pairs["Test"]) == {"absolute", "gradient"}
    probes = _frame(client.predict(api_name="/npi_methods_probes"))
    assert set(probes["Feature"]) == {"npi_present", "licensor", "scope"}
