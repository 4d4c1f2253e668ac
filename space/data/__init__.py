"""What the app holds: LI-Adger's and the family's results, loaded once, the shipped results,
and the submissions waiting for review or approved."""
