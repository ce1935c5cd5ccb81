"""Who may enter a class, and how fast: join codes, teacher keys, the hashes kept of them, the
lock-out after wrong keys and the limits on joining and creating.

Why these numbers:

- a join code is 6 characters from a 31-letter alphabet without look-alikes (887 million codes),
  drawn with ``secrets``: at the rate the limits below allow, guessing one during a lesson's life
  is out of reach; it is projected and typed by students, so it is short;
- a teacher key is 15 Crockford base32 characters (75 random bits, more than the 72 of the keys
  before it), shown in three groups of five (``7K3QD-M9XTE-4HV2A``): no I, L, O or U, any case,
  hyphens and spaces ignored, so a key copied by hand onto paper and typed back always works. It
  is kept only as a slow salted hash (scrypt, about 30-60 ms here), which makes a stolen
  database slow to attack;
- a wrong key locks *the guesser* (their browser's learner token hash) out of that class for a
  time that doubles with each of their failures (1 s, 2 s, 4 s... up to a minute), on top of
  scrypt's own cost. The try is counted, and the lock set, before the key is hashed, so
  thirty tries sent at once cost one hash and the rest wait. Keyed to the guesser, a
  stranger's guesses slow the stranger down and never lock the teacher out; a new browser
  starts afresh, which is safe because at 1,000 guesses a second a 75-bit key lasts a million
  billion years;
- what fails is counted, not what succeeds (``tutor.classroom.tries``): wrong codes and wrong
  patterns per browser and per network client (``client_key``). A join with a right code is
  bounded by its browser and its class (seats, its own per-minute bucket, the lock, the second
  step), never by its address: a school is one address, and a budget of joins per address is
  one that a hall spends on its own, or that one student with a script spends for everybody;
- class creations are counted per minute per browser and per client, and the classes a client
  holds unused (never started) are bounded (``UNUSED_CLASSES_PER_CLIENT``): a school's
  teachers behind one address all open their classes on a morning, a flood from one address
  leaves at most that many behind, and no other address is ever refused for it. There is no
  bucket that every visitor shares: one stranger could fill it to refuse everybody else.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from datetime import timedelta
from types import MappingProxyType

from tutor.identity import (
    ALPHABET,
    InvalidRecoveryCodeError,
    group_code,
    parse_code,
    random_code,
    read_code,
    token_hash,
)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A teacher key's characters (Crockford base32, 5 bits each): 75 bits.
KEY_LENGTH = 15
#: scrypt's cost: about 30-60 ms a key here, which is what makes a stolen hash slow to attack.
SCRYPT_COST: Mapping[str, int] = MappingProxyType({"n": 2**14, "r": 8, "p": 1})
#: The cost ``hash_key`` uses: the app's (the tests put a cheap one here: ``tests/conftest.py``).
_SCRYPT: Mapping[str, int] = SCRYPT_COST
MAX_LOCK = timedelta(seconds=60)
#: The lock doubles with each failure up to ``MAX_LOCK``; the exponent stops here (2**6 s is past
#: a minute already), so that a thousand failures cannot overflow a ``timedelta``.
MAX_LOCK_EXPONENT = 6
#: How long a session is kept after its creation, then deleted with its answers.
RETENTION = timedelta(days=30)
#: Seats in one class: a lecture hall, not a bot farm (2,000 bots joined one class before).
MAX_SEATS = 300
#: Joins with a right code, a minute: from one browser (a reload or two, a second class), and
#: into one class, scaled to its seats: a full lecture hall joins in one minute with a retry
#: each, and the class's bucket only bounds the work of a flood from many addresses. No count
#: per address: a school is one address (its failures are what is counted:
#: ``tutor.classroom.tries``).
JOINS_PER_MINUTE = {"browser": 10, "class": 2 * MAX_SEATS}
#: Classes created a minute: from one browser (a teacher trying a few settings), and from one
#: network client (a school's thirty teachers behind one address, on a morning, all within a
#: minute). No server-wide bucket: one visitor could fill it and refuse every teacher.
CREATES_PER_MINUTE = {"browser": 5, "client": 30}
#: Classes one network client holds that were never started and are not yet expired: two
#: prepared ahead by each of a school's thirty teachers. What a flood from one address leaves
#: behind is bounded by it, and by ``UNSTARTED_RETENTION`` in time.
UNUSED_CLASSES_PER_CLIENT = 60
#: How long a class that never showed a question is kept: a teacher prepares a class in the
#: morning for the afternoon; a script's classes are gone the same day.
UNSTARTED_RETENTION = timedelta(hours=12)
#: IPv6 gives one household or phone a whole /64 network: a client is its /64, not one address.
IPV6_CLIENT_PREFIX = 64
#: The guesser of a teacher key when the request names no browser (scripts, tests).
ANONYMOUS = "anonymous"


def new_code() -> str:
    """A join code: ``CODE_LENGTH`` characters of ``CODE_ALPHABET`` from ``secrets``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: str) -> str:
    """A join code as typed (any case, spaces or a hyphen inside) in its stored form."""
    return "".join(raw.split()).replace("-", "").upper()


