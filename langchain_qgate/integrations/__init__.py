"""Integrations with LangChain agents, LangGraph graphs, callbacks and runnables."""
