"""The server's codes and what they say, in English: the catalogue's keys, one table per kind
of code (refusals, account refusals, closings, leavings, the moderation log's actions). The
terminal client translates them where it shows them (client/language/words.py); the page gets
the same tables in web/code-words.mjs (catalogue.web_tables) and translates them with the same
catalogue.
"""

from __future__ import annotations

from catalogue import N_

# Why the rules refuse an action (shared.legality.refusal; version 2's error.reason and
# error.params), and the refusals of offers and claims.
REFUSALS: dict[str, str] = {
    "game_over": N_("the game is over"),
    "undo_handicap": N_("handicap bridges cannot be taken back"),
    "nothing_to_undo": N_("there is nothing to take back: you have made no play this turn"),
    "handicap_first": N_(
        "{seat} first places {n} more handicap bridge(s), like 'handicap ALOA-BARI'"
    ),
    "line_taken": N_("{line} already has a bridge"),
    "handicap_over": N_("handicap bridges are placed only before the first turn"),
    # "the", not "a": "a ALOA card", "a ELAI card" (the wire's English keeps its "a", below)
    "card_not_on_line": N_("the {card} card places a bridge only on a line from {card}"),
    "no_such_card": N_("you have no {card} card"),
    "no_bridges_left": N_("you have no bridges left to place"),
    "variant1_controlled": N_(
        "Variant 1: no bridge on {line}, an island at its end is your opponent's"
    ),
    "variant1_stays": N_(
        "Variant 1: no bridge on {line}, an island at its end stays your opponent's"
    ),
    "remove_cards": N_("to remove {line} both cards must show one of its two islands"),
    "no_opponent_bridge": N_("there is no opponent's bridge on {line}"),
    "cards_not_held": N_("you do not hold {cards}"),
    "rebuild_variant1": N_(
        "rebuilding without a card is Variant 1 only; play a third card instead"
    ),
    "end_not_final": N_(
        "a turn ends by drawing a card or abstaining ('draw', 'take X', 'abstain')"
    ),
    "final_no_draw": N_("no drawing in the final turn; play your cards, then 'end'"),
    "abstain_twice": N_("you may not abstain right after your opponent abstained; draw a card"),
    "hand_full_draw": N_("five cards in hand: play or discard a card first, then draw"),
    "hand_full": N_("five cards in hand: play or discard first, or abstain"),
    "not_face_up": N_("there is no face-up {card} card"),
    "pile_empty": N_("the draw pile is empty; take a face-up card"),
    # offers and claims (no_offer, cannot_claim)
    "no_draw_offer": N_("there is no draw offer to decline"),
    "offer_stands": N_("your offer stands; the opponent decides"),
    "rematch_started": N_("the rematch has started already"),
    "tournament_game": N_("a tournament's game has no rematch"),
    "opponent_left": N_("your opponent has left"),
    "opponent_away": N_("your opponent is not connected"),
    "claim_wait": N_("your opponent may still come back; you may claim in {seconds} s"),
    "claim_not_yet": N_("you may claim when your opponent is gone or idle past the limit"),
}

# The rules engine's English for its refusals (shared.legality), the error message of every
# version: the sentences above filled in, but for Variant 1's two and card_not_on_line in the
# words version-1 clients were always sent (and the terminal client reads back,
# client.language.words.rules_words), and an action that is none (a bug of the caller: no client
# is told it in its words).
RULES_ENGLISH: dict[str, str] = {
    **{
        code: sentence
        for code, sentence in REFUSALS.items()
        if code not in ("variant1_controlled", "variant1_stays", "card_not_on_line")
    },
    "card_not_on_line": "a {card} card places a bridge only on a line from {card}",
    "variant1_controlled": (
        "Variant 1: no bridge on {line}, an island at its end is under your opponent's control"
    ),
    "variant1_stays": (
        "Variant 1: no bridge on {line}, an island at its end stays under your opponent's control"
    ),
    "not_an_action": "{action} is not an action",
}

