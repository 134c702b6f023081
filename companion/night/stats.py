"""Statistics per player and per game, and the data of their charts.

Only finished games count (abandoned and unfinished ones do not). A win is a seat
among the game's winners: tied winners each get a win; in Pr. Evil (co-operative)
every player wins or loses together. Players are roster players: a renamed player
keeps their record, a retired one keeps it too (`include_retired`).

API for the screens:
- `statistics(journal, *, include_retired=True) -> Statistics`: everything the
  statistics screen shows, in one pass over the cached game facts (`night.facts`):
  - `players`: `PlayerStats` (the roster player, `overall` and `by_kind` records);
  - `kinds`: `KindStats` per kind of game (games, abandoned, unfinished, average
    minutes, best score and best Bond kill with who, Castor medals handed out, Pr.
    Evil's co-operative record by difficulty and its treasures recovered and lost,
    shared victories, wins per player);
  - `bars`: `Bar`s per player (games and wins, overall) for a bar chart;
  each `Record` holds games, wins, win rate, best and average score (per kind only:
  scores of different games do not add up), Castor medals, Bond best kill, Pr.
  Evil's record by difficulty (`{difficulty or "": (won, lost)}`), the current and
  the longest winning streak.
- `bars(stats, kind=None) -> list[Bar]`: the same bars for one kind of game.
- `score_lines(journal, game_id) -> ScoreLines`: one line per seat for a Castor game
  (running total after each round) or a Bond game (score after each scoring action);
  x is the round (Castor) or the scoring action (Bond), starting at 0 with 0 points.

The score pad is grouped by template (`Facts.section`, "pad:<template id>"): each
template is a kind of its own in `kinds` and `by_kind` (`KindStats.template`,
`.name`), since the points of different games never add up. A lowest-wins template's
best score is its lowest (`lowest`); its winners are those its own ranking named
(tie-breakers and shared ties included: every tied winner gets a win). A co-operative
template has the table's record (won, lost) under the difficulty "". A clock session
(`GameNight.ranked` false) has no winners and is counted nowhere here. `score_lines` of a
score pad game: the running total after each round (from the start score), or after
each category in the template's order.

Castor's score for a game is the sum of its round totals up to the deciding round
(the rulebook decides on medals; the sum is what "best score" compares).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.games import night_for
from companion.journal import DamagedRow, Journal
from companion.messages import RuleError
from companion.names import display_name
from companion.night.facts import Facts, all_facts, game_facts
from companion.night.roster import RosterPlayer, link_missing, players


@dataclass
class Record:
    kind: str | None  # None: every kind together (a section: "pad:<template>")
    games: int = 0
    wins: int = 0
    best_score: int | None = None
    average_score: float | None = None
    medals: int = 0
    best_kill: int | None = None
    coop: dict[str, tuple[int, int]] = field(default_factory=dict)  # difficulty: won, lost
    current_streak: int = 0
    longest_streak: int = 0
    lowest: bool = False  # the best score is the lowest (a lowest-wins template)
    _score_sum: int = 0
    _scored: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def add(self, facts: Facts, seat: int) -> None:
        won = seat in facts.winners
        self.games += 1
        if won:
            self.wins += 1
            self.current_streak += 1
            self.longest_streak = max(self.longest_streak, self.current_streak)
        else:
            self.current_streak = 0
        if self.kind is None:
            return
        score = facts.scores[seat] if seat < len(facts.scores) else None
        if score is not None:
            self._score_sum += score
            self._scored += 1
            better = min if self.lowest else max
            self.best_score = score if self.best_score is None else better(
                self.best_score, score)
            self.average_score = self._score_sum / self._scored
        if facts.medals is not None:
            self.medals += facts.medals[seat]
        if facts.best_kills is not None and facts.best_kills[seat] is not None:
            kill = facts.best_kills[seat]
            self.best_kill = kill if self.best_kill is None else max(self.best_kill, kill)
        if facts.cooperative:
            key = facts.difficulty or ""
            w, lost = self.coop.get(key, (0, 0))
            self.coop[key] = (w + won, lost + (not won))


@dataclass
class PlayerStats:
    player: RosterPlayer
    overall: Record
    by_kind: dict[str, Record]


@dataclass
class KindStats:
    kind: str  # the section: a kind, or "pad:<template>"
    template: str | None = None  # the score pad's template id
    name: dict[str, str] | None = None  # its name per language ("" for any)
    win: str | None = None  # how the template is won
    games: int = 0  # finished
    abandoned: int = 0
    unfinished: int = 0
    average_minutes: float | None = None
    best_score: tuple[int, tuple[int, ...]] | None = None  # score, roster ids holding it
    best_kill: tuple[int, tuple[int, ...]] | None = None
    medals: int = 0
    shared_victories: int = 0  # finished competitive games with tied winners
    coop: dict[str, tuple[int, int]] = field(default_factory=dict)
    recovered: int = 0  # co-operative (Pr. Evil): treasures recovered in finished games
    lost: int = 0  # and lost
    wins: dict[int, int] = field(default_factory=dict)  # roster id: wins
    _minutes: float = 0.0


@dataclass(frozen=True)
class Bar:
    player_id: int
    name: str
    colour: str
    games: int
    wins: int


@dataclass
class Statistics:
    players: list[PlayerStats]
    kinds: dict[str, KindStats]
    bars: list[Bar]
    damaged: tuple[int, ...] = ()  # games that cannot be read: not counted

    def player(self, player_id: int) -> PlayerStats:
        for stats in self.players:
            if stats.player.id == player_id:
                return stats
        raise RuleError("night.error.no_such_player", player=str(player_id))


def _best(current: tuple[int, tuple[int, ...]] | None, value: int | None,
          pid: int | None, lowest: bool = False) -> tuple[int, tuple[int, ...]] | None:
    if value is None:
        return current
    holders = () if pid is None else (pid,)
    if current is None or (value < current[0] if lowest else value > current[0]):
        return value, holders
    if value == current[0] and pid is not None and pid not in current[1]:
        return value, (*current[1], pid)
    return current


def compute(facts: Iterable[Facts], links: dict[int, dict[int, int]],
            roster: list[RosterPlayer]) -> Statistics:
    """Statistics from game facts (oldest first) and seat links {game: {seat: id}}."""
    by_player = {p.id: PlayerStats(p, Record(None), {}) for p in roster}
    kinds: dict[str, KindStats] = {}
    damaged: list[int] = []
    for f in facts:
        if f.status == "damaged":  # listed in the history as damaged, counted nowhere
            damaged.append(f.game_id)
            continue
        if not night_for(f.kind).ranked:
            continue
        ks = kinds.get(f.section)
        if ks is None:
            ks = kinds[f.section] = KindStats(f.section, f.template, f.template_name, f.win)
        if f.status == "abandoned":
            ks.abandoned += 1
            continue
        if f.status != "finished":
            ks.unfinished += 1
            continue
        ks.games += 1
        ks._minutes += max(f.updated - f.started, 0.0) / 60
        if f.cooperative:
            key = f.difficulty or ""
            w, lost = ks.coop.get(key, (0, 0))
            ks.coop[key] = (w + (f.outcome == "won"), lost + (f.outcome != "won"))
            ks.recovered += f.recovered if isinstance(f.recovered, int) else 0
            ks.lost += f.lost if isinstance(f.lost, int) else 0
        elif _shared(f):
            ks.shared_victories += 1
        if f.medals is not None:
            ks.medals += sum(f.medals)
        seats = links.get(f.game_id, {})
        for seat in range(len(f.names)):
            pid = seats.get(seat)
            ks.best_score = _best(ks.best_score, f.scores[seat], pid, f.lowest)
            if f.best_kills is not None:
                ks.best_kill = _best(ks.best_kill, f.best_kills[seat], pid)
            stats = by_player.get(pid) if pid is not None else None
            if stats is None:
                continue
            if seat in f.winners:
                ks.wins[pid] = ks.wins.get(pid, 0) + 1  # type: ignore[index]
            stats.overall.add(f, seat)
            record = stats.by_kind.get(f.section)
            if record is None:
                record = stats.by_kind[f.section] = Record(f.section, lowest=f.lowest)
            record.add(f, seat)
    for ks in kinds.values():
        ks.average_minutes = ks._minutes / ks.games if ks.games else None
    listed = list(by_player.values())
    return Statistics(listed, kinds, [
        Bar(s.player.id, s.player.name, s.player.colour, s.overall.games, s.overall.wins)
        for s in listed], tuple(damaged))


def _shared(f: Facts) -> bool:
    """Tied winners: more than one winner, or for teams more than one winning team."""
    if f.teams:
        return sum(1 for team in f.teams if set(team) & set(f.winners)) > 1
    return len(f.winners) > 1


def seat_links(journal: Journal) -> dict[int, dict[int, int]]:
    links: dict[int, dict[int, int]] = {}
    for gid, seat, pid in journal.read("SELECT game_id, seat, player_id FROM game_players"):
        links.setdefault(gid, {})[seat] = pid
    return links


def statistics(journal: Journal, *, include_retired: bool = True) -> Statistics:
    """The statistics screen's data (links games started without the roster first)."""
    link_missing(journal)
    return compute(all_facts(journal), seat_links(journal),
                   players(journal, include_retired=include_retired))


