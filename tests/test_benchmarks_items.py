"""Each benchmark's items on the real files: counts, spot checks against raw lines, ids."""

from __future__ import annotations

import csv
import json
import re

import pandas as pd
import pytest
from conftest import SHARED_DATA

from li_adger.benchmarks import BENCHMARKS, Items, ItemsError, load_items
from li_adger.benchmarks.spec import FORMS, UNIT_COLUMNS


@pytest.fixture(scope="module")
def items() -> dict[str, Items]:
    return {name: load_items(name) for name in BENCHMARKS}


def _tsv(relpath: str) -> list[list[str]]:
    with (SHARED_DATA / relpath).open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def _text(items: Items, unit_id: str) -> tuple[str, ...]:
    row = items.units.set_index("id").loc[unit_id]
    return tuple(row[c] for c in UNIT_COLUMNS[items.form][1:])


# ----------------------------------------------------------------------------- shared shape
@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_shape_shared_by_every_benchmark(items, name):
    spec, it = BENCHMARKS[name], items[name]
    assert (it.benchmark, it.form) == (name, spec.form) and spec.form in FORMS
    # a cloze unit whose blank is inside the sentence (npi_cloze) also has the words after it
    optional = ["after"] if spec.form == "cloze" else []
    columns = list(UNIT_COLUMNS[spec.form])
    assert list(it.units.columns) in (columns, columns + optional)
    assert it.units["id"].is_unique
    ids = set(it.units["id"])
    referenced = [
        *it.comparisons["good_id"],
        *it.comparisons["bad_id"],
        *it.accuracy["expected_id"],
        *it.labels["id"],
    ]
    assert referenced and set(referenced) <= ids
    assert set(ids) == set(referenced) or name == "li_adger"  # no unit is left unused
    grouped = it.labels if spec.form == "labelled" else it.comparisons
    assert set(spec.groups) <= set(grouped.columns)


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_ids_are_deterministic(items, name):
    again = load_items(name)
    pd.testing.assert_frame_equal(again.units, items[name].units)
    pd.testing.assert_frame_equal(again.comparisons, items[name].comparisons)
    pd.testing.assert_frame_equal(again.labels, items[name].labels)


@pytest.mark.parametrize("name", ["blimp", "npi", "diagnostics", "cola"])
def test_identical_texts_are_one_unit(items, name):
    text_columns = list(UNIT_COLUMNS[items[name].form][1:])
    assert not items[name].units.duplicated(subset=text_columns).any()


# ----------------------------------------------------------------------------- BLiMP
def _blimp_records() -> list[dict]:
    records = []
    for path in sorted((SHARED_DATA / "blimp").glob("*.jsonl")):
        if path.name != "models_summary.jsonl":
            records += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return records


def test_blimp_counts(items):
    it, raw = items["blimp"], _blimp_records()
    assert len(it.comparisons) == 67 * 1000 == len(raw)
    assert (
        it.comparisons.groupby("UID").size().eq(1000).all()
        and it.comparisons["UID"].nunique() == 67
    )
    sentences = {r["sentence_good"] for r in raw} | {r["sentence_bad"] for r in raw}
    assert len(it.units) == len(sentences) == 133_945
    # the paper's 12 phenomena and 4 fields (two file quirks normalised)
    assert it.comparisons["linguistics_term"].nunique() == 12
    assert sorted(it.comparisons["field"].unique()) == [
        "morphology",
        "semantics",
        "syntax",
        "syntax_semantics",
    ]
    terms = it.comparisons.drop_duplicates("UID").set_index("UID")["linguistics_term"]
    assert (
        terms["animate_subject_passive"] == terms["animate_subject_trans"] == "argument_structure"
    )
    assert (terms == "argument_structure").sum() == 9  # as in the paper's Table 3


def test_blimp_spot_checks(items):
    it = items["blimp"]
    c = it.comparisons.set_index("pair_id")
    first = c.loc["adjunct_island.0"]
    assert _text(it, first["good_id"]) == ("Who should Derek hug after shocking Richard?",)
    assert _text(it, first["bad_id"]) == ("Who should Derek hug Richard after shocking?",)
    assert first[["UID", "linguistics_term", "field"]].tolist() == [
        "adjunct_island",
        "island_effects",
        "syntax",
    ]
    line2 = c.loc["passive_1.1"]  # passive_1.jsonl, line 2
    assert _text(it, line2["good_id"]) == ("A lot of hospitals were astounded by some actress.",)
    assert _text(it, line2["bad_id"]) == ("A lot of hospitals were cooperated by some actress.",)
    assert c.loc["principle_A_case_2.0", "field"] == "syntax_semantics"  # 'syntax/semantics'


