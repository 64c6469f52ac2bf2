/** One broken input rule, named by the field's canonical (spec JSON) name. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Collects every problem of a request (SEMANTICS.md section 11: one 400 lists them
 * all), starting from those found while reading it (a value of the wrong type). A
 * field with a problem is not checked further: it is neither "missing" nor checked
 * against other fields.
 */
export class FieldProblems<P extends FieldProblem = FieldProblem> {
  private problems: P[];

  constructor(found: readonly P[] = []) {
    this.problems = [...found];
  }

  get list(): readonly P[] {
    return this.problems;
  }

  add(field: string, message: string): void {
    this.problems.push({ field, message } as P);
  }

  /** Whether the field can be checked: it has no problem yet. */
  usable(field: string): boolean {
    return !this.problems.some((p) => p.field === field);
  }

  /** Drops the problems of a field the rules ignore (the loss-year range when lossYear is given). */
  ignore(field: string): void {
    this.problems = this.problems.filter((p) => p.field !== field);
  }

  get empty(): boolean {
    return this.problems.length === 0;
  }
}
