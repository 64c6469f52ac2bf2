import type { DescMessage } from "@bufbuild/protobuf";
import type { JsonObject } from "./json-object.js";

/**
 * The `components/schemas` of the document: one schema per message, named after the
 * message, referenced with `$ref` wherever it occurs. Only messages a route reaches
 * are added, so the document shows what the REST face reads and writes, nothing more.
 */
export interface SchemaComponents {
  /**
   * A `$ref` to the schema named `name`, which `build` makes the first time. `message`
   * and `role` say what the name stands for: one name for two things is refused,
   * since one would silently stand in for the other.
   */
  ref(name: string, message: DescMessage, role: SchemaRole, build: () => JsonObject): JsonObject;
  /** Every schema added, by name. */
  schemas(): JsonObject;
}

/** A request body (read as the binder reads it) or an answer (written as json-writer.ts writes it). */
export type SchemaRole = "request" | "response";

export function createSchemaComponents(): SchemaComponents {
  const built = new Map<string, JsonObject>();
  const owners = new Map<string, { message: DescMessage; role: SchemaRole }>();
  return {
    ref(name, message, role, build) {
      const owner = owners.get(name);
      if (owner && (owner.message !== message || owner.role !== role)) {
        throw new Error(
          `schema "${name}": both the ${owner.role} ${owner.message.typeName} and the ${role} ${message.typeName}`,
        );
      }
      if (!owner) {
        // Registered before it is built: a message that contains itself refers to its own name.
        owners.set(name, { message, role });
        built.set(name, build());
      }
      return { $ref: `#/components/schemas/${name}` };
    },
    schemas() {
      return Object.fromEntries([...built].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
  };
}
