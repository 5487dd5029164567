"""Stage 2, evidence: whatever the agent saw (strings, Documents, ToolMessages, JSON, tables)
becomes one index of chunks (``evidence``; structured data as fields, ``structured``), embedded
by a sentence embedder (``embeddings``), from which each claim gets its nearest chunks.
"""
