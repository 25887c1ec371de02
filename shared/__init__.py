"""Kahuna's pure rules engine: board, game state, legal actions, views and records.

Nothing in this package does I/O: the server and the client are shells around it. It imports
nothing of protocol/, server/ or client/. The one clock it reads is the searches' time budget
(shared.search, shared.ismcts), and only when no iteration budget is given.

The rules
    types.py         seats, phases, the options a game is created with
    board.py         the islands, the lines between them, bit-mask helpers
    control.py       the majority rule on bit masks (who holds which island)
    actions.py       the actions and their notation
    legality.py      which actions the player to move may take (from a TurnContext)
    scoring.py       what a scoring gives, who wins at the end
    events.py        what an action caused, in order
    results.py       a game's result as codes, and its English wording
    randomness.py    where shuffles come from (seeded, secure, recorded)
    history.py       the game as an action log (moves, chance outcomes, endings), its stored form
    position.py      set-up positions and their checks
    game.py          Game: the state machine (legal actions, apply, undo, endings, from_log)
    views.py         what each seat and each spectator may see
    record.py        game records: the text format, written, read and replayed

The computer opponent (ai imports search; nothing imports back)
    ai.py            choose_action: the levels (easy is the greedy player, here)
    evaluation.py    the position evaluation and its weights
    search.py        the levels' search: whole-turn plans compared in samples (plan_action)
    replies.py       the opponent's greedy replies in those samples
    sample_value.py  what a sampled position is worth (the search's leaves)
    sampling.py      hidden states consistent with one seat's view
    playout.py       Sim: the whole rules on integer-coded actions, fast, for samples
    ismcts.py        an information-set tree search, kept for comparison; no level uses it
"""
