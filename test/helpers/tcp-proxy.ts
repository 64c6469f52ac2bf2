import { connect, createServer, type Server, type Socket } from "node:net";

/** A TCP proxy to a server that a test can cut, freeze and restore, as network faults would. */
export interface TcpProxy {
  readonly port: number;
  /** Closes every connection and stops listening: the server is gone. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** Holds every byte in both directions, connections left open: the server hangs. */
  freeze(): void;
  /** Delivers what was held and forwards again. */
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const held: [Socket, Buffer][] = [];
  let frozen = false;
  let server: Server;
  const forward = (from: Socket, to: Socket) =>
    from.on("data", (chunk: Buffer) => (frozen ? held.push([to, chunk]) : to.write(chunk)));
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        forward(client, upstream);
        forward(upstream, client);
        client.once("close", () => upstream.end());
        upstream.once("close", () => client.end());
      });
      server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return {
    port,
    cut: stop,
    restore: async () => void (await listen(port)),
    freeze: () => void (frozen = true),
    thaw() {
      frozen = false;
      for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    close: stop,
  };
}

/**
 * A proxy in front of the database at `databaseUrl`, closed with the test, and the URL
 * that reaches the database through it: what a test cuts to take the database away.
 */
export async function proxyDatabase(
  t: { teardown(fn: () => unknown): void },
  databaseUrl: string,
): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  t.teardown(() => proxy.close());
  const proxied = new URL(databaseUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  return { proxy, url: proxied.toString() };
}
