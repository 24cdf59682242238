"""Database and channel-layer backends of the embedded default: each module says why it exists."""
