"""Optimal strategy for solitaire Yahtzee: exact values, ranked moves, bots, odds, simulation.

Pure Python + numpy, no Django. The rules come from ``engine.rulesets`` (the only definition of
the boxes); this package adds what optimal play means under a rule set. It solves the rule sets
that have Yahtzee's five dice, 13 boxes and upper bonus, with or without the Yahtzee bonus and
joker (``points.check_solvable``), and refuses any other with a ValueError.

How it works, in brief (details in ``solver.py``):

* Between turns a game is in one of 2**13 x 64 x 2 states: which boxes are filled, the upper
  subtotal capped at 63, and whether the Yahtzee box holds 50. ``solver.solve`` computes, for every
  state, the expected points still to come under optimal play, by backward induction from the
  full card, one layer of filled boxes at a time. Inside a turn it averages over the 252 rolls and
  maximises over the 462 keeps, batched over thousands of states with numpy.
* The table (8 MB of float64) is cached outside the source tree, in $YAHTZEE_STRATEGY_DIR or
  ``~/.cache/yahtzee-strategy``, with its SHA-256 (``storage``: a damaged file is refused on
  load), and built on first use (``python manage.py solve`` builds it ahead of time; the site
  never builds it in a request, see ``games.advice``).
* ``Advisor`` answers positions from it: ``expected_total(card)`` and ``options(card, dice,
  rolls_left)``. A new game is worth 254.5877 points on average with the 100-point Yahtzee bonus
  and forced joker (``rulesets.YAHTZEE``), and 245.8708 without them (``YAHTZEE_NO_BONUS``).

>>> from engine.rules import Scorecard
>>> from engine.strategy import Advisor
>>> advisor = Advisor.load()                                    # doctest: +SKIP
>>> round(advisor.expected_total(Scorecard()), 4)               # doctest: +SKIP
254.5877
>>> advisor.options(Scorecard(), [6, 6, 6, 6, 6], 2)[0]         # doctest: +SKIP
(('score', 'yahtzee'), 320.83...)

Modules: ``solver`` (the dynamic programme), ``dice`` (roll/keep combinatorics), ``advisor``
(``Advisor``), ``storage`` (cache files), ``bots``, ``odds`` (live odds), ``simulate``.
"""

from __future__ import annotations

from engine.strategy.advisor import Advisor, Move, build, state_of
from engine.strategy.storage import cache_dir, table_exists, table_path

__all__ = [
    "Advisor",
    "Move",
    "build",
    "cache_dir",
    "state_of",
    "table_exists",
    "table_path",
]
