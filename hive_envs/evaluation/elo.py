"""Maximum-likelihood Elo ratings from match results, with one player anchored at 0.

Model: P(i scores against j) = 1 / (1 + 10 ** ((r_j - r_i) / 400)); a draw counts as half a
win for each side. The log-likelihood is concave; Newton's method finds its maximum. To keep
ratings finite when a player wins (or loses) every game, each player also gets one virtual
draw against the anchor (a weak prior that moves a rating by little once there are hundreds
of real games). Standard errors come from the inverse of the observed information.
"""

from __future__ import annotations

import math

import numpy as np

SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of odds


def fit_elo(
    names: list[str], matches: list[tuple[str, str, float, int]], anchor: str, iterations: int = 100
) -> dict[str, tuple[float, float]]:
    """`matches`: (player, opponent, player's score in [0, games], games). Returns
    {name: (elo, standard_error)} with the anchor at (0, 0)."""
    index = {name: i for i, name in enumerate(names)}
    if anchor not in index:
        raise ValueError(f"anchor {anchor!r} is not among the players {names}")
    k = len(names)
    games = np.zeros((k, k))
    score = np.zeros((k, k))  # score[i, j]: points i took from j
    for player, opponent, points, count in matches:
        i, j = index[player], index[opponent]
        games[i, j] += count
        games[j, i] += count
        score[i, j] += points
        score[j, i] += count - points
    a = index[anchor]
    for i in range(k):
        if i != a:  # the virtual draw against the anchor
            games[i, a] += 1
            games[a, i] += 1
            score[i, a] += 0.5
            score[a, i] += 0.5
    free = [i for i in range(k) if i != a]
    theta = np.zeros(k)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i scores vs j
        gradient = (score - games * p).sum(axis=1)
        weight = games * p * (1 - p)
        hessian = weight.copy()
        np.fill_diagonal(hessian, 0.0)
        hessian[np.diag_indices(k)] = -weight.sum(axis=1)
        h = hessian[np.ix_(free, free)]
        step = np.linalg.solve(h, gradient[free])
        theta[free] -= np.clip(step, -2.0, 2.0)
        if np.abs(step).max() < 1e-10:
            break
    covariance = np.linalg.inv(-h)
    errors = np.zeros(k)
    errors[free] = np.sqrt(np.diag(covariance))
    return {name: (float(theta[i] * SCALE), float(errors[i] * SCALE)) for name, i in index.items()}
