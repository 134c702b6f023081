"""The slow-card rig: a process whose journal syncs take as long as an SD card's.

SQLite's VFS cannot be changed from Python's `sqlite3`, and this kernel has no
dm-delay, so the rig is a small shim (`slow_card.c`, built here with gcc) preloaded
into a child process: `fsync` and `fdatasync` of files under the journal's folder
sleep after the real sync, by a seeded profile, and each delay is logged. The durable
point (the sync's return) is as late as on the card; the checkpoint's syncs are
delayed too.

    env = SlowCard("uniform:100-250", seed=1, folder=tmp).environment()
    subprocess.run([...], env=env)
    SlowCard.delays(log)  # what the child's syncs waited

Profiles (`PROFILES`): fixed 5, 20, 50, 100 ms; uniform 100-250 ms; "mix": 90 % 3-8 ms,
9 % 20-40 ms, 1 % 100-250 ms (a good card with the stalls cheap ones are known for).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SOURCE = Path(__file__).with_name("slow_card.c")
PROFILES = ("fixed:5", "fixed:20", "fixed:50", "fixed:100", "uniform:100-250", "mix")


class RigError(RuntimeError):
    """The shim cannot be built here (no C compiler)."""


def shim() -> Path:
    """The shim's shared library, built once per source text (cached in the temp dir)."""
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    target = Path(tempfile.gettempdir()) / f"slow-card-{digest}-{os.getuid()}.so"
    if target.exists():
        return target
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise RigError("the slow-card rig needs gcc (apt-get install gcc)")
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    done = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(partial),
                           str(SOURCE), "-ldl", "-lpthread"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RigError(f"building the slow-card shim failed: {done.stderr}")
    partial.replace(target)
    return target


@dataclass(frozen=True)
class SlowCard:
    """One profile for one folder: `environment()` is what a child process needs."""

    profile: str
    seed: int
    folder: Path
    log: Path | None = None

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ if base is None else base)
        preload = env.get("LD_PRELOAD", "")
        env["LD_PRELOAD"] = f"{shim()} {preload}".strip()
        env["SLOW_CARD_DIR"] = str(Path(self.folder).resolve())
        env["SLOW_CARD_PROFILE"] = self.profile
        env["SLOW_CARD_SEED"] = str(self.seed)
        if self.log is not None:
            env["SLOW_CARD_LOG"] = str(self.log)
        return env

    @staticmethod
    def delays(log: Path) -> list[tuple[float, float, str, str]]:
        """The logged syncs: (monotonic start s, delay ms, call, path)."""
        if not log.exists():
            return []
        out = []
        for line in log.read_text().splitlines():
            start, delay, call, path = line.split(" ", 3)
            out.append((float(start), float(delay), call, path))
        return out
