"""What the tests and the benchmarks both stand on, and nothing of the game: a real PostgreSQL
started in a temporary directory (postgres.py). Never shipped (pyproject.toml's packages leave it
out); bench/ imports it rather than the tests."""
