"""Run the site's services and server processes on one machine, on loopback (docs/deploy.md)."""