def test_blimp_pairs_of_one_sentence_are_kept(items):
    # passive_1.jsonl line 325 has the same sentence as good and bad: one unit, a tie
    c = items["blimp"].comparisons.set_index("pair_id")
    assert c.loc["passive_1.324", "good_id"] == c.loc["passive_1.324", "bad_id"]
    assert (
        items["blimp"].comparisons["good_id"] == items["blimp"].comparisons["bad_id"]
    ).sum() == 7


def test_blimp_repeated_sentence_keeps_its_first_id(items):
    it = items["blimp"]
    c = it.comparisons.set_index("pair_id")
    assert c.loc["anaphor_number_agreement.153", "good_id"] == "anaphor_gender_agreement.363.good"
    assert _text(it, "anaphor_gender_agreement.363.good") == _text(
        it, c.loc["anaphor_number_agreement.153", "good_id"]
    )


# ----------------------------------------------------------------------------- NPI
_NPIS = re.compile(r"\b(any|ever)\b", re.IGNORECASE)
_LICENSORS = {
    "adverbs": r"\b(rarely|hardly|seldom|barely|scarcely)\b",
    "conditionals": r"\bIf\b",
    "determiner_negation_biclausal": r"\bno\b",
    "sentential_negation_biclausal": r"\bnot\b",
    "only": r"\bonly\b",
    "quantifiers": r"\b(All|Each|Every)\b",
    "questions": r"\bwhether\b",
    "simplequestions": r"\?$",
    "superlative": r"\b\w+est\b|\b(most|worst)\b",
}


def test_npi_counts(items):
    it, raw = items["npi"], _tsv("npi/npi_minimal_pairs.tsv")
    assert len(it.comparisons) == len(raw) == 5500
    assert it.comparisons["environment"].nunique() == 9
    assert len(it.units) == len({r[1] for r in raw} | {r[2] for r in raw}) == 7717
    assert it.comparisons.groupby("environment").size().to_dict() == {
        "adverbs": 625,
        "conditionals": 625,
        "determiner_negation_biclausal": 625,
        "only": 625,
        "quantifiers": 625,
        "questions": 625,
        "sentential_negation_biclausal": 625,
        "simplequestions": 500,
        "superlative": 625,
    }
    assert it.comparisons["contrast"].value_counts().to_dict() == {
        "npi_present": 3250,
        "licensor": 1250,
        "scope": 1000,
    }


def test_npi_label_names_the_acceptable_member(items):
    it = items["npi"]
    text = it.units.set_index("id")["sentence"]
    c = it.comparisons
    good, bad = c["good_id"].map(text), c["bad_id"].map(text)
    npi = c["contrast"] == "npi_present"
    # the NPI is what makes the unacceptable member of an NPI-presence pair
    assert (bad[npi].str.count(_NPIS) > good[npi].str.count(_NPIS)).all()
    # the licensor is what makes the acceptable member of a licensor pair
    for env, pattern in _LICENSORS.items():
        sel = (c["contrast"] == "licensor") & (c["environment"] == env)
        assert sel.sum() in (125, 250)
        assert (good[sel].str.count(pattern) > bad[sel].str.count(pattern)).all(), env


def test_npi_spot_checks(items):
    it = items["npi"]
    c = it.comparisons.set_index("pair_id")
    # line 1, label 1: B is acceptable
    p = c.loc["adverbs.licensor=0_scope=0_npi_present=1-0.0"]
    assert _text(it, p["good_id"]) == ("A cashier obviously thought that the boys often read.",)
    assert _text(it, p["bad_id"]) == ("A cashier ever thought that the boys often read.",)
    # line 3, label 0: A is acceptable
    p = c.loc["adverbs.licensor=0_scope=0_npi_present=1-0.2"]
    assert _text(it, p["good_id"]) == (
        "The cashier who has always discussed children arrived at those grocery stores.",
    )
    # a scope pair, label 1 (B acceptable): the NPI inside the conditional clause is licensed
    text = it.units.set_index("id")["sentence"]
    good = "If the student flees from any banks, the boy will hate the students."
    pair = it.comparisons[it.comparisons["good_id"].map(text) == good].iloc[0]
    assert pair["contrast"] == "scope" and pair["environment"] == "conditionals"
    assert (
        text[pair["bad_id"]]
        == "If the student flees from the banks, the boy will hate any students."
    )
    # line 4376: the first simple question pair of its paradigm
    p = c.loc["simplequestions.licensor=0_scope=1_npi_present=1-0.0"]
    assert _text(it, p["good_id"]) == ("The pedestrian should bike to these public parks.",)
    assert p["contrast"] == "npi_present"


