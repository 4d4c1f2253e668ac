"""The participant-level LI data of Sprouse, Schütze & Almeida (2013): id mapping, readers and
the cross-check against the LI-Adger judgements. Reads ../shared/data; writes nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import li_adger
from li_adger.sources import participants as P


@pytest.fixture(scope="module")
def me() -> pd.DataFrame:
    return P.read_ratings("me", note=False)


@pytest.fixture(scope="module")
def li_sentences() -> pd.DataFrame:
    frame = li_adger.load("sentences").to_pandas()
    return frame[frame["source"] == "LI"]


# ----------------------------------------------------------------------------- id mapping
@pytest.mark.parametrize(
    ("item", "experiment", "expected"),
    [
        ("33.1.den Dikken.58a.*.03", None, "33.1.denDikken.58a.*.03"),
        ("37.2.de Vries.39a.*.01", None, "37.2.deVries.39a.*.01"),
        ("32.3.Culicover.22b7.g.04", None, "32.3.Culicover.22b.g.04"),
        ("33.2.bowers.31b.*.02", None, "33.2.bowers.31b1.*.02"),
        ("33.2.bowers.31c.*.02", None, "33.2.bowers.31c2.*.02"),
        ("33.2.bowers.7b.i.*.08", None, "33.2.bowers.7b.*.08"),
        ("35.3.hazout.75a.g.01", None, "35.3.hazout.75.g.01"),
        ("32.2.nunes.3a.g.05", 1, "32.2.nunes.3a1.g.05"),
        ("32.2.nunes.3a.g.05", 2, "32.2.nunes.3a2.g.05"),
        ("33.2.bowers.31a.g.07", 3, "33.2.bowers.31a1.g.07"),
        ("33.2.bowers.31a.g.07", 2, "33.2.bowers.31a2.g.07"),
        ("41.1.Muller.25b.??(*).01", None, "41.1.Muller.25b.??(*).01"),
    ],
)
def test_li_adger_id(item, experiment, expected):
    assert P.li_adger_id(item, experiment) == expected


def test_shared_control_needs_its_experiment():
    with pytest.raises(
        ValueError, match=r"shared control.*expected 'experiment' in \[2, 3\], got 1"
    ):
        P.li_adger_id("33.2.bowers.31a.g.01", 1)


def test_bad_item_and_survey_are_named():
    with pytest.raises(ValueError, match=r"'item' must look like 'condition\.token'"):
        P.li_adger_id("nodots")
    with pytest.raises(ValueError, match="'survey'"):
        P.experiment_of("1")


# ----------------------------------------------------------------------------- readers
def test_me_shape(me):
    assert me["participant"].nunique() == 304
    assert me["id"].nunique() == 2400
    # 30,400 ratings in the file, 21 without a response
    assert len(me) == 30_400 - 21
    assert not me.duplicated(["participant", "id"]).any()
    # z-scores are per participant: each participant's ratings average about 0
    assert me.groupby("participant")["zscore"].mean().abs().max() < 0.5


def test_spot_value_matches_published_judgement(me):
    # "John tried to win." — 1.453262 in LI-Adger (and in SOURCES.md)
    assert P.item_means(me)["32.3.Culicover.7a.g.01"] == pytest.approx(1.453262, abs=1e-3)


def test_shared_control_sentences_are_kept_apart(me):
    means = P.item_means(me)
    # 32.2.nunes.3a1.g.02 "Marcie was fired." vs 3a2.g.02 "The book was read." (LI-Adger)
    assert means["32.2.nunes.3a1.g.02"] == pytest.approx(1.075688, abs=1e-3)
    assert means["32.2.nunes.3a2.g.02"] == pytest.approx(0.460337, abs=1e-3)


def test_likert_covers_the_same_sentences(me):
    ls = P.read_ratings("ls", note=False)
    assert ls["participant"].nunique() == 304
    assert set(ls["id"]) == set(me["id"])
    assert set(ls["judgment"].dropna().unique()) <= set(range(1, 8))
    r = np.corrcoef(P.item_means(me).sort_index(), P.item_means(ls).sort_index())[0, 1]
    assert 0.8 < r < 1.0  # two tasks, two participant samples, same sentences


def test_forced_choice(li_sentences):
    fc = P.read_forced_choice(note=False)
    assert fc["participant"].nunique() == 307
    assert fc["bad_id"].nunique() == 1200
    assert set(fc["bad_id"]) <= set(li_sentences["id"])
    assert not li_sentences.set_index("id").loc[fc["bad_id"].unique(), "expert_acceptable"].any()
    assert 0.5 < fc["chose_good"].mean() < 1.0


def test_authors_note_is_printed(capsys):
    P.read_forced_choice(note=True)
    err = capsys.readouterr().err
    assert "contact Jon Sprouse" in err and "never republished" in err
    assert P.AUTHORS_NOTE in err


def test_rating_matrix_matches_rows(me):
    m = P.rating_matrix(me)
    assert m.values.shape == (304, 2400)
    assert int(m.rated.sum()) == len(me)
    np.testing.assert_allclose(np.nanmean(m.values, axis=0), P.item_means(me)[m.ids].to_numpy())
    # participants of one survey rate the same sentences
    for g in np.unique(m.groups)[:3]:
        rated = m.rated[m.groups == g]
        seen = rated.any(axis=0)
        assert seen.sum() == 100  # the survey's sentences
        assert rated[:, seen].mean() > 0.99  # each rated by (almost) every member


def test_missing_source_is_a_clear_error(tmp_path):
    with pytest.raises((FileNotFoundError, ValueError), match=r"LI\.me\.results\.csv"):
        P.read_ratings("me", source=tmp_path, note=False)


# ----------------------------------------------------------------------------- cross-check
def test_cross_check_against_li_adger(me, li_sentences):
    judgements = dict(zip(li_sentences["id"], li_sentences["judgement"], strict=True))
    check = P.cross_check(P.item_means(me), judgements, tolerance=1e-3)
    assert check.summary().startswith("2400 of 2400 sentences matched; 2400 reproduce")
    assert check.n_sentences == len(li_sentences) == 2400
    assert check.unmatched == () and check.unmatched_items == ()
    assert check.mismatched == ()
    assert check.n_matched == check.n_within == 2400
    assert check.max_abs_diff < 1e-5


def test_cross_check_with_nothing_matched_still_summarises():
    # no id in common: there is no difference to report, and no error either
    check = P.cross_check(pd.Series({"z": 0.5}), {"a": 1.0, "b": None}, tolerance=1e-3)
    assert (check.n_sentences, check.n_matched, check.max_abs_diff) == (1, 0, None)
    assert check.summary() == (
        "0 of 1 sentences matched; 0 reproduce the judgement within 0.001 "
        "(max |diff| undefined); unmatched: a"
    )
