"""Pr. Evil et la Citadelle du Temps: the three dice and the central clock."""

from companion.games.evil.params import EvilParams, validate_config
from companion.games.evil.rules import RULES, EvilRules

KIND = "evil"

__all__ = ["KIND", "RULES", "EvilParams", "EvilRules", "validate_config"]
