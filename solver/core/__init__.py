"""The bottom layer: tiles (letter codes, multisets, distributions, seeded draws) and grids
(the text notation and the independent pure-Python validator). Nothing here imports numba or
knows about word graphs; a lexicon is anything with `__contains__`."""
