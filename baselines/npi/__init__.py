"""The NPI paper's methods beyond scoring a pair: frozen representations, feature probes, the bag-of-words baseline."""
