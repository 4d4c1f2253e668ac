"""Tools for developers of the project; not installed with it."""
