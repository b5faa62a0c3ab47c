"""The book's interactive labs, one module per chapter: ``<chapter>_lab()`` in each.

Every lab subclasses :class:`armlab.labs._base.Lab`: widgets in, one figure
whose artists move in place, a table of the chapter's quantities, presets named
after the chapter's worked examples. ``import armlab`` does not import this
package (it needs matplotlib and ipywidgets). A chapter ``<c>``'s module
``armlab/labs/<c>.py`` names its lab class ``<C>Lab`` (``forward_dynamics``:
``ForwardDynamicsLab``), its factory ``<c>_lab`` and its presets ``<C>_PRESETS``;
those three are gathered here from every module, so a new chapter's lab is its
module alone.
"""

import importlib
import pkgutil

from armlab.labs._base import CUSTOM, Lab, axis_top

__all__ = ["Lab", "CUSTOM", "axis_top"]

for _chapter in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name[0] != "_"):
    _module = importlib.import_module(f"{__name__}.{_chapter}")
    _names = ["".join(w.title() for w in _chapter.split("_")) + "Lab", f"{_chapter}_lab",
              f"{_chapter.upper()}_PRESETS"]
    globals().update({name: getattr(_module, name) for name in _names})
    __all__ += _names
del _chapter, _module, _names
