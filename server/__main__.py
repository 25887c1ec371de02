"""`python -m server`: kahuna-server, whose command line is server/cli/serve.py."""

import sys

from server.cli.serve import main

if __name__ == "__main__":
    sys.exit(main())
