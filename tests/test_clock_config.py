"""The clock's durations and presets: built in, the table's own, `check-config`.
Issue 31, "Bad input": durations `0s`, `-1m`, `5mins`, `1h99m`, over 24 h (refused
with `file:line: key`); a negative increment or delay; a delay as long as the bank
(warned); a stage of 0 moves other than the last; a bank clock for one player."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import config
from companion.games.clock.durations import DurationError, format_duration, parse_duration
from companion.games.clock.params import read_preset
from companion.games.clock.presets import BUILTIN_DIR, load_presets, own_dir
from companion.i18n import Translator
from ui.commands.cli import main as companion


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    # nor the settings an earlier test of the run saved in the shared data folder
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)


@pytest.mark.parametrize("text, ms", [
    ("90s", 90_000), ("5m", 300_000), ("1h30m", 5_400_000), ("90m", 5_400_000),
    ("1h5m30s", 3_930_000), ("24h", 86_400_000), (" 3s ", 3000), ("1m59s", 119_000),
])
def test_durations_read(text: str, ms: int) -> None:
    assert parse_duration(text) == ms
    assert parse_duration(format_duration(ms)) == ms


@pytest.mark.parametrize("value, key", [
    ("0s", "clock.config.duration_zero"), ("-1m", "clock.config.duration_negative"),
    ("5mins", "clock.config.duration_form"), ("1h99m", "clock.config.duration_part"),
    ("1m60s", "clock.config.duration_part"), ("24h1s", "clock.config.duration_long"),
    ("25h", "clock.config.duration_long"), ("", "clock.config.duration_form"),
    ("5s3m", "clock.config.duration_form"), ("1.5m", "clock.config.duration_form"),
    (90, "clock.config.duration_text"), (True, "clock.config.duration_text"),
    (None, "clock.config.duration_text"),
])
def test_bad_durations_say_what_is_wrong(value: object, key: str) -> None:
    with pytest.raises(DurationError) as exc:
        parse_duration(value)
    assert exc.value.message.key == key
    for language in ("en", "fr"):
        assert Translator(language).has(key)


def test_builtin_presets_load_clean_and_are_named_in_both_languages() -> None:
    found = load_presets(builtin_dir=BUILTIN_DIR, own=Path("/nonexistent"))
    assert found.problems == [] and found.warnings == [] and found.broken == []
    wanted = {"sand-1m", "sand-3m", "turn-60s", "chess-5m-3s", "chess-10m-bronstein-5s",
              "go-stages", "count-up"}
    assert wanted <= set(found.presets)
    for preset in found.presets.values():
        for language in ("en", "fr"):
            tr = Translator(language)
            assert tr.has(f"clock.preset.{preset.id}")
            assert preset.title(tr, language) == tr(f"clock.preset.{preset.id}")
    assert found.get("chess-5m-3s").params.stages[0].increment_ms == 3000
    assert found.get("chess-10m-bronstein-5s").params.bronstein_ms == 5000


@pytest.mark.parametrize("text, key, message", [
    ("mode: sand\ntime: 0s\n", "time", "clock.config.duration_zero"),
    ("mode: sand\ntime: -1m\n", "time", "clock.config.duration_negative"),
    ("mode: turn\ntime: 5mins\n", "time", "clock.config.duration_form"),
    ("mode: turn\ntime: 1h99m\n", "time", "clock.config.duration_part"),
    ("mode: bank\ntime: 25h\n", "time", "clock.config.duration_long"),
    ("mode: bank\ntime: 5m\nincrement: -3s\n", "increment", "clock.config.duration_negative"),
    ("mode: bank\ntime: 5m\ndelay: -2s\n", "delay", "clock.config.duration_negative"),
    ("mode: bank\nstages:\n  - {moves: 0, time: 5m}\n  - {moves: 0, time: 1m}\n",
     "stages.0.moves", "clock.config.stage_zero"),
    ("mode: bank\ntime: 5m\nstages:\n  - {moves: 0, time: 5m}\n", "time",
     "clock.config.time_and_stages"),
    ("mode: sand\ntime: 1m\nincrement: 3s\n", "increment", "clock.config.not_in_mode"),
    ("mode: chess\ntime: 1m\n", "mode", "clock.config.choice"),
    ("mode: turn\ntime: 1m\nat_zero: explode\n", "at_zero", "clock.config.choice"),
    ("mode: turn\ntime: 1m\ntme: 2m\n", "tme", "core.config.unknown_key"),
    ("mode: turn\ntime: 1m\nwarn: 10s\ndanger: 20s\n", "danger", "clock.config.danger_order"),
    ("mode: turn\ntime: 1m\npenalty: {points: 1, every: 30s}\n", "penalty",
     "clock.config.penalty_unused"),
    ("mode: turn\n", "time", "clock.config.time_needed"),
])
def test_a_bad_table_preset_is_named_file_line_key(tmp_path: Path, capsys, text: str,
                                                    key: str, message: str) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: en\n")
    own = tmp_path / "clock"
    own.mkdir()
    bad = own / "ours.yaml"
    bad.write_text(text)
    (own / "fine.yaml").write_text("mode: sand\ntime: 2m\n")
    found = load_presets(user)
    assert found.broken == [str(bad)] and "fine" in found.presets  # never hides the others
    assert message in [p.message.key for p in found.problems if p.key == key]
    line = next(p.line for p in found.problems if p.key == key)
    last = key.split(".")[-1]
    if f"{last}:" in text:  # the line where the key is written (else the file's first)
        assert f"{last}:" in text.splitlines()[line - 1]
    else:
        assert line == 1
    assert companion(["check-config", str(user)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:{line}: {key}: " in out


def test_a_delay_as_long_as_the_bank_is_warned_not_refused(tmp_path: Path, capsys) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: en\n")
    (tmp_path / "clock").mkdir()
    slow = tmp_path / "clock" / "slow.yaml"
    slow.write_text("mode: bank\ntime: 5s\ndelay: 5s\n")
    found = load_presets(user)
    assert "slow" in found.presets and found.problems == []
    assert [(w.file, w.line, w.key, w.message.key) for w in found.warnings] == [
        (str(slow), 3, "delay", "clock.config.delay_long")]
    assert companion(["check-config", str(user)]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"OK: {user}\n"
    assert f"{slow}:3: delay: warning:" in captured.err


def test_a_bank_preset_for_one_player_is_refused_at_setup() -> None:
    from companion.games.clock.rules import RULES
    from companion.messages import RuleError

    params = read_preset({"mode": "bank", "time": "5m"}).params
    assert params is not None
    with pytest.raises(RuleError) as exc:
        RULES.initial_state({"params": params.to_setup(), "players": [{"name": "Ann"}],
                             "start": 0})
    assert exc.value.message.key == "clock.error.players_count"


def test_hostile_and_broken_preset_files(tmp_path: Path) -> None:
    own = tmp_path / "clock"
    own.mkdir()
    (own / "deep.yaml").write_text("mode: " + "[" * 100 + "]" * 100 + "\n")
    (own / "big.yaml").write_text("# " + "x" * (config.MAX_BYTES + 10) + "\n")
    (own / "syntax.yaml").write_text("mode: [sand\n")
    (own / "Bad Name.yaml").write_text("mode: sand\ntime: 1m\n")
    (own / "list.yaml").write_text("- mode\n")
    (own / "ok.yaml").write_text("mode: phase\ntime: 90s\nname: {en: Ours, fr: Nôtre}\n")
    found = load_presets(own=own)
    assert len(found.broken) == 5 and set(found.presets) >= {"ok", "chess-5m-3s"}
    assert found.get("ok").title(Translator("fr"), "fr") == "Nôtre"
    assert all(p.file.startswith(str(own)) for p in found.problems)


def test_check_config_reads_the_tables_presets_beside_the_file(tmp_path: Path,
                                                               capsys) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("language: fr\n")
    (tmp_path / "clock").mkdir()
    (tmp_path / "clock" / "blitz.yaml").write_text("mode: bank\ntime: 3m\nincrement: 2s\n")
    assert companion(["check-config", str(user)]) == 0
    assert own_dir(user) == tmp_path / "clock"
    (tmp_path / "clock" / "blitz.yaml").write_text("mode: bank\ntime: 3mins\n")
    assert companion(["check-config", str(user)]) == 1
    out = capsys.readouterr().out
    assert "blitz.yaml:2: time: 3mins n'est pas une durée" in out
