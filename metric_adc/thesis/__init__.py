"""The thesis's own outputs (Vázquez Martínez 2021): its models' per-sentence scores, verified."""
