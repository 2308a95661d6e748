import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A Kestrel that writes raw bytes over TCP on 127.0.0.1, for answers `node:http` will not write (a `101`, a status
 * of 600). `answer` gets the socket once a whole request (head and body) has arrived. `requests` counts them.
 */
export async function startRawUpstream(answer: (socket: Socket, head: string) => void) {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      requests += 1;
      const head = received.slice(0, end);
      received = '';
      answer(socket, head);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a browser got: the status, the body, and whether it ended in time (`timeout` after `deadlineMs`). */
export function askOnce(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; deadlineMs: number },
): Promise<{ status: number; body: string; ending: 'clean' | 'dropped' | 'timeout' }> {
  return new Promise((resolve) => {
    let status = 0;
    const chunks: Buffer[] = [];
    const finish = (ending: 'clean' | 'dropped' | 'timeout') => {
      clearTimeout(timer);
      request.destroy();
      resolve({ status, body: Buffer.concat(chunks).toString('utf8'), ending });
    };
    const timer = setTimeout(() => finish('timeout'), init.deadlineMs);
    const request = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => finish('clean'));
      res.on('error', () => finish('dropped'));
    });
    request.on('error', () => finish('dropped'));
    request.end(init.body);
  });
}