# Version 3's refusals with a reason (accounts, challenges) and version 4's (tournaments):
# "code/reason".
ACCOUNT_REASONS: dict[str, str] = {
    "bad_account_name/too_short": N_("that name is too short to register (2 at least)"),
    "bad_account_name/too_long": N_("that name is too long to register (20 at most)"),
    "bad_account_name/bad_characters": N_(
        "a registered name has letters, digits, spaces, _ and - only"
    ),
    "bad_account_name/only_digits": N_("a registered name is not only digits"),
    "bad_account_name/mixed_scripts": N_(
        "a registered name keeps to one alphabet: Latin letters mixed with Cyrillic or Greek"
        " ones pass for another name"
    ),
    "bad_account_name/reserved": N_("that name is reserved"),
    "bad_password/too_short": N_("the password is too short (8 characters at least)"),
    "bad_password/too_long": N_("the password is too long"),
    "bad_password/too_simple": N_("the password is too simple"),
    "bad_password/wrong_password": N_("the old password is wrong"),
    "bad_challenge/self": N_("you cannot challenge yourself"),
    "bad_challenge/ignored": N_("that player does not take your challenges"),
    "bad_challenge/bad_terms": N_("those terms make no game"),
    "bad_challenge/away": N_(
        "the challenger is not connected: a game without days needs both players"
    ),
    "too_many_challenges/wait": N_(
        "too many challenges and withdrawals in a short time: wait a little"
    ),
    "bad_challenge/new_account": N_("a new account may challenge a few minutes after it was made"),
    "chat_rate_limited/new_account": N_(
        "a new account may speak in the lobby a few minutes after it was made"
    ),
    "login_throttled/busy": N_("the server is checking many passwords: try again in a moment"),
    "login_throttled/registrations": N_(
        "too many accounts were made from your address lately: try again later"
    ),
    "login_throttled/mail": N_("too many mails were asked for lately: try again in an hour"),
    # version 4's tournaments (bad_terms is not here: its message says which term)
    "bad_tournament/not_director": N_("only the tournament's director may do that"),
    "bad_tournament/started": N_("the tournament has started"),
    "bad_tournament/too_few_players": N_("a tournament needs two players to start"),
    "bad_tournament/full": N_("the tournament is full"),
    "bad_tournament/already_joined": N_("you are in this tournament already"),
    "bad_tournament/round_robin_started": N_("a round-robin cannot be joined once started"),
    "bad_tournament/no_round_left": N_("no round is left to join"),
    "bad_tournament/not_joined": N_("you are not in this tournament"),
    "bad_tournament/already_withdrawn": N_("you have withdrawn already"),
    "bad_tournament/tournament_finished": N_("the tournament is over"),
    # version 4's deleted accounts
    "cannot_delete/playing": N_(
        "a game of yours is under way: finish or resign it before deleting your account"
    ),
    "cannot_delete/tournament": N_(
        "you play in a tournament under way, or direct one not finished: withdraw (or let it"
        " finish) before deleting your account"
    ),
    "name_registered/deleted_recently": N_(
        "that name belonged to an account deleted lately: it is free again in {days} day(s)"
    ),
    # version 4's moderation
    "bad_moderation/no_reason": N_("give a reason (at most 200 characters)"),
    "bad_moderation/no_note": N_("say how the report was dealt with (at most 200 characters)"),
    "bad_moderation/bad_duration": N_(
        "give a time: a mute from 1 minute to 30 days, a ban from 1 minute to 365 days"
    ),
    "bad_moderation/bad_network": N_("that is not an address or a network (like 203.0.113.0/24)"),
    "bad_moderation/self": N_("you cannot do that to yourself"),
    "bad_moderation/moderator": N_("another moderator's account is the operator's to change"),
    "bad_moderation/already_disabled": N_("that account is disabled already"),
    "bad_moderation/not_disabled": N_("that account is not disabled"),
    "bad_moderation/not_muted": N_("that player is not muted"),
    "bad_moderation/not_banned": N_("that address or network is not banned"),
    "bad_moderation/no_connection": N_(
        "that player has no connection open, so no address of theirs is known: ask the operator"
    ),
    "bad_moderation/not_banned_player": N_("no ban of that player's addresses is in force"),
    "bad_moderation/no_such_report": N_("no open report has that number"),
    "bad_moderation/already_reported": N_("your report of that player is open already"),
    "bad_moderation/too_many_reports": N_("you have as many open reports as you may"),
    "bad_moderation/tournament_finished": N_("that tournament is over already"),
    "bad_moderation/already_director": N_("that player directs the tournament already"),
    "bad_moderation/disabled": N_("that account is disabled: it cannot direct a tournament"),
}

