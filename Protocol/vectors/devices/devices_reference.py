#!/usr/bin/env python3
"""Independent reference for Protocol/devices.md §2, §3, §5.1 and §5.2: device
certificates, device revocations, pairing codes, pairing proofs and check codes.

Writes device-vectors.json beside this file:

    python3 devices_reference.py

Ed25519 signing comes from `cryptography` (RFC 8032, deterministic, so its signatures equal
libsodium's crypto_sign_detached). Whether a key is one that libsodium's
crypto_sign_ed25519_pk_to_curve25519 accepts (it decodes to a curve point, is not of small
order and lies in the prime-order subgroup) is decided by the curve arithmetic written out
below. Keyed BLAKE2b is hashlib's blake2b(key=..., digest_size=32) (libsodium's keyed
crypto_generichash), base32 is base64.b32encode without its padding. The layouts and the
reading rules are written from the spec, without looking at the Swift code; every vector is
checked against the readers below before it is written.
"""
import base64
import hashlib
import json
import os
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

HERE = os.path.dirname(os.path.abspath(__file__))

CERT_CONTEXT = b"places/device-cert/1\x00"
REVOCATION_CONTEXT = b"places/device-revoke/1\x00"
PROOF_CONTEXT = b"places/pair/1\x00"
CHECK_CONTEXT = b"places/pair-check/1\x00"
MAX_TIME_MS = 253_402_300_799_999
CERT_SIZE = 138
REVOCATION_SIZE = 137
CODE_PREFIX = "PLD1"
MAX_HINTS = 4
MAX_HINT_BYTES = 64
MAX_CODE_TEXT_BYTES = 4096
# Characters a code reader skips wherever they are (devices.md §5.1 names spaces and
# dashes; tabs and line breaks from a pasted code are skipped too).
IGNORED = " -\t\r\n"

# --- Ed25519 point arithmetic (RFC 8032 §5.1), only to tell valid public keys ----------

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENTITY = (0, 1, 1, 0)


def point_add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * t1 * t2 * D % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def point_mul(k, point):
    out = IDENTITY
    while k:
        if k & 1:
            out = point_add(out, point)
        point = point_add(point, point)
        k >>= 1
    return out


def is_identity(point):
    x, y, z, _ = point
    return x % P == 0 and (y - z) % P == 0


def decode_point(raw):
    """The point of a 32-byte encoding, or None (RFC 8032 §5.1.3, strict)."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    sign = raw[31] >> 7
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if v * x * x % P != u:
        if v * x * x % P != (-u) % P:
            return None
        x = x * SQRT_M1 % P
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def encode_point(point):
    x, y, z, _ = point
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def is_valid_key(raw):
    """What crypto_sign_ed25519_pk_to_curve25519 accepts: a point, not of small order, in
    the prime-order subgroup."""
    point = decode_point(raw)
    return point is not None and not is_identity(point_mul(8, point)) and is_identity(point_mul(L, point))


def not_on_curve_key():
    """The first encoding (y = 2, 3, ...) that is no curve point."""
    y = 2
    while decode_point(y.to_bytes(32, "little")) is not None:
        y += 1
    return y.to_bytes(32, "little")


def order_8_point():
    """A point of order 8: 8·P' for the cofactor part of some curve point P'."""
    y = 2
    while True:
        point = decode_point(y.to_bytes(32, "little"))
        if point is not None:
            torsion = point_mul(L, point)
            if not is_identity(point_mul(4, torsion)):
                return torsion
        y += 1


# --- Keys and records ------------------------------------------------------------------


def keypair(seed):
    sk = Ed25519PrivateKey.from_private_bytes(seed)
    pk = sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return sk, pk


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def cert_body(person, device, admin, issued_ms, *, record_type=1, flags=None):
    """The certificate before its signature (devices.md §2); overrides for invalid cases."""
    flag_byte = (1 if admin else 0) if flags is None else flags
    return bytes([record_type]) + person + device + bytes([flag_byte]) + struct.pack(">Q", issued_ms)


def revocation_body(person, device, revoked_ms, *, record_type=2):
    """The revocation before its signature (devices.md §3)."""
    return bytes([record_type]) + person + device + struct.pack(">Q", revoked_ms)


def read_record(raw, kind):
    """A reader of devices.md §2 / §3: the reason a record is refused, or None. The checks
    run in the order the Swift reader reports them."""
    size, record_type, context = (
        (CERT_SIZE, 1, CERT_CONTEXT) if kind == "certificate" else (REVOCATION_SIZE, 2, REVOCATION_CONTEXT))
    if len(raw) != size:
        return "wrong-length"
    if raw[0] != record_type:
        return "wrong-type"
    person, device = raw[1:33], raw[33:65]
    offset = 65
    if kind == "certificate":
        if raw[65] & 0xFE:
            return "unknown-flags"
        offset = 66
    (time_ms,) = struct.unpack(">Q", raw[offset:offset + 8])
    if time_ms > MAX_TIME_MS:
        return "time-out-of-range"
    if device == person:
        return "device-is-person"
    if not is_valid_key(person):
        return "invalid-person-key"
    if not is_valid_key(device):
        return "invalid-device-key"
    try:
        Ed25519PublicKey.from_public_bytes(person).verify(raw[size - 64:], context + raw[:size - 64])
    except InvalidSignature:
        return "bad-signature"
    return None


# --- Pairing codes ---------------------------------------------------------------------


def payload(person, secret, expires_ms, hints, *, version=1, hint_count=None, hint_lengths=None):
    """The code's payload (devices.md §5.1); overrides write out-of-range values."""
    raw_hints = [h if isinstance(h, bytes) else h.encode("utf-8") for h in hints]
    out = bytes([version]) + person + secret + struct.pack(">Q", expires_ms)
    out += bytes([len(raw_hints) if hint_count is None else hint_count])
    for i, h in enumerate(raw_hints):
        out += bytes([len(h) if hint_lengths is None else hint_lengths[i]]) + h
    return out


