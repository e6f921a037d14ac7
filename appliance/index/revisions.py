"""Ordering drawing revisions, so a newer revision supersedes an older one."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"\d+")


def revision_key(revision: str) -> tuple[int, int, str]:
    """A sort key: empty < letters (A < B < ... < Z < AA) < numbers; ties broken by the text.

    Engineering drawings use letter revisions (A, B, C ... AA) or numeric ones (01, 02); a drawing
    revised from letters to numbers after release is ordered after all its letter revisions.
    """
    rev = revision.strip().upper()
    if not rev:
        return (0, 0, "")
    if rev.isalpha():
        value = 0
        for ch in rev:
            value = value * 26 + (ord(ch) - ord("A") + 1)
        return (1, value, rev)
    match = _NUMBER.search(rev)
    return (2, int(match.group()) if match else 0, rev)
