"""The subcommands of ``python -m metric_adc``: one module per family of commands, each with
its parser and its run (:mod:`metric_adc.__main__` registers them)."""
