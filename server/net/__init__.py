"""The server's shell on the network: the asyncio server that feeds the core and carries out its
effects, the sockets and connections, the web page over HTTP, TLS, the announcement on the LAN."""
