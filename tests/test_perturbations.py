"""Ettinger's (2020) perturbations of the diagnostics: what each rewrites and what it keeps, the
constraint bins against the paper's printed percentages, ``score --perturbation`` and
``report`` on a perturbed run.

Golden values come from the source files (the words of each sentence, ROLE-88's
``exp_cloze``) and from the percentages Ettinger prints (each is a count over its table's
items); none from the code under test.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselines.__main__ import main as baselines_main
from li_adger.benchmarks import diagnostics, load_items
from li_adger.benchmarks.perturbations import (
    BIN_EDGES,
    Perturbation,
    bin_label,
    constraint_bin,
    perturbed_items,
    remove_roles,
    shuffle_words,
)
from li_adger.benchmarks.tsv import read_tsv
from li_adger.sources import find_sources
from metric_adc.__main__ import main as metric_main
from metric_adc.report.paper_tables import ETTINGER_TABLES, NPI_MTURK
from metric_adc.scores.file import write_scores


def _rows(s: str) -> list[list[str]]:
    path = find_sources([diagnostics.FILES[s]])[diagnostics.FILES[s]]
    return [f for _, f in read_tsv(path, 7, header=diagnostics.HEADERS[s])]


@pytest.fixture(scope="module")
def items():
    return perturbed_items(Perturbation(["all"], seed=5, shuffles=4))


def _contexts(items, perturbation: str) -> dict[str, str]:
    acc = items.accuracy[items.accuracy["perturbation"] == perturbation]
    text = items.units.set_index("id")["context"]
    return dict(zip(acc["expected_id"], text[acc["expected_id"]], strict=True))


words = st.text(st.characters(exclude_categories=("Z", "C")), min_size=1, max_size=8)


@given(st.lists(words, min_size=1, max_size=12), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_shuffling_keeps_the_multiset_of_words(ws, seed):
    out = shuffle_words(" ".join(ws), np.random.default_rng(seed))
    assert sorted(out.split()) == sorted(ws)


def test_shuf_shuffles_the_first_sentence_and_moves_nothing_else(items):
    rows = {f"CPRAG-102.{r[0]}.{r[3]}": r for r in _rows("CPRAG-102")}
    shuffled = _contexts(items, "shuf")
    assert len(shuffled) == 34 * 4
    changed = 0
    for unit, context in shuffled.items():
        base = unit.split("@")[0]
        s1, s2 = rows[base][1].strip(), rows[base][2].strip()
        assert context.endswith(" " + s2)  # the second sentence, up to the blank, untouched
        first = context.removesuffix(" " + s2)
        assert sorted(first.split()) == sorted(s1.split())
        changed += first != s1
    assert changed > 100  # a shuffle that never moved a word would pass the rest
    completions = items.units.set_index("id")["completion"]
    assert all(completions[u] == completions[u.split("@")[0]] for u in shuffled)


def test_shuffles_are_seeded_and_do_not_depend_on_their_number(items):
    fewer = perturbed_items(Perturbation(["shuf"], seed=5, shuffles=2))
    again = _contexts(fewer, "shuf")
    assert again == {u: c for u, c in _contexts(items, "shuf").items() if u in again}
    other = _contexts(perturbed_items(Perturbation(["shuf"], seed=6, shuffles=2)), "shuf")
    assert other != again


def test_trunc_keeps_the_first_sentence_and_two_words_before_the_blank(items):
    rows = {f"CPRAG-102.{r[0]}.{r[3]}@trunc": r for r in _rows("CPRAG-102")}
    for unit, context in _contexts(items, "trunc").items():
        s1, s2 = rows[unit][1].strip(), rows[unit][2].split()
        assert context == f"{s1} {s2[-2]} {s2[-1]}"
    shuf = _contexts(items, "shuf")
    for unit, context in _contexts(items, "shuf+trunc").items():  # the same shuffles, cut
        s2 = rows[unit.split("#")[0].replace("shuf+trunc", "trunc")][2].split()
        twin = shuf[unit.replace("shuf+trunc", "shuf")]
        assert context == " ".join(twin.split()[: -len(s2)] + s2[-2:])


def test_role_perturbations_replace_only_the_object_and_the_subject(items):
    orig = _contexts(items, "orig")
    for name, obj, sub in (("-obj", True, False), ("-sub", False, True), ("-both", True, True)):
        done = _contexts(items, name)
        assert len({u.split(".")[1] for u in done}) == 88
        for unit, context in done.items():
            before, after = orig[unit.split("@")[0]].split(), context.split()
            assert len(before) == len(after)
            which = before.index("which")
            diff = {i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
            expected = ({which + 1} if obj else set()) | ({which + 3} if sub else set())
            assert diff == expected
            assert after[which + 1] == ("one" if obj else before[which + 1])
            assert after[which + 3] == ("other" if sub else before[which + 3])
    c = "the firefighter reported which paramedic the victim had"
    both = remove_roles(remove_roles(c, obj=True, sub=False), obj=False, sub=True)
    assert both == remove_roles(c, obj=True, sub=True)


def test_the_original_items_are_the_benchmarks():
    bench = load_items("diagnostics")
    units = bench.units.set_index("id")
    p = perturbed_items(Perturbation(["all"], shuffles=1))
    orig = p.accuracy[p.accuracy["perturbation"] == "orig"]["expected_id"]
    mine = p.units.set_index("id").loc[orig]
    theirs = bench.accuracy[bench.accuracy["set"].isin(["CPRAG-102", "ROLE-88"])]
    assert orig.tolist() == theirs["expected_id"].tolist()
    assert mine.equals(units.loc[orig, ["context", "completion"]])


def _a_count_of(n: int, percent: float) -> bool:
    """Whether ``percent`` is printed from m of n items for some m (to within the last digit:
    Table 8's 41.1 is 7/17 = 41.18, cut rather than rounded)."""
    return any(abs(100 * m / n - percent) <= 0.1 + 1e-9 for m in range(n + 1))


def test_bins_hold_the_items_behind_every_percentage_table_8_prints():
    values = [float(r[3]) for r in _rows("ROLE-88")]
    sizes = [sum(constraint_bin(v) == bin_label(e) for v in values) for e in BIN_EDGES]
    assert sizes == [25, 23, 23, 17]
    table = ETTINGER_TABLES["table_8"]
    for cells in table["rows"].values():
        for n, column in zip(sizes, table["columns"], strict=True):
            value = cells[column][0]
            assert _a_count_of(n, value), (column, value)


def test_the_printed_tables_agree_with_their_item_counts_and_each_other():
    for table, n in (("table_4", 34), ("table_7", 88)):
        for cells in ETTINGER_TABLES[table]["rows"].values():
            for value, sd in cells.values():
                if sd is None:  # a mean of 100 shuffles need not be a count over n
                    assert _a_count_of(n, value), (table, value)
    for bad, good, diff in NPI_MTURK["rows"].values():
        assert math.isclose(good - bad, diff, abs_tol=0.011)
    assert set(NPI_MTURK["environments"].values()) == set(diagnostics_free_environments())


def diagnostics_free_environments() -> list[str]:
    from li_adger.benchmarks.npi import ENVIRONMENTS

    return list(ENVIRONMENTS)


def test_a_trigram_sees_neither_shuf_nor_trunc(tmp_path):
    """An order-3 model conditions on the two words before the blank, which Shuf and Trunc
    both keep: its ranks cannot change."""
    out = tmp_path / "t.jsonl"
    args = ["score", "--model", "trigram", "--dataset", "diagnostics", "--perturbation",
            "shuf,trunc,shuf+trunc", "--shuffles", "2", "--out", str(out), "--quiet"]  # fmt: skip
    assert baselines_main(args) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    meta, rank = records[0], {r["id"]: r["rank"] for r in records[1:]}
    assert meta["perturbation"] == ["shuf", "trunc", "shuf+trunc"] and meta["shuffles"] == 2
    assert len(rank) == 34 * (1 + 2 + 1 + 2)
    assert all(r == rank[i.split("@")[0]] for i, r in rank.items())


def test_a_trigram_sees_the_subject_of_role88_but_not_the_object_and_ranks_no_target_top_5(
    tmp_path,
):
    """ROLE-88's blank follows ``the SUBJECT had``: an order-3 model reads ``SUBJECT had``, so
    −Obj cannot change its ranks and −Sub and −Both give it the same context (``other had``);
    after ``… had`` its top words are function words, so no expected verb is in its top 5
    (Tables 7 and 8 are 0 for it: docs/family.md)."""
    out = tmp_path / "t.jsonl"
    args = ["score", "--model", "trigram", "--dataset", "diagnostics",
            "--perturbation=-obj,-sub,-both", "--out", str(out), "--quiet"]  # fmt: skip
    assert baselines_main(args) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()][1:]
    rank = {r["id"]: r["rank"] for r in records}
    orig = {i: r for i, r in rank.items() if "@" not in i}
    assert len(orig) > 88 and len(rank) == 4 * len(orig)
    assert all(rank[f"{i}@-obj"] == r for i, r in orig.items())
    assert all(rank[f"{i}@-both"] == rank[f"{i}@-sub"] for i in orig)
    assert min(rank.values()) > 5


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--dataset", "npi", "--perturbation", "shuf"], "give --dataset diagnostics"),
        (["--dataset", "diagnostics", "--shuffles", "3"], "apply to --perturbation"),
        (["--dataset", "diagnostics", "--perturbation", "shuffle"], "unknown perturbation"),
    ],
)
def test_score_refuses_a_perturbation_it_cannot_apply(tmp_path, capsys, extra, message):
    out = tmp_path / "x.jsonl"
    assert baselines_main(["score", "--model", "trigram", *extra, "--out", str(out)]) == 2
    assert message in capsys.readouterr().err and not out.exists()


