"""Path converters: an id in a URL is a number the database can hold."""


class IdConverter:
    """1 to 18 digits: a bigger number can be no row's id (and would overflow the database)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)
