"""Building LI-Adger: source rows → the three tables, checked, written atomically as the committed build."""
