"""Benchmarks of the site: tools, never imported by the product (see docs/benchmarks.md)."""
