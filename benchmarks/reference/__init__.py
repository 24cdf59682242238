"""The load benchmark's reference action: one row lock, one insert, a 3 KB fragment.

Installed only by ``benchmarks.settings`` (see benchmarks/load/): the benchmark
compares the game's real actions with this floor, served by the same server and middleware.
"""
