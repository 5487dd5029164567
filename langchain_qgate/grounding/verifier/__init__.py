"""Stage 4, verifier: the claim-evidence model reads each claim with its nearest windows
(``crossencoder``, ``pair_signals``; its cut-offs in ``thresholds``), and a verifier turns each
claim's signals into its support (``verifiers``: the fitted combination, NLI, LLM, cascade).
"""
