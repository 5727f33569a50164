#!/usr/bin/env python3
"""Reference QR Code matrices for QRCodeTests, made with segno (https://pypi.org/project/segno/).

    pip install segno==1.6.6
    python3 Tests/PlacesQRTests/Fixtures/qr/make_fixtures.py

Writes, next to this script, `cases.json` (name, text, error-correction level, version, mask, and whether
the version is the smallest that holds the text) and one `<name>.txt` per case: the module matrix without
the quiet zone, one row per line, `1` dark and `0` light.

Every case fixes version, level and mask, so the Swift encoder can be compared module for module with
`QRCode(encoding:correction:version:mask:)`. Texts are encoded in byte mode as UTF-8 without ECI.

segno 1.6.6 appends eight zero bits instead of none when the bit stream already ends on a codeword
boundary after the terminator (https://github.com/heuer/segno/issues/148); in byte mode that is always
the case, so segno emits a 0x00 codeword where ISO/IEC 18004 7.4.10 puts the first 0xEC pad codeword.
Decoders read both, but the modules differ, so this script patches that one function to the standard
behaviour (pad only up to the next boundary). Everything else (Reed-Solomon, block interleaving,
placement, masks, format and version information) is segno's own.
"""

import base64
import hashlib
import json
import os

import segno
from segno import encoder

assert segno.__version__ == "1.6.6", f"made with segno 1.6.6, found {segno.__version__}"


def _write_padding_bits(buff, version, length):
    # ISO/IEC 18004:2015 7.4.10: pad with zero bits *to* the codeword boundary (none if already there).
    buff.extend([0] * (-length % 8))


encoder.write_padding_bits = _write_padding_bits


def base64url(seed, length):
    """Deterministic base64url text (no padding) of the given length."""
    out = ""
    block = seed.encode()
    while len(out) < length:
        block = hashlib.sha256(block).digest()
        out += base64.urlsafe_b64encode(block).decode().rstrip("=")
    return out[:length]


DOC = "0123456789abcdef0123456789abcdef"


def link(total_bytes, seed):
    """A share link of `total_bytes` bytes: 47 bytes of prefix and document id, then a base64url fragment."""
    prefix = f"places://join/{DOC}#"
    return prefix + base64url(seed, total_bytes - len(prefix))


# (name, text, level, mask, version or None for the smallest that fits)
CASES = [
    ("short", "Places!", "M", 0, None),
    ("short-v10", "Places!", "L", 1, 10),
    ("url-100", "https://Example.org/Places/Join?Doc=0123456789ABCDEF&Role=Editor&Lang=en-GB&Via=QR"
     "#Section-Two_x9", "Q", 3, None),
    ("link-200", link(200, "a"), "M", 2, None),
    ("link-250", link(250, "b"), "M", 5, None),
    ("link-250-h", link(250, "b"), "H", 4, None),
    ("link-400", link(400, "c"), "L", 7, None),
    ("utf8", "Café “Zum Löwen” — Straße 7, 東京 🚀 places://join/" + DOC, "Q", 6, None),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    manifest = []
    for name, text, level, mask, version in CASES:
        smallest = segno.make_qr(text, error=level, mode="byte", encoding="utf-8", boost_error=False).version
        qr = segno.make_qr(text, error=level, version=version or smallest, mask=mask, mode="byte",
                           encoding="utf-8", boost_error=False)
        assert qr.mask == mask and qr.error == level
        rows = ["".join(str(bit) for bit in row) for row in qr.matrix]
        with open(os.path.join(here, f"{name}.txt"), "w", encoding="ascii") as file:
            file.write("\n".join(rows) + "\n")
        manifest.append({
            "name": name,
            "text": text,
            "correction": level,
            "version": qr.version,
            "mask": mask,
            "smallestVersion": version is None,
            "bytes": len(text.encode("utf-8")),
        })
        print(f"{name}: {len(text.encode('utf-8'))} bytes, version {qr.version}-{level}, mask {mask}")
    with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as file:
        json.dump({"cases": manifest}, file, ensure_ascii=False, indent=2)
        file.write("\n")


if __name__ == "__main__":
    main()
