/** Why a listen failed, found by trying the same address with node's own listener (closed at once). */
import { createServer } from 'node:net';

export function probeListen(host: string, port: number): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err) => resolve(err));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}
