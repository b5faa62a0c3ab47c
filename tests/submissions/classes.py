"""Answers from a trial class, written the way students write them, that exposed a problem.

Each set was graded as a real class (six students per set: excellent, one conceptual
mistake, partly blank, printed numbers copied, slow and noisy, numpy used differently).
The answers below are the ones whose marks or feedback were unfair or unclear before the
fix that tests/test_class_trial.py keeps in place. ``CLASS[chapter][student]`` maps an
answer cell's id to its source, as the student left it.
"""

KINEMATICS = {
    # Part 2 written for two links only, although it asks for any number of links: the
    # two-link cases are right and keep their points.
    "obrien_sean": {
        "jacobian_answer": '''
def jacobian(arm: al.PlanarArm, q: np.ndarray) -> np.ndarray:
    L1, L2 = arm.lengths
    q1, q2 = q
    s1, c1 = np.sin(q1), np.cos(q1)
    s12, c12 = np.sin(q1 + q2), np.cos(q1 + q2)
    return np.array([[-L1 * s1 - L2 * s12, -L2 * s12],
                     [L1 * c1 + L2 * c12, L2 * c12]])
''',
    },
    # np.matrix, as a student coming from MATLAB writes it: right numbers, refused before.
    "lee_min_jun": {
        "jacobian_answer": '''
def jacobian(arm, q):
    pts = al.joint_positions(arm, q)
    cols = []
    for j in range(len(q)):
        r = pts[-1] - pts[j]
        cols.append([-r[1], r[0]])
    return np.matrix(cols).T
''',
        "speeds_answer": '''
def joint_speeds(arm, q, v):
    J = np.matrix(jacobian(arm, q))
    qd = J.I * np.matrix(v).T
    return qd
''',
    },
    # The try cells' printed numbers typed in: the visible check said "yours is (0.433,
    # 0.65), the book's value is (0.433, 0.65)" (then of Part 1's tip at the wall pose; now
    # of its tip on a turned base, printed by the try cell as (-0.45, 0.533)).
    "kowalski_piotr": {
        "mounted_answer": '''
def mounted_tip(arm, q, base, theta):
    return np.array([-0.45, 0.533])
''',
        # the nearest pose typed in from the try cell's degrees: its message showed radians
        # (then of gravity's sag) beside the try cell's degrees.
        "nearest_answer": '''
def nearest_pose(arm, p, q_now):
    return np.radians([82.66, -60.0])
''',
    },
}

STATICS = {
    # A stub left with `pass`: reported as "answer of a refused type" (a NoneType).
    "ahmed_fatima": {
        "gravity_answer": '''
def shoulder_worst(arm, q2):
    # TODO
    pass
''',
    },
    # The push the structure carries (np.inf) forgotten: Python's float division stops there
    # with ZeroDivisionError, and the ordinary pushes' points went with it (a search that
    # gave up at 200000 N did the same).
    "johansson_erik": {
        "push_answer": '''
def max_push(arm, q, direction, limit):
    d = np.asarray(direction, dtype=float)
    t = joint_torques(arm, q, d / np.linalg.norm(d))
    g = [float(x) for x in al.gravity_torques(arm, q)]
    room = [(limit - g[j]) / float(t[j]) if t[j] > 0 else (limit + g[j]) / -float(t[j])
            for j in range(2)]
    return min(room)
''',
    },
    # Link 2's weight about the shoulder on its lever from the elbow: the hidden check gave
    # only the general advice.
    "mueller_jonas": {
        "gravity_answer": '''
def shoulder_worst(arm, q2):
    m1, m2 = arm.masses
    lc1, lc2 = arm.com
    g = np.hypot(*arm.gravity)
    a = m1 * lc1 + m2 * lc2 * np.cos(q2)
    b = m2 * lc2 * np.sin(q2)
    return g * np.hypot(a, b)
''',
    },
}

