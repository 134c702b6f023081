"""The game registry: a game's rules are loaded when it is played, not before."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import KINDS, rules_for

ROOT = Path(__file__).resolve().parents[1]


def test_every_kind_has_its_rules() -> None:
    assert [rules_for(kind).kind for kind in KINDS] == list(KINDS)
    with pytest.raises(KeyError):
        rules_for("chess")


def test_checking_the_config_and_naming_a_game_load_no_rules() -> None:
    loaded = "print(sorted(m for m in sys.modules if m.startswith('companion.games.castor.')))"
    code = "\n".join(["import sys", "from companion import config",
                      "import companion.games.castor as castor",
                      "config.load(use_default_user_file=False)", loaded,
                      "castor.RULES", loaded, "castor.nothing_like_this"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    before, after = (ast.literal_eval(line) for line in done.stdout.splitlines())
    assert before == []  # not even its params: nothing in the user's file asked for them
    assert "companion.games.castor.rules" in after
    assert "AttributeError: module 'companion.games.castor' has no attribute" in done.stderr
