"""Constants of the protocol that both ends need."""

DEFAULT_PORT = 8765  # the port a Kahuna server listens on unless told otherwise
