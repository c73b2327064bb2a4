"""The bottom layer: tiles (letter codes, multisets, distributions, seeded draws), grids
(the text notation and the independent pure-Python validator) and every fixed bound of the
front-ends (`limits`). Nothing here imports numba or knows about word graphs; a lexicon is
anything with `__contains__`."""
