"""The load benchmark (issue 5), ``python -m benchmarks.load``: see its ``__main__``."""
