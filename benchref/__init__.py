"""The load benchmark's reference action: one row lock, one insert, a 3 KB fragment.

Installed only when ``YAHTZEE_BENCH_REFERENCE=1`` (see benchmarks/bench_load.py): the benchmark
compares the game's real actions with this floor, served by the same server and middleware.
"""
