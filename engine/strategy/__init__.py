"""Optimal strategy for solitaire Yahtzee and its variants: exact values, ranked moves, bots,
odds, simulation.

Pure Python + numpy, no Django. The rules come from ``engine.rulesets`` (the only definition of
the boxes); this package adds what optimal play means under a rule set. It solves five or six
dice with the upper boxes ones to sixes, any lower boxes, in any order or in order, with or
without the Yahtzee bonus and joker (``points.check_solvable``); a rule set with saved rolls is
answered from its plain twin's table, not exactly (``Advisor.exact`` is False); any other is
refused with a ValueError.

How it works, in brief (details in ``solver.py``):

* Between turns a game is in one of masks x upper subtotals (x 2 with the joker) states: which
  boxes are filled, the upper subtotal capped at the bonus threshold, and whether the Yahtzee box
  holds 50 (``points.layout``). ``solver.solve`` computes, for every state, the expected points
  still to come under optimal play, by backward induction from the full card, one layer of
  filled boxes at a time. Inside a turn it averages over the rolls (252 of five dice, 462 of six)
  and maximises over the keeps (462, 924), batched over thousands of states with numpy.
* Each rule set's table is cached outside the source tree, in $YAHTZEE_STRATEGY_DIR or
  ``~/.cache/yahtzee-strategy``, with its SHA-256 (``storage``: a damaged file is refused on
  load). ``python manage.py solve`` builds the five-dice ones ahead of time (seconds each),
  ``--variant maxi`` Maxi Yatzy's (356 MB, about 10-20 minutes on 2 cores); the site never builds
  one in a request, see ``games.advice``.
* ``Advisor`` answers positions from it: ``expected_total(card)`` and ``options(card, dice,
  rolls_left)``. Expected score of a new game under optimal play (docs/strategy.md):

  ======================================  ========
  Yahtzee (``official``)                  254.5877
  Yahtzee, multiple Yahtzees off          245.8708
  Yahtzee, in order                       130.2860
  Yatzy (Scandinavian)                    248.4400
  Yatzy, in order                         122.5585
  Maxi Yatzy                              361.970
  ======================================  ========

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

NEW_GAME_VALUES = {
    "official": 254.5877,
    "no-multiple": 245.8708,
    "official-in-order": 130.2860,
    "yatzy": 248.4400,
    "yatzy-in-order": 122.5585,
    "maxi": 361.9701,
}
"""Each rule set's exact expected score of a new game under optimal play, by key, as its table
gives it (``Advisor.new_game_value``; tests/engine/test_strategy_variants.py checks each against
its table). Maxi Yatzy's was first worked out here (docs/strategy.md)."""

__all__ = [
    "NEW_GAME_VALUES",
    "Advisor",
    "Move",
    "build",
    "cache_dir",
    "state_of",
    "table_exists",
    "table_path",
]
