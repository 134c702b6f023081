"""Shared test helpers: Pr. Evil setups, state builders and digests."""
