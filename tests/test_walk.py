"""The walk's arithmetic (tools.walk.counts) on tiny synthetic call sequences."""

from tools.walk.counts import WalkCounts, walk_counts


def test_returns_count_only_re_entries_to_a_file_left():
    stops = [
        ("cli.py", "run"),
        ("build.py", "build"),
        ("io.py", "read"),
        ("build.py", "check"),  # back to build.py: 1
        ("io.py", "parse"),  # back to io.py: 2
        ("io.py", "close"),  # same visit
        ("math.py", "mean"),
        ("cli.py", "show"),  # back to cli.py: 3
    ]
    assert walk_counts(stops) == WalkCounts(stops=8, files=4, returns=3)


def test_a_downward_walk_has_no_returns():
    stops = [("a.py", "f"), ("a.py", "g"), ("b.py", "h"), ("c.py", "k")]
    assert walk_counts(stops) == WalkCounts(stops=4, files=3, returns=0)
    assert walk_counts(stops).line() == "stops 4 files 3 returns 0"
