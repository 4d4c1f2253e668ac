"""Scorers that turn a language model into per-sentence acceptability scores."""
