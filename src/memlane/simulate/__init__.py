"""``memlane simulate``: one user's year of conversations, to show memory staying small and true."""
