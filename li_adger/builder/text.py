"""Clean the free-text annotations of the source files (notes and typo remarks)."""

from __future__ import annotations

import contextlib
import re

__all__ = ["clean_note", "repair_mojibake"]


def _chars(first: int, last: int) -> str:
    """Regex class body: the characters bytes ``first``..``last`` become when read as
    Latin-1 or as Windows-1252."""
    out = []
    for code in range(first, last + 1):
        out.append(chr(code))
        with contextlib.suppress(UnicodeDecodeError):
            out.append(bytes([code]).decode("cp1252"))
    return "".join(re.escape(ch) for ch in dict.fromkeys(out))


_CONT = _chars(0x80, 0xBF)
_LEAD2, _LEAD3, _LEAD4 = _chars(0xC2, 0xDF), _chars(0xE0, 0xEF), _chars(0xF0, 0xF4)
# A UTF-8 byte sequence that was decoded one byte per character.
_MOJIBAKE = re.compile(f"[{_LEAD2}][{_CONT}]|[{_LEAD3}][{_CONT}]{{2}}|[{_LEAD4}][{_CONT}]{{3}}")


def _plausible(ch: str) -> bool:
    # Latin letters, combining marks, general punctuation, currency, letterlike symbols,
    # number forms, arrows and mathematical operators: what English annotations use.
    code = ord(ch)
    return code < 0x370 or 0x2000 <= code < 0x2400


def _fix(match: re.Match[str]) -> str:
    seq = match.group(0)
    raw = bytes(ch.encode("cp1252")[0] if ord(ch) > 0xFF else ord(ch) for ch in seq)
    try:
        fixed = raw.decode("utf-8")
    except UnicodeDecodeError:
        return seq
    return fixed if all(_plausible(ch) for ch in fixed) else seq


def repair_mojibake(text: str | None) -> str | None:
    """Undo UTF-8 text that was decoded as Windows-1252 or Latin-1 (``â\\x80\\x98`` → ``‘``).

    Each byte sequence of a UTF-8 character shown one byte per character is decoded back,
    when the result is a Latin letter, punctuation, arrow or similar symbol; everything else
    is left alone, so proper text comes back unchanged and the repair is idempotent.
    ``None`` stays ``None``.

    Examples
    --------
    >>> repair_mojibake("â\\x80\\x98Brain' â\\x86\\x92 'Brian'")
    "‘Brain' → 'Brian'"
    >>> repair_mojibake("â€˜do' â†’ 'are'")
    "‘do' → 'are'"
    >>> repair_mojibake("‘Brain' â†’ 'Brian'")  # partly broken
    "‘Brain' → 'Brian'"
    >>> repair_mojibake("entrÃ©e")
    'entrée'
    >>> repair_mojibake("‘Brain' → 'Brian'"), repair_mojibake("entrée"), repair_mojibake(None)
    ("‘Brain' → 'Brian'", 'entrée', None)
    >>> repair_mojibake("é‘’")  # would decode to a CJK character: not mojibake
    'é‘’'
    """
    if text is None:
        return None
    for _ in range(3):  # undo up to three rounds of double encoding
        fixed = _MOJIBAKE.sub(_fix, text)
        if fixed == text:
            break
        text = fixed
    return text


def clean_note(text: str | None) -> str | None:
    """A note as stored in the dataset: mojibake repaired, outer spaces removed, empty → ``None``.

    Examples
    --------
    >>> clean_note("  ‘the'→ 'that'; "), clean_note(""), clean_note("   ")
    ("‘the'→ 'that';", None, None)
    """
    if text is None:
        return None
    text = repair_mojibake(text).strip()
    return text or None
