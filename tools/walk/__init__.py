"""Measure how a command's call path walks through the project's files.

``python -m tools.walk report FILE...`` runs ``python -m metric_adc report FILE...`` under a
call tracer and prints ``stops N files N returns N`` (``--trace`` adds the file sequence).

Definition: the trace starts when the command handler (``run_report`` for ``report``) is
entered. Every project function (a function defined in ``li_adger``, ``metric_adc``,
``baselines`` or ``space``) counts once, at its first call, in first-call order: these are the
*stops*. *files* is the number of distinct files holding a stop. A *return* is a stop that
enters a file the walk has already left. Fewer returns means a path a reader can follow
downward, one layer at a time (:mod:`tools.walk.counts` holds the arithmetic,
:mod:`tools.walk.trace` the tracer).
"""
