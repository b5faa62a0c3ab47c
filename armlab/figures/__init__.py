"""The book's figures, one module per chapter: each function draws one numbered figure (or a
drawing the chapter lays out) from values :mod:`armlab` computed, at the book's size
(:mod:`armlab.plots`).

Only drawing lives here; the physics is in :mod:`armlab`'s modules and the labs are in
:mod:`armlab.labs`. ``import armlab`` does not import this package (it needs matplotlib).
"""
