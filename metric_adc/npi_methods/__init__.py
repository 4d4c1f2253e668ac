"""The NPI paper's methods from classifiers and probes (Warstadt et al. 2019): its Figs. 1, 2 and 4."""
