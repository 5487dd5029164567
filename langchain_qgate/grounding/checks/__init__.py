"""Stage 3, checks: the deterministic checks of a claim against its evidence (figures, dates,
names, negation, slots, local changes) that give each claim's signals (``features``), and the
``Check`` protocol that runs the built-in and the user's own checks by name (``registry``).
"""
