/** http:// is acceptable only to a loopback host: a local or test provider (CONVENTIONS.md). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}
