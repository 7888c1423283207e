"""Make the table's three sounds, ``static/sounds/{deal,play,take}.wav``: short filtered noise,
shaped like a card flicked off a deck, snapped onto a table, and a pile swept up.

They are this project's own (generated here, seeded, so the files come out the same each
time), so no licence but the project's applies. Run ``python -m tools.sounds`` after a change.
"""

import math
import random
import struct
import wave
from pathlib import Path

RATE = 16_000
OUT = Path(__file__).resolve().parent.parent / "static" / "sounds"


def _noise(seconds: float, attack: float, decay: float, smooth: float, seed: int) -> list[float]:
    """Noise low-passed by ``smooth`` (0: none, near 1: dull), rising for ``attack`` seconds
    and fading with the time constant ``decay``."""
    rng = random.Random(seed)
    samples, level = [], 0.0
    for n in range(int(seconds * RATE)):
        t = n / RATE
        level = smooth * level + (1 - smooth) * rng.uniform(-1, 1)
        envelope = min(1.0, t / attack) * math.exp(-max(0.0, t - attack) / decay)
        samples.append(level * envelope)
    return samples


def _write(name: str, samples: list[float], volume: float) -> None:
    peak = max(abs(s) for s in samples) or 1.0
    frames = b"".join(struct.pack("<h", int(32767 * volume * s / peak)) for s in samples)
    with wave.open(str(OUT / f"{name}.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)


def main() -> None:
    """Write the three files."""
    OUT.mkdir(parents=True, exist_ok=True)
    _write("play", _noise(0.09, 0.002, 0.018, 0.35, seed=1), 0.7)
    deal = _noise(0.05, 0.001, 0.01, 0.2, seed=2)
    _write("deal", deal + [0.0] * int(0.03 * RATE) + deal, 0.5)
    _write("take", _noise(0.28, 0.06, 0.07, 0.8, seed=3), 0.6)


if __name__ == "__main__":
    main()
