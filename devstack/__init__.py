"""Development tool: the site's services and server processes on one machine, on loopback.

Not part of the product: ``python -m devstack`` (scripts/stack) runs the scaled-out shape
(docs/deploy.md), ``python -m devstack.throwaway`` runs a command beside a throwaway PostgreSQL,
and the tests and benchmarks start their servers through ``devstack.launcher``.
"""
