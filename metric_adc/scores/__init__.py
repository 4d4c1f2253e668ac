"""Scores files: the one format (written atomically, read with validation) and a file read for its benchmark."""
