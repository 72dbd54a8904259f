"""Publishing: a club's standings and tournament results for everyone, at stable addresses.

A club whose secretary publishes its results (``Club.published``) gets, per season, a public
page, an embed page for an iframe on the club's own website (only from the origins the club
lists, ``Club.embed_origins``, sent as the CSP's ``frame-ancestors``) and the same table as
CSV and JSON. Nothing private is published: no match pages, no Strafen or their reasons, no
member details beyond the display name. An unpublished club's addresses answer 404.
"""
