"""The walk's arithmetic (tools.walk.counts) on tiny synthetic call sequences."""

from tools.walk.counts import WalkCounts, return_steps, walk_counts


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


def test_return_steps_name_each_return_counted():
    stops = [("cli.py", "run"), ("io.py", "read"), ("cli.py", "show"), ("io.py", "close")]
    steps = return_steps(stops)
    assert steps == [("io.py", "cli.py", "show"), ("cli.py", "io.py", "close")]
    assert len(steps) == walk_counts(stops).returns
