"""A self-signed certificate made with openssl, for the tests of TLS on both sides (the server's
--tls-cert, the client's wss:// and its refusals)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def self_signed(folder: Path, name: str, san: str) -> tuple[Path, Path]:
    """A certificate of `name` (its common name) for these subject alternative names, signed by
    itself and good for a day, and its key: folder/NAME.pem and folder/NAME.key."""
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={name}", "-addext", f"subjectAltName={san}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key