def bars(stats: Statistics, kind: str | None = None) -> list[Bar]:
    if kind is None:
        return list(stats.bars)
    out = []
    for s in stats.players:
        record = s.by_kind.get(kind)
        if record is not None:
            out.append(Bar(s.player.id, s.player.name, s.player.colour, record.games,
                           record.wins))
    return out


@dataclass(frozen=True)
class ScoreLines:
    kind: str
    names: tuple[str, ...]  # as named in the game
    player_ids: tuple[int | None, ...]
    points: tuple[tuple[int, ...], ...]  # per seat: the y values, x = 0, 1, 2...


def score_lines(journal: Journal, game_id: int) -> ScoreLines:
    """A damaged game raises `DamagedRow`; one damaged from some action on gives its
    lines up to there."""
    facts = game_facts(journal, game_id)
    if facts.damage is not None:
        raise DamagedRow("core.error.damaged_game", game=game_id, reason=facts.damage)
    n = len(facts.names)
    lines = night_for(facts.kind).score_lines(journal, journal.game(game_id), n)
    if lines is None:
        raise RuleError("night.error.no_score_line", kind=facts.kind)
    links = seat_links(journal).get(game_id, {})
    # an older game's names, typed before they were checked, read like today's
    return ScoreLines(facts.kind, tuple(display_name(name) for name in facts.names),
                      tuple(links.get(i) for i in range(n)),
                      tuple(tuple(line) for line in lines))
