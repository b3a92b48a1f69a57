#!/usr/bin/env python3
# bs-iafake: play a job's relay toward a waiting bsub -I* (the interactive
# link, proto/interactive.proto), to show who bsub turns away.
#
#   bs-iafake ADDRESS JOB_ID CREDENTIAL_FILE [NONCE]
#
# ADDRESS is tcp:IP:PORT or unix:PATH.  Sends a hello carrying the
# credential (the file's text, may be empty) and the nonce, then prints
# "accepted" when bsub answers with a reply frame, "refused" when it closes
# the connection, "unreachable: WHY" when it cannot connect.  Exit 0 in
# every case the link behaved; the test reads the word.
#
#   bs-iafake --listen PORT_FILE CREDENTIAL_FILE OUTPUT_FILE
#
# plays bsub instead: listens on 127.0.0.1 (port written to PORT_FILE),
# takes one relay's hello, answers with the credential (an impostor's), and
# writes every byte the relay sends afterwards to OUTPUT_FILE until the
# relay closes (60 s at most).
import socket
import struct
import sys


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def listen(portfile, credfile, outfile):
    cred = open(credfile, "rb").read().strip()
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    import os
    os.rename(portfile + ".tmp", portfile)
    ls.settimeout(60)
    c, _ = ls.accept()
    c.settimeout(60)
    hdr = b""
    while len(hdr) < 4:
        hdr += c.recv(4 - len(hdr))
    n = struct.unpack(">I", hdr)[0]
    body = b""
    while len(body) < n:
        body += c.recv(n - len(body))
    reply = field(2, field(1, cred))
    c.sendall(struct.pack(">I", len(reply)) + reply)
    with open(outfile, "wb") as out:
        while True:
            try:
                data = c.recv(65536)
            except OSError:
                break
            if not data:
                break
            out.write(data)
    return 0


def main():
    if sys.argv[1] == "--listen":
        return listen(sys.argv[2], sys.argv[3], sys.argv[4])
    address, job, credfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    nonce = sys.argv[4] if len(sys.argv) > 4 else ""
    cred = open(credfile, "rb").read().strip() if credfile != "-" else b""
    hello = varint(1 << 3 | 0) + varint(job) + field(3, b"vh1")
    if cred:
        hello += field(4, cred)
    if nonce:
        hello += field(5, nonce.encode())
    frame = field(1, hello)
    try:
        if address.startswith("unix:"):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(address[5:])
        else:
            host, port = address[4:].rsplit(":", 1)
            s = socket.create_connection((host, int(port)), timeout=10)
    except OSError as e:
        print("unreachable: %s" % e.strerror)
        return 0
    s.settimeout(15)
    s.sendall(struct.pack(">I", len(frame)) + frame)
    try:
        data = s.recv(4)
    except socket.timeout:
        print("no answer")
        return 0
    except OSError:
        data = b""
    print("accepted" if len(data) == 4 else "refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
