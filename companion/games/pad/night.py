"""The score pad in the history, the statistics and the export: each template is a
game of its own ("pad:<template id>": the points of different games never mix), won
as its template says (highest, lowest, co-op, places); the ranks, exits, teams and
instant wins are the summary's (the statistics never rank a game again). A clock may
run beside it."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.game import GameNight, OwnFileRefused, Played
from companion.journal import Entry, GameRecord, Journal
from companion.messages import CompanionError, Message, msg
from companion.night.facts import Facts, int_or_none, ints, seats_named
from companion.session import Step

logger = logging.getLogger(__name__)


def _label(name: Any) -> dict[str, str]:
    """A template's name as the setup keeps it ("7 Wonders" or {en:, fr:})."""
    if isinstance(name, Mapping):
        return {str(k): str(v) for k, v in name.items() if isinstance(v, str)}
    return {"": str(name)} if isinstance(name, str) else {}


class PadNight(GameNight):
    own_folder = "pad"  # the table's own templates
    has_score_line = True
    clock_beside = True

    def command_name(self, command: Any) -> Message:
        return msg(f"pad.command.{type(command).__name__}")

    def describe(self, step: Step) -> Sequence[Message]:
        from companion.games.pad.rules import describe

        return tuple(describe(step.events))

    def facts(self, base: dict[str, Any], setup: Mapping[str, Any],
              summary: Mapping[str, Any], entries: Sequence[Entry]) -> Facts:
        """Its totals and ranks as the summary gives them (its ranking, tie-breakers and
        lowest-wins included)."""
        template = setup.get("template") if isinstance(setup.get("template"), Mapping) else {}
        names = base["names"]
        n = len(names)
        listed = summary.get("players")
        # the summary names seats as the rules checked them: its own list finds the seats
        by_seat = tuple(str(x) for x in listed) if isinstance(listed, list) and len(
            listed) == n else names
        win = summary.get("win") if summary.get("win") in ("highest", "lowest", "coop",
                                                            "places") else template.get("win")
        coop_won = summary.get("coop_won")
        outs = summary.get("out") if isinstance(summary.get("out"), list) else []
        out = tuple(o if o in ("eliminated", "left") else None for o in outs[:n])
        teams = summary.get("teams")
        team_seats = None
        if isinstance(teams, list) and teams:
            team_seats = tuple(tuple(by_seat.index(m) for m in team if m in by_seat)
                               for team in teams if isinstance(team, list))
        start = summary.get("start_player")
        name = _label(template.get("name")) or _label(summary.get("template_name"))
        return Facts(**base, scores=ints(summary.get("totals"), n),
                     # an unfinished game's leaders are no winners yet
                     winners=seats_named(by_seat, summary.get("winners"))
                     if base["status"] == "finished" else (),
                     outcome=None if win != "coop" or coop_won is None else
                     ("won" if coop_won else "lost"),
                     rounds=int_or_none(summary.get("rounds")),
                     template=str(summary.get("template") or template.get("id") or ""),
                     template_name=name, win=win, ranks=ints(summary.get("ranks"), n),
                     out=out + (None,) * (n - len(out)),
                     instant=bool(summary.get("instant_win")), teams=team_seats,
                     start_player=by_seat.index(start) if start in by_seat else None,
                     bgg_id=int_or_none(summary.get("bgg_id")))

    def cooperative(self, game: Played) -> bool:
        return game.win == "coop"

    def section(self, game: Played) -> str:
        return f"pad:{game.template}"

    def highest_wins(self, game: Played) -> bool:
        return game.win != "lowest"

    def no_points(self, game: Played) -> bool:
        return game.win in ("coop", "places")

    def cells(self, journal: Journal, record: GameRecord) -> list[Any]:
        """A game going on replayed from its newest snapshot for its cells (its summary,
        written at every action, leaves them out)."""
        from companion.games import rules_for
        from companion.games.pad.rules import cells
        from companion.session import rebuild

        try:
            history = rebuild(rules_for(self.kind), journal, record.id, record.setup)[0]
        except CompanionError:  # a damaged action, or one these rules refuse
            return []
        except Exception as exc:  # a setup this code cannot play: nothing to list
            logger.warning("game %s: its cells cannot be replayed: %s", record.id, exc)
            return []
        return cells(history.state)

    def score_lines(self, journal: Journal, record: GameRecord, n: int
                    ) -> list[list[int]] | None:
        """The running totals: after each round from the start score, or after each
        category in the template's order (a blank counts nothing)."""
        from companion.night.history import sheet_cells

        template = record.setup.get("template") or {}
        rounds = template.get("rounds") if isinstance(template.get("rounds"), dict) else {}
        start = rounds.get("start") if isinstance(rounds.get("start"), int) else 0
        names = [str(x) for x in record.summary.get("players") or []]
        columns: list[Any] = []  # rounds (1, 2...) or category ids, in order
        points: dict[tuple[Any, int], int] = {}
        for cell in sheet_cells(journal, record):
            try:
                who, where, _text, value = cell
                seat = names.index(who)
                points[(where, seat)] = round(value)
            except (TypeError, ValueError):
                continue  # a cell of the wrong shape counts nothing
            if where not in columns:
                columns.append(where)
        if template.get("shape") == "categories":
            order = [c.get("id") for c in template.get("categories") or []
                     if isinstance(c, dict)]
            columns = [c for c in order if c in columns]
        else:
            columns = sorted(c for c in columns if isinstance(c, int))
            start = start if isinstance(start, int) else 0
        lines = [[start if template.get("shape") != "categories" else 0] for _ in range(n)]
        for where in columns:
            for seat in range(min(n, len(names))):
                lines[seat].append(lines[seat][-1] + points.get((where, seat), 0))
        return lines

    def broken_own(self, folder: Path) -> set[str]:
        from companion.games.pad import templates

        try:
            catalogue = templates.load(own_dir=folder)
        except Exception as exc:  # the setup screen would fail on it as well
            raise OwnFileRefused("pad", exc) from exc
        return {b.path.name for b in catalogue.broken}

    def title(self, game: Any, language: str) -> str | None:
        """A score pad game is named by its template."""
        from companion.night.export import label_in

        return label_in(game.template_name, language) if game.template_name else None


NIGHT = PadNight("pad")
