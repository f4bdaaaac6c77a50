"""The read path: hybrid search over one user's memories, and prompt-ready context blocks."""
