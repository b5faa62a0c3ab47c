"""A throwaway PostgreSQL cluster for tests: initdb and pg_ctl on a temporary
folder, reached through a Unix socket in it, stopped and removed afterwards.

PostgreSQL refuses to run as root: as root, the server runs as the ``postgres``
user that Debian's package creates. ``skip_reason()`` says why the tests cannot
run here (no server binaries, no unprivileged user), or None.
"""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time


def _binary(name):
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _owner():
    """The user the server runs as: ourselves, or ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        return False


def skip_reason():
    for name in ("initdb", "pg_ctl"):
        if _binary(name) is None:
            return f"PostgreSQL's {name} is not installed (apt-get install postgresql)"
    if _owner() is False:
        return "running as root and there is no 'postgres' user to run the server as"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (requirements.txt pins it)"
    return None


class Cluster:
    """``with Cluster() as pg: pg.url`` is a SQLAlchemy URL of an empty database."""

    def __init__(self, database="armlab"):
        self.database = database
        self.dir = None

    def _run(self, *argv):
        owner = _owner()
        cmd = list(argv)
        if owner:
            cmd = ["runuser", "-u", owner.pw_name, "--"] + cmd
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120)

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="armlab-pg-", dir="/tmp")
        owner = _owner()
        if owner:
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
        data = os.path.join(self.dir, "data")
        self._run(_binary("initdb"), "-D", data, "-U", "grader", "--auth=trust",
                  "--no-sync", "-E", "UTF8")
        options = f"-k {self.dir} -c listen_addresses='' -c fsync=off -c max_connections=40"
        self._run(_binary("pg_ctl"), "-D", data, "-o", options, "-w", "-l",
                  os.path.join(self.dir, "log"), "start")
        self.url = f"postgresql+psycopg://grader@/{self.database}?host={self.dir}"
        self._create()
        return self

    def _create(self):
        import psycopg

        for _ in range(50):
            try:
                with psycopg.connect(f"host={self.dir} user=grader dbname=postgres",
                                     autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{self.database}"')
                return
            except psycopg.OperationalError:
                time.sleep(0.1)
        raise RuntimeError("the throwaway PostgreSQL server did not come up")

    def query(self, sql, *params):
        """Rows of one SQL query, straight from the server."""
        import psycopg

        with psycopg.connect(f"host={self.dir} user=grader dbname={self.database}") as conn:
            return conn.execute(sql, params).fetchall()

    def __exit__(self, *exc):
        try:
            self._run(_binary("pg_ctl"), "-D", os.path.join(self.dir, "data"), "-m", "immediate",
                      "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
