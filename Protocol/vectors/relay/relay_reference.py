#!/usr/bin/env python3
"""Independent reference for Protocol/relay.md §2 (relay links) and §4.1 (signed access lists).

Writes relay-vectors.json beside this file:

    python3 relay_reference.py

Ed25519 comes from `cryptography` (RFC 8032, deterministic: its signatures equal
libsodium's crypto_sign_detached); base64url is base64.urlsafe_b64encode without padding.
The layout and the reading rules are written from the spec, without looking at the Swift
code; every vector is checked against the reader below before it is written.
"""
import base64
import json
import os
import re
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

HERE = os.path.dirname(os.path.abspath(__file__))
CONTEXT = b"places/relaylink/1\x00"
PREFIX = "places://relay/"
MIN_SIZE = 1 + 32 + 16 + 8 + 1 + 2 + 64
MAX_SIZE = 1 + 32 + 16 + 8 + 1 + 4 * (1 + 64) + 64
HOSTNAME = re.compile(rb"^[^:\[\]/@\\?# \x00-\x1f\x7f]+$")
BRACKETED = re.compile(rb"^\[[A-Za-z0-9:.%_-]*:[A-Za-z0-9:.%_-]*\]$")


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public(private):
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def is_host_port(raw):
    host, sep, port = raw.rpartition(b":")
    if not sep or not host or not re.fullmatch(rb"[1-9][0-9]{0,4}", port) or int(port) > 65535:
        return False
    return bool(BRACKETED.match(host) if host.startswith(b"[") else HOSTNAME.match(host))


def issue(private, link_id, addresses, expires_ms):
    body = b"\x01" + public(private) + link_id + struct.pack(">Q", expires_ms) + bytes([len(addresses)])
    for address in addresses:
        raw = address.encode()
        body += bytes([len(raw)]) + raw
    return body + private.sign(CONTEXT + body)


def read(token):
    """Returns (relay key, id, expiresMs, addresses) or raises ValueError naming the rule."""
    if not MIN_SIZE <= len(token) <= MAX_SIZE or token[0] != 1:
        raise ValueError("malformed: length or version")
    expires = struct.unpack(">Q", token[49:57])[0]
    if not 1 <= expires <= 2**63 - 1:
        raise ValueError("malformed: expiry")
    count = token[57]
    if not 1 <= count <= 4:
        raise ValueError("malformed: address count")
    at, end, addresses = 58, len(token) - 64, []
    for _ in range(count):
        if at >= end:
            raise ValueError("malformed: cut short")
        length = token[at]
        at += 1
        if not 1 <= length <= 64 or length > end - at:
            raise ValueError("malformed: address length")
        raw = token[at:at + length]
        if not is_host_port(raw):
            raise ValueError("malformed: address")
        addresses.append(raw.decode("utf-8"))
        at += length
    if at != end:
        raise ValueError("malformed: trailing bytes")
    try:
        Ed25519PublicKey.from_public_bytes(token[1:33]).verify(token[end:], CONTEXT + token[:end])
    except (InvalidSignature, ValueError):
        raise ValueError("badSignature")
    return token[1:33], token[33:49], expires, addresses


ACCESS_CONTEXT = b"places/relay-access/1\x00"


def access_body(doc, epoch, issued_ms, owner_public, keys):
    """The signed part of an access list, keys in the order given (the writer sorts them)."""
    return (b"\x01" + doc + struct.pack(">I", epoch) + struct.pack(">Q", issued_ms) + owner_public
            + struct.pack(">H", len(keys)) + b"".join(keys))


def access_issue(owner, doc, epoch, issued_ms, keys, sort=True, signer=None):
    body = access_body(doc, epoch, issued_ms, public(owner), sorted(keys) if sort else keys)
    return body + (signer or owner).sign(ACCESS_CONTEXT + body)


def access_read(record):
    """Returns (doc, epoch, issuedMs, owner, keys) or raises ValueError naming the rule."""
    if not 159 <= len(record) <= 16511 or record[0] != 1:
        raise ValueError("malformed: length or version")
    epoch = struct.unpack(">I", record[17:21])[0]
    issued = struct.unpack(">Q", record[21:29])[0]
    if not 1 <= issued <= 2**63 - 1:
        raise ValueError("malformed: time")
    owner = record[29:61]
    count = struct.unpack(">H", record[61:63])[0]
    if not 1 <= count <= 512 or len(record) != 63 + 32 * count + 64:
        raise ValueError("malformed: count")
    keys = [record[63 + 32 * i:95 + 32 * i] for i in range(count)]
    if any(not a < b for a, b in zip(keys, keys[1:])):
        raise ValueError("malformed: keys not strictly ascending")
    try:
        Ed25519PublicKey.from_public_bytes(owner).verify(record[-64:], ACCESS_CONTEXT + record[:-64])
    except (InvalidSignature, ValueError):
        raise ValueError("badSignature")
    return record[1:17], epoch, issued, owner, keys


