"""Small Sphinx fixes for the armlab book (a local extension, see _config.yml).

sphinx-thebe (pulled in by Jupyter Book) adds its inline configuration script
to every page twice under Sphinx 7.4, so the browser reports
"Identifier 'THEBE_JS_URL' has already been declared". The book does not use
thebe (launch_buttons.thebe is off), so its scripts are dropped from every
page; they also name a CDN, which an offline book has no use for.

myst-nb embeds the executed notebook's ipywidgets state (the live lab's
widgets, with a PNG of its figure) in the page, although no widget output is
shown and no widget manager is loaded (``nb_ipywidgets_js: {}``). That JSON is
dead weight in the HTML, so it is dropped too; the downloadable notebook keeps it.
"""

import importlib
import pathlib
import shutil


def _drop_thebe(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    kept = []
    for script in scripts:
        filename = getattr(script, "filename", script) or ""
        attributes = getattr(script, "attributes", {}) or {}
        body = attributes.get("body", "") or ""
        if "THEBE_JS_URL" in body or str(filename).endswith("sphinx-thebe.js"):
            continue
        if attributes.get("type") == "application/vnd.jupyter.widget-state+json":
            continue
        kept.append(script)
    scripts[:] = kept




# -- the API reference page: references in armlab's docstrings ------------------------------
#
# Docstrings name functions the way a reader imports them (``armlab.gravity_torques``,
# ``gravity_torques`` inside its module), while autodoc documents each under the module that
# defines it (``armlab.dynamics.gravity_torques``). A reference to an armlab object is sent to
# where that object is documented. Anything else (numpy's and matplotlib's names: the book has
# no intersphinx, it builds offline; the words of a numpydoc type such as ``(..., n) ndarray``;
# a module constant without an entry) is shown as plain text. A reference to a private name
# stays a missing reference, which ``-n -W`` reports: a public docstring must not send the
# reader to a private function.


def _armlab_object(target, module):
    """Where the armlab object that ``target`` names is documented (dotted name), or None."""
    candidates = [target]
    if module:
        candidates.append(f"{module}.{target}")
    if not target.startswith("armlab"):
        candidates.append(f"armlab.{target}")
    for name in candidates:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attr in parts[cut:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                break
            home = getattr(obj, "__module__", None) or ""
            if home.startswith("armlab") and hasattr(obj, "__qualname__"):
                return f"{home}.{obj.__qualname__}"
            break
    return None


def _resolve_reference(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if target.startswith("_") or "._" in target:
        return None                                  # a private name: the docstring is wrong
    home = _armlab_object(target, node.get("py:module"))
    if home is not None and home != target:
        domain = env.get_domain("py")
        for reftype in ("func", "class", "meth", "attr", "data", "obj"):
            found = domain.resolve_xref(env, node["refdoc"], app.builder, reftype, home,
                                        node, contnode)
            if found is not None:
                return found
    return contnode


def _skip_foreign(app, what, name, obj, skip, options):
    """Leave out members that a class inherits from matplotlib (their docstrings are not ours)."""
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and module and not module.startswith("armlab"):
        return True
    return None


def _escape_shapes(app, what, name, obj, options, lines):
    """A batch shape ``(*batch, n)`` in a type is text, not the start of emphasis."""
    def escape(line):
        parts = line.split("``")            # odd parts are inline literals: left alone
        return "``".join(p if k % 2 else p.replace("(*", "(\\*") for k, p in enumerate(parts))

    lines[:] = [escape(line) for line in lines]


def _site_substitutions(app, config):
    """The repository's setting (armlab/_site.py) as MyST substitutions: the instructors'
    page writes ``{{ armlab_install }}`` where the install command goes."""
    from armlab import _site

    config.myst_substitutions = {**_site.substitutions(),
                                 **(getattr(config, "myst_substitutions", None) or {})}


def _site_launch_buttons(app, config):
    """The repository's setting (armlab/_site.py) in the book theme's options: the repository
    button, the Binder launch (``binderhub_url`` from _config.yml) and, when
    ``JUPYTERHUB_URL`` is set, the JupyterHub launch, whose link is nbgitpuller's
    (``<hub>/hub/user-redirect/git-pull?repo=...&urlpath=lab/tree/<repo>/<page>&branch=...``).
    _config.yml names no repository: a fork changes _site.py only."""
    from armlab import _site

    options = dict(config.html_theme_options or {})
    options["repository_url"] = _site.REPOSITORY
    options["repository_branch"] = _site.BRANCH
    options["use_repository_button"] = True
    host = _site.REPOSITORY.lower()
    # The theme knows three forges by their host; any other (a course's own GitLab, a
    # plain git server) is given as a GitLab, whose links the theme builds from the full URL.
    options["repository_provider"] = next(
        (name for name in ("github", "gitlab", "bitbucket") if f"{name}." in host), "gitlab")
    launch = dict(options.get("launch_buttons") or {})
    launch.pop("jupyterhub_url", None)
    if _site.JUPYTERHUB_URL:
        launch["jupyterhub_url"] = _site.JUPYTERHUB_URL
    options["launch_buttons"] = launch
    config.html_theme_options = options


def _binder_git_link(app, pagename, templatename, context, doctree):
    """Binder's link to a repository on a host other than GitHub or GitLab.com escapes the
    whole URL (``/v2/git/<url-escaped repository>/<branch>``, BinderHub's git provider); the
    theme leaves its slashes, which BinderHub would read as the end of the URL."""
    from urllib.parse import quote, unquote

    for group in context.get("header_buttons") or []:
        if group.get("label") != "launch-buttons":
            continue
        for button in group.get("buttons", []):
            url = button.get("url", "")
            head, sep, tail = url.partition("/v2/git/")
            if button.get("text") != "Binder" or not sep:
                continue
            path, query_sep, query = tail.partition("?")
            repo, _, branch = path.rpartition("/")
            button["url"] = f"{head}/v2/git/{quote(unquote(repo), safe='')}/{branch}" \
                            f"{query_sep}{query}"


# -- the spatial labs' 3-D view ------------------------------------------------------------
#
# armlab/labs/static/armlab_view3d.js draws and turns the spatial labs' 3-D view. The book
# serves it from its own _static folder (copied there at build time: no CDN, no server) and
# loads it only on the pages that show the view, those whose HTML holds an armlab-view3d div.

_VIEW3D = "armlab_view3d.js"


_VIEW3D_FOLDER = pathlib.Path(__file__).resolve().parents[1] / "armlab" / "labs" / "static"


def _view3d_static_path(app, config):
    config.html_static_path.append(str(_VIEW3D_FOLDER))


def _view3d_copy(app, exception):
    # Sphinx copies the static files only when some page is rewritten: a change to the
    # script alone must reach the built book too.
    if exception is None and app.builder.format == "html":
        target = pathlib.Path(app.outdir) / "_static"
        if target.is_dir():
            shutil.copyfile(_VIEW3D_FOLDER / _VIEW3D, target / _VIEW3D)


def _view3d_script(app, pagename, templatename, context, doctree):
    if "armlab-view3d" in (context.get("body") or ""):
        app.add_js_file(_VIEW3D)


def setup(app):
    app.connect("config-inited", _view3d_static_path)
    app.connect("html-page-context", _view3d_script)
    app.connect("build-finished", _view3d_copy)
    app.connect("config-inited", _site_substitutions)
    app.connect("config-inited", _site_launch_buttons)
    app.connect("html-page-context", _drop_thebe, priority=900)
    app.connect("html-page-context", _binder_git_link, priority=900)  # after the theme's 501
    app.connect("missing-reference", _resolve_reference)
    app.connect("autodoc-process-docstring", _escape_shapes)
    app.connect("autodoc-skip-member", _skip_foreign)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