GRAVITY = {
    # np.matrix for a number (a 1x1 matrix) and a one-element array for a mass.
    "nkechi_okafor": {
        "lift_answer": '''
def lift_energy(arm, poses):
    P = np.matrix([[al.potential_energy(arm, q) for q in poses]])
    return P.max(axis=1) - P[:, 0]
''',
        "payload_answer": '''
def payload_mass(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    th0 = fit_gravity_parameters(q_empty, tau_empty)
    th1 = fit_gravity_parameters(q_loaded, tau_loaded)
    g0 = np.hypot(*arm.gravity)
    return np.array([(th1[1] - th0[1]) / (g0 * arm.lengths[1])])
''',
    },
    # 9.81 typed in although the part says the arm's gravity may differ: it scored full marks.
    "tomas_o_connor": {
        "payload_answer": '''
def payload_mass(arm, q_empty, tau_empty, q_loaded, tau_loaded):
    b0 = fit_gravity_parameters(q_empty, tau_empty)[1]
    b1 = fit_gravity_parameters(q_loaded, tau_loaded)[1]
    return (b1 - b0) / (9.81 * arm.lengths[1])
''',
    },
    # Printed numbers typed in: the fit's messages listed every pose and torque of the run.
    "ana_maria_perez": {
        "fit_answer": '''
def fit_gravity_parameters(q, tau):
    return np.array([5.8913, 1.2324])
''',
    },
}

INVERSE_DYNAMICS = {
    # np.array([0, 0]) filled in place: the fractions were cut off without a word about it.
    "l_chen": {
        "base_answer": '''
def base_force(arm, q, qd, qdd):
    a_joint = -np.array(arm.gravity, float)
    phi = w = wd = 0.0
    f = np.zeros(2)
    for i in range(2):
        phi += q[i]; w += qd[i]; wd += qdd[i]
        e = np.array([np.cos(phi), np.sin(phi)]); n = np.array([-e[1], e[0]])
        f = f + arm.masses[i] * (a_joint + wd * arm.com[i] * n - w**2 * arm.com[i] * e)
        a_joint = a_joint + wd * arm.lengths[i] * n - w**2 * arm.lengths[i] * e
    out = np.array([0, 0])
    out[0], out[1] = f
    return out
''',
    },
    # The printed numbers typed in: the advice's first word, "outwards:", was not a sentence's.
    "m_rossi": {
        "base_answer": '''
def base_force(arm, q, qd, qdd):
    return np.array([-1.83153, 29.6345])
''',
    },
    # The torque at zero acceleration worked out at rest (no velocity products, no
    # friction): it got only the general advice until the part named that mistake.
    "k_nakamura": {
        "acceleration_answer": '''
def largest_acceleration(arm, q, qd, direction, tip_force, limit):
    M = al.mass_matrix(arm, q)
    tau0 = al.inverse_dynamics(arm, q, [0.0, 0.0], [0.0, 0.0], tip_force)
    per = M @ np.asarray(direction, float)
    return float(min(((limit[j] if per[j] > 0 else -limit[j]) - tau0[j]) / per[j]
                     for j in range(2)))
''',
    },
}

FORWARD_DYNAMICS = {
    # M multiplied where it must be solved for: only the general advice.
    "diallo_moussa": {
        "acceleration_answer": '''
def acceleration(arm, q, qd, tau):
    qd = np.asarray(qd, dtype=float)
    rhs = (np.asarray(tau) - al.coriolis_torques(arm, q, qd) - al.gravity_torques(arm, q)
           - np.asarray(arm.damping) * qd)
    return al.mass_matrix(arm, q) @ rhs
''',
    },
    # Printed numbers typed in: the advice began "Qd_new = ...", a symbol capitalised (then
    # in the one-step part, now gone; the same answer in the part that replaced it).
    "silva_joao": {
        "failure_answer": '''
def tip_after_failure(arm, q, motor):
    return np.array([4.655143, 0.115372])
''',
    },
}

