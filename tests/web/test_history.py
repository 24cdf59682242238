"""My games and the stats: each finished game listed once, stats exact against hand-counted logs."""

from __future__ import annotations

import io
import re
import statistics

import pytest
from django.test import Client
from django.urls import reverse

from engine.analysis import analyse
from engine.rules import CATEGORIES
from engine.rulesets import YAHTZEE
from games import services
from games.models import Game
from history import stats, summaries
from history.models import StatsCache, Summary
from lobby import diamonds
from lobby.models import Player
from tests.clients import client_for, finished_online_game, online
from tests.factories import VISITOR, act, fill_all_but, make_game, play_out

pytestmark = pytest.mark.django_db

UPPER_AND_BONUS = [  # 63 in the upper boxes: the bonus
    ((1, 1, 1, 2, 3), "ones"),
    ((2, 2, 2, 4, 5), "twos"),
    ((3, 3, 3, 1, 2), "threes"),
    ((4, 4, 4, 1, 2), "fours"),
    ((5, 5, 5, 1, 2), "fives"),
    ((6, 6, 6, 1, 2), "sixes"),
]
# 63 + 35 + 28 + 9 + 25 + 30 + 40 + 50 + 26 = 306, one Yahtzee, the bonus.
GAME_306 = UPPER_AND_BONUS + [
    ((6, 6, 6, 5, 5), "three_of_a_kind"),
    ((2, 2, 2, 2, 1), "four_of_a_kind"),
    ((3, 3, 3, 2, 2), "full_house"),
    ((1, 2, 3, 4, 6), "small_straight"),
    ((1, 2, 3, 4, 5), "large_straight"),
    ((4, 4, 4, 4, 4), "yahtzee"),
    ((6, 6, 5, 5, 4), "chance"),
]
# A Yahtzee, then a second one forced into Fives (25 and the 100 bonus), then 1-2-3-4-6 in every
# other box: upper 1+2+3+4+25+6 = 41, small straight 30, chance 16: 41 + 50 + 100 + 30 + 16 = 237.
GAME_237 = [((5, 5, 5, 5, 5), "yahtzee"), ((5, 5, 5, 5, 5), "fives")] + [
    ((1, 2, 3, 4, 6), box) for box in CATEGORIES if box not in ("yahtzee", "fives")
]
# fill_all_but((), yahtzee=0): 1-2-3-5-6 everywhere: 1+2+3+0+5+6 and chance 17 = 34.


def logged_decisions(game: Game, seat: int = 0, *, advisor) -> list[float]:
    """The expected points each decision of a seat lost, straight from the game's log."""
    log = [(a.seat, a.kind, a.payload) for a in game.actions.order_by("seq")]
    analysis = analyse(log, seats=game.seats.count(), seat=seat, rules=YAHTZEE, advisor=advisor)
    return [decision.loss for decision in analysis.decisions]


def play_seeded(game: Game, visitor: str, seat: int = 0) -> None:
    """Play a seat's turns with the game's own dice, each scored in its first open box."""
    game.refresh_from_db()
    if game.current_seat != seat or game.status == Game.Status.FINISHED:
        return
    services.perform(game.id, visitor, "roll", {}, game.step)
    game.refresh_from_db()
    box = game.state().cards[seat].open_boxes[0]
    services.perform(game.id, visitor, "score", {"box": box}, game.step)


def online_pair() -> tuple[Player, Player]:
    online("ana", "Ana"), online("bo", "Bo")
    return Player.objects.get(visitor="ana"), Player.objects.get(visitor="bo")


def play_online(game: Game, ana_turns, bo_turns) -> Game:
    """Both seats' turns in turn, each rolled once as scripted and scored."""
    for (ana_dice, ana_box), (bo_dice, bo_box) in zip(ana_turns, bo_turns, strict=True):
        act(game, "roll", "ana", ana_dice)
        act(game, "score", "ana", box=ana_box)
        act(game, "roll", "bo", bo_dice)
        act(game, "score", "bo", box=bo_box)
    game.refresh_from_db()
    return game


# --- Summaries --------------------------------------------------------------------------------


