"""The client's small files in the user's state directory: the seats it holds, the login tokens,
the servers' other addresses and the new-table form's last choices."""
