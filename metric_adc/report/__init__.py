"""Reports: result rows, the analyses beside them, and what the commands print and plot."""
