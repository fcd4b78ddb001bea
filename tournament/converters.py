"""The numbers of the site's addresses (``tournament/urls.py``: ``<id:pk>``)."""

LARGEST_ID = 2_147_483_647  # the largest key of a table (PostgreSQL's integer)


class IdConverter:
    """Every number of an address (a key, a hand, a seat, a deal set; all start at 1), as
    strict as a number of a form or of the API's body: plain digits without a leading
    zero, at most the largest key (``<int:…>`` takes "01" and thirty digits). Anything
    else matches no address: a 404."""

    regex = "[1-9][0-9]{0,9}"
    largest = LARGEST_ID

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > self.largest:
            raise ValueError("beyond the largest key")  # Django: no match, a 404
        return number

    def to_url(self, value) -> str:
        number = int(value)
        if not 1 <= number <= self.largest:
            raise ValueError(f"{value!r} is no number of an address")
        return str(number)
