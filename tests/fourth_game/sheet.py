"""The Zählspiel's printed sheet and blank sheet: the plain list of points per player."""

from functools import partial

from protocol.sheet import plain

render = plain.render
render_blank = partial(plain.render_blank, "zaehlspiel")
