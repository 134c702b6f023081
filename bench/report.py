"""The Markdown report of one `python -m bench` run."""

from __future__ import annotations

import os
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any


def machine() -> dict[str, Any]:
    cpu = ""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    try:  # without importing kivy, which would parse our arguments and open a log
        kivy_version = metadata.version("kivy")
    except metadata.PackageNotFoundError:  # pragma: no cover - the project needs kivy
        kivy_version = "absent"
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "kivy": kivy_version, "platform": platform.platform(),
            "load": os.getloadavg()}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _verdict(value: float, target: float) -> str:
    return "met" if value <= target else "**not met**"


def _row(name: str, ours: dict[str, Any], bare: dict[str, Any], fmt: Any,
         target: float | None, ratio: float | None = None) -> str:
    ratio = ours["median"] / bare["median"] if ratio is None and bare["median"] else ratio
    ratio_text = "n/a" if ratio is None else f"{ratio:.2f}x"
    target_text = "" if target is None else f"≤ {target:g}x ({_verdict(ratio or 0, target)})"
    return (f"| {name} | {fmt(ours['median'])} ({fmt(ours['min'])} – {fmt(ours['max'])}) "
            f"| {fmt(bare['median'])} ({fmt(bare['min'])} – {fmt(bare['max'])}) "
            f"| {ratio_text} | {target_text} |")


