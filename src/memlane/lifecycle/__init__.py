"""The lifecycle of memories after they are written: corrections, deletion, export and maintenance."""
