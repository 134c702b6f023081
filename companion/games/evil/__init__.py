"""Pr. Evil et la Citadelle du Temps: the three dice and the central clock."""

from companion.games import lazy_names

KIND = "evil"

__all__ = ["KIND", "RULES", "EvilParams", "EvilRules", "validate_config"]

__getattr__ = lazy_names(__name__, {
    "EvilParams": "companion.games.evil.params",
    "validate_config": "companion.games.evil.params",
    "RULES": "companion.games.evil.rules",
    "EvilRules": "companion.games.evil.rules",
})
