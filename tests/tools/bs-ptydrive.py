#!/usr/bin/env python3
# bs-ptydrive: run a command on a fresh pseudo-terminal, as a person at a
# terminal would, following a script of steps read from stdin:
#
#   timeout SECONDS          the deadline of each later wait (default 30)
#   expect REGEX             wait until the screen output (since the last
#                            match) matches REGEX (Python re, DOTALL)
#   send TEXT                type TEXT; \r \n \x03 (^C) \x1a (^Z) \x04 are
#                            understood (Python string escapes)
#   resize ROWS COLS         resize the terminal (the kernel sends SIGWINCH)
#   signal NAME              send signal NAME (TERM, HUP...) to the command
#   close                    close the terminal (a hang-up)
#   run SHELL-COMMAND        run it with sh -c (the test's environment);
#                            the step fails when it exits non-zero
#   exit CODE                wait for the command to end with exit code CODE
#   sha256 BYTES HEX         read BYTES bytes of output and compare their
#                            sha256 (after the last match; pty CR LF turned
#                            back into LF)
#
# --size ROWS COLS sets the first window size; --screen FILE saves all the
# output read (not counting what sha256 consumed) at the end.
# Exits 0 when every step passed; otherwise prints the failing step and the
# end of the screen, and kills the command's process group.  Used by the
# interactive job tests (tests/integration/t077*); every wait has a deadline.
import hashlib
import os
import pty
import re
import select
import signal
import struct
import sys
import fcntl
import termios
import time


def main():
    args = sys.argv[1:]
    rows, cols = 24, 80
    screen = None
    while args and args[0].startswith("--"):
        if args[0] == "--screen":
            screen = args[1]
            args = args[2:]
        elif args[0] == "--size":
            rows, cols = int(args[1]), int(args[2])
            args = args[3:]
        elif args[0] == "--":
            args = args[1:]
            break
        else:
            sys.exit("bs-ptydrive: unknown option " + args[0])
    pid, fd = pty.fork()
    if pid == 0:
        # The first size is set here, before the command runs: set from
        # the parent it raced the command, which could read the new
        # terminal's 0x0 first (and see the change before it handled
        # SIGWINCH, so never learn of it).
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execvp(args[0], args)
    buf = bytearray()
    pos = 0
    status = None
    eof = False
    limit = 30.0

    def pump(timeout):
        nonlocal eof
        if eof:
            time.sleep(min(timeout, 0.05))
            return
        r, _, _ = select.select([fd], [], [], timeout)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                eof = True
            buf.extend(data)

    def reap():
        nonlocal status
        if status is None:
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                status = st

    def save():
        if screen is not None:
            with open(screen, "wb") as f:
                f.write(bytes(buf))

    def fail(msg):
        save()
        tail = bytes(buf[-4000:]).decode("utf-8", "replace")
        print("bs-ptydrive: " + msg)
        print("bs-ptydrive: screen ends with:\n" + tail)
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        sys.exit(1)

    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, _, rest = line.strip().partition(" ")
        if word == "timeout":
            limit = float(rest)
        elif word == "expect":
            rx = re.compile(rest.encode(), re.S)
            deadline = time.monotonic() + limit
            while True:
                m = rx.search(buf, pos)
                if m:
                    pos = m.end()
                    break
                if time.monotonic() > deadline:
                    fail("timed out expecting " + rest)
                pump(0.1)
        elif word == "send":
            os.write(fd, rest.encode().decode("unicode_escape").encode("latin-1"))
        elif word == "resize":
            r, c = rest.split()
            fcntl.ioctl(fd, termios.TIOCSWINSZ,
                        struct.pack("HHHH", int(r), int(c), 0, 0))
        elif word == "signal":
            os.kill(pid, getattr(signal, "SIG" + rest.strip()))
        elif word == "run":
            rc = os.system(rest)
            if rc != 0:
                fail("run %s: status %d" % (rest, rc))
        elif word == "close":
            os.close(fd)
            eof = True
        elif word == "sha256":
            parts = rest.split()
            want, hexd = int(parts[0]), parts[1]
            deadline = time.monotonic() + limit
            h = hashlib.sha256()
            got = 0
            pending = b""
            while got < want:
                if pos < len(buf):
                    chunk = pending + bytes(buf[pos:])
                    del buf[:]
                    pos = 0
                    # CR LF from the pty's ONLCR back to LF; keep a
                    # trailing CR until its LF arrives.
                    pending = b""
                    if chunk.endswith(b"\r"):
                        chunk, pending = chunk[:-1], b"\r"
                    chunk = chunk.replace(b"\r\n", b"\n")
                    take = chunk[:want - got]
                    h.update(take)
                    got += len(take)
                    buf.extend(chunk[len(take):])
                    continue
                if time.monotonic() > deadline:
                    fail("timed out after %d of %d bytes" % (got, want))
                if eof:
                    fail("end of output after %d of %d bytes" % (got, want))
                pump(0.2)
            if h.hexdigest() != hexd:
                fail("sha256 mismatch: %s != %s" % (h.hexdigest(), hexd))
        elif word == "exit":
            parts = rest.split()
            code = int(parts[0])
            deadline = time.monotonic() + limit
            while status is None:
                if time.monotonic() > deadline:
                    fail("timed out waiting for exit %d" % code)
                pump(0.1)
                reap()
            got = os.waitstatus_to_exitcode(status)
            if got != code:
                fail("exit code %d, expected %d" % (got, code))
        else:
            fail("unknown step: " + line)
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
