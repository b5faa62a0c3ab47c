"""Export an arm to URDF, for other rigid-body libraries (Pinocchio, Drake, MuJoCo...)."""

__all__ = ["to_urdf"]


def to_urdf(arm, name="planar_arm"):
    """A URDF description of ``arm``: revolute joints about z, links along their x axes.

    The in-plane inertia (about z) is the arm's; the two out-of-plane moments,
    which a planar motion never excites, are set equal to it so the inertia
    tensor is valid. Gravity is not part of URDF: set the library's gravity to
    ``(*arm.gravity, 0)``. Friction and gear ratios are not exported.

    Parameters
    ----------
    arm : PlanarArm
    name : str, optional
        The robot's name in the file.

    Returns
    -------
    urdf : str
        The XML text: links ``link0 .. link{n-1}``, joints ``joint0 ..``.

    Examples
    --------
    >>> from armlab import tabletop_arm
    >>> print(to_urdf(tabletop_arm()).splitlines()[3])
    <joint name="joint0" type="revolute"><parent link="base"/><child link="link0"/><origin xyz="0.0 0 0" rpy="0 0 0"/><axis xyz="0 0 1"/><limit lower="-100" upper="100" effort="1e6" velocity="1e6"/></joint>
    """
    parts = [f'<robot name="{name}">', '<link name="base"/>']
    parent, offset = "base", 0.0
    for i, (c, m, inertia) in enumerate(zip(arm.com, arm.masses, arm.inertia)):
        parts.append(
            f'<link name="link{i}"><inertial><origin xyz="{c!r} 0 0" rpy="0 0 0"/>'
            f'<mass value="{m!r}"/><inertia ixx="{inertia!r}" ixy="0" ixz="0" '
            f'iyy="{inertia!r}" iyz="0" izz="{inertia!r}"/></inertial></link>')
        parts.append(
            f'<joint name="joint{i}" type="revolute"><parent link="{parent}"/>'
            f'<child link="link{i}"/><origin xyz="{offset!r} 0 0" rpy="0 0 0"/>'
            '<axis xyz="0 0 1"/><limit lower="-100" upper="100" effort="1e6" velocity="1e6"/>'
            '</joint>')
        parent, offset = f"link{i}", arm.lengths[i]
    parts.append("</robot>")
    return "\n".join(parts)
