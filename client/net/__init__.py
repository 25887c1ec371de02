"""The network: the WebSocket session to a server, the Kahuna servers on the LAN (DNS-SD), and the
server started inside the client for --local (the one place the client imports server/)."""
