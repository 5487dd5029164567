"""Stage 1, claims: the answer's text split into sentences (``segment``) and into atomic,
typed claims with exact spans (``claims``; compound sentences split by ``_compound``), and the
language of a text (``language``), which tells the gate whether it can read it at all.
"""