def access_vectors():
    owner = Ed25519PrivateKey.from_private_bytes(bytes(range(32, 64)))
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(64, 96)))
    members = [public(Ed25519PrivateKey.from_private_bytes(bytes([i]) * 32)) for i in (1, 2, 3)]
    doc = bytes(range(0xC0, 0xD0))
    keys = members + [public(owner)]
    valid = []
    for name, record in [
        ("owner-and-three", access_issue(owner, doc, 3, 1_800_000_000_000, keys)),
        ("owner-alone", access_issue(owner, doc, 0, 1, [public(owner)])),
    ]:
        d, epoch, issued, o, ks = access_read(record)
        valid.append({"name": name, "record": record.hex(), "doc": d.hex(), "epoch": epoch, "issuedMs": issued,
                      "owner": o.hex(), "keys": [k.hex() for k in ks]})
    good = access_issue(owner, doc, 3, 1_800_000_000_000, keys)
    flipped = bytearray(good)
    flipped[70] ^= 1
    invalid = [
        ("flipped-key-byte", bytes(flipped), "badSignature"),
        ("signed-by-another", access_issue(owner, doc, 3, 1_800_000_000_000, keys, signer=other), "badSignature"),
        ("truncated", good[:-1], "malformed"),
        ("trailing-byte", good + b"\x00", "malformed"),
        ("version-2", b"\x02" + good[1:], "malformed"),
        ("unsorted", access_issue(owner, doc, 3, 1_800_000_000_000, list(reversed(sorted(keys))), sort=False),
         "malformed"),
        ("duplicate-key", access_issue(owner, doc, 3, 1_800_000_000_000, [keys[0], keys[0]]), "malformed"),
        ("zero-time", access_issue(owner, doc, 3, 0, keys), "malformed"),
    ]
    out = []
    for name, record, why in invalid:
        try:
            access_read(record)
            raise SystemExit(f"{name} was read")
        except ValueError as error:
            assert str(error).startswith(why), (name, error)
        out.append({"name": name, "record": record.hex(), "error": why})
    return {"ownerSeed": bytes(range(32, 64)).hex(), "ownerKey": public(owner).hex(),
            "context": ACCESS_CONTEXT.decode("ascii"), "valid": valid, "invalid": out}


def main():
    relay = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    link_id = bytes(range(0xA0, 0xB0))
    good = issue(relay, link_id, ["relay.example.org:7478", "[2001:db8::1]:7478"], 1_800_000_000_000)
    one = issue(relay, link_id, ["192.0.2.7:7478"], 1_800_000_000_000)
    valid = []
    for name, token in [("two-addresses", good), ("one-address", one)]:
        key, lid, expires, addresses = read(token)
        valid.append({"name": name, "token": token.hex(), "text": PREFIX + b64(token), "relayKey": key.hex(),
                      "id": lid.hex(), "expiresMs": expires, "addresses": addresses})
    flipped = bytearray(good)
    flipped[20] ^= 1
    invalid = [
        ("flipped-key-byte", bytes(flipped), "badSignature"),
        ("truncated", good[:-1], "malformed"),
        ("trailing-byte", good + b"\x00", "malformed"),
        ("version-2", b"\x02" + good[1:], "malformed"),
        ("no-address", issue(relay, link_id, [], 1_800_000_000_000), "malformed"),
        ("bad-port", issue(relay, link_id, ["relay.example.org:07478"], 1_800_000_000_000), "malformed"),
        ("path-in-host", issue(relay, link_id, ["evil.org/x:7478"], 1_800_000_000_000), "malformed"),
        ("zero-expiry", issue(relay, link_id, ["192.0.2.7:7478"], 0), "malformed"),
    ]
    out = []
    for name, token, why in invalid:
        try:
            read(token)
            raise SystemExit(f"{name} was read")
        except ValueError as error:
            assert str(error).startswith(why), (name, error)
        out.append({"name": name, "token": token.hex(), "error": why})
    doc = {"relaySeed": bytes(range(32)).hex(), "relayKey": public(relay).hex(), "context": CONTEXT.decode("ascii"),
           "valid": valid, "invalid": out, "access": access_vectors()}
    with open(os.path.join(HERE, "relay-vectors.json"), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
