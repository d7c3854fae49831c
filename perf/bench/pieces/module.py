#!/usr/bin/env python3
"""A module on a raw socket, Nagle on (no TCP_NODELAY, as Python's http.server), keeping its
connections: GET /one answers in one write; GET /two writes the head, then the body (as
http.server does); GET /dribble writes the head in three writes, then the body; POST reads its
body (Content-Length or chunks) and answers in one write."""
import socket, sys, threading
port = int(sys.argv[1])
def answer(c, path):
    body = b'hello, pieces'
    head = b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n' % len(body)
    if path.startswith(b'/two'):
        c.sendall(head); c.sendall(body)
    elif path.startswith(b'/dribble'):
        t = len(head) // 3
        c.sendall(head[:t]); c.sendall(head[t:2 * t]); c.sendall(head[2 * t:]); c.sendall(body)
    else:
        c.sendall(head + body)
class Conn:
    def __init__(self, c): self.c = c; self.pending = b''
    def until(self, mark):
        while mark not in self.pending:
            data = self.c.recv(65536)
            if not data: raise EOFError
            self.pending += data
        got, self.pending = self.pending.split(mark, 1)
        return got
    def take(self, n):
        while len(self.pending) < n:
            data = self.c.recv(65536)
            if not data: raise EOFError
            self.pending += data
        got, self.pending = self.pending[:n], self.pending[n:]
        return got
def serve(c):
    conn = Conn(c)
    try:
        while True:
            lines = conn.until(b'\r\n\r\n').split(b'\r\n')
            length = 0; chunked = False
            for line in lines[1:]:
                name, _, value = line.partition(b':')
                if name.strip().lower() == b'content-length': length = int(value)
                if name.strip().lower() == b'transfer-encoding': chunked = True
            if chunked:
                while True:
                    size = int(conn.until(b'\r\n').split(b';')[0], 16)
                    if size == 0:
                        while conn.until(b'\r\n'): pass
                        break
                    conn.take(size + 2)
            else:
                conn.take(length)
            answer(c, lines[0].split(b' ')[1])
    except (OSError, EOFError):
        pass
    finally:
        c.close()
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', port)); s.listen(256)
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
