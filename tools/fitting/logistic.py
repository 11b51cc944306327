"""L2-regularised logistic regression with sign constraints, small and deterministic.

The detector has a few dozen named signals and a few hundred labelled silences, a few dozen
of them pivots: a model that small is fitted exactly by Newton's method, with no library
beyond numpy. Some signals can only count one way by their definition (the agent asking
what to do instead of acting can never make a pivot likelier): their weights are held at
or on the right side of zero (`signs`), which also keeps a few labels from flipping them.
The silence kinds are one-hot and carry the intercept; they are not penalised.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def fit(
    x: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray,
    penalty: float,
    signs: Sequence[int],
    free: Sequence[bool],
    iterations: int = 100,
    center: np.ndarray | None = None,
) -> np.ndarray:
    """Coefficients minimising the weighted log loss plus `penalty`/2 × |beta|² (over the
    penalised columns), with beta[j] ≥ 0 where signs[j] > 0 and ≤ 0 where signs[j] < 0.

    `free[j]` marks columns that are not penalised (the one-hot silence kinds). Projected
    Newton: the coefficients held at a bound whose gradient pushes outward stay there, the
    others take a Newton step, clipped back into bounds with a backtracking line search.

    With `center`, the penalty pulls towards those coefficients instead of zero: a signal
    the data barely speak to keeps the value it had there (a prior fitted elsewhere).
    """
    n, d = x.shape
    sign = np.asarray(signs, dtype=float)
    pen = np.array([0.0 if f else penalty for f in free])
    c = np.zeros(d) if center is None else np.asarray(center, dtype=float)
    beta = c.copy()

    def loss(b: np.ndarray) -> float:
        z = x @ b
        shift = b - c
        return float(
            np.sum(weights * (np.logaddexp(0.0, z) - y * z)) + 0.5 * np.sum(pen * shift * shift)
        )

    def clip(b: np.ndarray) -> np.ndarray:
        out = b.copy()
        out[(sign > 0) & (out < 0)] = 0.0
        out[(sign < 0) & (out > 0)] = 0.0
        return out

    current = loss(beta)
    for _ in range(iterations):
        z = x @ beta
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (weights * (p - y)) + pen * (beta - c)
        held = ((sign > 0) & (beta <= 0) & (grad > 0)) | ((sign < 0) & (beta >= 0) & (grad < 0))
        active = ~held
        if not active.any():
            break
        h = (x[:, active].T * (weights * p * (1 - p))) @ x[:, active]
        h += np.diag(pen[active]) + 1e-9 * np.eye(int(active.sum()))
        step = np.zeros(d)
        step[active] = np.linalg.solve(h, grad[active])
        t = 1.0
        while True:
            candidate = clip(beta - t * step)
            value = loss(candidate)
            if value <= current - 1e-12 or t < 1e-6:
                break
            t *= 0.5
        if current - value < 1e-10:
            beta = candidate if value < current else beta
            break
        beta, current = candidate, value
    return beta


def softmax_fit(
    x: np.ndarray,
    labels: np.ndarray,
    classes: int,
    weights: np.ndarray,
    penalty: float,
    iterations: int = 500,
) -> np.ndarray:
    """Multinomial logistic regression (one row of coefficients per class, the last column of
    `x` being a constant 1 that is not penalised), by gradient descent with a fixed schedule:
    deterministic, and enough for a handful of classes and features."""
    n, d = x.shape
    beta = np.zeros((classes, d))
    onehot = np.zeros((n, classes))
    onehot[np.arange(n), labels] = 1.0
    pen = np.full(d, penalty)
    pen[-1] = 0.0
    total = float(np.sum(weights)) or 1.0
    rate = 1.0
    for _ in range(iterations):
        z = x @ beta.T
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = ((p - onehot) * weights[:, None]).T @ x / total + beta * pen / total
        beta -= rate * grad
    return beta
