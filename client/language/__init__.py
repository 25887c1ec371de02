"""The client's words in the player's language (gettext over catalogue/locale), made at the
edge from codes: the sentences of the log, the endings, the refusals, the command words."""