def markdown(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        "# Benchmark run",
        "",
        f"Command: `{results['command']}`  ",
        f"Machine: {m['nproc']} CPUs, {m['cpu']}; Python {m['python']}; Kivy {m['kivy']}; "
        f"{m['platform']}; load average at the end {m['load'][0]:.2f}",
        "",
    ]
    head = ["| | ours: median (min – max) | bare Kivy: median (min – max) | ratio | target |",
            "|---|---|---|---|---|"]
    s = results.get("startup")
    if s:
        lines += [f"## Start, memory, idle ({s['reps']} fresh processes each, interleaved; "
                  f"idle {s['idle_seconds']:g} s in {s['idle_reps']} of them)", "", *head]
        lines.append(_row("cold start to first frame", s["start_s"]["ours"],
                          s["start_s"]["bare"], _ms, 1.3))
        if "bare_same" in s["start_s"]:
            lines.append(_row("… against bare Kivy with our window settings (no multisampling)",
                              s["start_s"]["ours"], s["start_s"]["bare_same"], _ms, 1.2))
        if "ours_long" in s["start_s"]:
            lines.append(_row(f"start resuming a {s.get('long_actions', 50000)}-action game "
                              "(ours) against a game of 12 actions (in the bare column)",
                              s["start_s"]["ours_long"],
                              s["start_s"]["ours"], _ms, 1.3))
        cpu = s.get("start_cpu_s")
        if cpu and "bare_same" in cpu:
            lines.append(_row("… CPU time to the first frame (the process, all threads), "
                              "against bare Kivy with our window settings",
                              cpu["ours"], cpu["bare_same"], _ms, None))
            if "ours_long" in cpu:
                lines.append(_row("… CPU time, the long game against 12 actions",
                                  cpu["ours_long"], cpu["ours"], _ms, None))
        lines.append(_row("resident memory (VmRSS) after start", s["rss_mib"]["ours"],
                          s["rss_mib"]["bare"], lambda v: f"{v:.1f} MiB", 1.3))
        if "bare_same" in s["rss_mib"]:
            lines.append(_row("… against bare Kivy with our window settings",
                              s["rss_mib"]["ours"], s["rss_mib"]["bare_same"],
                              lambda v: f"{v:.1f} MiB", 1.3))
        if "idle_cpu_s" in s:
            idle = s["idle_seconds"]
            lines.append(_row(f"CPU time over {idle:g} s idle", s["idle_cpu_s"]["ours"],
                              s["idle_cpu_s"]["bare"], lambda v: f"{v:.2f} s", 1.2))
            if "bare_same" in s["idle_cpu_s"]:
                lines.append(_row("… against bare Kivy with our window settings",
                                  s["idle_cpu_s"]["ours"], s["idle_cpu_s"]["bare_same"],
                                  lambda v: f"{v:.2f} s", 1.2))
            lines.append(_row("frames drawn while idle", s["idle_frames"]["ours"],
                              s["idle_frames"]["bare"], lambda v: f"{v:g}", None,
                              ratio=None))
        lines.append("")
    r = results.get("roll")
    if r:
        lines += [f"## ROLL through the real app ({r['rolls']} rolls per app in {r['parts']} "
                  f"fresh processes each, interleaved; {r['warmup']} warm-up rolls per process "
                  "not counted)", "",
                  "| | ours median | ours p99 | ours max | bare median | bare p99 | target |",
                  "|---|---|---|---|---|---|---|"]
        for key, name, target in (
                ("commit_s", "touch released → action written, labels set (committed "
                 "just before the swap)", 0.020),
                ("commit_cpu_s", "… its CPU time (main thread)", None),
                ("journal_s", "the journal's write and commit, within the frame (SQLite, "
                 "synchronous=FULL)", None),
                ("shown_s", "touch released → frame swapped (screen updated)", 0.020),
                ("shown_cpu_s", "… its CPU time (process, incl. llvmpipe threads)", None)):
            if key not in r:
                continue
            o, b = r[key]["ours"], r[key].get("bare")
            bare_cells = f"{_ms(b['median'])} | {_ms(b['p99'])}" if b else "– | –"
            goal = f"p99 ≤ 20 ms ({_verdict(o['p99'], target)})" if target else ""
            lines.append(f"| {name} | {_ms(o['median'])} | {_ms(o['p99'])} | {_ms(o['max'])} "
                         f"| {bare_cells} | {goal} |")
        if "dialog_s" in r:
            d = r["dialog_s"]
            lines.append(f"| touch released → the dialog (or end screen) the roll opened on screen "
                         f"({d['n']} rolls) | {_ms(d['median'])} | {_ms(d['p99'])} | "
                         f"{_ms(d['max'])} | – | – | |")
        shown = r["shown_s"]
        if "bare" in shown:
            o, b = shown["ours"], shown["bare"]
            p99_ratio = o["p99"] / b["p99"] if b["p99"] else 0
            lines += ["", "| target (issue 15) | measured | verdict |", "|---|---|---|",
                      f"| ROLL → frame p99 ≤ 1.5x the bare label update's p99 | "
                      f"{_ms(o['p99'])} / {_ms(b['p99'])} = {p99_ratio:.2f}x | "
                      f"{_verdict(p99_ratio, 1.5)} |",
                      f"| ROLL → frame max over {o['n']} rolls < 100 ms | {_ms(o['max'])} | "
                      f"{_verdict(o['max'], 0.1)} |"]
            same = shown.get("bare_same")
            if same:
                ratio_same = o["p99"] / same["p99"] if same["p99"] else 0
                lines.append(f"| … the same p99 against bare Kivy with our window settings "
                             f"(no multisampling; bare median {_ms(same['median'])}): "
                             f"like for like, no target | {_ms(o['p99'])} / {_ms(same['p99'])} "
                             f"= {ratio_same:.2f}x | – |")
            if "dialog_s" in r:
                d = r["dialog_s"]
                bound = b["p99"] + 2 / 60
                lines.append(f"| the dialog on screen within two frames (2 x 16.7 ms) of the "
                             f"bare app's p99 | p99 {_ms(d['p99'])} against {_ms(bound)} | "
                             f"{_verdict(d['p99'], bound)} |")
        if "gc" in r:
            parts = []
            for gen, g in r["gc"].items():
                if g.get("n"):
                    parts.append(f"generation {gen}: {g['n']} collections, median "
                                 f"{_ms(g['median'])}, max {_ms(g['max'])}")
                else:
                    parts.append(f"generation {gen}: none")
            lines += ["", "Garbage collections while rolling (timed with `gc.callbacks`): "
                      + "; ".join(parts) + f". Full collections run by the idle collector: "
                      f"{r.get('idle_collections', 0)}."]
        lines += ["", f"Games played: {r['games']}; dialogs answered between rolls (untimed): "
                  f"{r['dialogs']}; rolls whose turn label was wrong: {r['labels_wrong']}; "
                  f"actions observed {r['updates']}, journaled {r['journaled']}; hardware "
                  f"layer on mock pins: {'yes' if r['hardware'] else 'no'}.", ""]
        if "rss_mib" in r:
            m = r["rss_mib"]
            lines += [f"Memory after the rolls (VmRSS, the larger of the processes): ours "
                      f"{m['ours']:.0f} MiB, of which {r['kept_mib']:.1f} MiB of kept text "
                      f"textures; bare {m['bare']:.0f} MiB.", ""]
        for key, name in (("commit_by_outcome", "Touch → action written, labels set"),
                          ("shown_by_outcome", "Touch → frame swapped")):
            split = r.get(key, {})
            if split:
                lines += [f"{name}, by what the roll opened: " + "; ".join(
                    f"{what} ({v['n']} rolls): median {_ms(v['median'])}, p99 {_ms(v['p99'])}"
                    for what, v in split.items()) + ".", ""]
    for p in results.get("replays", []):
        lines += [f"## Resume of a {p['entries']}-entry journal (fresh process, "
                  f"{p['resume_s']['n']} times)", "",
                  "| | median (min – max) | first (cold) | target |", "|---|---|---|---|",
                  f"| Session.resume, given the listed row (newest snapshot + {p['tail']} "
                  "actions after it) | "
                  f"{_ms(p['resume_s']['median'])} ({_ms(p['resume_s']['min'])} – "
                  f"{_ms(p['resume_s']['max'])}) | {_ms(p['first_s'])} | |",
                  f"| the snapshot read and decoded, the tail read and applied | "
                  f"{_ms(p['floor_s']['median'])} | | resume ≤ 1.2x: {p['ratio']:.2f}x "
                  f"({_verdict(p['ratio'] or 0, 1.2)}) |",
                  f"| the game's row alone (read once, when the games are listed) | "
                  f"{_ms(p['row_s']['median'])} | | resume and row against the floor: "
                  f"{p['ratio_with_row']:.2f}x |",
                  f"| the snapshot and the tail read and decoded only | "
                  f"{_ms(p['read_s']['median'])} | | {p['ratio_read']:.2f}x |",
                  f"| a full replay of every entry (before snapshots) | "
                  f"{_ms(p['full_s']['median'])} | | |",
                  f"| opening the journal (quick_check) | | {_ms(p['open_s'])} | |",
                  "", f"Entries: {', '.join(f'{k} {v}' for k, v in p['mix'].items())}; "
                  f"{p['steps']} commands done, turn {p['turn']}.", ""]
    n = results.get("night")
    if n:
        lines += [f"## {n['games']} finished games: the longest frame while working "
                  "(the real app, maxfps 60)", "",
                  "| | whole operation | frames | longest frame | "
                  "longest main-thread CPU in a frame | target |",
                  "|---|---|---|---|---|---|"]
        for op in n["ops"]:
            lines.append(f"| {op['op']} | {op['seconds']:.2f} s | {op['summary']['n']} | "
                         f"{_ms(op['longest_s'])} | {_ms(op['longest_cpu_s'])} | "
                         f"< 50 ms ({_verdict(op['longest_s'], 0.05)}) |")
        lines += ["", f"Games after the restore: {n['restored_games']}.", ""]
    p = results.get("replay")
    if p:
        mix = ", ".join(f"{k} {v}" for k, v in p["mix"].items())
        res = p["resume_s"]
        lines += [f"## Replay of a {p['entries']}-entry journal (Session.resume, fresh process)",
                  "", "| | median (min – max) | first (cold) | target |", "|---|---|---|---|",
                  f"| Session.resume | {_ms(res['median'])} ({_ms(res['min'])} – "
                  f"{_ms(res['max'])}) | {_ms(p['first_s'])} | ≤ 200 ms "
                  f"({_verdict(res['median'], 0.2)}) |",
                  f"| its CPU time | {_ms(p['resume_cpu_s']['median'])} | "
                  f"{_ms(p['first_cpu_s'])} | |",
                  f"| of which reading the entries | {_ms(p['read_s']['median'])} | | |",
                  f"| opening the journal (quick_check) | | {_ms(p['open_s'])} | |",
                  "", f"Entries: {mix}; {p['steps']} commands done, turn {p['turn']}.", ""]
    if results.get("slow_card"):
        from bench.slow_card_ui import report as slow_card_report

        lines += [*slow_card_report(results["slow_card"]), ""]
    for name, text in results.get("others", {}).items():
        lines += [f"## {name}", "", "```", text.rstrip(), "```", ""]
    return "\n".join(lines)


def command_line() -> str:
    return " ".join(["python -m bench", *sys.argv[1:]])