def checksum(raw_payload):
    return hashlib.blake2b(raw_payload, digest_size=32).digest()[:4]


def code_text(raw_payload, *, prefix=CODE_PREFIX, check=None):
    raw = raw_payload + (checksum(raw_payload) if check is None else check)
    return prefix + base64.b32encode(raw).decode("ascii").rstrip("=")


HOST_FORBIDDEN = set(":[]/@\\?#")
V6_ALLOWED = set("0123456789abcdefABCDEF:.%-_") | set("ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ")


def is_host_port(hint):
    """`host:port`: a port of 1...65535 without leading zeros after the last colon; a host
    that is a bracketed IPv6 address (hex digits, colons, dots, and an optional `%zone`) or a
    name without colons, brackets, `/ @ \\ ? #`, spaces or control characters."""
    host, sep, port = hint.rpartition(":")
    if not sep or not host or not port or len(port) > 5:
        return False
    if not all("0" <= c <= "9" for c in port) or port[0] == "0" or not 1 <= int(port) <= 65535:
        return False
    if host[0] == "[":
        inner = host[1:-1]
        return host[-1] == "]" and ":" in inner and all(c in V6_ALLOWED for c in inner)
    return all(c not in HOST_FORBIDDEN and ord(c) > 0x20 and ord(c) != 0x7F for c in host)


def read_code(text):
    """A reader of devices.md §5.1: (reason, None) or (None, fields). The checks run in the
    order the Swift reader reports them."""
    if len(text.encode("utf-8")) > MAX_CODE_TEXT_BYTES:
        return "too-long", None
    cleaned = "".join(c for c in text if c not in IGNORED)
    cleaned = "".join(c.upper() if "a" <= c <= "z" else c for c in cleaned)
    if not cleaned.startswith("PLD") or len(cleaned) < 4:
        return "wrong-prefix", None
    if cleaned[3] != "1":
        return ("unsupported-version", None) if "0" <= cleaned[3] <= "9" else ("wrong-prefix", None)
    body = cleaned[4:]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    if any(c not in alphabet for c in body):
        return "bad-character", None
    if len(body) % 8 in (1, 3, 6):
        return "not-base32", None
    raw = base64.b32decode(body + "=" * (-len(body) % 8))
    if base64.b32encode(raw).decode("ascii").rstrip("=") != body:
        return "not-base32", None  # non-zero unused bits in the last character
    if len(raw) < 1 + 32 + 16 + 8 + 1 + 4:
        return "too-short", None
    data, check = raw[:-4], raw[-4:]
    if checksum(data) != check:
        return "bad-checksum", None
    if data[0] != 1:
        return "unsupported-version", None
    person, secret = data[1:33], data[33:49]
    if not is_valid_key(person):
        return "invalid-person-key", None
    (expires_ms,) = struct.unpack(">Q", data[49:57])
    if expires_ms > MAX_TIME_MS:
        return "time-out-of-range", None
    count = data[57]
    if count > MAX_HINTS:
        return "too-many-hints", None
    offset, hints = 58, []
    for _ in range(count):
        if offset >= len(data):
            return "length-mismatch", None
        length = data[offset]
        offset += 1
        if not 1 <= length <= MAX_HINT_BYTES:
            return "bad-hint-length", None
        if offset + length > len(data):
            return "length-mismatch", None
        try:
            hint = data[offset:offset + length].decode("utf-8")
        except UnicodeDecodeError:
            return "bad-hint", None
        if not is_host_port(hint):
            return "bad-hint", None
        hints.append(hint)
        offset += length
    if offset != len(data):
        return "trailing-bytes", None
    return None, {"person": person, "secret": secret, "expiresMs": expires_ms, "hints": hints}