def new_key() -> str:
    """A teacher key as the teacher copies it: three groups of five Crockford characters.

    >>> key = new_key()
    >>> len(key), key.count("-"), canonical_key(key.lower().replace("-", " ")) == canonical_key(key)
    (17, 2, True)
    """
    return group_code(random_code(KEY_LENGTH))


def canonical_key(typed: str) -> str:
    """The key a teacher meant: read as Crockford (case, hyphens and spaces ignored, O as 0, I
    and L as 1). A key of another shape, from a class created before keys were written this way,
    is taken as typed (without the spaces around it), so that its teacher can still reopen it.

    >>> canonical_key("7k3qd m9xte-4hv2a")
    '7K3QDM9XTE4HV2A'
    >>> canonical_key("7K3QD-M9XTE-4HV2A") == canonical_key("7K3QD-M9XTE-4HVZA")
    False
    >>> canonical_key(" qivplEmNR9of ")  # an older key: as typed
    'qivplEmNR9of'
    """
    try:
        code = read_code(typed)
    except InvalidRecoveryCodeError:
        return typed.strip()
    return code if len(code) == KEY_LENGTH and set(code) <= set(ALPHABET) else typed.strip()


def hash_key(key: str, salt: bytes | None = None) -> str:
    """What the database keeps of a teacher key: ``scrypt$salt$digest`` of its canonical form."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(canonical_key(key).encode(), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def key_matches(key: str, stored: str) -> bool:
    _, salt_hex, _ = stored.split("$")
    return hmac.compare_digest(hash_key(key, bytes.fromhex(salt_hex)), stored)


def student_token_hash(token: str) -> str:
    """Student tokens are 128 random bits: a fast hash is enough to keep them out of the
    database."""
    return hashlib.sha256(token.encode()).hexdigest()


def learner_hash(learner_token: str) -> str:
    """What a class seat (or a class, or a throttle) keeps of a learner: the hash of their
    canonical token. Raises ``InvalidRecoveryCodeError`` for a malformed token."""
    return token_hash(parse_code(learner_token))


def client_key(address: str) -> str:
    """What the rate buckets keep of a network client: a hash of its IPv4 address or of its IPv6
    /64 network (``IPV6_CLIENT_PREFIX``: anything less would let one phone change address at each
    request). Hashed because an address is personal data; the counts are gone within the hour.

    >>> client_key("2001:db8::1") == client_key("2001:db8::ffff:1") != client_key("2001:db8:0:1::1")
    True
    >>> client_key("::ffff:203.0.113.7") == client_key("203.0.113.7") != client_key("203.0.113.8")
    True
    """
    text = address.strip()[:64]
    try:
        parsed = ipaddress.ip_address(text)
    except ValueError:
        canonical = text
    else:
        if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
            canonical = str(parsed.ipv4_mapped)
        elif isinstance(parsed, ipaddress.IPv6Address):
            canonical = str(ipaddress.ip_network(f"{parsed}/{IPV6_CLIENT_PREFIX}", strict=False))
        else:
            canonical = str(parsed)
    return hashlib.sha256(b"client:" + canonical.encode()).hexdigest()[:40]


def lock_for(failures: int) -> timedelta:
    """How long a guesser waits after ``failures`` wrong keys: 1 s, 2 s, 4 s... at most a minute.

    >>> [lock_for(n).total_seconds() for n in (1, 2, 3, 7, 1000)]
    [1.0, 2.0, 4.0, 60.0, 60.0]
    """
    exponent = min(max(failures - 1, 0), MAX_LOCK_EXPONENT)
    return min(timedelta(seconds=2**exponent), MAX_LOCK)
