"""Random serial chains written as URDF text, for the spatial package's cross-checks.

Each chain has 1 to 10 joints, revolute or prismatic, about random unit axes, with
random origins (offsets and roll-pitch-yaw turns), masses, centres of mass and full
inertia tensors (turned by the inertial's own rpy). Some links hang behind fixed
joints, some carry a fixed side branch with its own mass, and the tip is a massless
link on a fixed joint: the loader must merge them all as Pinocchio does.
"""

import numpy as np


def _vec(rng, scale):
    return " ".join(repr(float(x)) for x in rng.uniform(-scale, scale, 3))


def _unit(rng):
    a = rng.normal(size=3)
    return " ".join(repr(float(x)) for x in a / np.linalg.norm(a))


def _inertial(rng):
    mass = rng.uniform(0.2, 3.0)
    # principal moments that satisfy the triangle inequality, turned by a random rotation
    d = rng.uniform(0.01, 0.1, 3)
    d[2] = rng.uniform(abs(d[0] - d[1]) + 1e-3, d[0] + d[1])
    A, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    inertia = A @ np.diag(d) @ A.T
    names = [("ixx", 0, 0), ("ixy", 0, 1), ("ixz", 0, 2), ("iyy", 1, 1), ("iyz", 1, 2),
             ("izz", 2, 2)]
    values = " ".join(f'{k}="{float(inertia[i, j])!r}"' for k, i, j in names)
    return (f'<inertial><origin xyz="{_vec(rng, 0.2)}" rpy="{_vec(rng, np.pi)}"/>'
            f'<mass value="{float(mass)!r}"/><inertia {values}/></inertial>')


def random_chain_urdf(rng, n):
    """URDF text of a random chain of ``n`` moving joints, base ``base``, tip ``tip``."""
    parts = ['<robot name="random">', '<link name="base"/>']
    parent = "base"
    for i in range(n):
        kind = "prismatic" if rng.random() < 0.3 else "revolute"
        parts.append(f'<link name="link{i}">{_inertial(rng)}</link>')
        parts.append(
            f'<joint name="joint{i}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="link{i}"/><origin xyz="{_vec(rng, 0.3)}" rpy="{_vec(rng, np.pi)}"/>'
            f'<axis xyz="{_unit(rng)}"/>'
            f'<limit lower="-3" upper="3" effort="{float(rng.uniform(1, 50))!r}" '
            'velocity="2"/></joint>')
        parent = f"link{i}"
        if rng.random() < 0.3:                   # a link behind a fixed joint, on the path
            parts.append(f'<link name="fixed{i}">{_inertial(rng)}</link>')
            parts.append(f'<joint name="weld{i}" type="fixed"><parent link="{parent}"/>'
                         f'<child link="fixed{i}"/><origin xyz="{_vec(rng, 0.2)}" '
                         f'rpy="{_vec(rng, np.pi)}"/></joint>')
            parent = f"fixed{i}"
        if rng.random() < 0.3:                   # a side branch, welded on
            parts.append(f'<link name="side{i}">{_inertial(rng)}</link>')
            parts.append(f'<joint name="bracket{i}" type="fixed"><parent link="{parent}"/>'
                         f'<child link="side{i}"/><origin xyz="{_vec(rng, 0.2)}" '
                         f'rpy="{_vec(rng, np.pi)}"/></joint>')
    parts.append('<link name="tip"/>')
    parts.append(f'<joint name="flange" type="fixed"><parent link="{parent}"/>'
                 f'<child link="tip"/><origin xyz="{_vec(rng, 0.2)}" '
                 f'rpy="{_vec(rng, np.pi)}"/></joint>')
    parts.append("</robot>")
    return "\n".join(parts)
