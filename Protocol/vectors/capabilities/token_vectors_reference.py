#!/usr/bin/env python3
"""Independent reference for Protocol/capabilities.md: builds token-vectors.json.

Ed25519 comes from `cryptography` (RFC 8032, deterministic, so its signatures equal
libsodium's crypto_sign_detached); the token layout, base64url and the link syntax are
written out below from the spec, without looking at the Swift code.

    python3 token_vectors_reference.py > token-vectors.json
"""
import base64, json, struct
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

CONTEXT = b'places/token/1\x00'
ROLES = {'viewer': 1, 'editor': 2}
INT64_MAX = 2**63 - 1


def keypair(seed):
    sk = Ed25519PrivateKey.from_private_bytes(seed)
    pk = sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return sk, pk


def body(f, *, magic=b'PLCT', version=1, role=None, flags=None, hint_lengths=None, hint_count=None):
    """The token layout before the signature. Keyword overrides write out-of-range values
    for the invalid cases; without them the fields go in exactly as the spec says."""
    fl = (1 if f.get('audience') else 0) | (2 if f.get('expiresMs') is not None else 0) \
        | (4 if f.get('uses') is not None else 0)
    out = magic + bytes([version]) + f['doc']
    out += bytes([ROLES[f['role']] if role is None else role, fl if flags is None else flags])
    out += f['issuer']
    if f.get('audience'):
        out += f['audience']
    out += struct.pack('>Q', f['notBeforeMs'])
    if f.get('expiresMs') is not None:
        out += struct.pack('>Q', f['expiresMs'])
    out += f['tokenId']
    if f.get('uses') is not None:
        out += struct.pack('>I', f['uses'])
    out += struct.pack('>I', f['epoch']) + f['documentKey']
    hints = [h if isinstance(h, bytes) else h.encode('utf-8') for h in f.get('addressHints', [])]
    out += bytes([len(hints) if hint_count is None else hint_count])
    for i, h in enumerate(hints):
        out += bytes([len(h) if hint_lengths is None else hint_lengths[i]]) + h
    return out


def sign(sk, b):
    return sk.sign(CONTEXT + b)


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b'=').decode('ascii')


def link(doc, encoded):
    return 'places://join/' + doc.hex() + '#' + b64url(encoded)


