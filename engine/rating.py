"""Ratings for ranked matches: Glicko-2, pure Python, no Django, no I/O.

The algorithm is the one in Mark Glickman's "Example of the Glicko-2 system" (2013), steps 1-8,
with the Illinois algorithm for the new volatility (step 5). Where the paper leaves a choice open,
the site follows Lichess, which rates every game the moment it ends, as this site will. The
numbers are Lichess's: the defaults of liglicko2, its Glicko-2 crate tuned on Lichess's games,
and the provisional mark of its site (which counts exactly 110 as provisional too; here, as on
its phone app, only above 110 is):

- A new player starts at 1500 with a deviation of 500 and a volatility of 0.09: a wide start lets
  a newcomer's first games carry them quickly to their level (+235 for a first win over an
  established 1500, where the paper's 350 would give less).
- The deviation stays within 45..500. The floor keeps a veteran's rating able to move with their
  form; the cap is the start, so that after a long break a player is never less known than a
  newcomer. The volatility stays within 0.01..0.1 and the value within 400..4000, so that no freak
  run of results can leave a rating jumpy for ever after.
- tau, the system constant, is 0.75 (the paper suggests 0.3..1.2 and uses 0.5 in its example).
- Time, not a batch job, makes the rating periods: the deviation grows with the time since a
  player's last rated game, counted in fractional periods of about 4.7 days (0.21436 a day). The
  paper's discrete periods would rate a day's games together at its end, but the game's end here
  shows each player's change at once; fractional periods grow a deviation alike whenever the games
  happen to be played. As in Lichess, a game first grows both players' deviations to one period
  before now (step 2), and step 6 then adds the rest, at most one period.
- A rating is provisional while its deviation is over 110, and shown with a "?" ("1500?").
- A tie is a draw (score 0.5).
- A game against a provisional opponent (a brand-new profile, or one not yet or no longer known)
  moves a rating by at most ``PROVISIONAL_BOUND`` (20) points either way; the deviation and the
  volatility move as Glicko-2 says. A result against an unknown says little, and unbounded it is
  a farm: a fresh profile's first loss gave its winner +241 (two newcomers), and a newcomer who
  beat one throwaway profile after another reached 2163 in 10 games; bounded, 1700 (the sum of
  the bounds, 20 a game, while Glicko-2's own change is larger). Glicko-2 already moves an
  established player little against a provisional one (about 5 points), so the bound is felt
  between provisional players, both ways alike, so that their ratings do not drift. Lichess caps
  a game's change (700) and does not rate short games of a provisional new account; ICC and ISC
  protect established ratings from provisional players the same way.

>>> from datetime import UTC, datetime
>>> alice, bob = after_game(Rating(), Rating(), 1, datetime(2026, 1, 1, tzinfo=UTC))
>>> shown(alice), shown(bob), change(Rating(), alice), change(Rating(), bob)
('1520?', '1480?', '+20', '-20')
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from engine.words import _

SCALE = 173.7178
"""Glicko-1 points per Glicko-2 unit (400 / ln 10), the paper's step 2 and step 8."""

START_VALUE = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional, shown "1500?"."""
PROVISIONAL_BOUND = 20.0
"""The most a game against a provisional opponent moves a rating, either way (``after_game``)."""

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
SCORES = (WIN, DRAW, LOSS)
PERIODS_PER_DAY = 0.21436
"""Rating periods in a day, Lichess's: a period is about 4.7 days."""


@dataclass(frozen=True, slots=True)
class RatingSystem:
    """The constants of a Glicko-2 system: ``SITE`` is the site's, the tests build the paper's."""

    tau: float = 0.75
    period: timedelta = timedelta(days=1 / PERIODS_PER_DAY)
    min_deviation: float = 45.0
    max_deviation: float = START_DEVIATION
    min_volatility: float = 0.01
    max_volatility: float = 0.1
    min_value: float = 400.0
    max_value: float = 4000.0
    tolerance: float = 1e-6
    """Step 5's convergence tolerance, epsilon in the paper."""
    provisional_bound: float = PROVISIONAL_BOUND
    """The most a two-player game against a provisional opponent moves a value (inf: no bound)."""

    def __post_init__(self) -> None:
        bounds = (
            ("deviation", 0.0, self.min_deviation, self.max_deviation),
            ("volatility", 0.0, self.min_volatility, self.max_volatility),
            ("value", -math.inf, self.min_value, self.max_value),
        )
        for name, above, low, high in bounds:
            if not above < low <= high < math.inf:  # False for NaN too
                raise ValueError(f"the {name} bounds must be finite and in order: {low}..{high}")
        if not (self.tau > 0 and self.tolerance > 0 and self.period > timedelta(0)):
            raise ValueError("tau, the tolerance and the period must be positive")
        if not self.provisional_bound > 0:  # False for NaN too; inf is no bound
            raise ValueError("the provisional bound must be positive")