# --- Pairing proof and check code ------------------------------------------------------


def pairing_proof(secret, h, device, person):
    return hashlib.blake2b(PROOF_CONTEXT + h + device + person, key=secret, digest_size=32).digest()


def check_code(secret, h):
    mac = hashlib.blake2b(CHECK_CONTEXT + h, key=secret, digest_size=32).digest()
    return "%06d" % (struct.unpack(">I", mac[:4])[0] % 1_000_000)


# --- The vectors -----------------------------------------------------------------------


def main():
    seeds = {"person": bytes(range(0xA0, 0xC0)), "laptop": bytes(range(0xC0, 0xE0)),
             "phone": bytes(range(0xE0, 0x100)), "stranger": bytes(range(0x20, 0x40))}
    sks, pks = {}, {}
    for name, seed in seeds.items():
        sks[name], pks[name] = keypair(seed)
    keys = [{"name": n, "seed": s.hex(), "publicKey": pks[n].hex()} for n, s in seeds.items()]
    person, laptop, phone = pks["person"], pks["laptop"], pks["phone"]
    sk = sks["person"]

    def signed_cert(body, signer=sk, context=CERT_CONTEXT):
        return body + signer.sign(context + body)

    def signed_revocation(body, signer=sk, context=REVOCATION_CONTEXT):
        return body + signer.sign(context + body)

    def flip(raw, index, mask=0x01):
        out = bytearray(raw)
        out[index] ^= mask
        return bytes(out)

    certificates = []
    cert_inputs = [
        ("laptop-admin", "laptop", True, 1_775_808_000_000),
        ("phone", "phone", False, 1_775_808_060_000),
        ("phone-time-limits", "phone", False, MAX_TIME_MS),
        ("laptop-time-zero", "laptop", True, 0),
    ]
    encoded_certs = {}
    for name, device, admin, issued in cert_inputs:
        body = cert_body(person, pks[device], admin, issued)
        raw = signed_cert(body)
        assert len(raw) == CERT_SIZE and read_record(raw, "certificate") is None
        encoded_certs[name] = raw
        certificates.append({
            "name": name, "person": "person", "device": device, "admin": admin, "issuedMs": issued,
            "signedBytes": (CERT_CONTEXT + body).hex(), "signature": raw[74:].hex(), "encoded": raw.hex(),
            "base64url": b64url(raw)})
        assert len(b64url(raw)) == 184

    revocations = []
    encoded_revocations = {}
    for name, device, revoked in (("phone", "phone", 1_776_412_800_000), ("laptop-time-zero", "laptop", 0)):
        body = revocation_body(person, pks[device], revoked)
        raw = signed_revocation(body)
        assert len(raw) == REVOCATION_SIZE and read_record(raw, "revocation") is None
        encoded_revocations[name] = raw
        revocations.append({
            "name": name, "person": "person", "device": device, "revokedMs": revoked,
            "signedBytes": (REVOCATION_CONTEXT + body).hex(), "signature": raw[73:].hex(), "encoded": raw.hex(),
            "base64url": b64url(raw)})
        assert len(b64url(raw)) == 183

    off_curve = not_on_curve_key()
    small_order = bytes([1]) + bytes(31)  # the neutral point
    torsion = order_8_point()
    assert not is_valid_key(encode_point(torsion))
    mixed = encode_point(point_add(decode_point(phone), torsion))
    assert decode_point(mixed) is not None and not is_valid_key(mixed)
    for bad in (off_curve, small_order, mixed):
        assert not is_valid_key(bad)
    for good in (person, laptop, phone):
        assert is_valid_key(good)

    cert = encoded_certs["laptop-admin"]
    t = 1_775_808_000_000
    invalid_certs = [
        ("empty", b"", "wrong-length"),
        ("one-byte-short", cert[:-1], "wrong-length"),
        ("one-byte-long", cert + b"\x00", "wrong-length"),
        ("a-revocation", encoded_revocations["phone"], "wrong-length"),
        ("type-revocation", signed_cert(cert_body(person, laptop, True, t, record_type=2)), "wrong-type"),
        ("type-zero", signed_cert(cert_body(person, laptop, True, t, record_type=0)), "wrong-type"),
        ("flag-bit-1", signed_cert(cert_body(person, laptop, True, t, flags=0x03)), "unknown-flags"),
        ("flag-bit-7", signed_cert(cert_body(person, laptop, True, t, flags=0x80)), "unknown-flags"),
        ("time-after-9999", signed_cert(cert_body(person, laptop, True, MAX_TIME_MS + 1)), "time-out-of-range"),
        ("time-over-int64", signed_cert(cert_body(person, laptop, True, 2**63)), "time-out-of-range"),
        ("time-max-u64", signed_cert(cert_body(person, laptop, True, 2**64 - 1)), "time-out-of-range"),
        ("device-is-person", signed_cert(cert_body(person, person, True, t)), "device-is-person"),
        ("person-not-on-curve", cert_body(off_curve, laptop, True, t) + cert[74:], "invalid-person-key"),
        ("person-small-order", cert_body(small_order, laptop, True, t) + cert[74:], "invalid-person-key"),
        ("device-not-on-curve", signed_cert(cert_body(person, off_curve, True, t)), "invalid-device-key"),
        ("device-small-order", signed_cert(cert_body(person, small_order, True, t)), "invalid-device-key"),
        ("device-with-torsion", signed_cert(cert_body(person, mixed, True, t)), "invalid-device-key"),
        ("tampered-admin", flip(cert, 65), "bad-signature"),
        ("tampered-time", flip(cert, 73), "bad-signature"),
        ("tampered-device", cert[:33] + phone + cert[65:], "bad-signature"),
        ("tampered-signature", flip(cert, CERT_SIZE - 1, 0x40), "bad-signature"),
        ("signed-by-device", signed_cert(cert_body(person, laptop, True, t), signer=sks["laptop"]), "bad-signature"),
        ("revocation-context", signed_cert(cert_body(person, laptop, True, t), context=REVOCATION_CONTEXT),
         "bad-signature"),
        ("context-without-zero", signed_cert(cert_body(person, laptop, True, t), context=CERT_CONTEXT[:-1]),
         "bad-signature"),
    ]
    rev = encoded_revocations["phone"]
    r = 1_776_412_800_000
    invalid_revocations = [
        ("empty", b"", "wrong-length"),
        ("one-byte-short", rev[:-1], "wrong-length"),
        ("one-byte-long", rev + b"\x00", "wrong-length"),
        ("a-certificate", encoded_certs["phone"], "wrong-length"),
        ("type-certificate", signed_revocation(revocation_body(person, phone, r, record_type=1)), "wrong-type"),
        ("time-after-9999", signed_revocation(revocation_body(person, phone, MAX_TIME_MS + 1)), "time-out-of-range"),
        ("time-max-u64", signed_revocation(revocation_body(person, phone, 2**64 - 1)), "time-out-of-range"),
        ("device-is-person", signed_revocation(revocation_body(person, person, r)), "device-is-person"),
        ("person-not-on-curve", revocation_body(off_curve, phone, r) + rev[73:], "invalid-person-key"),
        ("person-small-order", revocation_body(small_order, phone, r) + rev[73:], "invalid-person-key"),
        ("device-not-on-curve", signed_revocation(revocation_body(person, off_curve, r)), "invalid-device-key"),
        ("device-with-torsion", signed_revocation(revocation_body(person, mixed, r)), "invalid-device-key"),
        ("tampered-time", flip(rev, 72), "bad-signature"),
        ("tampered-device", rev[:33] + laptop + rev[65:], "bad-signature"),
        ("tampered-signature", flip(rev, REVOCATION_SIZE - 1, 0x40), "bad-signature"),
        ("signed-by-device", signed_revocation(revocation_body(person, phone, r), signer=sks["phone"]),
         "bad-signature"),
        ("certificate-context", signed_revocation(revocation_body(person, phone, r), context=CERT_CONTEXT),
         "bad-signature"),
    ]
    for kind, cases in (("certificate", invalid_certs), ("revocation", invalid_revocations)):
        for name, raw, reason in cases:
            assert read_record(raw, kind) == reason, (kind, name, read_record(raw, kind), reason)

    # Pairing codes.
    code_inputs = [
        ("no-hints", bytes(range(0x10, 0x20)), 1_775_808_600_000, []),
        ("two-hints", bytes(range(0x20, 0x30)), 1_775_808_660_000,
         ["192.168.1.20:7420", "[fe80::1c2b:3aff:fe4d:5e6f]:7420"]),
        ("four-hints-limits", bytes([0xFF] * 16), MAX_TIME_MS,
         ["a" * 58 + ".:1234", "café.local:7420", "x:1", "[fe80::1%en0]:65535"]),
    ]
    assert len(code_inputs[2][3][0].encode()) == 64
    codes = []
    texts = {}
    for name, secret, expires, hints in code_inputs:
        raw = payload(person, secret, expires, hints)
        text = code_text(raw)
        reason, fields = read_code(text)
        assert reason is None and fields == {"person": person, "secret": secret, "expiresMs": expires,
                                             "hints": hints}, (name, reason)
        texts[name] = text
        codes.append({"name": name, "person": "person", "secret": secret.hex(), "expiresMs": expires,
                      "hints": hints, "payload": raw.hex(), "checksum": checksum(raw).hex(), "text": text})

    two = texts["two-hints"]
    grouped = "-".join(two[i:i + 4] for i in range(0, len(two), 4))
    variants = [
        ("lower-case", two.lower()),
        ("dash-groups", grouped),
        ("space-groups-mixed-case", " ".join(two[i:i + 5] for i in range(0, len(two), 5)).swapcase()),
        ("pasted-with-line-breaks", "\n  " + two[:50] + "\r\n" + two[50:] + "\t\n"),
    ]
    code_variants = []
    for name, text in variants:
        reason, fields = read_code(text)
        assert reason is None and code_text(payload(fields["person"], fields["secret"], fields["expiresMs"],
                                                    fields["hints"])) == two, name
        code_variants.append({"name": name, "text": text, "canonical": two})

    sec, exp = bytes(range(0x20, 0x30)), 1_775_808_660_000
    hints2 = code_inputs[1][3]

    def code_with(hints, **overrides):
        return code_text(payload(person, sec, exp, hints, **overrides))

    def replace_char(text, index, char):
        return text[:index] + char + text[index + 1:]

    body = two[4:]
    changed = "A" if body[40] != "A" else "B"
    invalid_codes = [
        ("empty", "", "wrong-prefix"),
        ("too-long", "PLD1" + "A" * MAX_CODE_TEXT_BYTES, "too-long"),
        ("wrong-prefix", "PLC1" + body, "wrong-prefix"),
        ("no-prefix", body, "wrong-prefix"),
        ("version-2-prefix", "PLD2" + body, "unsupported-version"),
        ("version-2-payload", code_text(payload(person, sec, exp, hints2, version=2)), "unsupported-version"),
        ("digit-zero", replace_char(two, 20, "0"), "bad-character"),
        ("digit-one", replace_char(two, 20, "1"), "bad-character"),
        ("padding", two + "=" * (-len(body) % 8 or 8), "bad-character"),
        ("non-ascii", replace_char(two, 20, "É"), "bad-character"),
        ("one-character-changed", replace_char(two, 44, changed), "bad-checksum"),
        ("two-characters-swapped", two[:30] + two[31] + two[30] + two[32:], "bad-checksum"),
        ("checksum-zeroed", code_text(payload(person, sec, exp, hints2), check=bytes(4)), "bad-checksum"),
        ("one-character-dropped", two[:-1], "not-base32"),
        ("non-canonical-end", None, "not-base32"),
        ("cut-in-half", two[:4 + (len(body) // 2 // 8) * 8], "too-short"),
        ("person-not-on-curve", code_text(payload(off_curve, sec, exp, hints2)), "invalid-person-key"),
        ("person-small-order", code_text(payload(small_order, sec, exp, hints2)), "invalid-person-key"),
        ("expires-after-9999", code_text(payload(person, sec, MAX_TIME_MS + 1, hints2)), "time-out-of-range"),
        ("five-hints", code_with(["h:1"] * 5), "too-many-hints"),
        ("hint-count-past-end", code_with(hints2, hint_count=3), "length-mismatch"),
        ("hint-length-past-end", code_with(["h:1"], hint_lengths=[4]), "length-mismatch"),
        ("empty-hint", code_with(["h:1", b""]), "bad-hint-length"),
        ("hint-65-bytes", code_with(["h" * 63 + ":1"]), "bad-hint-length"),
        ("hint-not-utf8", code_with([b"h\xff:1"]), "bad-hint"),
        ("hint-without-port", code_with(["192.168.1.20"]), "bad-hint"),
        ("hint-empty-port", code_with(["192.168.1.20:"]), "bad-hint"),
        ("hint-port-zero", code_with(["192.168.1.20:0"]), "bad-hint"),
        ("hint-port-65536", code_with(["192.168.1.20:65536"]), "bad-hint"),
        ("hint-port-leading-zero", code_with(["192.168.1.20:07420"]), "bad-hint"),
        ("hint-port-sign", code_with(["192.168.1.20:+7420"]), "bad-hint"),
        ("hint-empty-host", code_with([":7420"]), "bad-hint"),
        ("hint-bare-ipv6", code_with(["fe80::1:7420"]), "bad-hint"),
        ("hint-unclosed-bracket", code_with(["[fe80::1:7420"]), "bad-hint"),
        ("hint-space-in-host", code_with(["my laptop:7420"]), "bad-hint"),
        ("hint-url", code_with(["http://laptop:7420"]), "bad-hint"),
        ("trailing-byte", code_text(payload(person, sec, exp, hints2) + b"\x00"), "trailing-bytes"),
    ]
    # A last character with non-zero unused bits: the text of a payload whose base32 leaves
    # unused bits, with one of them set.
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    for text in texts.values():
        if (len(text) - 4) % 8 != 0:
            last = alphabet.index(text[-1])
            noncanon = text[:-1] + alphabet[last + 1]
            break
    invalid_codes = [(n, noncanon if t is None else t, reason) for n, t, reason in invalid_codes]
    for name, text, reason in invalid_codes:
        assert read_code(text)[0] == reason, (name, read_code(text)[0], reason)

    # Proofs and check codes: the two-hints code, joined by the phone, over two sessions.
    h_fixed = bytes(range(64))
    counter = 0
    while True:  # a handshake hash whose check code starts with a zero
        h_zero = hashlib.blake2b(b"places test handshake %d" % counter, digest_size=64).digest()
        if check_code(sec, h_zero).startswith("0"):
            break
        counter += 1
    proofs = []
    for name, h in (("fixed-h", h_fixed), ("leading-zero-check-code", h_zero)):
        proofs.append({
            "name": name, "code": "two-hints", "device": "phone", "handshakeHash": h.hex(),
            "proofMessage": (PROOF_CONTEXT + h + phone + person).hex(),
            "proof": pairing_proof(sec, h, phone, person).hex(),
            "checkMessage": (CHECK_CONTEXT + h).hex(),
            "checkCode": check_code(sec, h)})
    assert proofs[0]["proof"] != proofs[1]["proof"]

    out = {
        "about": "device certificates, revocations, pairing codes and proofs (Protocol/devices.md); "
                 "made by devices_reference.py",
        "certificateContext": CERT_CONTEXT.hex(),
        "revocationContext": REVOCATION_CONTEXT.hex(),
        "maxTimeMs": MAX_TIME_MS,
        "keys": keys,
        "certificates": certificates,
        "revocations": revocations,
        "invalidCertificates": [{"name": n, "encoded": raw.hex(), "reason": reason}
                                for n, raw, reason in invalid_certs],
        "invalidRevocations": [{"name": n, "encoded": raw.hex(), "reason": reason}
                               for n, raw, reason in invalid_revocations],
        "pairingCodes": codes,
        "pairingCodeVariants": code_variants,
        "invalidPairingCodes": [{"name": n, "text": t, "reason": reason} for n, t, reason in invalid_codes],
        "pairingProofs": proofs,
    }
    with open(os.path.join(HERE, "device-vectors.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
