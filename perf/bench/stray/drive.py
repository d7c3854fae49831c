#!/usr/bin/env python3
"""Sends N GET /twice/items?n=i through a proxy from C concurrent keep-alive clients; counts the
answers whose body is not the request's own n (a stray body, or another request's)."""
import http.client, sys, threading
host, port = sys.argv[1], int(sys.argv[2]); total = int(sys.argv[3]); clients = int(sys.argv[4])
tenant = sys.argv[5] if len(sys.argv) > 5 else None
lock = threading.Lock(); res = {'own': 0, 'stray': 0, 'other': 0, 'error': 0}
def run(first, count):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    for n in range(first, first + count):
        try:
            conn.request('GET', '/twice/items?n=%d' % n, headers={'X-Okapi-Tenant': tenant} if tenant else {})
            r = conn.getresponse(); body = r.read().decode(errors='replace')
            k = 'own' if r.status == 200 and body == str(n) else 'stray' if body.startswith('stray-') else 'other' if r.status == 200 else 'error'
        except Exception as e:
            k = 'error'; conn.close(); conn = http.client.HTTPConnection(host, port, timeout=30)
        with lock: res[k] += 1
each = total // clients
ts = [threading.Thread(target=run, args=(i * each, each)) for i in range(clients)]
[t.start() for t in ts]; [t.join() for t in ts]
print('requests %d: own body %d, a stray body %d, another request\'s body %d, errors/non-200 %d' % (each * clients, res['own'], res['stray'], res['other'], res['error']))