# ----------------------------------------------------------------------------- diagnostics
def test_diagnostics_counts(items):
    it = items["diagnostics"]
    per_set = {
        s: it.comparisons[it.comparisons["set"] == s] for s in it.comparisons["set"].unique()
    }
    # items as the paper counts them: 34 / 88 / 72 / 64 (CPRAG: contexts; ROLE: contexts;
    # NEG: context-completion sentences)
    assert it.accuracy.query("set == 'CPRAG-102'")["item_id"].nunique() == 34
    assert it.accuracy.query("set == 'ROLE-88'")["item_id"].nunique() == 88
    for s, n in (("NEG-136-SIMP", 72), ("NEG-136-NAT", 64)):
        rows = per_set[s]
        assert len(set(rows["good_id"]) | set(rows["bad_id"])) == n
    assert {s: rows["item_id"].nunique() for s, rows in per_set.items()} == {
        "CPRAG-102": 34,
        "ROLE-88": 44,
        "NEG-136-SIMP": 36,
        "NEG-136-NAT": 32,
    }
    assert len(per_set["CPRAG-102"]) == 68  # expected vs within- and between-category
    assert it.accuracy.query("set == 'NEG-136-SIMP'")["item_id"].nunique() == 18
    assert it.accuracy.query("set == 'NEG-136-NAT'")["item_id"].nunique() == 16
    assert (per_set["NEG-136-NAT"].groupby("condition").size() == 8).all()


def test_diagnostics_unique_units_from_the_raw_files(items):
    units = items["diagnostics"].units
    role = _tsv("lm-diagnostics/ROLE-88/ROLE-88.tsv")[1:]
    role_units = {
        (r[1].strip(), w) for r in role for w in {r[4], *(e.split()[0] for e in r[2].split("|"))}
    }
    counts = units["id"].str.split(".").str[0].value_counts().to_dict()
    assert counts == {
        "CPRAG-102": 102,
        "ROLE-88": len(role_units),
        "NEG-136-SIMP": 72,
        "NEG-136-NAT": 64,
    }


def test_every_completion_is_one_sentence_final_word(items):
    units = items["diagnostics"].units
    assert units["completion"].str.fullmatch(r"[a-z]+").all()
    assert not units["context"].str.endswith((" ", ".", "(a|an)")).any()


def test_cprag_spot_check(items):
    it = items["diagnostics"]
    rows = it.comparisons[it.comparisons["item_id"] == "CPRAG-102.12"].set_index("contrast")
    context = (
        "He complained that after she kissed him, he couldn’t get the red color off his face. "
        "He finally just asked her to stop wearing that"
    )
    assert _text(it, rows.loc["within_category", "good_id"]) == (context, "lipstick")
    assert _text(it, rows.loc["within_category", "bad_id"]) == (context, "mascara")
    assert _text(it, rows.loc["between_category", "bad_id"]) == (context, "bracelet")
    assert set(rows["condition"]) == {"high constraint"}


def test_role_spot_checks(items):
    it = items["diagnostics"]
    c = it.comparisons.set_index("pair_id")
    assert _text(it, c.loc["ROLE-88.61", "good_id"]) == (
        "The librarian documented which celebrities the journalist had",
        "interviewed",
    )
    assert _text(it, c.loc["ROLE-88.61", "bad_id"]) == (
        "The librarian documented which journalist the celebrities had",
        "interviewed",
    )
    expected = it.accuracy.groupby("item_id")["expected_id"].apply(list)
    assert [_text(it, u)[1] for u in expected["ROLE-88.61-b"]] == [
        "avoided",
        "hated",
        "read",
        "met",
    ]
    # multi-word expected completions count by their first word: 'interviewed with|seen'
    assert [_text(it, u)[1] for u in expected["ROLE-88.73-b"]] == ["interviewed", "seen"]
    assert [_text(it, u)[1] for u in expected["ROLE-88.114-a"]] == ["removed", "kicked"]
    # the expected completion of 61-a is its target: one unit
    assert expected["ROLE-88.61-a"] == [c.loc["ROLE-88.61", "good_id"]]


def test_neg_simp_article_follows_the_completion(items):
    it = items["diagnostics"]
    c = it.comparisons.set_index("pair_id")
    aff, neg = c.loc["NEG-136-SIMP.2.affirmative"], c.loc["NEG-136-SIMP.2.negative"]
    assert _text(it, aff["good_id"]) == ("An ant is an", "insect")
    assert _text(it, aff["bad_id"]) == ("An ant is a", "vegetable")
    assert _text(it, neg["good_id"]) == ("An ant is not a", "vegetable")
    assert _text(it, neg["bad_id"]) == ("An ant is not an", "insect")
    assert (aff["condition"], neg["condition"]) == ("affirmative", "negative")
    acc = it.accuracy.set_index("item_id").loc["NEG-136-SIMP.2.affirmative"]
    assert acc["expected_id"] == aff["good_id"]


