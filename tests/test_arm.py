"""The arm description: defaults, immutability, presets, payload; a light import."""

import dataclasses
import subprocess
import sys

import numpy as np
import pytest
from arm_strategies import arms, reals
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab as al


def test_uniform_rod_defaults():
    arm = al.PlanarArm(lengths=(0.30, 0.25), masses=(2.0, 1.0))
    assert arm.n == 2
    assert arm.com == (0.15, 0.125)
    np.testing.assert_allclose(arm.inertia, (2.0 * 0.09 / 12, 1.0 * 0.0625 / 12))
    assert arm.gravity == (0.0, -9.81)
    assert arm.damping == arm.coulomb == (0.0, 0.0) and arm.gear_ratio == (1.0, 1.0)


def test_gravity_as_a_vector_and_per_joint_scalars():
    arm = al.PlanarArm([1.0, 1.0, 1.0], [1, 1, 1], gravity=[9.81, 0], damping=0.5, gear_ratio=3)
    assert arm.gravity == (9.81, 0.0)
    assert arm.damping == (0.5, 0.5, 0.5) and arm.gear_ratio == (3.0, 3.0, 3.0)
    # a wall-mounted arm hanging along +x needs no torque
    np.testing.assert_allclose(al.gravity_torques(arm, [0, 0, 0]), 0, atol=1e-14)


def test_the_arm_is_immutable_and_hashable_by_value():
    arm = al.tabletop_arm()
    with pytest.raises(dataclasses.FrozenInstanceError):
        arm.masses = (1.0, 1.0)
    assert arm == al.tabletop_arm()
    assert arm != al.tabletop_arm(damping=0.02)
    assert hash(arm) == hash(al.tabletop_arm())


def test_presets_are_the_worked_examples_arms():
    top = al.tabletop_arm(damping=0.02)                         # the table-top case
    assert (top.lengths, top.masses, top.damping) == ((0.30, 0.25), (2.0, 1.0), (0.02, 0.02))
    rods = al.rod_arm(m2=2.0, gravity=0.0, damping=0.25)        # the rods cases
    assert (rods.lengths, rods.masses, rods.gravity) == ((1.0, 1.0), (1.0, 2.0), (0.0, -0.0))
    np.testing.assert_allclose(rods.inertia, (1 / 12, 2 / 12))
    statics = al.statics_arm()                                  # the statics case
    assert (statics.lengths, statics.masses, statics.com) == ((0.5, 0.4), (3.0, 2.0),
                                                              (0.25, 0.20))


def test_payload_by_hand():
    arm = al.PlanarArm([1.0], [2.0], inertia=[0.5]).with_payload(1.0)
    assert arm.masses == (3.0,)
    np.testing.assert_allclose(arm.com, (2 / 3,))           # (2 * 0.5 + 1 * 1) / 3
    # 0.5 + 2 (0.5 - 2/3)^2 + 1 (1 - 2/3)^2
    np.testing.assert_allclose(arm.inertia, (0.5 + 2 / 36 + 1 / 9,))
    assert al.tabletop_arm().with_payload(0.0) == al.tabletop_arm()


@settings(max_examples=60, deadline=None)
@given(arms(), reals(0.0, 5.0), st.integers(0, 2**32 - 1))
def test_payload_is_a_point_mass_at_the_tip(arm, mass, seed):
    """g gains J^T of the payload's support; M gains m J^T J (a point mass has no inertia)."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-np.pi, np.pi, arm.n)
    loaded = arm.with_payload(mass)
    J = al.jacobian(arm, q)
    support = -mass * np.array(arm.gravity)                 # what the tip pushes up with
    np.testing.assert_allclose(al.gravity_torques(loaded, q),
                               al.gravity_torques(arm, q) + J.T @ support, atol=1e-10)
    np.testing.assert_allclose(al.mass_matrix(loaded, q),
                               al.mass_matrix(arm, q) + mass * J.T @ J, atol=1e-10)
    # and its velocity products are m J^T (Jdot qd), the point mass's centripetal pull
    qd = rng.uniform(-2, 2, arm.n)
    np.testing.assert_allclose(al.coriolis_torques(loaded, q, qd),
                               al.coriolis_torques(arm, q, qd) + mass * J.T @ _tip_bias(arm, q, qd),
                               atol=1e-8)


def _tip_bias(arm, q, qd):
    """Jdot qd at the tip, by finite differences of J along qd."""
    h = 1e-6
    Jdot = (al.jacobian(arm, q + h * qd) - al.jacobian(arm, q - h * qd)) / (2 * h)
    return Jdot @ qd


def test_import_is_light():
    """`import armlab` loads neither matplotlib nor ipywidgets (every kernel pays for it)."""
    code = ("import sys, armlab; heavy = [m for m in ('matplotlib', 'ipywidgets') "
            "if m in sys.modules]; print(heavy); sys.exit(1 if heavy else 0)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_public_names():
    for name in al.__all__:
        assert hasattr(al, name), name
        assert getattr(al, name).__doc__, name


def test_replace_derives_the_defaults_again():
    """dataclasses.replace keeps what was given and re-derives what was a default (the
    uniform rods' mid-link centres and m L^2 / 12), instead of keeping stale inertias."""
    arm = al.tabletop_arm()
    heavy = dataclasses.replace(arm, masses=(4.0, 2.0))
    assert heavy == al.PlanarArm((0.30, 0.25), (4.0, 2.0))
    assert heavy.inertia == (4.0 * 0.09 / 12, 2.0 * 0.0625 / 12)
    longer = dataclasses.replace(arm, lengths=(0.4, 0.3))
    assert longer.com == (0.2, 0.15)
    given = dataclasses.replace(al.statics_arm(), masses=(1.0, 1.0))
    assert given.com == (0.25, 0.20)                        # given numbers are kept
    np.testing.assert_allclose(given.inertia, (0.25 / 12, 0.16 / 12), rtol=1e-15)   # follow m
    fixed = al.PlanarArm((0.3, 0.25), (2.0, 1.0), inertia=(0.1, 0.2))
    assert dataclasses.replace(fixed, masses=(4.0, 2.0)).inertia == (0.1, 0.2)
    copied = al.PlanarArm((0.6, 0.5), (2.0, 1.0), com=arm.com, inertia=arm.inertia)
    assert (copied.com, copied.inertia) == (arm.com, arm.inertia)   # numbers passed by hand


def test_the_signature_readers_see_has_no_private_field():
    """help(), the API page and JupyterLab's tooltip show the eight arguments, not _derived"""
    import inspect

    assert list(inspect.signature(al.PlanarArm).parameters) == [
        "lengths", "masses", "com", "inertia", "gravity", "damping", "coulomb", "gear_ratio"]


def test_the_kernel_constants_are_a_cached_property():
    arm = al.tabletop_arm(damping=0.02)
    assert arm._constants is arm._constants
    assert "_constants" not in {f.name for f in dataclasses.fields(arm)}
    assert arm._constants.B == (0.02, 0.02)
