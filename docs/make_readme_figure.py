"""Draws docs/vww_96_int8_plans.png, the README's picture: the arena plan
of vww_96_int8 by TFLM's greedy planner next to the proven-optimal plan,
with tflm_arena.viz. Run from anywhere: python docs/make_readme_figure.py"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import tflm_arena as ta

HERE = Path(__file__).resolve().parent
MODEL = HERE.parent.parent / "shared" / "models" / "vww_96_int8.tflite"

m = ta.Model.load(MODEL)
greedy, best = m.plan(), m.plan(strategy="optimal")
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
ta.viz.plot_comparison(
    greedy, best, axes, model=m, labels=("TFLM greedy", "tflm_arena, proven optimal")
)
fig.tight_layout()
out = HERE / "vww_96_int8_plans.png"
fig.savefig(out, dpi=80)
print(out, greedy.arena_bytes, best.arena_bytes, best.optimal)