SITE = RatingSystem()
"""The system the site rates its ranked matches with (the choices above)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko-1 scale: value, deviation (RD), volatility, last update.

    ``Rating()`` is a new player's; ``updated_at`` is None until their first rated game.
    """

    value: float = START_VALUE
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    updated_at: datetime | None = None

    def __post_init__(self) -> None:
        _check_number("value", self.value)
        for name in ("deviation", "volatility"):
            number = getattr(self, name)
            _check_number(name, number)
            if number <= 0:
                raise ValueError(f"a rating's {name} must be positive, not {number!r}")
        if self.updated_at is not None:
            _check_instant("updated_at", self.updated_at)


def _check_number(name: str, number: object) -> None:
    if isinstance(number, bool) or not isinstance(number, int | float):
        raise ValueError(f"a rating's {name} must be a number, not {number!r}")
    if not math.isfinite(number):
        raise ValueError(f"a rating's {name} must be a finite number, not {number!r}")


def _check_instant(name: str, instant: object) -> None:
    if not isinstance(instant, datetime) or instant.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, not {instant!r}")


def _check_score(score: object) -> float:
    if isinstance(score, bool) or score not in SCORES:
        raise ValueError(f"a score must be 1 (win), 0.5 (draw) or 0 (loss), not {score!r}")
    return float(score)  # type: ignore[arg-type]


def _clamp(number: float, low: float, high: float) -> float:
    return min(max(number, low), high)


def _periods_since(rating: Rating, now: datetime, system: RatingSystem) -> float:
    """Rating periods from the last update to ``now``; 0 for a new player or a clock gone back."""
    if rating.updated_at is None:
        return 0.0
    return max((now - rating.updated_at) / system.period, 0.0)


def _grown(rating: Rating, periods: float, system: RatingSystem) -> float:
    """The deviation after ``periods`` idle periods (paper, step 6), on the Glicko-1 scale."""
    deviation = _clamp(rating.deviation, system.min_deviation, system.max_deviation)
    volatility = _clamp(rating.volatility, system.min_volatility, system.max_volatility)
    grown = math.sqrt(deviation**2 + periods * (volatility * SCALE) ** 2)
    return _clamp(grown, system.min_deviation, system.max_deviation)


def deviation_now(rating: Rating, now: datetime, system: RatingSystem = SITE) -> float:
    """The deviation as it stands at ``now``: grown by the time without a rated game, up to the cap.

    >>> from datetime import UTC, datetime
    >>> played, a_year_on = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    >>> round(deviation_now(Rating(1600, 45, 0.06, played), a_year_on))
    103
    """
    _check_instant("now", now)
    return _grown(rating, _periods_since(rating, now, system), system)


def established_until(rating: Rating, system: RatingSystem = SITE) -> datetime | None:
    """The moment inactivity makes this rating provisional again; None while it is provisional.

    A leaderboard of established ratings can then ask the database for ``established_until >
    now`` rather than grow every deviation in Python: until that moment the grown deviation
    (``deviation_now``) is at most ``PROVISIONAL_DEVIATION``, after it, above.

    >>> from datetime import UTC, datetime
    >>> established_until(Rating(1600, 100, 0.06, datetime(2026, 1, 1, tzinfo=UTC))).date()
    datetime.date(2026, 4, 1)
    """
    if rating.updated_at is None:
        return None
    deviation = _clamp(rating.deviation, system.min_deviation, system.max_deviation)
    if deviation > PROVISIONAL_DEVIATION:
        return None
    volatility = _clamp(rating.volatility, system.min_volatility, system.max_volatility)
    periods = (PROVISIONAL_DEVIATION**2 - deviation**2) / (volatility * SCALE) ** 2
    return rating.updated_at + periods * system.period


