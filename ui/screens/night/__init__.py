"""Game night: roster, history, statistics, export, settings."""
