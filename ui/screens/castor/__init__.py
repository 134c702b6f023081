"""Le Castor en cavale's screens."""
