"""Privacy guards on the write path: find sensitive data in a message and mask it before it is stored."""