def test_a_summary_is_written_as_the_game_finishes(strategy_tables):
    game = make_game(GAME_306)
    summary = Summary.objects.get(game=game)
    assert (summary.total, summary.upper_bonus, summary.yahtzees) == (306, True, 1)
    assert (summary.mode, summary.result, summary.complete, summary.forfeited) == (
        "solo", 1.0, True, False,
    )  # fmt: skip
    # Its decisions are valued when a page first shows it, not in the game's last move.
    assert (summary.decisions, summary.loss, summary.accuracy) == (None, None, None)
    assert summaries.fill_missing(VISITOR) == 1  # as My games and the profile do
    summary.refresh_from_db()
    losses = logged_decisions(game, advisor=strategy_tables[YAHTZEE])
    assert summary.decisions == len(losses) == 13
    assert summary.loss == pytest.approx(sum(losses))
    assert summary.accuracy == pytest.approx(statistics.mean(map(summaries.accuracy, losses)))


def test_a_missing_summary_is_worked_out_from_the_log(strategy_tables):
    game = make_game(GAME_237)
    summaries.fill_missing(VISITOR)
    written = Summary.objects.get(game=game)
    kept = {f: getattr(written, f) for f in ("total", "yahtzees", "loss", "accuracy", "decisions")}
    written.delete()  # as a game from before summaries: none
    unvalued = make_game(GAME_306)  # valued later: the table was not loaded at its end
    Summary.objects.filter(game=unvalued).update(decisions=None, loss=None, accuracy=None)
    assert summaries.fill_missing(VISITOR) == 2
    again = Summary.objects.get(game=game)
    assert {f: getattr(again, f) for f in kept} == kept
    assert kept["total"] == 237 and kept["yahtzees"] == 2
    valued = Summary.objects.get(game=unvalued)
    assert valued.decisions == 13 and valued.accuracy is not None
    assert summaries.fill_missing(VISITOR) == 0


def test_the_newest_games_are_valued_first(strategy_tables):
    older, newer = make_game(GAME_306), make_game(GAME_237)
    assert summaries.value_missing(Summary.objects.filter(visitor=VISITOR), limit=1) == 1
    valued = Summary.objects.filter(visitor=VISITOR).analysed()
    assert [s.game_id for s in valued] == [newer.id] != [older.id]


@pytest.mark.parametrize(
    ("loss", "expected"), [(0, 100.0), (1, 95.6), (3, 87.4), (8, 69.7), (25, 31.6), (500, 0.0)]
)
def test_accuracy_falls_with_the_points_lost(loss, expected):
    assert summaries.accuracy(loss) == pytest.approx(expected, abs=0.05)


# --- Stats ------------------------------------------------------------------------------------


def test_solo_stats_match_the_hand_counted_games(strategy_tables):
    games = [make_game(GAME_306), make_game(GAME_237), fill_all_but((), yahtzee=0)]
    make_game(GAME_306[:5])  # not finished: not counted
    make_game(GAME_306, visitor="someone-else")  # another browser's
    summaries.fill_missing(VISITOR)  # their decisions valued, as My games does first
    solo = stats.stats(VISITOR, Game.Mode.SOLO)
    assert solo.games == 3
    assert solo.average == pytest.approx((306 + 237 + 34) / 3)
    assert solo.median == 237
    assert solo.best == 306
    assert solo.bonus_rate == pytest.approx(1 / 3)
    assert solo.yahtzees_per_game == pytest.approx((1 + 2 + 0) / 3)
    losses = [loss for g in games for loss in logged_decisions(g, advisor=strategy_tables[YAHTZEE])]
    assert solo.decisions == len(losses) == 39
    assert solo.loss_per_decision == pytest.approx(sum(losses) / 39)
    assert solo.accuracy == pytest.approx(statistics.mean(map(summaries.accuracy, losses)))
    assert stats.stats(VISITOR, Game.Mode.ONLINE) is None


def test_the_charts_draw_each_game_and_each_bin():
    make_game(GAME_306), make_game(GAME_237), fill_all_but((), yahtzee=0)
    solo = stats.stats(VISITOR, Game.Mode.SOLO)
    trend = solo.trend
    points = [tuple(map(float, p.split(","))) for p in trend["scores"].split()]
    assert len(points) == 3  # oldest first: 306, 237, 34
    assert points[0][1] < points[1][1] < points[2][1]  # a higher score is higher up
    assert [p[0] for p in points] == sorted(p[0] for p in points)
    bars = solo.histogram["bars"]
    # From the 25-49 bin (34) to the 300-324 bin (306): 12 bins, three with a game each.
    assert (bars[0]["low"], bars[-1]["high"], len(bars)) == (25, 324, 12)
    assert {bar["low"]: bar["games"] for bar in bars if bar["games"]} == {25: 1, 225: 1, 300: 1}
    assert float(bars[0]["height"]) == float(bars[-1]["height"]) > 0
    assert float(bars[1]["height"]) == 0


