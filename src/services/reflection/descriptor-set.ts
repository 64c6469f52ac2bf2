import { createRegistry, toBinary, type DescFile, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { protoComments } from "../../../gen/commercialpolicybenchmark/v2/proto_comments.js";
import { withSourceComments } from "./source-comments.js";

/**
 * What server reflection tells about: the served services, every .proto file they
 * come from and every file those import, from the same generated descriptors (gen/)
 * the server runs on, so that reflection cannot describe another contract.
 */
export interface DescriptorSet {
  readonly serviceNames: readonly string[];
  fileNamed(name: string): DescFile | undefined;
  /** The file declaring a message, enum, service, method or extension, by its full name. */
  fileDeclaring(symbol: string): DescFile | undefined;
  /** The file declaring extension `number` of message `typeName`. */
  fileExtending(typeName: string, number: number): DescFile | undefined;
  /** The extension numbers of a message, or undefined when the message is unknown. */
  extensionNumbersOf(typeName: string): number[] | undefined;
  /** A file's FileDescriptorProto, serialized once. */
  bytesOf(file: DescFile): Uint8Array;
}

/**
 * `alsoFiles`: files no service imports that callers still need, such as the error
 * details' (InputProblems, google.rpc.BadRequest), which travel in
 * `grpc-status-details-bin` and which tools decode only if reflection names them.
 */
export function describeServices(services: readonly DescService[], alsoFiles: readonly DescFile[] = []): DescriptorSet {
  const named = new Set<string>();
  const files = new Map(
    [...services.map((service) => service.file), ...alsoFiles]
      .flatMap((file) => withImports(file, named))
      .map((file) => [fileName(file), file]),
  );
  const registry = createRegistry(...files.values());
  const extensions = [...files.values()].flatMap((file) => file.extensions);
  const bytes = new Map<DescFile, Uint8Array>();

  return {
    serviceNames: services.map((service) => service.typeName),
    fileNamed: (name) => files.get(name),
    fileDeclaring(symbol) {
      const declared = registry.get(symbol);
      if (declared) return declared.file;
      // A method: its service, when the service has it.
      const dot = symbol.lastIndexOf(".");
      const service = registry.getService(symbol.slice(0, dot));
      return service?.methods.some((method) => method.name === symbol.slice(dot + 1)) ? service.file : undefined;
    },
    fileExtending: (typeName, number) =>
      extensions.find((e) => e.extendee.typeName === typeName && e.number === number)?.file,
    extensionNumbersOf(typeName) {
      if (!registry.getMessage(typeName)) return undefined;
      return extensions.filter((e) => e.extendee.typeName === typeName).map((e) => e.number);
    },
    bytesOf(file) {
      let serialized = bytes.get(file);
      if (!serialized)
        bytes.set(file, (serialized = toBinary(FileDescriptorProtoSchema, withSourceComments(file, protoComments))));
      return serialized;
    },
  };
}

/** A file's name as imports and reflection spell it, ".proto" included (DescFile.name leaves it out). */
const fileName = (file: DescFile) => file.proto.name;

/** The file, then every file it imports, directly or not, that `sent` does not hold yet. */
export function withImports(file: DescFile, sent: Set<string>): DescFile[] {
  const out = [file];
  sent.add(fileName(file));
  for (let i = 0; i < out.length; i++) {
    for (const dependency of out[i]!.dependencies) {
      if (sent.has(fileName(dependency))) continue;
      sent.add(fileName(dependency));
      out.push(dependency);
    }
  }
  return out;
}
