"""LI-Adger: 4,178 sentences with mean z-scored human acceptability judgements, in minimal pairs."""
