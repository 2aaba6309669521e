#!/usr/bin/env python3
"""Prints OpenSSL's certificate verification texts for the knowledge base's
check (crates/kb/tests/runtimes.rs) as `openssl/NAME<TAB>TEXT` lines.

Every X509_V_ERR_ code in CODES is printed with libcrypto's own string,
`X509_verify_cert_error_string(code)`, called through ctypes. Then, where
the `openssl` command is installed, a few of the errors are made to happen
for real: certificates are generated in a temporary directory, a TLS
handshake runs in memory between two `ssl` objects, and the client's
`SSLCertVerificationError.verify_message` is printed under the name of its
`verify_code`. Standard library only.
"""

import ctypes
import ctypes.util
import os
import shutil
import ssl
import subprocess
import sys
import tempfile

# X509_V_ERR_* from OpenSSL 3.0's include/openssl/x509_vfy.h (X509_V_OK, 0,
# is no error and has no entry).
CODES = [
    ("UNSPECIFIED", 1),
    ("UNABLE_TO_GET_ISSUER_CERT", 2),
    ("UNABLE_TO_GET_CRL", 3),
    ("UNABLE_TO_DECRYPT_CERT_SIGNATURE", 4),
    ("UNABLE_TO_DECRYPT_CRL_SIGNATURE", 5),
    ("UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY", 6),
    ("CERT_SIGNATURE_FAILURE", 7),
    ("CRL_SIGNATURE_FAILURE", 8),
    ("CERT_NOT_YET_VALID", 9),
    ("CERT_HAS_EXPIRED", 10),
    ("CRL_NOT_YET_VALID", 11),
    ("CRL_HAS_EXPIRED", 12),
    ("ERROR_IN_CERT_NOT_BEFORE_FIELD", 13),
    ("ERROR_IN_CERT_NOT_AFTER_FIELD", 14),
    ("ERROR_IN_CRL_LAST_UPDATE_FIELD", 15),
    ("ERROR_IN_CRL_NEXT_UPDATE_FIELD", 16),
    ("OUT_OF_MEM", 17),
    ("DEPTH_ZERO_SELF_SIGNED_CERT", 18),
    ("SELF_SIGNED_CERT_IN_CHAIN", 19),
    ("UNABLE_TO_GET_ISSUER_CERT_LOCALLY", 20),
    ("UNABLE_TO_VERIFY_LEAF_SIGNATURE", 21),
    ("CERT_CHAIN_TOO_LONG", 22),
    ("CERT_REVOKED", 23),
    ("NO_ISSUER_PUBLIC_KEY", 24),
    ("PATH_LENGTH_EXCEEDED", 25),
    ("INVALID_PURPOSE", 26),
    ("CERT_UNTRUSTED", 27),
    ("CERT_REJECTED", 28),
    ("SUBJECT_ISSUER_MISMATCH", 29),
    ("AKID_SKID_MISMATCH", 30),
    ("AKID_ISSUER_SERIAL_MISMATCH", 31),
    ("KEYUSAGE_NO_CERTSIGN", 32),
    ("UNABLE_TO_GET_CRL_ISSUER", 33),
    ("UNHANDLED_CRITICAL_EXTENSION", 34),
    ("KEYUSAGE_NO_CRL_SIGN", 35),
    ("UNHANDLED_CRITICAL_CRL_EXTENSION", 36),
    ("INVALID_NON_CA", 37),
    ("PROXY_PATH_LENGTH_EXCEEDED", 38),
    ("KEYUSAGE_NO_DIGITAL_SIGNATURE", 39),
    ("PROXY_CERTIFICATES_NOT_ALLOWED", 40),
    ("INVALID_EXTENSION", 41),
    ("INVALID_POLICY_EXTENSION", 42),
    ("NO_EXPLICIT_POLICY", 43),
    ("DIFFERENT_CRL_SCOPE", 44),
    ("UNSUPPORTED_EXTENSION_FEATURE", 45),
    ("UNNESTED_RESOURCE", 46),
    ("PERMITTED_VIOLATION", 47),
    ("EXCLUDED_VIOLATION", 48),
    ("SUBTREE_MINMAX", 49),
    ("APPLICATION_VERIFICATION", 50),
    ("UNSUPPORTED_CONSTRAINT_TYPE", 51),
    ("UNSUPPORTED_CONSTRAINT_SYNTAX", 52),
    ("UNSUPPORTED_NAME_SYNTAX", 53),
    ("CRL_PATH_VALIDATION_ERROR", 54),
    ("PATH_LOOP", 55),
    ("SUITE_B_INVALID_VERSION", 56),
    ("SUITE_B_INVALID_ALGORITHM", 57),
    ("SUITE_B_INVALID_CURVE", 58),
    ("SUITE_B_INVALID_SIGNATURE_ALGORITHM", 59),
    ("SUITE_B_LOS_NOT_ALLOWED", 60),
    ("SUITE_B_CANNOT_SIGN_P_384_WITH_P_256", 61),
    ("HOSTNAME_MISMATCH", 62),
    ("EMAIL_MISMATCH", 63),
    ("IP_ADDRESS_MISMATCH", 64),
    ("DANE_NO_MATCH", 65),
    ("EE_KEY_TOO_SMALL", 66),
    ("CA_KEY_TOO_SMALL", 67),
    ("CA_MD_TOO_WEAK", 68),
    ("INVALID_CALL", 69),
    ("STORE_LOOKUP", 70),
    ("NO_VALID_SCTS", 71),
    ("PROXY_SUBJECT_NAME_VIOLATION", 72),
    ("OCSP_VERIFY_NEEDED", 73),
    ("OCSP_VERIFY_FAILED", 74),
    ("OCSP_CERT_UNKNOWN", 75),
    ("UNSUPPORTED_SIGNATURE_ALGORITHM", 76),
    ("SIGNATURE_ALGORITHM_MISMATCH", 77),
    ("SIGNATURE_ALGORITHM_INCONSISTENCY", 78),
    ("INVALID_CA", 79),
    ("PATHLEN_INVALID_FOR_NON_CA", 80),
    ("PATHLEN_WITHOUT_KU_KEY_CERT_SIGN", 81),
    ("KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA", 82),
    ("ISSUER_NAME_EMPTY", 83),
    ("SUBJECT_NAME_EMPTY", 84),
    ("MISSING_AUTHORITY_KEY_IDENTIFIER", 85),
    ("MISSING_SUBJECT_KEY_IDENTIFIER", 86),
    ("EMPTY_SUBJECT_ALT_NAME", 87),
    ("EMPTY_SUBJECT_SAN_NOT_CRITICAL", 88),
    ("CA_BCONS_NOT_CRITICAL", 89),
    ("AUTHORITY_KEY_IDENTIFIER_CRITICAL", 90),
    ("SUBJECT_KEY_IDENTIFIER_CRITICAL", 91),
    ("CA_CERT_MISSING_KEY_USAGE", 92),
    ("EXTENSIONS_REQUIRE_VERSION_3", 93),
    ("EC_KEY_EXPLICIT_PARAMS", 94),
]
NAMES = {code: name for name, code in CODES}

