"""Game night: what lives across games (pure, no screens).

- `roster`: players (name, colour) reused across games, renamed and retired without
  losing history; turns chosen players into a setup's player list and links games.
- `history`: every game as a line (kind, date, duration, players, scores or outcome,
  medals, treasures, difficulty, status), a game's log as translated lines, resume
  and abandon.
- `stats`: statistics per player and per game, streaks, data for bar and line charts.
- `facts`: the per-game facts behind history and statistics, cached in the journal.
- `export`: CSV and Board Game Stats play files.
- `backup`: a full backup file (zip: manifest + SQLite online-backup copy) and restore.

The dice tray is a game kind of its own: `companion.games.tray`.
"""
