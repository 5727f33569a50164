#!/usr/bin/env python3
"""Development tool: prints the folding table of Sources/PlacesModel/NameFolding+Table.swift.

For every code point below U+0250 (ASCII, Latin-1 Supplement, Latin Extended-A and -B) it
gives two bytes: the ASCII the code point folds to (0, 1 or 2 letters or digits), or one of
the markers below. Run it with Python 3 (standard library only) and paste its output.
"""
import re
import unicodedata

DROP, SPACE, KEEP = (0, 0), (0x20, 0), (0xFF, 0)  # KEEP: the scalar's own lowercase form

SPECIAL = {
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l",
    "đ": "d", "Đ": "d", "þ": "th", "Þ": "th", "œ": "oe", "Œ": "oe", "ı": "i", "ð": "d",
    "Ð": "d", "ħ": "h", "Ħ": "h", "ŧ": "t", "Ŧ": "t", "ĸ": "k", "ſ": "s", "ŀ": "l", "Ŀ": "l",
    "ŉ": "n", "ƒ": "f", "Ŋ": "ng", "ŋ": "ng", "ƿ": "w", "Ƿ": "w", "ȝ": "gh", "Ȝ": "gh",
    "ʒ": "z", "Ʒ": "z", "ƹ": "z", "Ƹ": "z", "ǝ": "e", "Ǝ": "e", "ə": "e", "Ə": "e",
    "ɐ": "a", "ɔ": "o", "Ɔ": "o", "ɛ": "e", "Ɛ": "e", "ĳ": "ij", "Ĳ": "ij",
}
APOSTROPHES = {"'", "`", "´"}


def fold(cp):
    ch = chr(cp)
    if ch in APOSTROPHES:
        return DROP
    if ch in SPECIAL:
        s = SPECIAL[ch]
        return (ord(s[0]), ord(s[1]) if len(s) > 1 else 0)
    cat = unicodedata.category(ch)
    if cat == "Cf":  # invisible format characters (soft hyphen): dropped, not separators
        return DROP
    if ch.isascii():
        if ch.isalnum():
            return (ord(ch.lower()), 0)
        return SPACE
    if cat[0] in "PZSC":
        return SPACE
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)).lower()
    base = "".join(c for c in base if c.isascii() and c.isalnum())
    if 1 <= len(base) <= 2:
        return (ord(base[0]), ord(base[1]) if len(base) > 1 else 0)
    m = re.fullmatch(r"LATIN (SMALL|CAPITAL) LETTER ([A-Z]{1,2})( WITH .*)?", unicodedata.name(ch, ""))
    if m:
        s = m.group(2).lower()
        return (ord(s[0]), ord(s[1]) if len(s) > 1 else 0)
    return KEEP


pairs = [fold(cp) for cp in range(0x250)]
print("    static let table: [UInt8] = [")
for row in range(0, 0x250, 8):
    cells = ", ".join(f"0x{a:02X}, 0x{b:02X}" for a, b in pairs[row:row + 8])
    print(f"        {cells},  // U+{row:04X}")
print("    ]")
