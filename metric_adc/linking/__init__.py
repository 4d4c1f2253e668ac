"""Linking functions: the formulas, the fitted linking function, and one result row per linking function."""
