"""A serial chain of revolute and prismatic joints, read from a URDF file.

URDF (the Unified Robot Description Format) describes a robot as a tree of
links joined by joints. Each joint has an ``origin`` (the pose of its child
link's frame in its parent link's frame when the joint is at zero), an
``axis`` in that child frame, a type and limits. Each link may have an
``inertial``: mass, centre of mass and inertia tensor about it.

:func:`load_urdf` keeps the path from a base link to a tip link. Its revolute
(and continuous) and prismatic joints become the chain's joints ``0 .. n-1``,
numbered from the base; joint ``i``'s frame is its child link's frame, the
*body frame* of body ``i`` in Featherstone's sense. Every other link is merged
rigidly into the body it hangs from: links behind fixed joints, and side
branches (a gripper's fingers) with their joints held at zero. The base body
does not move and is not kept.
"""

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from armlab._checks import finite_array, nonnegative_scalar
from armlab.spatial.inertia import mass_properties, spatial_inertia
from armlab.spatial.se3 import adjoint, inverse, transform
from armlab.spatial.so3 import rpy_rotation

__all__ = ["Chain", "load_urdf"]

MOVING = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic"}


def _frozen(a):
    a = np.array(a, dtype=float)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Chain:
    """A serial chain of ``n`` joints, each revolute or prismatic.

    Made by :func:`load_urdf`; the arrays are read-only. Lengths in [m],
    angles in [rad], joint forces in [N] and torques in [N m].

    Attributes
    ----------
    name : str
        The robot's name in its URDF file.
    joints : tuple of str
        The joints' names, base first.
    kinds : tuple of str
        ``"revolute"`` or ``"prismatic"``, per joint.
    origins : (n, 4, 4) ndarray
        Pose of joint ``i``'s frame in joint ``i-1``'s frame (the base frame
        for ``i = 0``) with joint ``i`` at zero.
    axes : (n, 3) ndarray
        Each joint's unit axis, in its own frame.
    inertias : (n, 6, 6) ndarray
        Each body's spatial inertia in its joint's frame (see
        :mod:`armlab.spatial.inertia`), every merged link included.
    tip : (4, 4) ndarray
        Pose of the tip link's frame (the flange) in the last joint's frame.
    gravity : (3,) ndarray
        Acceleration of gravity in the base frame [m/s^2].
    effort, velocity, lower, upper : (n,) ndarray
        The URDF's limits: rated joint torque [N m] or force [N], speed
        [rad/s or m/s], position range [rad or m]; ``inf`` where none is given.
    base_link, tip_link : str
        The links the chain runs between.

    Examples
    --------
    >>> chain = load_urdf('''<robot name="pendulum"><link name="base"/>
    ...   <link name="bob"><inertial><origin xyz="0 0 -1"/><mass value="2"/>
    ...     <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
    ...   <joint name="pivot" type="revolute"><parent link="base"/><child link="bob"/>
    ...     <axis xyz="1 0 0"/><limit effort="30" velocity="2" lower="-3" upper="3"/></joint>
    ...   </robot>''')
    >>> chain.n, chain.joints, chain.masses, chain.effort
    (1, ('pivot',), array([2.]), array([30.]))
    """

    name: str
    joints: tuple
    kinds: tuple
    origins: np.ndarray
    axes: np.ndarray
    inertias: np.ndarray
    tip: np.ndarray
    gravity: np.ndarray
    effort: np.ndarray
    velocity: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    base_link: str = "base"
    tip_link: str = "tip"

    def __post_init__(self):
        for name in ("origins", "axes", "inertias", "tip", "gravity", "effort", "velocity",
                     "lower", "upper"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))

    @property
    def n(self):
        """Number of joints."""
        return len(self.joints)

    @cached_property
    def aligned(self):
        """The chain in body frames turned so that each joint's axis is their z axis.

        Featherstone's joint model (his ``jcalc``): with body ``i``'s frame turned
        by a constant rotation ``Q_i`` that takes z to the joint's axis, a
        revolute joint's transform is ``rotz(q_i)`` and its motion subspace
        ``S = (0, 0, 1, 0, 0, 0)``; a prismatic joint's is ``xlt(q_i z)`` and
        ``S = (0, 0, 0, 0, 0, 1)``. The rest of ``X_i = X_J(q_i) X_T,i`` is a
        constant ``X_T,i``. Joint torques do not depend on the choice of body
        frames; the functions of :mod:`armlab.spatial.dynamics` run on these.

        Returns
        -------
        XT : (n, 6, 6) ndarray
            The constant tree transforms ``X_T,i``, from body ``i-1``'s turned
            frame to the frame of joint ``i`` at zero.
        inertias : (n, 6, 6) ndarray
            The spatial inertias in the turned frames.
        tip : (6, 6) ndarray
            ``Ad(T)^T`` with ``T`` the last turned frame's pose in the tip
            frame: it takes a wrench in tip-frame coordinates to the last
            turned frame.
        """
        turns = []
        for a in self.axes:                      # Q: an orthonormal frame with a as its z
            helper = np.eye(3)[0] if abs(a[0]) < 0.9 else np.eye(3)[1]
            x = np.cross(helper, a)
            x /= np.linalg.norm(x)
            turns.append(transform(np.column_stack([x, np.cross(a, x), a]), np.zeros(3)))
        XT, inertias, previous = np.zeros((self.n, 6, 6)), np.zeros((self.n, 6, 6)), np.eye(4)
        for i, Q in enumerate(turns):
            XT[i] = adjoint(inverse(inverse(previous) @ self.origins[i] @ Q))
            inertias[i] = adjoint(Q).T @ self.inertias[i] @ adjoint(Q)
            previous = Q
        tip = adjoint(inverse(inverse(previous) @ self.tip)).T
        return _frozen(XT), _frozen(inertias), _frozen(tip)

    @property
    def screws(self):
        """``(n, 6)``: each joint's motion subspace ``S_i`` in its own frame.

        The twist a unit joint speed gives body ``i`` relative to body ``i-1``:
        ``(a, 0)`` for a revolute joint of axis ``a``, ``(0, a)`` for a
        prismatic one (Featherstone's ``S_i``; Modern Robotics' body screw axis).
        """
        S = np.zeros((self.n, 6))
        for i, kind in enumerate(self.kinds):
            S[i, :3] = self.axes[i] if kind == "revolute" else 0.0
            S[i, 3:] = self.axes[i] if kind == "prismatic" else 0.0
        return S

    @property
    def masses(self):
        """``(n,)``: each body's mass [kg]."""
        return np.array([mass_properties(I)[0] for I in self.inertias])

    @property
    def coms(self):
        """``(n, 3)``: each body's centre of mass in its joint's frame [m]."""
        return np.array([mass_properties(I)[1] for I in self.inertias])

    def with_payload(self, mass, com=(0.0, 0.0, 0.0), inertia=None):
        """A new chain carrying a payload fixed to the tip (the flange).

        Parameters
        ----------
        mass : float
            Payload mass [kg]; not negative.
        com : (3,) array_like, optional
            Its centre of mass in the tip frame [m]. Default: the tip's origin.
        inertia : (3, 3) array_like, optional
            Its inertia about its centre of mass, tip-frame axes [kg m^2].
            Default: zero (a point mass).

        Returns
        -------
        Chain
            The last body's spatial inertia includes the payload.

        Examples
        --------
        A 1 kg point mass at the flange of a pendulum of length 1 m:

        >>> pendulum = load_urdf('''<robot name="p"><link name="base"/><link name="rod"/>
        ...   <joint name="pivot" type="revolute"><parent link="base"/><child link="rod"/>
        ...     <axis xyz="1 0 0"/></joint>
        ...   <link name="flange"/><joint name="mount" type="fixed"><parent link="rod"/>
        ...     <child link="flange"/><origin xyz="0 0 -1"/></joint></robot>''', tip="flange")
        >>> loaded = pendulum.with_payload(1.0)
        >>> loaded.masses, loaded.coms
        (array([1.]), array([[ 0.,  0., -1.]]))
        """
        mp = nonnegative_scalar("mass", mass, "kg")
        inertia = np.zeros((3, 3)) if inertia is None else inertia
        payload = spatial_inertia(mp, com, inertia)         # in the tip frame
        X = adjoint(inverse(self.tip))                      # last joint's frame to tip frame
        inertias = np.array(self.inertias)
        inertias[-1] = inertias[-1] + X.T @ payload @ X
        return replace(self, inertias=inertias)


