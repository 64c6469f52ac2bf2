import * as grpc from "@grpc/grpc-js";
import {
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethod,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";

/**
 * Calls one unary method with @grpc/grpc-js, a gRPC implementation independent of
 * Connect, over HTTP/2 with prior knowledge. Resolves the response, or rejects
 * with the grpc-js ServiceError (its `code` is the gRPC status).
 */
export function callWithGrpcJs<I extends DescMessage, O extends DescMessage>(
  address: string,
  method: DescMethod & { input: I; output: O },
  request: MessageInitShape<I>,
  metadata: Record<string, string> = {},
  options: grpc.CallOptions = {},
  channelOptions: grpc.ChannelOptions = {},
): Promise<MessageShape<O>> {
  const client = new grpc.Client(address.replace(/^http:\/\//, ""), grpc.credentials.createInsecure(), channelOptions);
  const meta = new grpc.Metadata();
  for (const [key, value] of Object.entries(metadata)) meta.set(key, value);
  return new Promise<MessageShape<O>>((resolve, reject) => {
    client.makeUnaryRequest(
      `/${method.parent.typeName}/${method.name}`,
      (message: MessageShape<I>) => Buffer.from(toBinary(method.input, message)),
      (bytes: Buffer) => fromBinary(method.output, bytes),
      create(method.input, request),
      meta,
      options,
      (error, response) => (error ? reject(error) : resolve(response!)),
    );
  }).finally(() => client.close());
}