def test_online_stats_count_each_players_own_seat(strategy_tables):
    ana, bo = online_pair()
    game = services.start_online_game([ana, bo], ranked=True)
    bo_turns = [((1, 2, 3, 5, 6), box) for box in CATEGORIES]  # 34
    play_online(game, GAME_306, bo_turns)
    assert game.status == Game.Status.FINISHED
    summaries.fill_missing("bo")  # Bo's decisions valued, as the profile page does first
    ana_stats, bo_stats = stats.stats("ana", "online"), stats.stats("bo", "online")
    assert (ana_stats.games, ana_stats.best, ana_stats.yahtzees_per_game) == (1, 306, 1)
    assert (bo_stats.games, bo_stats.best, bo_stats.bonus_rate) == (1, 34, 0)
    losses = logged_decisions(game, 1, advisor=strategy_tables[YAHTZEE])
    assert bo_stats.loss_per_decision == pytest.approx(sum(losses) / len(losses))
    assert stats.stats("ana", "solo") is None
    rows = {s.visitor: s.result for s in Summary.objects.filter(game=game)}
    assert rows == {"ana": 1.0, "bo": 0.0}


def test_a_game_ended_early_is_listed_but_not_counted(settings):
    game, ana, _bo = finished_online_game(settings)
    assert stats.stats("ana", "online") is None
    page = ana.get(reverse("history:games")).text
    assert reverse("games:analysis", args=[game.id]) in page and "Won" in page


def test_the_profile_page_shows_solo_and_online_stats():
    online("ana", "Ana")
    make_game(GAME_306, visitor="ana"), make_game(GAME_237, visitor="ana")
    page = Client().get(reverse("profiles:profile", args=[Player.objects.get().pk])).text
    solo = page[page.index("Solo stats") : page.index("Online stats")]
    assert re.search(r"<dt>Average</dt><dd>271.5</dd>", solo)
    assert re.search(r"<dt>Best</dt><dd>306</dd>", solo)
    assert re.search(r"<dt>Upper bonus</dt><dd>50%</dd>", solo)
    assert re.search(r"<dt>Yahtzees per game</dt><dd>1.50</dd>", solo)
    assert "Accuracy" in solo and "<svg" not in solo  # two games: too few for charts
    assert "The trend and the scores chart appear after 3 games played to the end." in solo
    assert "No online game played to the end yet." in page[page.index("Online stats") :]
    make_game(GAME_237, visitor="ana")
    page = Client().get(reverse("profiles:profile", args=[Player.objects.get().pk])).text
    solo = page[page.index("Solo stats") : page.index("Online stats")]
    assert solo.count("<rect") == 4 and "appear after" not in solo  # 225-249 to 300-324


def test_the_drawn_stats_follow_a_new_game_and_the_language():
    online("ana", "Ana")
    make_game(GAME_306, visitor="ana")
    url = reverse("profiles:profile", args=[Player.objects.get().pk])
    assert re.search(r"<dt>Best</dt><dd>306</dd>", Client().get(url).text)
    spanish = Client(headers={"Accept-Language": "es"}).get(url).text
    assert "<dt>Mejor</dt><dd>306</dd>" in spanish and "<dt>Best</dt>" not in spanish
    make_game(GAME_237, visitor="ana")  # a new summary: the section is drawn again
    page = Client().get(url).text
    assert re.search(r"<dt>Average</dt><dd>271.5</dd>", page)
    assert re.search(r"<dt>Games</dt><dd>2</dd>", page)


# --- My games ---------------------------------------------------------------------------------


def rows_of(page: str) -> list[str]:
    body = page[page.index("<tbody>") : page.index("</tbody>")] if "<tbody>" in page else ""
    return re.findall(r"<tr>(.*?)</tr>", body, re.S)


