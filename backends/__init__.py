"""Backends of our own: the embedded default's database and channel layer, and the static files
storage that minifies the site's scripts and stylesheets. Each module says why it exists."""
