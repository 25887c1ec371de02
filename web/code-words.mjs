// Written by `make web-words` from the catalogue package (catalogue/): the server's
// codes, the endings and the log's sentences in English, the catalogue's keys
// (web/words.mjs translates them). Do not edit.

export const REFUSALS = {
  "game_over": "the game is over",
  "undo_handicap": "handicap bridges cannot be taken back",
  "nothing_to_undo": "there is nothing to take back: you have made no play this turn",
  "handicap_first": "{seat} first places {n} more handicap bridge(s), like 'handicap ALOA-BARI'",
  "line_taken": "{line} already has a bridge",
  "handicap_over": "handicap bridges are placed only before the first turn",
  "card_not_on_line": "a {card} card places a bridge only on a line from {card}",
  "no_such_card": "you have no {card} card",
  "no_bridges_left": "you have no bridges left to place",
  "variant1_controlled": "Variant 1: no bridge on {line}, an island at its end is your opponent's",
  "variant1_stays": "Variant 1: no bridge on {line}, an island at its end stays your opponent's",
  "remove_cards": "to remove {line} both cards must show one of its two islands",
  "no_opponent_bridge": "there is no opponent's bridge on {line}",
  "cards_not_held": "you do not hold {cards}",
  "rebuild_variant1": "rebuilding without a card is Variant 1 only; play a third card instead",
  "end_not_final": "a turn ends by drawing a card or abstaining ('draw', 'take X', 'abstain')",
  "final_no_draw": "no drawing in the final turn; play your cards, then 'end'",
  "abstain_twice": "you may not abstain right after your opponent abstained; draw a card",
  "hand_full_draw": "five cards in hand: play or discard a card first, then draw",
  "hand_full": "five cards in hand: play or discard first, or abstain",
  "not_face_up": "there is no face-up {card} card",
  "pile_empty": "the draw pile is empty; take a face-up card",
  "no_draw_offer": "there is no draw offer to decline",
  "offer_stands": "your offer stands; the opponent decides",
  "rematch_started": "the rematch has started already",
  "tournament_game": "a tournament's game has no rematch",
  "opponent_left": "your opponent has left",
  "opponent_away": "your opponent is not connected",
  "claim_wait": "your opponent may still come back; you may claim in {seconds} s",
  "claim_not_yet": "you may claim when your opponent is gone or idle past the limit"
};

export const ACCOUNT_REASONS = {
  "bad_account_name/too_short": "that name is too short to register (2 at least)",
  "bad_account_name/too_long": "that name is too long to register (20 at most)",
  "bad_account_name/bad_characters": "a registered name has letters, digits, spaces, _ and - only",
  "bad_account_name/only_digits": "a registered name is not only digits",
  "bad_account_name/mixed_scripts": "a registered name keeps to one alphabet: Latin letters mixed with Cyrillic or Greek ones pass for another name",
  "bad_account_name/reserved": "that name is reserved",
  "bad_password/too_short": "the password is too short (8 characters at least)",
  "bad_password/too_long": "the password is too long",
  "bad_password/too_simple": "the password is too simple",
  "bad_password/wrong_password": "the old password is wrong",
  "bad_challenge/self": "you cannot challenge yourself",
  "bad_challenge/ignored": "that player does not take your challenges",
  "bad_challenge/bad_terms": "those terms make no game",
  "bad_challenge/away": "the challenger is not connected: a game without days needs both players",
  "too_many_challenges/wait": "too many challenges and withdrawals in a short time: wait a little",
  "bad_challenge/new_account": "a new account may challenge a few minutes after it was made",
  "chat_rate_limited/new_account": "a new account may speak in the lobby a few minutes after it was made",
  "login_throttled/busy": "the server is checking many passwords: try again in a moment",
  "login_throttled/registrations": "too many accounts were made from your address lately: try again later",
  "bad_tournament/not_director": "only the tournament's director may do that",
  "bad_tournament/started": "the tournament has started",
  "bad_tournament/too_few_players": "a tournament needs two players to start",
  "bad_tournament/full": "the tournament is full",
  "bad_tournament/already_joined": "you are in this tournament already",
  "bad_tournament/round_robin_started": "a round-robin cannot be joined once started",
  "bad_tournament/no_round_left": "no round is left to join",
  "bad_tournament/not_joined": "you are not in this tournament",
  "bad_tournament/already_withdrawn": "you have withdrawn already",
  "bad_tournament/tournament_finished": "the tournament is over",
  "cannot_delete/playing": "a game of yours is under way: finish or resign it before deleting your account",
  "cannot_delete/tournament": "you play in a tournament under way, or direct one not finished: withdraw (or let it finish) before deleting your account",
  "name_registered/deleted_recently": "that name belonged to an account deleted lately: it is free again in {days} day(s)"
};