def test_my_games_lists_every_kind_once_newest_first(strategy_tables):
    solo = make_game(GAME_306)
    local = services.start_game(VISITOR, ["Ana", "Bo"], mode=Game.Mode.LOCAL)
    for (dice, box), (other, other_box) in zip(GAME_237, GAME_306, strict=True):
        act(local, "roll", VISITOR, dice), act(local, "score", VISITOR, box=box)
        act(local, "roll", VISITOR, other), act(local, "score", VISITOR, box=other_box)
    computer = services.start_game(
        VISITOR, ["Me", "Computer"], mode=Game.Mode.COMPUTER, bots={1: "beginner"}
    )
    for _turn in CATEGORIES:
        play_seeded(computer, VISITOR)
    assert Game.objects.filter(status="finished").count() == 3
    page = client_for().get(reverse("history:games")).text
    rows = rows_of(page)
    assert len(rows) == 3  # the pass-the-phone game once, though both its seats are this browser's
    assert "Against the computer" in rows[0] and "Computer (beginner)" in rows[0]
    assert "Pass the phone" in rows[1] and "Ana (237), Bo (306)" in rows[1]
    assert "Bo won" in rows[1] and ">306<" in rows[1]
    assert "Solo" in rows[2] and ">306<" in rows[2]
    for game in (computer, local, solo):
        assert reverse("games:analysis", args=[game.id]) in page
    only_local = rows_of(client_for().get(reverse("history:games"), {"mode": "local"}).text)
    assert len(only_local) == 1 and "Bo won" in only_local[0]


def test_a_computers_win_around_one_phone_is_not_this_browsers(strategy_tables):
    """Issue 29: the computer's seat had no name, and its score and win read as the browser's
    ("Ana (24), (264) · 264 · won"). It is named as the computer, the score is Ana's, a loss."""
    game = services.start_game(
        VISITOR, ["Ana", ""], mode=Game.Mode.LOCAL, bots={1: "beginner"}, seed="1" * 64
    )
    ana, computer = (card.total for card in play_out(game).state().cards)
    assert computer > ana  # the greedy computer beats Ana, who scores her boxes in order
    [line] = rows_of(client_for().get(reverse("history:games")).text)
    assert f"Ana ({ana}), Computer (beginner) ({computer})" in line
    assert f'<td class="number">{ana}</td>' in line
    assert 'class="result result-lost">Computer (beginner) won<' in line
    spanish = client_for().get(reverse("history:games"), headers={"Accept-Language": "es"}).text
    assert "Ganó Máquina (principiante)" in rows_of(spanish)[0]


def test_the_home_pages_recent_games_give_this_browsers_points(strategy_tables):
    """They gave the first seat's total: the computer's, when it sat first."""
    game = services.start_game(
        VISITOR, ["", "Ana"], mode=Game.Mode.LOCAL, bots={0: "beginner"}, seed="2" * 64
    )
    computer, ana = (card.total for card in play_out(game).state().cards)
    assert computer != ana
    home = client_for().get(reverse("games:home")).text
    assert f"{ana} points" in home and f"{computer} points" not in home


def test_ranked_and_diamond_filters():
    ana, bo = online_pair()
    ranked = services.start_online_game([ana, bo], ranked=True)
    staked = services.start_online_game([ana, bo], stake=20)
    diamonds.escrow(staked, [ana, bo])
    turns = [((1, 2, 3, 5, 6), box) for box in CATEGORIES]
    play_online(ranked, GAME_306, turns)
    play_online(staked, turns, GAME_306)
    bo_client = client_for("bo")
    everything = rows_of(bo_client.get(reverse("history:games")).text)
    assert len(everything) == 2
    assert "Online · 20 diamonds" in everything[0] and "Won" in everything[0]
    assert "Online · ranked" in everything[1] and "Ana" in everything[1] and "Lost" in everything[1]
    only_ranked = rows_of(bo_client.get(reverse("history:games"), {"mode": "ranked"}).text)
    assert len(only_ranked) == 1 and "ranked" in only_ranked[0]
    only_staked = rows_of(bo_client.get(reverse("history:games"), {"mode": "diamonds"}).text)
    assert len(only_staked) == 1 and "20 diamonds" in only_staked[0]
    assert rows_of(bo_client.get(reverse("history:games"), {"mode": "solo"}).text) == []


