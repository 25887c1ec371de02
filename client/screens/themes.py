"""The colours: the style classes the drawing uses ("class:white") for a dark or a light
terminal background. Every distinction they make is also made by a character or by bold or
reverse video, so that monochrome terminals and NO_COLOR lose nothing."""

from __future__ import annotations

from prompt_toolkit.styles import Style

DARK: dict[str, str] = {
    "header": "bg:#005f87 #ffffff",
    "brand": "bold",
    "conn.bad": "bg:#af0000 #ffffff bold",
    "free": "#808080",
    "white": "bold #ffffff",
    "black": "bold #ff8700",
    "token": "reverse",
    "bridge": "bold",
    "highlight": "reverse",
    "recent": "underline",
    "incard": "underline",
    "island": "bold",
    "count": "#8a8a8a",
    "title": "bold",
    "label": "#87afd7",
    "dim": "#8a8a8a",
    "key": "bold #5fafff",
    "card": "bold",
    "you": "bold #5fff5f",
    "arrow": "bold",
    "points": "bold",
    "frame": "#585858",
    "value": "bold",
    "selected": "reverse",
    "log.chat": "#5fd7ff",
    "log.info": "#8a8a8a",
    "log.error": "#ff5f5f",
    "log.you": "bold",
    "msg.error": "bold #ff5f5f",
    "msg.you": "bold #5fff5f",
    "msg.ok": "#5fff5f",
    "clock.run": "bold",
    "clock.low": "bold #ffffff bg:#af0000",
    "prompt": "bold",
    "hints": "reverse",
}
# A light background: no white or pale text on it; White's pieces are dark on a light grey.
LIGHT: dict[str, str] = {
    **DARK,
    "free": "#767676",
    "white": "bold #000000 bg:#d0d0d0",
    "black": "bold #af5f00",
    "count": "#6c6c6c",
    "label": "#005f87",
    "dim": "#6c6c6c",
    "key": "bold #005faf",
    "you": "bold #008700",
    "frame": "#9e9e9e",
    "log.chat": "#005f87",
    "log.info": "#6c6c6c",
    "log.error": "#af0000",
    "msg.error": "bold #af0000",
    "msg.you": "bold #008700",
    "msg.ok": "#008700",
}
THEMES: dict[str, dict[str, str]] = {"dark": DARK, "light": LIGHT}


def style_for(theme: str) -> Style:
    return Style.from_dict(THEMES.get(theme, DARK))
