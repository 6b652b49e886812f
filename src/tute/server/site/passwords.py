"""Passwords: argon2id hashes (argon2-cffi, RFC 9106's parameters) and the rules a new
password must meet -- at least 8 characters, at most 128, not one of the commonest, not
the account's name."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from tute.core.errors import TuteError
from tute.server.site.names import name_key

MIN_LENGTH = 8
MAX_LENGTH = 128
_HASHER = PasswordHasher()                 # argon2id, 64 MiB, 3 passes, 4 lanes
# the commonest passwords of leaked lists, and those a Spanish card site invites
COMMON = frozenset(["123456", "1234567", "12345678", "123456789", "1234567890", "0123456789", "987654321", "111111", "11111111", "000000", "00000000", "123123", "12341234", "112233", "121212", "654321", "666666", "696969", "7777777", "88888888", "password", "password1", "password123", "passw0rd", "qwerty", "qwertyui", "qwerty123", "qwertyuiop", "asdfghjk", "asdfasdf", "zxcvbnm", "abc123", "abcd1234", "abcdefg", "abcdefgh", "iloveyou", "letmein", "welcome", "welcome1", "monkey", "dragon", "football", "baseball", "sunshine", "princess", "master", "superman", "trustno1", "starwars", "whatever", "contraseña", "contrasena", "micontraseña", "12345678a", "a1234567", "aaaaaaaa", "tutetute", "tute1234", "tute12345", "tutetute1", "guiñote", "guinote123", "cuarenta", "lascuarenta", "espana123", "españa", "barcelona", "realmadrid", "madrid123", "senha123", "senhasenha", "password!", "q1w2e3r4", "1q2w3e4r", "1qaz2wsx"])


class PasswordError(TuteError):
    """A password refused at registration, or a wrong one at login."""


def check_new(password: object, name: str) -> str:
    """The password if it may be used, else a :class:`PasswordError` saying why."""
    if not isinstance(password, str) or len(password) < MIN_LENGTH:
        raise PasswordError("password_short", min=MIN_LENGTH)
    if len(password) > MAX_LENGTH:
        raise PasswordError("password_long", max=MAX_LENGTH)
    folded = password.casefold()
    if folded in COMMON or len(set(folded)) <= 2:
        raise PasswordError("password_common")
    if _is_name(name_key(password), name_key(name)):
        raise PasswordError("password_is_name")   # "Ana", "ana2024", "Ana12345"...
    return password


def _is_name(password: str, name: str) -> bool:
    """Whether a password is the name with a little around it: what is left without
    the name is short, digits only, a common password, or one sign repeated."""
    if not name or name not in password:
        return False
    rest = "".join(ch for ch in password.replace(name, "") if ch.isalnum())
    return (len(rest) < 6 or rest.isdigit() or rest in COMMON or len(set(rest)) <= 2
            or rest in "0123456789876543210" or rest in "abcdefghijklmnopqrstuvwxyz")


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


@cache
def _dummy() -> str:
    """A hash to check against when there is no such account: the answer takes as long
    (made at the first such login, not at import: every server start was 0.2 s slower)."""
    return _HASHER.hash("no such account: a password nobody has")


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes (always as slow: ``stored`` None
    checks a dummy hash, so timing does not tell whether an account exists)."""
    try:
        _HASHER.verify(stored or _dummy(), password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return stored is not None


def needs_rehash(stored: str) -> bool:
    return _HASHER.check_needs_rehash(stored)
