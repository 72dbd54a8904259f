"""What a phone sends: an entry handed over to the offline queue's JSON endpoint
(protocol/views/sync.py), as static/js/offline/entry.js posts it."""

import json
import uuid

from django.urls import reverse


def hand_over(client, match, **payload):
    """POST ``payload`` to the match's endpoint, typed on the match's version with a new one-time
    id and, for a new entry, for the next place of the Partie (unless given)."""
    url = reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk})
    payload = {"version": match.version, "submission": str(uuid.uuid4())} | payload
    if payload.get("kind") != "correction":  # a new entry names the place it was typed for
        payload.setdefault("position", match.events.count())
    return client.post(url, json.dumps(payload), content_type="application/json")
