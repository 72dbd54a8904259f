"""A Partie as a document: protocol/1 files in and out (transfer; the files are read by
:mod:`protocol.rules.files`) and the whole database as a JSON backup (backup)."""