export const ACCOUNT_ERRORS = {
  "no_accounts": "this server keeps no accounts",
  "name_registered": "that name is registered already",
  "bad_login": "no account has that name and password",
  "login_required": "log in first (register NAME or login NAME)",
  "already_logged_in": "you are logged in already",
  "no_such_player": "no player has that name",
  "no_such_challenge": "there is no such challenge for you",
  "too_many_challenges": "you have as many challenges waiting as you may",
  "no_such_game": "there is no such finished game",
  "login_throttled": "too many failed logins: try again in {seconds} s",
  "no_such_tournament": "no tournament has this id"
};

export const ERRORS = {
  "rate_limited": "too many messages at once; that one was dropped",
  "server_full": "the server is full; try again later",
  "too_many_connections": "too many connections from this address",
  "version_mismatch": "the server speaks another protocol version",
  "bad_name": "the name is empty, too long or has control characters",
  "internal_error": "the server failed to handle that; the position is sent again",
  "no_such_table": "there is no such table (any more)",
  "table_full": "both seats of that table are taken",
  "seat_taken": "that seat is taken",
  "already_at_table": "you are at that table already",
  "not_at_table": "you are not at that table",
  "bad_token": "that seat is no longer yours",
  "too_many_tables": "the server (or this connection) has as many tables as it may",
  "spectator_cannot_act": "spectators do not play",
  "game_not_started": "the game has not started: both seats must be taken",
  "game_over": "the game is over",
  "not_your_turn": "it is not your turn",
  "stale_version": "the position changed before your command arrived",
  "chat_empty": "the chat message is empty",
  "chat_too_long": "the chat message is too long",
  "chat_rate_limited": "too many chat messages; that one was dropped",
  "game_not_over": "the record is given once the game is over"
};

export const CLOSINGS = {
  "nobody_seated": "nobody is seated",
  "left_before_start": "{player} left before the game started",
  "abandoned": "{player} did not come back",
  "over_and_left": "the game is over and the players left",
  "over": "the game is over",
  "server_failed": "the server failed",
  "made_room": "the server was full and needed the room",
  "account_deleted": "a player deleted their account"
};

export const REASONS = {
  "points": "more points",
  "final": "tied on points, more in the final scoring",
  "bridges": "tied on points, more bridges on the board",
  "tie": "tied on points and bridges: no winner",
  "no_bridges": "{seat} has no bridge on the board",
  "agreed": "draw agreed",
  "resigned": "{seat} resigned",
  "time": "{seat} ran out of time",
  "forfeit": "{seat} forfeited",
  "neither": "neither player has a bridge on the board"
};

export const EVENTS = {
  "bridge_placed": "{seat} placed a bridge on {line} with {card}",
  "bridge_placed_free": "{seat} placed a free bridge on {line}",
  "bridge_removed": "{by} removed {seat}'s bridge {line} with {cards}",
  "bridge_removed_alone": "{seat}'s bridge {line} was removed",
  "token_placed": "{seat} won {island}",
  "token_removed": "{seat} lost {island}",
  "card_discarded": "{seat} discarded {card}",
  "card_discarded_open": "{seat} discarded the open card {card}",
  "card_discarded_hidden": "{seat} discarded a card face down",
  "card_taken": "{seat} took {card} from the face-up row",
  "card_taken_replaced": "{seat} took {card} from the face-up row; {new} turned up",
  "card_drawn": "{seat} drew {card} from the pile",
  "card_drawn_hidden": "{seat} drew a card from the pile",
  "abstained": "{seat} abstained from drawing",
  "turn_ended": "{seat} to move",
  "turn_ended_last": "{seat}'s turn ended",
  "round_scored": "{scoring}: tokens White {wt}, Black {bt}; points White +{wp}, Black +{bp}",
  "round_scoring": "Scoring of round {round}",
  "final_scoring": "Final scoring",
  "reshuffled": "The discard pile was shuffled: {count} cards to draw, face up {row}",
  "final_turns": "The cards are out: one last turn each, {seat} first",
  "game_won": "Game over, {seat} wins ({reason}); White {w}, Black {b}",
  "game_drawn": "Game over, a draw ({reason}); White {w}, Black {b}",
  "undone": "{seat} took back {play}",
  "undone_hidden": "{seat} took back a card discarded face down"
};

export const GAME_OVER_NOTES = {
  "line": "Your game against {name} at table {table} is over: {how}.",
  "won/forfeit": "{name} forfeited, you won",
  "lost/forfeit": "you forfeited, {name} won",
  "won/time": "{name} ran out of time, you won",
  "lost/time": "you ran out of time, {name} won",
  "won/resigned": "{name} resigned, you won",
  "lost/resigned": "you resigned, {name} won",
  "won": "you won",
  "lost": "{name} won",
  "drawn": "a draw",
  "unknown": "its table shows the result"
};