# What libcrypto returns for a code it has no text for: never printed.
FALLBACK = "unknown certificate verification error"

# Python words these itself (the host, email or address is part of it), so
# their verify_message is not libcrypto's string.
PYTHON_WORDED = {62, 63, 64}


def show(name, text):
    print(f"openssl/{name}\t{text}")


def libcrypto():
    """X509_verify_cert_error_string of OpenSSL 3's libcrypto (the one the
    ssl module links on current systems), else of the one find_library finds."""
    names = ["libcrypto.so.3", ctypes.util.find_library("crypto")]
    for name in filter(None, names):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        f = lib.X509_verify_cert_error_string
        f.argtypes = [ctypes.c_long]
        f.restype = ctypes.c_char_p
        return f
    sys.exit("openssl.py: libcrypto not found (tried libcrypto.so.3 and find_library('crypto'))")


def print_table():
    text_of = libcrypto()
    for name, code in CODES:
        text = text_of(code).decode()
        if text != FALLBACK:
            show(name, text)


# A configuration of our own, so the system's openssl.cnf does not add
# extensions: `req` makes CA certificates, `ca` signs with chosen dates.
CONFIG = """\
[req]
distinguished_name = dn
prompt = no
x509_extensions = v3_ca
[dn]
CN = errdex test
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign, digitalSignature
subjectKeyIdentifier = hash
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost
[ca]
default_ca = ca_default
[ca_default]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
"""


def openssl(*args, cwd):
    subprocess.run(
        ["openssl", *args],
        cwd=cwd,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "OPENSSL_CONF": os.path.join(cwd, "openssl.cnf")},
    )


