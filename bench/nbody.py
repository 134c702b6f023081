"""The N-body program of the Computer Language Benchmarks Game, pure Python (no numpy):
the calibration every figure of `bench.pi_cost` is scaled by.

Source: "nbody Python 3 #1" of the Benchmarks Game
(https://benchmarksgame-team.pages.debian.net/benchmarksgame/program/nbody-python3-1.html),
contributed by Kevin Carson, modified by Tupteq, Fredrik Johansson and Daniel Nanz, and
by Maciej Fijalkowski; kept as published apart from names, type hints and a function
returning the process CPU time. Its published Raspberry Pi 4 run (argument 5 000 000) is
the one docs/benchmarks.md cites.

    python -m bench.nbody [STEPS]      (prints the energies and the CPU seconds)
"""

from __future__ import annotations

import sys
import time
from typing import Any

PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24

BODIES: dict[str, tuple[list[float], list[float], float]] = {
    "sun": ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS),
    "jupiter": ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
                [1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
                 -6.90460016972063023e-05 * DAYS_PER_YEAR],
                9.54791938424326609e-04 * SOLAR_MASS),
    "saturn": ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
               [-2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
                2.30417297573763929e-05 * DAYS_PER_YEAR],
               2.85885980666130812e-04 * SOLAR_MASS),
    "uranus": ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
               [2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
                -2.96589568540237556e-05 * DAYS_PER_YEAR],
               4.36624404335156298e-05 * SOLAR_MASS),
    "neptune": ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
                [2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
                 -9.51592254519715870e-05 * DAYS_PER_YEAR],
                5.15138902046611451e-05 * SOLAR_MASS),
}


def combinations(items: list[Any]) -> list[tuple[Any, Any]]:
    result = []
    for x in range(len(items) - 1):
        ls = items[x + 1:]
        for y in ls:
            result.append((items[x], y))
    return result


SYSTEM = list(BODIES.values())
PAIRS = combinations(SYSTEM)


def advance(dt: float, n: int, bodies: list[Any] = SYSTEM,
            pairs: list[tuple[Any, Any]] = PAIRS) -> None:
    for _ in range(n):
        for (([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2)) in pairs:
            dx = x1 - x2
            dy = y1 - y2
            dz = z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m = m1 * mag
            b2m = m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for (r, [vx, vy, vz], _m) in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz


def report_energy(bodies: list[Any] = SYSTEM, pairs: list[tuple[Any, Any]] = PAIRS,
                  e: float = 0.0) -> float:
    for (((x1, y1, z1), _v1, m1), ((x2, y2, z2), _v2, m2)) in pairs:
        dx = x1 - x2
        dy = y1 - y2
        dz = z1 - z2
        e -= (m1 * m2) / ((dx * dx + dy * dy + dz * dz) ** 0.5)
    for (_r, [vx, vy, vz], m) in bodies:
        e += m * (vx * vx + vy * vy + vz * vz) / 2.
    return e


def offset_momentum(ref: tuple[list[float], list[float], float],
                    bodies: list[Any] = SYSTEM, px: float = 0.0, py: float = 0.0,
                    pz: float = 0.0) -> None:
    for (_r, [vx, vy, vz], m) in bodies:
        px -= vx * m
        py -= vy * m
        pz -= vz * m
    (_r, v, m) = ref
    v[0] = px / m
    v[1] = py / m
    v[2] = pz / m


def fresh_system() -> tuple[list[Any], list[tuple[Any, Any]]]:
    """The five bodies at their starting point (the module's are moved by a run)."""
    bodies = [([*r], [*v], m) for r, v, m in BODIES.values()]
    return bodies, combinations(bodies)


def cpu_seconds(steps: int) -> tuple[float, float, float]:
    """Run the program for `steps` steps on a fresh system: (energy before, energy
    after, process CPU seconds of the run). CPU time, not wall time: on a machine
    shared with other work, a core taken away is not counted."""
    bodies, pairs = fresh_system()
    began = time.process_time()
    offset_momentum(bodies[0], bodies)
    before = report_energy(bodies, pairs)
    advance(0.01, steps, bodies, pairs)
    after = report_energy(bodies, pairs)
    return before, after, time.process_time() - began


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    steps = int(args[0]) if args else 5_000_000
    before, after, seconds = cpu_seconds(steps)
    print(f"{before:.9f}\n{after:.9f}\n{steps} steps: {seconds:.2f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
