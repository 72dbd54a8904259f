"""A Partie as a document: protocol/1 files in and out (protocol_file, transfer) and the
whole database as a JSON backup (backup)."""