def test_neg_nat_spot_checks(items):
    it = items["diagnostics"]
    c = it.comparisons.set_index("pair_id")
    natural = c.loc["NEG-136-NAT.5.negative"]
    assert _text(it, natural["good_id"]) == ("Most smokers find that quitting isn't very", "easy")
    assert _text(it, natural["bad_id"]) == (
        "Most smokers find that quitting isn't very",
        "difficult",
    )
    assert natural["condition"] == "negative natural"
    assert c.loc["NEG-136-NAT.15.affirmative", "condition"] == "affirmative less natural"


# ----------------------------------------------------------------------------- CoLA
def test_cola_counts_and_spot_checks(items):
    it = items["cola"]
    in_domain, out_domain = _tsv("cola/in_domain_dev.tsv"), _tsv("cola/out_of_domain_dev.tsv")
    assert (len(in_domain), len(out_domain)) == (527, 516)
    assert it.labels["split"].value_counts().to_dict() == {
        "in_domain_dev": 527,
        "out_of_domain_dev": 516,
    }
    assert len(it.units) == len({r[3] for r in in_domain + out_domain}) == 1039
    assert it.labels["label"].sum() == 365 + 354
    first = it.labels.iloc[0]
    assert first["id"] == "in_domain_dev.1" and bool(first["label"])
    assert _text(it, first["id"]) == ("The sailors rode the breeze clear of the rocks.",)
    # out_of_domain_dev.tsv lines 19 and 21: one sentence, labelled 0 and then 1
    twice = it.labels[it.labels["split"].eq("out_of_domain_dev") & it.labels["line"].isin([19, 21])]
    assert twice["id"].nunique() == 1 and twice["label"].tolist() == [False, True]


# ----------------------------------------------------------------------------- LI-Adger
def test_li_adger_keeps_everything(items, li_adger_tables):
    it = items["li_adger"]
    sentences, pairs = li_adger_tables["sentences"], li_adger_tables["pairs"]
    assert it.units["id"].tolist() == sentences["id"].tolist()  # the dataset's ids, all 4,178
    kept = pairs[~pairs["discarded"]]
    assert len(it.comparisons) == len(kept) == 2365
    assert it.comparisons["pair_id"].tolist() == kept["pair_id"].astype(str).tolist()
    assert it.comparisons["human_delta"].notna().all()
    assert it.comparisons["source"].value_counts().to_dict() == {"Adger": 1191, "LI": 1174}
    assert it.labels["label"].sum() == 2089 and set(it.labels["split"]) == {"li_adger"}
    assert it.labels.set_index("id").loc["32.1.martin.2c.*.01", "label"] == False  # noqa: E712


# ----------------------------------------------------------------------------- validation
def test_items_refuse_a_broken_shape():
    units = pd.DataFrame({"id": ["a", "b"], "sentence": ["x", "y"]})
    pairs = pd.DataFrame({"pair_id": ["p"], "good_id": ["a"], "bad_id": ["b"]})
    with pytest.raises(ItemsError, match=r"units\.id must be unique \(got 'a'"):
        Items("toy", "pairs", units.assign(id=["a", "a"]), pairs)
    with pytest.raises(ItemsError, match=r"comparisons lacks column\(s\) \['bad_id'\]"):
        Items("toy", "pairs", units, pairs.drop(columns="bad_id"))
    with pytest.raises(
        ItemsError, match=r"labels\.id has 1 id\(s\) that are not unit ids, e\.g\. 'z'"
    ):
        Items(
            "toy",
            "pairs",
            units,
            pairs,
            labels=pd.DataFrame({"id": ["z"], "label": [True], "split": ["s"]}),
        )
    with pytest.raises(ItemsError, match="units lacks column"):
        Items("toy", "cloze", units, pairs)
    with pytest.raises(ItemsError, match="form must be one of"):
        Items("toy", "graded", units, pairs)
    labels = pd.DataFrame({"id": ["a"], "label": ["1"], "split": ["s"]})
    with pytest.raises(ItemsError, match=r"labels\.label must be booleans, True = acceptable"):
        Items("toy", "labelled", units, labels=labels)
    cloze_units = pd.DataFrame(
        {"id": ["a", "b"], "context": ["It", "It"], "completion": ["x", "y"]}
    )
    with pytest.raises(ItemsError, match=r"comparisons lacks column\(s\) \['item_id'\]"):
        Items("toy", "cloze", cloze_units, pairs)
