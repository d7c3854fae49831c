#!/usr/bin/env python3
"""N calls, one after another, on one kept-alive connection, Nagle on (no TCP_NODELAY): GET PATH,
or with --post-two a POST whose head and 16-byte body go in two writes. Prints p50 and p99 in ms
and the calls of 30 ms or more (a delayed ACK is 40 ms)."""
import socket, sys, time
host, port, path, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
tenant = sys.argv[5] if len(sys.argv) > 5 and not sys.argv[5].startswith('--') else None
post = '--post-two' in sys.argv
c = socket.create_connection((host, port)); f = c.makefile('rb')
extra = ('X-Okapi-Tenant: %s\r\n' % tenant) if tenant else ''
body = b'0123456789abcdef'
if post:
    head = ('POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: %d\r\n\r\n' % (path, host, extra, len(body))).encode()
else:
    head = ('GET %s HTTP/1.1\r\nHost: %s\r\n%s\r\n' % (path, host, extra)).encode()
ts = []
for i in range(n):
    t0 = time.perf_counter()
    c.sendall(head)
    if post: c.sendall(body)
    status = f.readline(); length = None; chunked = False
    while True:
        line = f.readline()
        if line in (b'\r\n', b''): break
        name, _, value = line.partition(b':')
        if name.strip().lower() == b'content-length': length = int(value)
        if name.strip().lower() == b'transfer-encoding': chunked = True
    if chunked:
        while True:
            size = int(f.readline().split(b';')[0], 16); f.read(size + 2)
            if size == 0: break
    else:
        f.read(length or 0)
    ts.append(time.perf_counter() - t0)
    if not status.startswith(b'HTTP/1.1 200'):
        sys.exit('%s answered %s' % (path, status))
ts.sort()
print('%.2f %.2f %d' % (ts[n // 2] * 1000, ts[min(n - 1, n * 99 // 100)] * 1000, sum(1 for t in ts if t >= 0.030)))