def _g(phi: float) -> float:
    """How much an opponent's uncertainty ``phi`` dampens what a result says (paper, step 3)."""
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, opponent_mu: float, g: float) -> float:
    """The expected score against an opponent (paper, step 3): 0.5 between equals."""
    return 1 / (1 + math.exp(-g * (mu - opponent_mu)))


def _new_volatility(
    phi: float, v: float, delta: float, sigma: float, system: RatingSystem
) -> float:
    """Sigma prime by the Illinois algorithm (paper, steps 5.1-5.5)."""
    tau = system.tau
    a = math.log(sigma**2)
    spread = delta**2 - phi**2 - v

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (spread - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    # 5.2: bracket the root. f falls from +inf (x -> -inf) to -inf, so the stepping ends.
    high = a
    if spread > 0:
        low = math.log(spread)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        low = a - k * tau
    f_high, f_low = f(high), f(low)
    # 5.4, with the paper's names A = high, B = low: a regula falsi that halves the stale end.
    while abs(low - high) > system.tolerance:
        c = high + (high - low) * f_high / (f_low - f_high)
        f_c = f(c)
        if f_c * f_low <= 0:
            high, f_high = low, f_low
        else:
            f_high /= 2
        low, f_low = c, f_c
    return math.exp(high / 2)


def rate(
    player: Rating,
    results: Iterable[tuple[Rating, float]],
    now: datetime,
    system: RatingSystem = SITE,
) -> Rating:
    """The player's new rating after ``results`` (opponent, score) played together at ``now``.

    Scores are 1 for a win, 0.5 for a draw, 0 for a loss. The opponents' ratings are the ones they
    had before these games. Without games there is nothing to rate: ``deviation_now`` tells how
    the deviation grows meanwhile.
    """
    _check_instant("now", now)
    games = [(opponent, _check_score(score)) for opponent, score in results]
    if not games:
        raise ValueError("rate needs at least one result (opponent, score)")
    for opponent, _score in games:
        if not isinstance(opponent, Rating):
            raise ValueError(f"an opponent must be a Rating, not {opponent!r}")
    elapsed = _periods_since(player, now, system)
    # Step 2: to the Glicko-2 scale, the deviations grown to one period before now.
    value = _clamp(player.value, system.min_value, system.max_value)
    mu = (value - START_VALUE) / SCALE
    phi = _grown(player, max(elapsed - 1, 0.0), system) / SCALE
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    information = 0.0
    surprise = 0.0
    for opponent, score in games:
        opponent_value = _clamp(opponent.value, system.min_value, system.max_value)
        opponent_periods = max(_periods_since(opponent, now, system) - 1, 0.0)
        g = _g(_grown(opponent, opponent_periods, system) / SCALE)
        expected = _expected(mu, (opponent_value - START_VALUE) / SCALE, g)
        information += g**2 * expected * (1 - expected)
        surprise += g * (score - expected)
    v = 1 / information
    sigma = _clamp(player.volatility, system.min_volatility, system.max_volatility)
    # Step 5: the new volatility.
    new_sigma = _new_volatility(phi, v, v * surprise, sigma, system)
    new_sigma = _clamp(new_sigma, system.min_volatility, system.max_volatility)
    # Step 6: the rest of the last period (all of it in the paper, less if the last game was
    # more recent).
    phi_star = math.sqrt(phi**2 + min(elapsed, 1.0) * new_sigma**2)
    # Steps 7 and 8: the new deviation and value, back on the Glicko-1 scale.
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * surprise
    return Rating(
        _clamp(SCALE * new_mu + START_VALUE, system.min_value, system.max_value),
        _clamp(SCALE * new_phi, system.min_deviation, system.max_deviation),
        new_sigma,
        now,
    )


def after_game(
    a: Rating, b: Rating, score_a: float, now: datetime, system: RatingSystem = SITE
) -> tuple[Rating, Rating]:
    """Both players' new ratings after a two-player game, each from the ratings before it.

    ``score_a`` is A's score: 1 if A won, 0.5 for a tie, 0 if B won. Against a provisional
    opponent (at ``now``), a value moves by at most ``system.provisional_bound``.
    """
    score_a = _check_score(score_a)
    new_a = _bounded(a, rate(a, [(b, score_a)], now, system), b, now, system)
    new_b = _bounded(b, rate(b, [(a, 1 - score_a)], now, system), a, now, system)
    return new_a, new_b


def _bounded(
    before: Rating, after: Rating, opponent: Rating, now: datetime, system: RatingSystem
) -> Rating:
    """``after``, its value held within the bound of ``before`` against a provisional opponent."""
    if not is_provisional(opponent, now, system):
        return after
    value = _clamp(before.value, system.min_value, system.max_value)
    bound = system.provisional_bound
    return replace(after, value=_clamp(after.value, value - bound, value + bound))


def _rounded(value: float) -> int:
    """Half up, as people round (Python's round() would show 1500.5 as 1500)."""
    return math.floor(value + 0.5)


def is_provisional(
    rating: Rating, now: datetime | None = None, system: RatingSystem = SITE
) -> bool:
    """True while too little is known about the player; with ``now``, after inactivity's growth."""
    deviation = rating.deviation if now is None else deviation_now(rating, now, system)
    return deviation > PROVISIONAL_DEVIATION


def shown(rating: Rating, now: datetime | None = None, system: RatingSystem = SITE) -> str:
    """The rating as a player reads it: "1623", or "1500?" while provisional.

    >>> shown(Rating(1623.4, 60)), shown(Rating())
    ('1623', '1500?')
    """
    mark = "?" if is_provisional(rating, now, system) else ""
    return f"{_rounded(rating.value)}{mark}"


def change(before: Rating, after: Rating) -> str:
    """The change a player sees at the game's end: "+12", "-9" or "±0".

    It is the difference of the two shown numbers, so that 1500 -> 1512 always reads "+12".

    >>> change(Rating(1500.4), Rating(1512.6)), change(Rating(1500), Rating(1491.2))
    ('+13', '-9')
    """
    difference = _rounded(after.value) - _rounded(before.value)
    return "±0" if difference == 0 else f"{difference:+d}"


@dataclass(frozen=True, slots=True)
class Rank:
    """A named band of ratings; ``name`` is English, marked for translation (gettext it to show)."""

    key: str
    name: str
    floor: int | None = None
    """The lowest shown rating of this rank; None for the lowest rank and for players not ranked."""


UNRANKED = Rank("unranked", _("Unranked"))
PROVISIONAL = Rank("provisional", _("Provisional"))
BRONZE = Rank("bronze", _("Bronze"))
SILVER = Rank("silver", _("Silver"), 1200)
GOLD = Rank("gold", _("Gold"), 1400)
PLATINUM = Rank("platinum", _("Platinum"), 1600)
DIAMOND = Rank("diamond", _("Diamond"), 1800)
MASTER = Rank("master", _("Master"), 2000)
RANKS = (BRONZE, SILVER, GOLD, PLATINUM, DIAMOND, MASTER)
"""The ranks an established rating can have, lowest first."""


def rank_of(rating: Rating, now: datetime | None = None, system: RatingSystem = SITE) -> Rank:
    """The rank of a rating: Unranked before any rated game, Provisional while provisional.

    The bands are read on the shown (rounded) number, so that "1400" is always Gold.

    >>> from datetime import UTC, datetime
    >>> played = datetime(2026, 1, 1, tzinfo=UTC)
    >>> rank_of(Rating()).name, rank_of(Rating(1650, 200, 0.09, played)).name
    ('Unranked', 'Provisional')
    >>> [rank_of(Rating(v, 60, 0.06, played)).name for v in (1399.4, 1399.6, 2000)]
    ['Silver', 'Gold', 'Master']
    """
    if rating.updated_at is None:
        return UNRANKED
    if is_provisional(rating, now, system):
        return PROVISIONAL
    value = _rounded(rating.value)
    for rank in reversed(RANKS[1:]):
        if value >= rank.floor:  # type: ignore[operator]  # every rank above the lowest has one
            return rank
    return BRONZE