# Version 3's refusals by their code alone (accounts, challenges, the archive); a {field} is
# filled from the error's params.
ACCOUNT_ERRORS: dict[str, str] = {
    "no_accounts": N_("this server keeps no accounts"),
    "name_registered": N_("that name is registered already"),
    "bad_login": N_("no account has that name and password"),
    "login_required": N_("log in first (register NAME or login NAME)"),
    "already_logged_in": N_("you are logged in already"),
    "no_such_player": N_("no player has that name"),
    "no_such_challenge": N_("there is no such challenge for you"),
    "too_many_challenges": N_("you have as many challenges waiting as you may"),
    "no_such_game": N_("there is no such finished game"),
    "login_throttled": N_("too many failed logins: try again in {seconds} s"),
    "no_such_tournament": N_("no tournament has this id"),
    # version 4's e-mail
    "no_mail": N_("this server sends no e-mail"),
    "bad_email": N_("that is no e-mail address"),
    "bad_code": N_("that code is wrong, used or expired"),
    "not_moderator": N_("only the server's moderators may do that"),
    "muted": N_("a moderator muted you until {until}"),
}

# The server's other refusals, by code. Not here, since the message carries the detail:
# illegal_action, no_offer, cannot_claim, bad_options.
ERRORS: dict[str, str] = {
    "rate_limited": N_("too many messages at once; that one was dropped"),
    "server_full": N_("the server is full; try again later"),
    "too_many_connections": N_("too many connections from this address"),
    "version_mismatch": N_("the server speaks another protocol version"),
    "bad_name": N_("the name is empty, too long or has control characters"),
    "internal_error": N_("the server failed to handle that; the position is sent again"),
    "no_such_table": N_("there is no such table (any more)"),
    "table_full": N_("both seats of that table are taken"),
    "seat_taken": N_("that seat is taken"),
    "already_at_table": N_("you are at that table already"),
    "not_at_table": N_("you are not at that table"),
    "bad_token": N_("that seat is no longer yours"),
    "too_many_tables": N_("the server (or this connection) has as many tables as it may"),
    "spectator_cannot_act": N_("spectators do not play"),
    "game_not_started": N_("the game has not started: both seats must be taken"),
    "game_over": N_("the game is over"),
    "not_your_turn": N_("it is not your turn"),
    "stale_version": N_("the position changed before your command arrived"),
    "chat_empty": N_("the chat message is empty"),
    "chat_too_long": N_("the chat message is too long"),
    "chat_rate_limited": N_("too many chat messages; that one was dropped"),
    "game_not_over": N_("the record is given once the game is over"),
    "address_banned": N_("your address is banned from this server"),
}

# Why a table closed (version 2's table_closed.code); {player} is a name.
CLOSINGS: dict[str, str] = {
    "nobody_seated": N_("nobody is seated"),
    "left_before_start": N_("{player} left before the game started"),
    "abandoned": N_("{player} did not come back"),
    "over_and_left": N_("the game is over and the players left"),
    "over": N_("the game is over"),
    "server_failed": N_("the server failed"),
    "made_room": N_("the server was full and needed the room"),
    "account_deleted": N_("a player deleted their account"),
    "closed_by_moderator": N_("a moderator closed the table"),
}

# Why a client is no longer at a table (version 2's left.code).
LEFT: dict[str, str] = {
    "reclaimed_elsewhere": N_("your seat was taken back from another connection"),
    "stopped_watching": N_("you stopped watching"),
    "gave_up_seat": N_("you gave up your seat"),
    "stepped_away": N_("you stepped away; your seat waits for you"),
}

# Who acted in a line of the moderation log when it was not a moderator (version 4's
# ModerationEntry.moderator, protocol/moderation_messages.py's OPERATOR): said as a role, so
# that it reads as no player's name.
MODERATORS: dict[str, str] = {
    "operator": N_("the operator"),
}

# A line of the moderation log (version 4's ModerationEntry.action), who did what to whom
# ({name}: to whom a tournament was given).
MODERATION_ACTIONS: dict[str, str] = {
    "mute": N_("{moderator} muted {target}"),
    "unmute": N_("{moderator} unmuted {target}"),
    "close_table": N_("{moderator} closed the table {target}"),
    "disable": N_("{moderator} disabled the account {target}"),
    "enable": N_("{moderator} enabled the account {target} again"),
    "ban": N_("{moderator} banned {target}"),
    "unban": N_("{moderator} lifted the ban on {target}"),
    "ban_player": N_("{moderator} banned the addresses of {target}"),
    "unban_player": N_("{moderator} lifted the ban on the addresses of {target}"),
    "close_tournament": N_("{moderator} ended the tournament {target}"),
    "hand_tournament": N_("{moderator} gave the tournament {target} to {name} to direct"),
    "close_report": N_("{moderator} closed report {target}"),
    "moderator": N_("{moderator} made {target} a moderator"),
    "moderator_revoked": N_("{moderator} took the moderator's rights from {target}"),
}
