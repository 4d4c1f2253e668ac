"""The benchmark family's statistics: one benchmark's results from a model's unit scores, and its reference rows."""
