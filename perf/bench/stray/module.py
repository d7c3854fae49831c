#!/usr/bin/env python3
"""A module instance on a raw socket: answers GET ...?n=N with the body N, keeping the connection;
with --stray it sends a second answer 'stray-N' nobody asked for ~5 ms later (or at once when the
next request comes on that connection, whichever is first)."""
import re, select, socket, sys, threading
port = int(sys.argv[1]); stray = '--stray' in sys.argv
def raw(body): return ('HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s' % (len(body), body)).encode()
def serve(c):
    pending = b''; owed = None
    try:
        while True:
            r, _, _ = select.select([c], [], [], 0.005 if owed else 60)
            if not r:
                c.sendall(owed); owed = None; continue
            data = c.recv(65536)
            if not data: break
            pending += data
            while b'\r\n\r\n' in pending:
                head, pending = pending.split(b'\r\n\r\n', 1)
                m = re.search(rb'[?&]n=([0-9]+)', head.split(b'\r\n')[0])
                n = m.group(1).decode() if m else 'x'
                out = raw(n)
                if owed: out = owed + out
                c.sendall(out)
                owed = raw('stray-' + n) if stray else None
    except OSError:
        pass
    c.close()
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', port)); s.listen(256)
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
