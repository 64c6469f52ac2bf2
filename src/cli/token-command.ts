import type { Command } from "commander";
import { fetchAccessToken } from "../auth/client-credentials.js";
import { readPort } from "../config.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE, devIssuer } from "../dev/dev-identity.js";

/** `cpb token`: an access token by the client-credentials grant, printed on stdout. */
export function registerTokenCommand(program: Command): void {
  program
    .command("token")
    .description(
      "get an access token by the client-credentials grant (by default from the cpb dev provider) and print it",
    )
    .option("--issuer <url>", "the OpenID provider (default: cpb dev's, on PORT or 8080)")
    .option("--client-id <id>", "client id", DEV_CLIENT.clientId)
    .option("--client-secret <secret>", "client secret", DEV_CLIENT.clientSecret)
    .option("--audience <audience>", "the API (resource indicator) the token is for", DEV_AUDIENCE)
    .option("--scope <scopes>", "space-separated scopes to ask for", DEV_SCOPE)
    .action(
      async (options: { issuer?: string; clientId: string; clientSecret: string; audience: string; scope: string }) => {
        const issuer = options.issuer ?? devIssuer(readPort(process.env.PORT, 8080));
        try {
          console.log(await fetchAccessToken({ ...options, issuer }));
        } catch (error) {
          // fetch's own "fetch failed" names nothing: say where, why, and what to change.
          const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : error;
          const hint = options.issuer
            ? ""
            : " (cpb dev's provider on PORT or 8080: is it running there? Or pass --issuer)";
          throw new Error(`no token from ${issuer}: ${String(cause)}${hint}`, { cause: error });
        }
      },
    );
}
