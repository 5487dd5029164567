"""Checks of claims against structured records: typed field values, units, booleans and closed
vocabularies (``fields``), decided in the aggregation step, and a pick from a list of results
(``lists``, the built-in ``list_pick`` check of the ``Check`` protocol).
"""
