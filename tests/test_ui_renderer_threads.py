"""Software rendering's threads kept one per core (ui/renderer_threads.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from ui.renderer_threads import spread_renderer_threads


def fake_tasks(tmp_path: Path, names: dict[int, str | None]) -> Path:
    """A /proc/self/task of our own: a folder per thread id, with its name in `comm`
    (None: a thread that ended while it was read, no `comm`)."""
    for tid, name in names.items():
        (tmp_path / str(tid)).mkdir()
        if name is not None:
            (tmp_path / str(tid) / "comm").write_text(name + "\n", encoding="utf-8")
    return tmp_path


@pytest.fixture
def affinity(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The process may use cores 2 and 5; each pin is recorded instead of made."""
    state: dict[str, Any] = {"cores": {5, 2}, "pins": {}, "refuse": set()}

    def setaffinity(tid: int, cores: set[int]) -> None:
        if tid in state["refuse"]:
            raise OSError(3, "No such process")
        state["pins"][tid] = set(cores)

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(state["cores"]))
    monkeypatch.setattr(os, "sched_setaffinity", setaffinity)
    return state


def test_each_llvmpipe_thread_gets_a_core_of_its_own_round_robin(
        tmp_path: Path, affinity: dict[str, Any]) -> None:
    tasks = fake_tasks(tmp_path, {100: "python", 101: "llvmpipe-0", 102: "llvmpipe-1",
                                  103: "llvmpipe-2", 104: "llvmpipe-x", 105: "llvmpipe",
                                  106: "gallium_drv", 107: None})
    assert spread_renderer_threads(tasks) == 3
    # the cores the process may use, in order: thread N on the Nth, round robin
    assert affinity["pins"] == {101: {2}, 102: {5}, 103: {2}}


def test_one_core_or_a_thread_gone_pins_nothing_and_raises_nothing(
        tmp_path: Path, affinity: dict[str, Any]) -> None:
    tasks = fake_tasks(tmp_path, {101: "llvmpipe-0", 102: "llvmpipe-1"})
    affinity["cores"] = {3}
    assert spread_renderer_threads(tasks) == 0
    assert affinity["pins"] == {}
    affinity["cores"] = {0, 1}
    affinity["refuse"] = {101}  # ended between the listing and the pin
    assert spread_renderer_threads(tasks) == 1
    assert affinity["pins"] == {102: {1}}
    assert spread_renderer_threads(tmp_path / "no such folder") == 0


@pytest.mark.ui
def test_the_running_app_keeps_llvmpipe_s_threads_apart(launch: Any) -> None:
    """Under Xvfb the renderer is llvmpipe: once the app is built, each of its threads
    runs on one core, a different one for each while there are cores enough."""
    from kivy.graphics.opengl import GL_RENDERER, glGetString

    ui = launch()
    assert ui.screen == "home"
    threads = {}
    for task in Path("/proc/self/task").iterdir():
        name = (task / "comm").read_text(encoding="utf-8").strip()
        if name.startswith("llvmpipe-"):
            threads[int(name.removeprefix("llvmpipe-"))] = os.sched_getaffinity(int(task.name))
    renderer = glGetString(GL_RENDERER).decode()
    cores = sorted(os.sched_getaffinity(0))
    if "llvmpipe" not in renderer or len(cores) < 2:
        assert all(len(pinned) == len(cores) for pinned in threads.values()), renderer
        return
    assert threads, "llvmpipe renders but no llvmpipe-N thread was found"
    for number, pinned in threads.items():
        assert pinned == {cores[number % len(cores)]}, (number, pinned)
    if len(threads) <= len(cores):
        assert len({frozenset(p) for p in threads.values()}) == len(threads)
