"""The client's command lines: kahuna-client (play.py; `python -m client` runs it too),
kahuna-record (record_tool.py), and the run that joins the screens to a connection (run.py)."""
