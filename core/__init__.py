"""What every app shares and that imports no app: who a browser is, where it comes from, locks,
the append-only base, the refusals and their error pages, middleware, health, installing."""
