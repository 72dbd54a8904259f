"""What is recorded, in words and checks: the history as sentences (chronicle), the audit of
stored free text (text_audit), the demo club (demo)."""
