"""Input and output every command shares: atomic writes, the reading policy, argument types, the table printer."""
