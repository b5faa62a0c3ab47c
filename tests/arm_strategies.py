"""Hypothesis strategies shared by the property tests: random arms and states."""

import numpy as np
from hypothesis import strategies as st

import armlab as al


def reals(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


@st.composite
def arms(draw, min_links=1, max_links=7, friction=True, gravity=True):
    """A planar arm with random geometry, mass distribution, gravity and friction.

    Centres of mass may lie anywhere along (or beyond) their link, gravity may
    point anywhere in the plane; every link has some mass and inertia so the
    mass matrix is positive definite.
    """
    n = draw(st.integers(min_links, max_links))

    def per_link(lo, hi):
        return draw(st.lists(reals(lo, hi), min_size=n, max_size=n))

    lengths = per_link(0.05, 1.5)
    kwargs = dict(lengths=lengths, masses=per_link(0.1, 5.0), com=per_link(-0.3, 1.5),
                  inertia=per_link(1e-3, 0.5))
    if gravity:
        kwargs["gravity"] = draw(st.one_of(reals(0.0, 20.0),
                                           st.tuples(reals(-15, 15), reals(-15, 15))))
    else:
        kwargs["gravity"] = 0.0
    if friction:
        kwargs.update(damping=per_link(0.0, 1.0), coulomb=per_link(0.0, 1.0),
                      gear_ratio=per_link(0.5, 10.0))
    return al.PlanarArm(**kwargs)


def vectors(n, scale=3.0):
    """One state vector of n joints, as a float array."""
    return st.lists(reals(-scale, scale), min_size=n, max_size=n).map(np.array)


@st.composite
def arm_and_state(draw, **arm_kwargs):
    """An arm with one random state q, qd, qdd, tau and tip force."""
    arm = draw(arms(**arm_kwargs))
    n = arm.n
    q = draw(vectors(n, np.pi))
    qd, qdd, tau = (draw(vectors(n)) for _ in range(3))
    force = draw(vectors(2, 20.0))
    return arm, q, qd, qdd, tau, force


def batch(rng, n, shape=(4, 3), scale=2.0):
    """A random batch of joint vectors ``shape + (n,)``."""
    return rng.uniform(-scale, scale, shape + (n,))
