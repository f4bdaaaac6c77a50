"""Benchmarks that measure memlane itself: ``memlane bench scale`` (stores from 1k to 100k memories).

They print numbers and write JSON; none of them is a timed test.
"""