def _floats(element, attribute, default, name):
    text = element.get(attribute) if element is not None else None
    if text is None:
        return np.array(default, dtype=float)
    try:
        return np.array([float(x) for x in text.split()])
    except ValueError:
        raise ValueError(f"urdf: {name} has {attribute}={text!r}, expected numbers") from None


def _pose(element, name):
    """The transform of an ``<origin xyz rpy>`` element (identity when absent)."""
    xyz = _floats(element, "xyz", [0, 0, 0], name)
    rpy = _floats(element, "rpy", [0, 0, 0], name)
    if xyz.shape != (3,) or rpy.shape != (3,):
        raise ValueError(f"urdf: {name}'s origin needs three numbers in xyz and rpy")
    return transform(rpy_rotation(rpy), xyz)


def _link_inertia(link):
    """A URDF link's spatial inertia in its own frame (zero without an inertial)."""
    inertial = link.find("inertial")
    name = f"link {link.get('name')!r}"
    if inertial is None:
        return np.zeros((6, 6))
    T = _pose(inertial.find("origin"), name)
    mass_element = inertial.find("mass")
    mass = _floats(mass_element, "value", [0.0], name)[0]
    if mass < 0:
        raise ValueError(f"urdf: {name} has a negative mass, {mass}")
    element = inertial.find("inertia")
    i = {k: _floats(element, k, [0.0], name)[0]
         for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")}
    inertia = np.array([[i["ixx"], i["ixy"], i["ixz"]],
                        [i["ixy"], i["iyy"], i["iyz"]],
                        [i["ixz"], i["iyz"], i["izz"]]])
    R = T[:3, :3]
    return spatial_inertia(mass, T[:3, 3], R @ inertia @ R.T)


def load_urdf(source, base=None, tip=None, gravity=9.81):
    """The serial chain from ``base`` to ``tip`` of a URDF robot.

    Parameters
    ----------
    source : str or os.PathLike
        A URDF file's path, or its XML text.
    base : str, optional
        The base link's name. Default: the tree's root link.
    tip : str, optional
        The tip (flange) link's name. Default: the tree's only leaf; required
        when the tree branches.
    gravity : float or (3,) array_like, optional
        A scalar ``g0`` means ``(0, 0, -g0)`` in the base frame (z up); a
        3-vector is the acceleration itself [m/s^2]. Default 9.81.

    Returns
    -------
    Chain
        Its joints are the revolute, continuous (one angle each, without
        limits) and prismatic joints on the path from ``base`` to ``tip``.
        Links off that path are merged into the body they hang from, their
        own joints held at zero.

    Raises
    ------
    ValueError
        Naming ``source``, ``base`` or ``tip`` when the file cannot be read,
        a link is missing, the path has no moving joint or a floating,
        planar or mimic joint.

    Examples
    --------
    Two prismatic joints (a gantry) carrying 3 kg:

    >>> chain = load_urdf('''<robot name="gantry"><link name="frame"/><link name="cart"/>
    ...   <link name="slide"><inertial><mass value="3"/>
    ...     <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
    ...   <joint name="x" type="prismatic"><parent link="frame"/><child link="cart"/>
    ...     <axis xyz="1 0 0"/><limit effort="100" velocity="1" lower="0" upper="2"/></joint>
    ...   <joint name="z" type="prismatic"><parent link="cart"/><child link="slide"/>
    ...     <axis xyz="0 0 1"/><limit effort="200" velocity="1" lower="0" upper="1"/></joint>
    ...   </robot>''')
    >>> chain.kinds, chain.masses, chain.upper
    (('prismatic', 'prismatic'), array([0., 3.]), array([2., 1.]))
    """
    root = _parse(source)
    links = {link.get("name"): link for link in root.findall("link")}
    joints = root.findall("joint")
    parent_joint = {j.find("child").get("link"): j for j in joints}
    children = {}
    for j in joints:
        children.setdefault(j.find("parent").get("link"), []).append(j)
    roots = [name for name in links if name not in parent_joint]
    if base is None:
        base = roots[0] if len(roots) == 1 else None
        if base is None:
            raise ValueError(f"base: the URDF has {len(roots)} root links {roots}; name one")
    if base not in links:
        raise ValueError(f"base: no link named {base!r} in the URDF")
    if tip is None:
        leaves = [name for name in _subtree(base, children) if name not in children]
        if len(leaves) != 1:
            raise ValueError(f"tip: the tree from {base!r} has the leaves {leaves}; name one")
        tip = leaves[0]
    if tip not in links:
        raise ValueError(f"tip: no link named {tip!r} in the URDF")

    path = [tip]                                    # links from tip back to base
    while path[-1] != base:
        if path[-1] not in parent_joint:
            raise ValueError(f"tip: link {tip!r} does not hang from base {base!r}")
        path.append(parent_joint[path[-1]].find("parent").get("link"))
    path.reverse()
    path_joints = [parent_joint[link] for link in path[1:]]
    for j in path_joints:
        kind = j.get("type")
        if kind != "fixed" and kind not in MOVING:
            raise ValueError(f"tip: joint {j.get('name')!r} on the path is {kind!r}; "
                             "expected revolute, continuous, prismatic or fixed joints")
        if kind in MOVING and j.find("mimic") is not None:
            raise ValueError(f"tip: joint {j.get('name')!r} on the path mimics another joint")
    moving = [j for j in path_joints if j.get("type") in MOVING]
    if not moving:
        raise ValueError(f"tip: no moving joint between {base!r} and {tip!r}")
    index = {id(j): i for i, j in enumerate(moving)}

    # Every link of the subtree: the body it belongs to (-1 = base) and its pose there.
    body, pose = {base: -1}, {base: np.eye(4)}
    origins, axes, kinds = [None] * len(moving), [None] * len(moving), [None] * len(moving)
    for name in _subtree(base, children):
        for j in children.get(name, []):
            child = j.find("child").get("link")
            T = pose[name] @ _pose(j.find("origin"), f"joint {j.get('name')!r}")
            if id(j) in index:
                i = index[id(j)]
                origins[i], kinds[i] = T, MOVING[j.get("type")]
                axis = _floats(j.find("axis"), "xyz", [1, 0, 0], f"joint {j.get('name')!r}")
                if axis.shape != (3,) or np.linalg.norm(axis) == 0:
                    raise ValueError(f"urdf: joint {j.get('name')!r} has axis {axis}")
                axes[i] = axis / np.linalg.norm(axis)
                body[child], pose[child] = i, np.eye(4)
            else:
                body[child], pose[child] = body[name], T
    inertias = np.zeros((len(moving), 6, 6))
    for name, b in body.items():
        if b >= 0:
            X = adjoint(inverse(pose[name]))        # body frame -> link frame
            inertias[b] += X.T @ _link_inertia(links[name]) @ X

    def limits(attribute, default):
        return [_floats(j.find("limit"), attribute, [default], f"joint {j.get('name')!r}")[0]
                if j.get("type") != "continuous" else default for j in moving]

    g = finite_array("gravity", gravity)
    if g.ndim == 0:
        g = np.array([0.0, 0.0, -float(g)])
    elif g.shape != (3,):
        raise ValueError(f"gravity has shape {g.shape}: expected a scalar g0 or a 3-vector")
    return Chain(name=root.get("name", ""), joints=tuple(j.get("name") for j in moving),
                 kinds=tuple(kinds), origins=origins, axes=axes, inertias=inertias,
                 tip=pose[tip], gravity=g, effort=limits("effort", np.inf),
                 velocity=limits("velocity", np.inf), lower=limits("lower", -np.inf),
                 upper=limits("upper", np.inf), base_link=base, tip_link=tip)


def _parse(source):
    """The ``<robot>`` element of a URDF path or text."""
    try:
        if isinstance(source, str) and source.lstrip().startswith("<"):
            root = ET.fromstring(source)
        elif isinstance(source, (str, os.PathLike)):
            root = ET.parse(source).getroot()
        else:
            raise ValueError(f"source must be a URDF path or text, got {type(source).__name__}")
    except (ET.ParseError, OSError) as error:
        raise ValueError(f"source: cannot read the URDF ({error})") from None
    if root.tag != "robot":
        raise ValueError(f"source: the root element is <{root.tag}>, expected <robot>")
    return root


def _subtree(base, children):
    """The links of the tree below ``base``, parents before children."""
    order = [base]
    for name in order:
        order += [j.find("child").get("link") for j in children.get(name, [])]
    return order
