"""The fixed geography of the Kahuna board: twelve islands and their 27 connecting lines.

The lines were read off the printed Kosmos board (see docs/rules.md); islands and lines are
identified by small integers so that the engine can keep bridges and tokens in bit masks.
"""

from __future__ import annotations

ISLANDS: tuple[str, ...] = (
    "ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA",
    "GOLA", "HUNA", "IFFI", "JOJO", "KAHU", "LALE",
)  # fmt: skip
ISLAND_INDEX: dict[str, int] = {name: i for i, name in enumerate(ISLANDS)}

_LINE_NAMES: tuple[str, ...] = (
    "ALOA-BARI", "ALOA-DUDA", "ALOA-HUNA",
    "BARI-COCO", "BARI-DUDA", "BARI-ELAI", "BARI-FAAA",
    "COCO-FAAA", "COCO-GOLA", "COCO-KAHU",
    "DUDA-ELAI", "DUDA-HUNA",
    "ELAI-FAAA", "ELAI-HUNA", "ELAI-IFFI", "ELAI-JOJO",
    "FAAA-GOLA", "FAAA-JOJO",
    "GOLA-JOJO", "GOLA-KAHU",
    "HUNA-IFFI", "HUNA-LALE",
    "IFFI-JOJO", "IFFI-KAHU", "IFFI-LALE",
    "JOJO-KAHU",
    "KAHU-LALE",
)  # fmt: skip

# LINES[k] = (a, b) with a < b; the order above is alphabetical, so line k is stable.
LINES: tuple[tuple[int, int], ...] = tuple(
    (ISLAND_INDEX[a], ISLAND_INDEX[b]) for a, b in (name.split("-") for name in _LINE_NAMES)
)
LINE_INDEX: dict[tuple[int, int], int] = {}
for _k, (_a, _b) in enumerate(LINES):
    LINE_INDEX[(_a, _b)] = _k
    LINE_INDEX[(_b, _a)] = _k

NUM_ISLANDS = len(ISLANDS)
NUM_LINES = len(LINES)
ALL_LINES = (1 << NUM_LINES) - 1  # every line, as a bit mask

# ISLAND_LINES[i]: indices of the lines touching island i; ISLAND_MASK[i]: the same as bits.
ISLAND_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k, (a, b) in enumerate(LINES) if i in (a, b)) for i in range(NUM_ISLANDS)
)
ISLAND_MASK: tuple[int, ...] = tuple(sum(1 << k for k in lines) for lines in ISLAND_LINES)
DEGREE: tuple[int, ...] = tuple(len(lines) for lines in ISLAND_LINES)
# Control needs more than half of an island's lines.
NEEDED: tuple[int, ...] = tuple(d // 2 + 1 for d in DEGREE)
# LINE_ISLAND_MASK[k]: bit mask (over islands) of the two ends of line k.
LINE_ENDS_MASK: tuple[int, ...] = tuple((1 << a) | (1 << b) for a, b in LINES)

# Approximate island centres on the photographed board, as fractions of width and height.
POSITIONS: dict[str, tuple[float, float]] = {
    "ALOA": (0.19, 0.34), "BARI": (0.52, 0.31), "COCO": (0.84, 0.35),
    "DUDA": (0.29, 0.45), "ELAI": (0.48, 0.50), "FAAA": (0.70, 0.47),
    "GOLA": (0.79, 0.53), "HUNA": (0.27, 0.66), "IFFI": (0.47, 0.69),
    "JOJO": (0.66, 0.62), "KAHU": (0.81, 0.69), "LALE": (0.46, 0.86),
}  # fmt: skip

BRIDGES_PER_PLAYER = 25
TOKENS_PER_PLAYER = 10
CARDS_PER_ISLAND = 2
HAND_LIMIT = 5
FACE_UP_SIZE = 3
DEAL_SIZE = 3
ROUNDS = 3  # two interim scorings, then the final turns and the final scoring


def line_name(line: int) -> str:
    a, b = LINES[line]
    return f"{ISLANDS[a]}-{ISLANDS[b]}"


def other_end(line: int, island: int) -> int:
    a, b = LINES[line]
    return b if a == island else a


class BoardNameError(ValueError):
    """A name that is not an island or not a line of the board."""


def parse_island(text: str) -> int:
    try:
        return ISLAND_INDEX[text.strip().upper()]
    except KeyError:
        raise BoardNameError(f"{text!r} is not an island") from None


def parse_line(text: str) -> int:
    """Parse 'HUNA-ELAI' (either order) into a line index."""
    parts = text.strip().upper().split("-")
    if len(parts) != 2:
        raise BoardNameError(f"{text!r} is not a line; write two islands like HUNA-ELAI")
    a, b = parse_island(parts[0]), parse_island(parts[1])
    try:
        return LINE_INDEX[(a, b)]
    except KeyError:
        raise BoardNameError(f"{ISLANDS[a]} and {ISLANDS[b]} are not connected") from None


def iter_bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def subsets(mask: int) -> list[int]:
    """Every subset of the bits of `mask`, `mask` itself first and 0 last."""
    out, sub = [], mask
    while True:
        out.append(sub)
        if not sub:
            return out
        sub = (sub - 1) & mask
