/**
 * The bare server's process: node:http on a free loopback port, answering every request,
 * once its body is read, with the answer it was last told to serve. Exits when the parent
 * disconnects.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FromBareServer, ToBareServer } from "./bare-server.js";

let status = 503;
let headers: http.OutgoingHttpHeaders = { "content-type": "text/plain", "content-length": 0 };
let body = Buffer.alloc(0);

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(status, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;

const reply = (message: FromBareServer) => process.send?.(message);

process.on("message", (message: ToBareServer) => {
  body = Buffer.from(message.answer.bodyBase64, "base64");
  status = message.answer.status;
  headers = { "content-type": message.answer.contentType, "content-length": body.length };
  reply({ type: "serving" });
});
process.on("disconnect", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

server.listen(0, "127.0.0.1", () => reply({ type: "listening", port: (server.address() as AddressInfo).port }));
