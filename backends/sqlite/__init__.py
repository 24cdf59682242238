"""The embedded default's SQLite backend (``ENGINE: "backends.sqlite"``): see ``base``."""
