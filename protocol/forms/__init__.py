"""Forms turn POST data into rules input, and rules errors into form errors.

They check only the shape of what was typed (a number is a number); every rule is the
engine's (``protocol.rules``), whose errors come back onto the fields they concern.
"""
