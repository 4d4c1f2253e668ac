"""LI-Adger: 4,178 sentences with mean z-scored human acceptability judgements, in minimal pairs.

``python -m li_adger build`` writes the data files from the verified sources (see the dataset
card, ``li_adger/README.md``, for what the data is and where it comes from);
:func:`load` returns one config as a ``datasets.Dataset`` and builds the data first if needed.

Examples
--------
>>> import li_adger
>>> li_adger.load("sentences").num_rows
4178
>>> li_adger.DATA_DIR.name
'data'
"""

from __future__ import annotations

# The functions share their modules' names (li_adger.build, li_adger.load); importing them
# here binds the package attributes to the functions. `datasets` is imported only on load().
from li_adger.build import DATA_DIR, build
from li_adger.load import load

__all__ = ["DATA_DIR", "build", "load"]
