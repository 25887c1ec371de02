"""The operator's command line: `kahuna-server` (server/cli/serve.py, also `python -m server`),
its parser, --help and --config made from the settings' declarations, and
`kahuna-server accounts`."""