def make_certificates(d):
    """Writes the keys and certificates the handshakes use into d."""
    with open(os.path.join(d, "openssl.cnf"), "w") as f:
        f.write(CONFIG)
    open(os.path.join(d, "index.txt"), "w").close()
    with open(os.path.join(d, "serial"), "w") as f:
        f.write("1000\n")
    conf = ["-config", "openssl.cnf"]
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    # A CA, and a server certificate it signs.
    openssl("req", *conf, "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem",
            "-days", "2", "-subj", "/CN=errdex test CA", cwd=d)
    openssl("req", *conf, "-new", *key, "-keyout", "leaf.key", "-out", "leaf.csr",
            "-subj", "/CN=localhost", cwd=d)
    openssl("ca", *conf, "-batch", "-notext", "-cert", "ca.pem", "-keyfile", "ca.key",
            "-extensions", "leaf", "-days", "2", "-in", "leaf.csr", "-out", "leaf.pem",
            cwd=d)
    # Self-signed certificates: a current one, an expired one and one whose
    # validity starts in 2099.
    openssl("req", *conf, "-x509", *key, "-keyout", "self.key", "-out", "self.pem",
            "-days", "2", "-subj", "/CN=localhost", cwd=d)
    for name, start, end in [
        ("expired", "20000101000000Z", "20010101000000Z"),
        ("future", "20990101000000Z", "20990201000000Z"),
    ]:
        openssl("req", *conf, "-new", *key, "-keyout", f"{name}.key",
                "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=d)
        openssl("ca", *conf, "-batch", "-notext", "-selfsign", "-keyfile", f"{name}.key",
                "-extensions", "v3_ca", "-startdate", start, "-enddate", end,
                "-in", f"{name}.csr", "-out", f"{name}.pem", cwd=d)
    # Weak ones: a 1024-bit RSA key, and a server certificate signed with SHA-1.
    openssl("req", *conf, "-x509", "-newkey", "rsa:1024", "-nodes", "-keyout", "weak.key",
            "-out", "weak.pem", "-days", "2", "-subj", "/CN=localhost", cwd=d)
    openssl("req", *conf, "-new", *key, "-keyout", "sha1.key", "-out", "sha1.csr",
            "-subj", "/CN=localhost", cwd=d)
    openssl("ca", *conf, "-batch", "-notext", "-md", "sha1", "-cert", "ca.pem",
            "-keyfile", "ca.key", "-extensions", "leaf", "-days", "2", "-in", "sha1.csr",
            "-out", "sha1.pem", cwd=d)
    with open(os.path.join(d, "chain.pem"), "w") as out:
        for part in ("leaf.pem", "ca.pem"):
            with open(os.path.join(d, part)) as f:
                out.write(f.read())


def verify_error(d, cert, key, trusted, weak=False):
    """Runs a TLS handshake in memory: the server presents cert (a PEM file
    that may hold a chain), the client trusts only the trusted files. Gives
    the client's SSLCertVerificationError, or None. A weak server runs at
    security level 0 so that it loads its weak certificate; the client keeps
    Python's default level."""
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    if weak:
        server_ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
    server_ctx.load_cert_chain(os.path.join(d, cert), os.path.join(d, key))
    client_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client_ctx.check_hostname = False
    for t in trusted:
        client_ctx.load_verify_locations(cafile=os.path.join(d, t))
    to_server, to_client = ssl.MemoryBIO(), ssl.MemoryBIO()
    s_in, s_out = ssl.MemoryBIO(), ssl.MemoryBIO()
    client = client_ctx.wrap_bio(to_client, to_server, server_hostname="localhost")
    server = server_ctx.wrap_bio(s_in, s_out, server_side=True)
    for _ in range(10):
        try:
            client.do_handshake()
            return None
        except ssl.SSLCertVerificationError as e:
            return e
        except ssl.SSLWantReadError:
            pass
        s_in.write(to_server.read())
        try:
            server.do_handshake()
        except ssl.SSLWantReadError:
            pass
        to_client.write(s_out.read())
    return None


# (what it shows, server certificate, its key, what the client trusts,
# whether the server needs security level 0 to load it)
HANDSHAKES = [
    ("a self-signed server certificate", "self.pem", "self.key", [], False),
    ("a server certificate whose issuer the client lacks", "leaf.pem", "leaf.key",
     ["self.pem"], False),
    ("a chain ending in an untrusted root", "chain.pem", "leaf.key", [], False),
    ("an expired certificate", "expired.pem", "expired.key", ["expired.pem"], False),
    ("a certificate valid from 2099", "future.pem", "future.key", ["future.pem"], False),
    ("a 1024-bit RSA key", "weak.pem", "weak.key", ["weak.pem"], True),
    ("a certificate signed with SHA-1", "sha1.pem", "sha1.key", ["ca.pem"], True),
]


def print_real_errors():
    if shutil.which("openssl") is None:
        print("openssl.py: no openssl command: real handshakes skipped", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as d:
        try:
            make_certificates(d)
        except subprocess.CalledProcessError as e:
            print(f"openssl.py: making certificates failed, real handshakes skipped: "
                  f"{' '.join(e.cmd)}: {e.stderr.decode(errors='replace')}", file=sys.stderr)
            return
        for what, cert, key, trusted, weak in HANDSHAKES:
            try:
                e = verify_error(d, cert, key, trusted, weak)
            except ssl.SSLError as other:
                print(f"openssl.py: {what}: {other}", file=sys.stderr)
                continue
            if e is None:
                print(f"openssl.py: {what}: verified, nothing to print", file=sys.stderr)
            elif e.verify_code in NAMES and e.verify_code not in PYTHON_WORDED:
                show(NAMES[e.verify_code], e.verify_message)


if __name__ == "__main__":
    print_table()
    print_real_errors()