def test_my_games_pages_by_25():
    for _ in range(26):
        fill_all_but((), yahtzee=0)
    client = client_for()
    first = client.get(reverse("history:games")).text
    assert len(rows_of(first)) == 25 and "Page 1 of 2" in first and 'rel="next"' in first
    second = client.get(reverse("history:games"), {"page": 2}).text
    assert len(rows_of(second)) == 1 and 'rel="prev"' in second


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ({"mode": "bogus"}, 400, "There is no such kind of game to show."),
        ({"page": "two"}, 400, "A page is a number."),
        ({"page": "3"}, 404, "There are not that many pages of games."),
        ({"page": "0"}, 404, "There are not that many pages of games."),
    ],
)
def test_bad_filters_and_pages_are_told_plainly(query, status, says):
    make_game(GAME_306)
    response = client_for().get(reverse("history:games"), query)
    assert response.status_code == status and says in response.text


def test_someone_elses_games_are_never_listed():
    make_game(GAME_306, visitor="someone-else")
    page = client_for().get(reverse("history:games")).text
    assert rows_of(page) == [] and "No finished games yet." in page
    assert "No finished games yet." in Client().get(reverse("history:games")).text


def test_a_browser_without_a_profile_sees_its_stats_on_my_games():
    make_game(GAME_306), make_game(GAME_237)
    page = client_for().get(reverse("history:games")).text
    assert "Solo stats" in page and re.search(r"<dt>Median</dt><dd>271.5</dd>", page)
    assert "Online stats" in page
    online(VISITOR, "Cleo")  # with a profile, the stats are on it
    page = client_for().get(reverse("history:games")).text
    assert "Solo stats" not in page and "Stats on your profile" in page
    assert len(rows_of(page)) == 2


def test_old_games_without_summaries_are_listed():
    game = make_game(GAME_306)
    Summary.objects.all().delete()
    rows = rows_of(client_for().get(reverse("history:games")).text)
    assert len(rows) == 1 and reverse("games:analysis", args=[game.id]) in rows[0]


def test_spanish_my_games():
    make_game(GAME_306)
    client = client_for()
    page = client.get(reverse("history:games"), headers={"accept-language": "es"}).text
    assert "Mis partidas" in page and "Estadísticas en solitario" in page


def test_kept_stats_hold_until_a_summary_is_added_or_valued():
    make_game(GAME_306)
    summaries.fill_missing(VISITOR)
    first = stats.sections(VISITOR)[0]["stats"]
    assert StatsCache.objects.get(visitor=VISITOR).summaries == 1
    assert stats.sections(VISITOR)[0]["stats"] == first  # read back from what was kept
    make_game(GAME_237)  # a new summary: the kept stats no longer hold
    summaries.fill_missing(VISITOR)
    again = stats.sections(VISITOR)[0]["stats"]
    assert (again.games, again.best, again.median) == (2, 306, 271.5)
    assert again == stats.stats(VISITOR, "solo")
    Summary.objects.filter(total=237).update(decisions=None, loss=None, accuracy=None)
    unvalued = stats.sections(VISITOR)[0]["stats"]
    assert unvalued.decisions == 13 and unvalued.accuracy == pytest.approx(first.accuracy)
    summaries.fill_missing(VISITOR)  # valued again: the kept stats are worked out again
    assert stats.sections(VISITOR)[0]["stats"] == again


def test_stats_kept_in_another_shape_are_worked_out_again():
    make_game(GAME_306)
    stats.sections(VISITOR)
    StatsCache.objects.update(stats={"solo": {"games": 1, "trend": {}}, "online": None})
    assert stats.sections(VISITOR)[0]["stats"] == stats.stats(VISITOR, "solo")


def test_the_summaries_command_fills_what_finished_games_lack(strategy_tables):
    from django.core.management import call_command

    make_game(GAME_306)
    make_game(GAME_237, visitor="bo")
    Summary.objects.all().delete()  # games from before summaries
    out = io.StringIO()
    call_command("summaries", stdout=out)
    assert out.getvalue().strip() == "2 summaries written, 0 valued."
    assert sorted(Summary.objects.values_list("total", flat=True)) == [237, 306]
    assert Summary.objects.filter(decisions__isnull=True).count() == 0
    call_command("summaries", stdout=out)  # nothing left: nothing written twice
    assert Summary.objects.count() == 2
