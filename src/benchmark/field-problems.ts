/** One broken input rule, named by the field's canonical (spec JSON) name. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Collects every problem of a request (SEMANTICS.md section 11: one 400 lists them
 * all). Fields the transport could not read at all are skipped: they already have
 * their problem, and are neither "missing" nor checked against other fields.
 */
export class FieldProblems {
  readonly list: FieldProblem[] = [];

  constructor(private readonly unreadable: ReadonlySet<string> = new Set()) {}

  add(field: string, message: string): void {
    this.list.push({ field, message });
  }

  /** Whether the field can be checked: it was read, and has no problem yet. */
  usable(field: string): boolean {
    return !this.unreadable.has(field) && !this.list.some((p) => p.field === field);
  }

  get empty(): boolean {
    return this.list.length === 0 && this.unreadable.size === 0;
  }
}
