"""Bibliography labels that read like the citations in the text (a local Sphinx extension).

The book cites with ``bibtex_reference_style: author_year``, so the text shows
"[Auer et al., 2002]". pybtex's ``plain`` style would label the same entry "[3]" on the
references page, and a reader could not match the two. This registers a pybtex formatting
style, ``author_year_plain``: ``plain`` (same entries, same order) whose labels are built by
the very template sphinxcontrib-bibtex uses for the in-text citation, so both always agree.
Registering a pybtex style from the Sphinx configuration is how sphinxcontrib-bibtex documents
custom styles; Jupyter Book 1 loads this file through ``sphinx.local_extensions``.
"""

from __future__ import annotations

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinxcontrib.bibtex.plugin import find_plugin
from sphinxcontrib.bibtex.style.template import join, year

STYLE_NAME = "author_year_plain"


class AuthorYearLabelStyle(BaseLabelStyle):
    """Labels such as "Auer et al., 2002", exactly as the author_year citations print them."""

    def format_labels(self, sorted_entries):
        reference_style = find_plugin("sphinxcontrib.bibtex.style.referencing", "author_year")()
        template = join(sep=reference_style.author_year_sep)[
            reference_style.person.author_or_editor_or_title(full=False), year
        ]
        for entry in sorted_entries:
            data = {"entry": entry, "style": reference_style}
            yield template.format_data(data).render_as("text")


class AuthorYearPlainStyle(PlainStyle):
    default_label_style = AuthorYearLabelStyle


def setup(app):
    register_plugin("pybtex.style.formatting", STYLE_NAME, AuthorYearPlainStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
