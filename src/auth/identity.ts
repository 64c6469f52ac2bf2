/** Who is calling, as the access token says. */
export interface Identity {
  readonly subject: string;
  readonly clientId?: string;
  readonly scopes: readonly string[];
}
