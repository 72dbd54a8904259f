"""Accounts for a club that runs Trumpfbuch on its own, without a mail server.

first_run.py    a site without clubs: its first club and secretary (page and create_club)
invitations.py  one-time, expiring links to set a password, handed out by the secretary
qr.py           the QR code of such a link, as inline SVG
forms.py        the forms of these pages; views.py and urls.py the pages themselves
"""
