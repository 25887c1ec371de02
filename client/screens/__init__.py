"""The full-screen views (the game, the lobby, the replay, the tutorial, the server picker), drawn
as styled text, their keys, and what the player does from them. They send through
client.model.sending.Send and import no sockets."""
