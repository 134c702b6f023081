"""The `companion` command and its subcommands: what runs outside the touch screen
(installing, checking a config or the journal)."""
