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


def setup(app):
    app.connect("html-page-context", _drop_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
