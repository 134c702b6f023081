"""Pr. Evil's screens."""
