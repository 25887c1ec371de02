"""The server's work off the event loop: the computer's decisions and the analyses in the worker
processes, the password hashing in the threads."""
