import type { Auth } from "../auth/auth.js";
import { ApiProblem } from "./problem.js";
import { MAX_RETRIES, retryAfterMs, waitToRetry } from "./retry-after.js";
import type { Answer } from "./types.js";

export type QueryValue = string | number | undefined;

/**
 * Calls the public REST API with the signed-in user's token, as any client would
 * (issue 16: the console uses nothing else). Errors arrive as ApiProblem; a 401 starts a
 * new sign-in that comes back to this page; a 503 with Retry-After is asked again as told
 * (retry-after.ts).
 */
export interface ApiClient {
  get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<Answer<T>>;
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<Answer<T>>;
}

export function createApiClient(apiBase: string, auth: Auth): ApiClient {
  const call = async <T>(
    method: "GET" | "POST",
    url: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Answer<T>> => {
    for (let retries = 0; ; retries++) {
      const token = await auth.accessToken();
      const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${token}` };
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: signal ?? null,
        // Answers are private, no-cache (README): the browser may revalidate with the ETag.
        cache: "no-cache",
      });
      // The token expired or was revoked between our freshness check and the server's.
      if (response.status === 401) return auth.renew();
      const wait = response.status === 503 ? retryAfterMs(response.headers.get("retry-after")) : null;
      if (wait !== null && retries < MAX_RETRIES) {
        void response.body?.cancel();
        await waitToRetry(wait, signal);
        continue;
      }
      if (!response.ok) throw await ApiProblem.from(response);
      return { data: (await response.json()) as T };
    }
  };

  return {
    get(path, query = {}, signal) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query))
        if (value !== undefined && value !== "") params.set(key, String(value));
      const search = params.toString();
      return call("GET", `${apiBase}${path}${search ? `?${search}` : ""}`, undefined, signal);
    },
    post(path, body, signal) {
      return call("POST", `${apiBase}${path}`, body, signal);
    },
  };
}