LIMITS = {
    # Gravity typed in as (0, 9.81): right on every floor-mounted arm the check had.
    "pedro_alvarez": {
        "capacity_answer": '''
def payload_capacity(arm, q, limit):
    g = al.gravity_torques(arm, q)
    t = al.jacobian(arm, q).T @ np.array([0.0, 9.81])
    out = []
    for j in range(2):
        if abs(t[j]) <= 1e-9:
            out.append(np.inf)
        else:
            out.append((np.sign(t[j]) * limit[j] - g[j]) / t[j])
    return np.array(out)
''',
    },
    # An integer array filled in place, and a tuple: the friction's damping was described
    # as "(0, 0)" (four decimals of 2e-5).
    "sofia_ivanova": {
        "friction_answer": '''
def joint_friction(arm, qd):
    out = np.zeros(2, dtype=int)
    for j in range(2):
        G = arm.gear_ratio[j]
        out[j] = G * G * arm.damping[j] * qd[j] + G * arm.coulomb[j] * np.sign(qd[j])
    return out
''',
        "capacity_answer": '''
def payload_capacity(arm, q, limit):
    g = al.gravity_torques(arm, q)
    t = al.static_torques(arm, q, -np.array(arm.gravity))
    return tuple(np.inf if abs(t[j]) <= 1e-9 else (np.sign(t[j]) * limit[j] - g[j]) / t[j]
                 for j in range(2))
''',
    },
}

CONTROL = {
    # The angle error in degrees ("easier to read"): only the general advice.
    "gupta_rohan": {
        "computed_torque_answer": '''
def computed_torque_law(arm, q, qd, q_plan, qd_plan, qdd_plan, kp, kd):
    e_deg = np.degrees(q_plan - q)
    print("error in degrees:", e_deg)
    a = qdd_plan + kp * e_deg + kd * (qd_plan - qd)
    return al.inverse_dynamics(arm, q, qd, a)
''',
    },
    # The real arm's mass matrix where the controller has only its model's: general advice.
    "fischer_max": {
        "stiff_answer": '''
def stiff_gain(arm, model, q_target, tolerance):
    def worst(kp):
        e = np.zeros(2)
        for _ in range(200):
            q = q_target - e
            e = np.linalg.solve(al.mass_matrix(arm, q) * kp,
                                al.gravity_torques(arm, q) - al.gravity_torques(model, q))
        return np.abs(e).max()
    lo, hi = 1.0, 2.0
    while worst(hi) > tolerance:
        lo, hi = hi, 2 * hi
    for _ in range(40):
        mid = (lo + hi) / 2
        if worst(mid) > tolerance:
            lo = mid
        else:
            hi = mid
    return hi
''',
    },
    # np.matrix throughout, and a (1, 1) np.matrix for a number.
    "johnson_emily_rose": {
        "stiff_answer": '''
def stiff_gain(arm, model, q_target, tolerance):
    def worst(kp):
        e = np.matrix([[0.0], [0.0]])
        for _ in range(100):
            q = np.asarray(q_target - e.A1)
            M = np.matrix(al.mass_matrix(model, q))
            rhs = np.matrix(al.gravity_torques(arm, q) - al.gravity_torques(model, q)).T
            e = (M * kp).I * rhs
        return np.abs(e).max()
    lo, hi = np.matrix([[1.0]]), np.matrix([[2.0]])
    while worst(hi[0, 0]) > tolerance:
        lo, hi = hi, 2 * hi
    for _ in range(40):
        mid = (lo + hi) / 2
        if worst(mid[0, 0]) > tolerance:
            lo = mid
        else:
            hi = mid
    return hi
''',
    },
}

CLASS = {"kinematics": KINEMATICS, "statics": STATICS, "gravity": GRAVITY,
         "inverse_dynamics": INVERSE_DYNAMICS, "forward_dynamics": FORWARD_DYNAMICS,
         "limits": LIMITS, "control": CONTROL}


def answer(chapter, student, cell):
    """One answer's source, without the blank lines around it."""
    return CLASS[chapter][student][cell].strip("\n") + "\n"
