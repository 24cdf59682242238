"""Tournament formats, pure: arena scoring and pairing, Swiss pairing and standings, duplicate
standings. The standard library only: no Django, no app of the site; the tournaments app calls
these functions with plain values read from its rows."""
