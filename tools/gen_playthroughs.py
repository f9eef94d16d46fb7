"""Writes the golden OpenSpiel playthroughs of the canonical games (``make playthroughs``).

One file per canonical ruleset in ``tests/playthroughs/``, in OpenSpiel's playthrough format
(:mod:`open_spiel.python.algorithms.generate_playthrough`): a seeded random deal, every
state's observations, information states, tensors, legal actions and returns.
tests/test_spiel.py plays each file's actions again and compares the whole text.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CANONICAL = ("ombre", "quadrille", "quadrille-a-trois", "mediateur")
SEED = 1
OUT = ROOT / "tests" / "playthroughs"


def path_for(ruleset: str) -> Path:
    """Returns the golden playthrough file of a ruleset."""
    return OUT / f"ombre_workbench_{ruleset}.txt"


def main() -> int:
    from open_spiel.python.algorithms import generate_playthrough

    import engine.spiel  # registers the game

    OUT.mkdir(parents=True, exist_ok=True)
    for ruleset in CANONICAL:
        text = generate_playthrough.playthrough(
            engine.spiel.game_string(ruleset), action_sequence=None, seed=SEED
        )
        target = path_for(ruleset)
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old != text:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)} ({len(text):,} bytes)")
        else:
            print(f"{target.relative_to(ROOT)} is current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
