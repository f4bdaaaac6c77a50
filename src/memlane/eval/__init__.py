"""Benchmarks that measure memlane through its public API, run by ``memlane eval``.

- :mod:`memlane.eval.dataset` reads LoCoMo-format files and repairs their evidence ids;
- :mod:`memlane.eval.locomo` ingests conversations, asks the questions and scores evidence recall;
- :mod:`memlane.eval.report` turns a run into the JSON summary, tables and a plot.
"""