def test_a_perturbation_is_checked_before_any_benchmark_is_read(tmp_path, capsys, monkeypatch):
    """The perturbation options are the spec's (:meth:`baselines.spec.ScoreSpec.perturbed`):
    a bad one fails before a source is read."""
    import baselines.finished

    def read(*args, **kwargs):
        raise AssertionError("a benchmark was read")

    monkeypatch.setattr(baselines.finished, "load_all", read)
    args = ["score", "--model", "trigram", "--dataset", "diagnostics", "--perturbation",
            "shuf,nope", "--out", str(tmp_path / "x.jsonl")]  # fmt: skip
    assert baselines_main(args) == 2
    assert "unknown perturbation 'nope'" in capsys.readouterr().err


def test_report_lays_out_the_tables_and_checks_the_file(tmp_path, capsys):
    p = Perturbation(["trunc", "-obj"])
    units = perturbed_items(p).units
    records = [{"id": i, "context": c, "completion": w, "score": -1.0,
                "rank": 1 if "@" not in i else 7}
               for i, c, w in zip(units["id"], units["context"], units["completion"], strict=True)]  # fmt: skip
    path = write_scores(tmp_path / "p.jsonl", records,
                        {"model": "toy", "dataset": "diagnostics", **p.metadata()})  # fmt: skip
    assert metric_main(["report", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    t4, t7 = report["tables"]["table_4"], report["tables"]["table_7"]
    assert t4["columns"] == ["Orig", "Trunc"] and t7["columns"] == ["Orig", "-Obj"]
    assert t4["rows"]["k=1"]["toy"]["Orig"]["value"] == 100.0
    assert t4["rows"]["k=5"]["toy"]["Trunc"]["value"] == 0.0
    assert t7["rows"]["k=5"]["BERT-large"]["-Obj"]["value"] == 18.2
    assert metric_main(["report", str(path)]) == 0
    assert "Table 8" in capsys.readouterr().out
    records[3]["context"] = "changed"
    bad = write_scores(tmp_path / "b.jsonl", records, {"dataset": "diagnostics", **p.metadata()})
    assert metric_main(["report", str(bad)]) == 2
    assert "is not the dataset's" in capsys.readouterr().err
    short = write_scores(tmp_path / "s.jsonl", records[:-1],
                         {"dataset": "diagnostics", **p.metadata()})  # fmt: skip
    assert metric_main(["report", str(short), "--no-text-check"]) == 2
    assert "no score for" in capsys.readouterr().err


@pytest.mark.parametrize("model", ["smollm2-logprob-default", "trigram-slor"])
def test_the_shipped_tables_orig_column_is_the_shipped_diagnostics_accuracy(model):
    """The two shipped runs of one model, made apart (the diagnostics and its perturbations),
    agree on the original items: Orig of Tables 4 and 7 is the set's accuracy at k, and
    Table 8's bins hold all of ROLE-88's items."""
    from space.data.perturbed import read_perturbed
    from space.data.shipped import SHIPPED_DIR

    tables = {r["model"]: r["tables"] for r in read_perturbed(SHIPPED_DIR)}
    diag = json.loads((SHIPPED_DIR / "diagnostics" / f"{model}.json").read_text())
    mine = tables[diag["model"]]
    assert sorted(mine) == ["table_4", "table_7", "table_8"]
    for table, s in (("table_4", "CPRAG-102"), ("table_7", "ROLE-88")):
        for k in (1, 5):
            orig = mine[table]["rows"][f"k={k}"][diag["model"]]["Orig"]
            expected = diag["result"]["cloze"]["sets"][s][f"accuracy@{k}"]
            assert orig["value"] == pytest.approx(100 * expected)
    bins = mine["table_8"]["rows"]["k=5"][diag["model"]]
    assert sum(cell["n_items"] for cell in bins.values()) == 88
    shuffled = mine["table_4"]["rows"]["k=1"][diag["model"]]["Shuf"]
    assert shuffled["n_runs"] >= 20 and shuffled["sd"] is not None