def main():
    seed_owner = bytes(range(0x40, 0x60))
    seed_joiner = bytes(range(0x60, 0x80))
    seed_other = bytes(range(0x80, 0xa0))
    sk_owner, pk_owner = keypair(seed_owner)
    _, pk_joiner = keypair(seed_joiner)
    _, pk_other = keypair(seed_other)
    doc = bytes.fromhex('0f1e2d3c4b5a69788796a5b4c3d2e1f0')
    other_doc = bytes.fromhex('00112233445566778899aabbccddeeff')
    doc_key = bytes(range(0xc0, 0xe0))

    keys = [{'name': n, 'seed': s.hex(), 'publicKey': p.hex(), 'secretKey': (s + p).hex()}
            for n, s, p in (('owner', seed_owner, pk_owner), ('joiner', seed_joiner, pk_joiner),
                            ('other', seed_other, pk_other))]

    base = {'doc': doc, 'issuer': pk_owner, 'documentKey': doc_key}
    inputs = {
        'viewer-minimal': dict(base, role='viewer', notBeforeMs=1775808000000,
                               tokenId=bytes(range(0x10, 0x20)), epoch=1),
        'editor-full': dict(base, role='editor', audience=pk_joiner, notBeforeMs=1775808000000,
                            expiresMs=1776412800000, tokenId=bytes(range(0x20, 0x30)), uses=3,
                            addressHints=['192.168.1.20:7420', '[fe80::1c2b:3aff:fe4d:5e6f]:7420'],
                            epoch=7),
        # Every field at a limit: not_before 0, expires = max int64, max uses and epoch,
        # four hints, one of exactly 64 bytes, one non-ASCII.
        'viewer-limits': dict(base, role='viewer', notBeforeMs=0, expiresMs=INT64_MAX,
                              tokenId=bytes([0xff] * 16), uses=0xffffffff, epoch=0xffffffff,
                              addressHints=['a' * 58 + '.:1234', 'café.local:7420', 'x:1', '[::1]:65535']),
        'editor-one-use': dict(base, role='editor', notBeforeMs=1775808000000, expiresMs=1775808000001,
                               tokenId=bytes(range(0x30, 0x40)), uses=1, epoch=2,
                               addressHints=['peer.example:7420']),
    }
    assert len(inputs['viewer-limits']['addressHints'][0].encode()) == 64

    tokens, encoded_by_name = [], {}
    for name, f in inputs.items():
        b = body(f)
        sig = sign(sk_owner, b)
        enc = b + sig
        encoded_by_name[name] = enc
        fields = {
            'issuerKey': 'owner', 'doc': f['doc'].hex(), 'role': f['role'],
            'audienceKey': 'joiner' if f.get('audience') else None,
            'notBeforeMs': f['notBeforeMs'], 'expiresMs': f.get('expiresMs'),
            'tokenId': f['tokenId'].hex(), 'uses': f.get('uses'),
            'addressHints': f.get('addressHints', []), 'epoch': f['epoch'],
            'documentKey': f['documentKey'].hex(),
        }
        tokens.append({'name': name, 'fields': fields, 'id': f['tokenId'].hex(),
                       'signedBytes': (CONTEXT + b).hex(), 'signature': sig.hex(),
                       'encoded': enc.hex(), 'link': link(f['doc'], enc)})

    full = inputs['editor-full']
    full_enc = encoded_by_name['editor-full']
    minimal_enc = encoded_by_name['viewer-minimal']

    def resigned(f, **overrides):
        """A token that breaks exactly one rule but is otherwise well formed and signed."""
        b = body(f, **overrides)
        return b + sign(sk_owner, b)

    def flip(raw, index, mask=0x01):
        out = bytearray(raw)
        out[index] ^= mask
        return bytes(out)

    # Offsets inside editor-full: magic 0, version 4, doc 5, role 21, flags 22, issuer 23,
    # audience 55, not_before 87, expires 95, token_id 103, uses 119, epoch 123, doc_key 127.
    invalid = [
        ('empty', b'', 'malformed', 'magic'),
        ('truncated-in-magic', b'PLC', 'malformed', 'magic'),
        ('truncated-in-issuer', full_enc[:40], 'malformed', 'issuer'),
        ('truncated-signature', full_enc[:-1], 'malformed', 'signature'),
        ('trailing-byte', full_enc + b'\x00', 'malformed', 'trailing'),
        ('too-long', full_enc + bytes(600), 'malformed', 'bytes long'),
        ('bad-magic', b'PLCX' + full_enc[4:], 'malformed', 'magic'),
        ('bad-version', full_enc[:4] + b'\x02' + full_enc[5:], 'malformed', 'version'),
        ('role-zero', resigned(full, role=0), 'malformed', 'role'),
        ('role-three', resigned(full, role=3), 'malformed', 'role'),
        ('unknown-flag', resigned(full, flags=0x0f), 'malformed', 'flags'),
        ('expires-not-after-not-before', resigned(dict(full, expiresMs=full['notBeforeMs'])),
         'malformed', 'expires'),
        ('not-before-over-int64', resigned(dict(full, notBeforeMs=2**63, expiresMs=2**63 + 1)),
         'malformed', 'not_before'),
        ('expires-over-int64', resigned(dict(full, expiresMs=2**64 - 1)), 'malformed', 'expires'),
        ('zero-uses', resigned(dict(full, uses=0)), 'malformed', 'uses'),
        ('five-hints', resigned(dict(full, addressHints=['h:1'] * 5)), 'malformed', 'hint_count'),
        ('empty-hint', resigned(dict(full, addressHints=['h:1', b''])), 'malformed', 'hints[1]'),
        ('hint-65-bytes', resigned(dict(full, addressHints=['h' * 63 + ':1'])), 'malformed', 'hints[0]'),
        ('hint-not-utf8', resigned(dict(full, addressHints=[b'h\xff:1'])), 'malformed', 'UTF-8'),
        ('truncated-in-hints', body(full)[:-3], 'malformed', 'hints[1]'),
        ('hint-count-past-end', body(full, hint_count=3), 'malformed', 'hints[2]'),
        # These decode; only the signature check refuses them.
        ('tampered-epoch', flip(full_enc, 126), 'badSignature', None),
        ('tampered-role', full_enc[:21] + b'\x01' + full_enc[22:], 'badSignature', None),
        ('tampered-signature', flip(full_enc, len(full_enc) - 1, 0x80), 'badSignature', None),
        ('other-issuer', full_enc[:23] + pk_other + full_enc[55:], 'badSignature', None),
    ]
    invalid_tokens = [{'name': n, 'encoded': raw.hex(), 'code': code, 'messageMentions': m}
                      for n, raw, code, m in invalid]

    # Time window [notBefore, expires) and audience, for the editor-full token.
    nb, ex = full['notBeforeMs'], full['expiresMs']
    checks = [
        {'token': 'editor-full', 'nowMs': nb, 'presenterKey': 'joiner', 'code': None},
        {'token': 'editor-full', 'nowMs': ex - 1, 'presenterKey': None, 'code': None},
        {'token': 'editor-full', 'nowMs': nb - 1, 'presenterKey': 'joiner', 'code': 'notYetValid'},
        {'token': 'editor-full', 'nowMs': ex, 'presenterKey': 'joiner', 'code': 'expired'},
        {'token': 'editor-full', 'nowMs': nb, 'presenterKey': 'other', 'code': 'wrongAudience'},
        {'token': 'viewer-minimal', 'nowMs': 2**62, 'presenterKey': 'other', 'code': None},
        {'token': 'viewer-limits', 'nowMs': INT64_MAX - 1, 'presenterKey': None, 'code': None},
        {'token': 'editor-one-use', 'nowMs': 1775808000001, 'presenterKey': None, 'code': 'expired'},
    ]

    full_b64 = b64url(full_enc)
    padded = base64.urlsafe_b64encode(full_enc).decode('ascii')
    assert padded.endswith('='), 'editor-full must need padding for the padded-base64 case'
    assert len(b64url(minimal_enc)) % 4 == 0, 'viewer-minimal + one character must be an impossible length'
    # A last character with non-zero unused bits: same length, one step up in the alphabet.
    alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    noncanon = full_b64[:-1] + alphabet[alphabet.index(full_b64[-1]) + 1]
    standard = base64.b64encode(minimal_enc).decode('ascii').rstrip('=')
    assert '+' in standard or '/' in standard, 'viewer-minimal must show a standard-base64 character'
    prefix = 'places://join/'
    invalid_links = [
        ('empty', '   ', 'malformed', 'empty'),
        ('web-address', 'https://example.com/join/' + doc.hex() + '#' + full_b64, 'malformed', 'web address'),
        ('wrong-scheme', 'place://join/' + doc.hex() + '#' + full_b64, 'malformed', 'places://join/'),
        ('wrong-action', 'places://open/' + doc.hex() + '#' + full_b64, 'malformed', 'places://join/'),
        ('no-fragment', prefix + doc.hex(), 'malformed', "after '#'"),
        ('empty-fragment', prefix + doc.hex() + '#', 'malformed', "after '#'"),
        ('short-doc', prefix + doc.hex()[:31] + '#' + full_b64, 'malformed', '32'),
        ('non-hex-doc', prefix + 'g' + doc.hex()[1:] + '#' + full_b64, 'malformed', 'hex'),
        ('doc-slash', prefix + doc.hex() + '/#' + full_b64, 'malformed', "'/'"),
        ('wrong-document', prefix + other_doc.hex() + '#' + full_b64, 'wrongDocument', other_doc.hex()),
        ('padded-base64', prefix + doc.hex() + '#' + padded, 'malformed', 'padding'),
        ('standard-base64', prefix + doc.hex() + '#' + standard, 'malformed', 'base64url'),
        ('non-canonical-end', prefix + doc.hex() + '#' + noncanon, 'malformed', 'last character'),
        ('impossible-length', prefix + doc.hex() + '#' + b64url(minimal_enc) + 'A', 'malformed', 'length'),
        ('space-inside', prefix + doc.hex() + '#' + full_b64[:40] + ' ' + full_b64[40:], 'malformed',
         'line breaks'),
        ('truncated-token', prefix + doc.hex() + '#' + b64url(full_enc[:-3]), 'malformed', 'cut short'),
        ('unicode-in-token', prefix + doc.hex() + '#' + full_b64[:10] + 'é' + full_b64[11:], 'malformed',
         'non-ASCII'),
    ]
    invalid_link_cases = [{'name': n, 'text': t, 'code': c, 'messageMentions': m}
                          for n, t, c, m in invalid_links]

    full_link = link(doc, full_enc)
    link_variants = [
        {'name': 'surrounding-whitespace', 'text': ' \n\t' + full_link + '\r\n ', 'canonical': full_link},
        {'name': 'uppercase-doc', 'text': prefix + doc.hex().upper() + '#' + full_b64, 'canonical': full_link},
        {'name': 'capitalised-prefix', 'text': 'Places://Join/' + doc.hex() + '#' + full_b64,
         'canonical': full_link},
    ]

    print(json.dumps({
        'context': CONTEXT.hex(),
        'keys': keys,
        'tokens': tokens,
        'invalidTokens': invalid_tokens,
        'checks': checks,
        'invalidLinks': invalid_link_cases,
        'linkVariants': link_variants,
    }, indent=2, ensure_ascii=False))


if __name__ == '__main__':
    main()
