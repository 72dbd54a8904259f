"""Thin views: access-checked fetch -> form -> service -> redirect (architecture.md)."""
