import { create, type Message } from "@bufbuild/protobuf";
import { createContextKey, type Interceptor } from "@connectrpc/connect";

/** Where an in-process caller (the REST face) receives the answer message itself. */
export interface ResponseCapture {
  message?: Message;
}

export const responseCaptureKey = createContextKey<ResponseCapture | undefined>(undefined, {
  description: "REST response capture",
});

/**
 * Hands a unary answer to the in-process caller that asked for it, and lets the
 * handler serialize an empty message instead. The REST face writes the answer as
 * JSON from the message object: serializing it to protobuf binary only to parse it
 * back cost tens of milliseconds for an answer listing tens of thousands of cases.
 * Innermost, so every other interceptor (authentication, errors) has run as usual.
 */
export function createResponseCaptureInterceptor(): Interceptor {
  return (next) => async (req) => {
    const res = await next(req);
    const capture = req.contextValues.get(responseCaptureKey);
    if (!capture || res.stream) return res;
    capture.message = res.message;
    return { ...res, message: create(req.method.output) };
  };
}
