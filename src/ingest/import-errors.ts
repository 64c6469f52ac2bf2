/**
 * A problem that stops the whole import, whatever `--skip-invalid` says: a file that
 * cannot be read as CSV, lacks a required column, or a `--replace` that would leave
 * stored rows pointing at removed ones.
 */
export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    message: string,
  ) {
    super(line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`);
  }
}

/** Why the direct road of an import cannot go on (direct-load.ts): the import then stages and checks every row. */
export class DirectLoadDeclined extends Error {}
