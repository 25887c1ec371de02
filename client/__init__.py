"""The terminal client (run it with `kahuna-client`, see --help): protocol version 2 over
WebSockets, a prompt-toolkit full-screen application, in English, German or Italian.

What it knows and works out (no I/O)
    state.py          ClientState: everything the client knows, changed by each server message
    table.py          what a table shows besides the game: clocks, offers, level, hints
    table_form.py     the options of a new table, and the CreateTable they make
    commands.py       what a typed line means, whether it is legal, how to complete it
    command_words.py  the command words in the player's language, read to and from notation
    words.py          the game's sentences in the player's language, from codes
    eventlog.py       events told in words;  i18n.py  gettext and the player's language
    hint.py           `hint`: what the normal computer level would play now, and why

Drawing (pure: state and a size in, a canvas out)
    canvas.py         a grid of styled characters, and the text layout the screens share
    render.py         the game screen
    board_map.py      the board map;  map_layout.py  where its labels and lines go
    side_panel.py     round, players, clocks, turn, cards, the log
    game_over.py      the side panel at the end of a game
    status_lines.py   the header and the message lines
    help_screen.py    the rules in brief, the commands and keys
    lobby_screen.py   the lobby: the tables, live, and the new-table form
    themes.py         the colours for a dark or a light terminal

The application (prompt-toolkit)
    app.py            KahunaApp: the lobby and game screens, wired together
    screen.py         what the full-screen views share: the window, the set-up, Tab
    keys.py           the key bindings;  command_line.py  Tab, Enter and "resign?"
    table_requests.py resign, draw, claim, rematch, from a typed line
    lobby_actions.py  join, watch, create, leave
    saving.py         `save`: the record, or the transcript of a game under way

The connection and the run
    client.py         the application and its connection to one server together
    connection.py     the WebSocket session: hello, messages both ways, reconnecting
    seats.py          the seats held, kept in a file to be taken back with their tokens
    discovery.py      servers on the LAN (DNS-SD);  picker.py  the screen to pick one
    local_server.py   --local: a server inside the client (the only import of server/)
    __main__.py       the command line

Other programs
    replay.py         --replay FILE: a record stepped through on the board screen
    tutorial.py       --tutorial: the rules taught on the board;  lessons.py  its lessons
    record_tool.py    kahuna-record: records from the command line
"""
