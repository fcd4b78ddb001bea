"""The hasher for players' PINs (tournament.services.pins).

A PIN of 4 digits has 10,000 values: no work factor protects it from someone holding its
hash, and what protects it at the table is the lock after a few wrong tries. So the PIN hash
only keeps the PIN out of sight (salted PBKDF2 like account passwords, few rounds), cheap
enough that an approval with a PIN costs a few milliseconds, not the third of a second an
account password's hash takes. Account passwords keep Django's default hasher.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class PinHasher(PBKDF2PasswordHasher):
    algorithm = "pbkdf2_sha256_pin"
    iterations = 1_000
