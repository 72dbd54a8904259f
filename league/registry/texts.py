"""The site's side of :mod:`protocol.rules.text`: form fields for free text and the check
for names nobody could tell apart (a club's members, the site's clubs).

Every form that stores a text uses :class:`NameField` (one line: members, guests, clubs,
seasons, places) or :class:`MultilineTextField` (reasons, notes). They store the text in NFC
and refuse, with the German message of the rules' text module naming the field, what the
rules engine would refuse inside a protocol: control characters, NUL, lone surrogates, a
name of invisible characters only, a text too long for its column.
"""

from __future__ import annotations

from django import forms

from protocol.rules import text


class NameField(forms.CharField):
    """One line of text (protocol.rules.text: a *name*)."""

    multiline = False

    def to_python(self, value):
        value = super().to_python(value)
        return text.normalise(value) if isinstance(value, str) else value

    def validate(self, value):
        super().validate(value)
        if value in self.empty_values:
            return
        problem = text.text_problem(value, str(self.label or ""), max_length=self.max_length,
                                    multiline=self.multiline, required=True)
        if problem:
            raise forms.ValidationError(problem, code="text")


class MultilineTextField(NameField):
    """A reason or a note: line breaks and tabs allowed."""

    multiline = True


def names_problem(names: list[str], field: str) -> str | None:
    """The first problem of a list of names typed into one field (e.g. the guests)."""
    for name in names:
        if problem := text.name_problem(name, field):
            return problem
    if pairs := text.lookalikes(names):
        return text.lookalike_message(*pairs[0])
    return None


def lookalike(rows, name: str, exclude_pk=None):
    """The row of ``rows`` (a queryset of members or clubs) whose name folds like ``name`` but
    is written differently ("bernd" for "Bernd", "1. ctv GEGEN alles!"), or None. Such a
    second row would be one more line in every list and table that nobody could tell from
    the first. The same name exactly is the caller's (its own message, or the unique index)."""
    key = text.fold(name)
    if exclude_pk is not None:
        rows = rows.exclude(pk=exclude_pk)
    for row in rows.only("pk", "name"):
        if row.name != name and text.fold(row.name) == key:
            return row
    return None


def lookalike_member(club, name: str, exclude_pk=None):
    """The club's member whose name looks like ``name`` (:func:`lookalike`)."""
    return lookalike(club.members.all(), name, exclude_pk)
