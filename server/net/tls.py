"""The server's TLS (wss:// and https://, with --tls-cert and --tls-key): TLS 1.2 or newer, and
in TLS 1.2 only the suites with forward secrecy (ECDHE) and authenticated encryption (AES-GCM,
ChaCha20-Poly1305), as Mozilla's "intermediate" configuration has them: no CBC suite, whose
MAC-then-encrypt construction is the one padding-oracle attacks (Lucky Thirteen) live on, and no
finite-field DHE. TLS 1.3's suites are all AEAD and stay OpenSSL's."""

from __future__ import annotations

import ssl

TLS12_CIPHERS = "ECDHE+AESGCM:ECDHE+CHACHA20"


def server_context(cert: str, key: str | None) -> ssl.SSLContext:
    """A context for the server side with the certificate chain and its key loaded (an OSError
    or ssl.SSLError when they cannot be)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_ciphers(TLS12_CIPHERS)
    context.load_cert_chain(cert, key)
    return context
