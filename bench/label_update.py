"""What the clock's and the score pad's benchmarks share: an action of ours through the
real app, beside the bare Kivy app's label update (`roll_ui.run_bare`, in Kivy's
default window and with our window settings), a fresh child process each
(`roll_ui.three_children`), and the table of their figures.

A script gives its `run_ours(count, data_dir)`, which returns the seconds from each
release to the frame showing the action (`shown_s`) and whatever else it timed."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.roll_ui import run_bare, three_children
from bench.stats import ratio, summary

RunOurs = Callable[[int, Path], dict[str, Any]]
PARTS = 3  # processes per app, interleaved: ours, bare, bare-same, ours, ...


def main(script: str, argv: list[str] | None, *, run_ours: RunOurs, description: str,
         option: str, heading: str, ours_rows: Sequence[tuple[str, str]],
         default: int = 150, parts: int = PARTS) -> int:
    """`script --child <app> <out> <count> <dir>` runs one app (the parent's call);
    otherwise `script [--<option> N] [--parts P]` runs the three children, P times
    over, interleaved (`roll_ui.three_children`), and prints the table:
    `heading` (with `{n}`, the count), a row per `ours_rows` (a name and the result's
    key; the first is the one compared), then the two bare apps' rows."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        which, out, count, data = args[1], Path(args[2]), int(args[3]), Path(args[4])
        result = run_ours(count, data) if which == "ours" else \
            run_bare(count, same_window=which == "bare-same")
        out.write_text(json.dumps(result), encoding="utf-8")
        return 0
    name = Path(script).name
    parser = argparse.ArgumentParser(prog=f"bench/{name}", description=description)
    parser.add_argument(f"--{option}", type=int, default=default)
    parser.add_argument("--parts", type=int, default=parts,
                        help="processes per app, interleaved (default %(default)s)")
    parsed = parser.parse_args(args)
    count = getattr(parsed, option)
    with tempfile.TemporaryDirectory(prefix=f"bench-{Path(script).stem}-") as temp:
        raw = three_children(script, Path(temp), count, max(1, parsed.parts))
        where = f"the journals in {temp} ({filesystem(Path(temp))}; TMPDIR chooses)"
    print("\n".join([*report(raw, heading.format(n=count), ours_rows), "", where]))
    return 0


def filesystem(path: Path) -> str:
    """The type of the filesystem holding `path` (tmpfs: a sync costs nothing), from
    the longest mount point above it in /proc/self/mounts."""
    best, kind = "", "unknown"
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return kind
    resolved = str(path.resolve())
    for line in mounts:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1]
        inside = resolved == point or resolved.startswith(point.rstrip("/") + "/")
        if inside and len(point) > len(best):
            best, kind = point, fields[2]
    return kind


def report(raw: dict[str, Any], heading: str, ours_rows: Sequence[tuple[str, str]]
           ) -> list[str]:
    """The Markdown table and the ratio line of `three_children`'s results."""
    rows = [(name, summary(raw["ours"][key])) for name, key in ours_rows]
    ours = rows[0][1]
    bare, same = summary(raw["bare"]["shown_s"]), summary(raw["bare-same"]["shown_s"])
    lines = [f"| {heading} | median | p99 | max |", "|---|---|---|---|"]
    for name, s in (*rows, ("bare Kivy app: a Button sets a Label", bare),
                    ("bare Kivy app, our window settings (no multisampling)", same)):
        lines.append(f"| {name} | {s['median'] * 1000:.1f} ms | {s['p99'] * 1000:.1f} ms |"
                     f" {s['max'] * 1000:.1f} ms |")
    lines += ["", f"p99 ours / bare: {ratio(ours['p99'], bare['p99']):.2f}x (target <= "
              f"1.5x), ours / bare with our window settings: "
              f"{ratio(ours['p99'], same['p99']):.2f}x; median "
              f"{ratio(ours['median'], bare['median']):.2f}x; labels wrong at the frame: "
              f"{raw['ours']['labels_wrong']}; actions journaled: "
              f"{raw['ours']['journaled']}; samples per app: "
              f"{len(raw['ours'][ours_rows[0][1]])}.",
              "", "each process's median (ms): " + "; ".join(
                  f"{which} " + " / ".join(f"{m * 1000:.1f}" for m in
                                           raw[which].get("part_medians_s", []))
                  for which in ("ours", "bare", "bare-same"))]
    return lines
