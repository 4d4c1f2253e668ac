"""The speed benchmark: the scorers against minicons and this machine's matmul limit (``python -m tools.speed``)."""
