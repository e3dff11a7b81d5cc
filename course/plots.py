"""Plotting helpers shared by the chapters: one look for every loss curve and contour plot."""
import math

import matplotlib.pyplot as plt
import torch


def loss_curves(curves, ax=None, title=None, log=True, ylabel="loss"):
    """Draws {label: [loss per step]} on one axis; non-finite points are left out and marked in the legend."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    for label, losses in curves.items():
        finite = [v if math.isfinite(v) else float("nan") for v in losses]
        blew_up = len(finite) - sum(math.isfinite(v) for v in finite)
        ax.plot(range(len(finite)), finite, label=f"{label}" + (f" ({blew_up} non-finite)" if blew_up else ""))
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small")
    return ax


def contour_with_path(f, path, ax=None, extent=None, levels=20, title=None):
    """Contours of f(x, y) with a descent path (list of (x, y)) drawn on top; the start is marked."""
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    if extent is None:
        reach = max(1.0, *(abs(v) for v in xs + ys if math.isfinite(v)))
        extent = (-reach, reach, -reach, reach)
    gx, gy = torch.meshgrid(torch.linspace(extent[0], extent[1], 120),
                            torch.linspace(extent[2], extent[3], 120), indexing="xy")
    ax.contour(gx.numpy(), gy.numpy(), f(gx, gy).numpy(), levels=levels, cmap="viridis", linewidths=0.8)
    ax.plot(xs, ys, "o-", color="crimson", markersize=3, linewidth=1)
    ax.plot(xs[:1], ys[:1], "s", color="black", label="start")
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect("equal")
    if title:
        ax.set_title(title)
    return ax


def bars(values, ax=None, title=None, ylabel=None, log=False):
    """A bar chart of {label: value}."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3))
    ax.bar(list(values), list(values.values()), color="steelblue")
    if log:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel or "")
    if title:
        ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=30)
    return ax
