"""`python -m client`: the same as kahuna-client (client/cli/play.py)."""

import sys

from client.cli.play import main

if __name__ == "__main__":
    sys.exit(main())
