"""Where the book lives: the one setting a course that forks it changes.

Every place that names the repository reads it from here: the install line of the
exercise notebooks' introduction (written into the release by ``make exercises``),
the instructors' page (through the book's MyST substitutions, see
``_ext/armlab_book.py``), and the book's launch buttons (the book's configuration).

>>> install_line()
'pip install jupyterlab "armlab @ git+https://github.com/armlab-book/armlab"'
"""

REPOSITORY = "https://github.com/armlab-book/armlab"
"""The book's public git repository (a fork: its own URL)."""

BRANCH = "main"
"""The branch students install from and the launch buttons open."""

JUPYTERHUB_URL = ""
"""A course's JupyterHub (``https://hub.example.edu``), for the launch menu; '' for none."""

INSTALL_LINE_START = 'pip install jupyterlab "armlab @ git+'
"""How every install line starts (the release rewrites the whole line)."""


def install_line(repository=None, branch=None):
    """The one command that installs JupyterLab and this book's package from its repository
    (the branch is named when it is not ``main``).

    >>> install_line("https://git.example.edu/robotics/armlab", "spring-2027")
    'pip install jupyterlab "armlab @ git+https://git.example.edu/robotics/armlab@spring-2027"'
    """
    repository = REPOSITORY if repository is None else repository
    branch = BRANCH if branch is None else branch
    tail = "" if branch == "main" else f"@{branch}"
    return f'{INSTALL_LINE_START}{repository}{tail}"'


def with_install_line(text):
    """``text`` with every install line replaced by :func:`install_line`.

    >>> with_install_line('run\\npip install jupyterlab "armlab @ git+https://x/y"\\nthen')
    'run\\npip install jupyterlab "armlab @ git+https://github.com/armlab-book/armlab"\\nthen'
    """
    import re

    pattern = re.escape(INSTALL_LINE_START) + r'[^"\n]*"'
    return re.sub(pattern, lambda _m: install_line(), text)


def substitutions():
    """The book's MyST substitutions that name the repository (``{{ armlab_install }}``)."""
    return {"armlab_repository": REPOSITORY, "armlab_branch": BRANCH,
            "armlab_install": f"```bash\n{install_line()}\n```",
            "armlab_install_inline": f"`{install_line()}`"}
