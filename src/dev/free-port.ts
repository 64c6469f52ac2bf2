import { createServer } from "node:net";

/**
 * Ports picked from below the kernel's ephemeral range (Linux hands out 32768-60999 to
 * outgoing connections and to listen(0); macOS and Windows 49152 and up). A port the
 * kernel handed out for a probe is free only until the next outgoing connection takes
 * it as its local port, and a process started afterwards then fails to listen there
 * (EADDRINUSE; seen in CI while the other test job opened connections). Nothing takes
 * a port of this range by itself: only a caller that names it.
 */
const LOW = 20_000;
const HIGH = 32_767;
const ATTEMPTS = 64;

/** Ports this process has handed out: two callers in a row never get the same one. */
const handedOut = new Set<number>();

/** A port nothing listens on now, on loopback, which no outgoing connection will take. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  // The whole range busy is not a state a machine stays in; the kernel's pick then.
  const port = await listenOnce(0);
  handedOut.add(port);
  return port;
}

async function canListen(port: number): Promise<boolean> {
  return listenOnce(port).then(
    () => true,
    () => false,
  );
}

/** Listens on loopback at `port` (0: the kernel's pick), closes, and says which port it was. */
function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
