import { getOption, type DescField } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../gen/google/api/field_behavior_pb.js";

const known = new WeakMap<DescField, boolean>();

/**
 * Whether an answer's message field is in every answer: the contract marks it
 * `google.api.field_behavior = REQUIRED` (AIP-203, said of an answer: always set). Such
 * a field is written as an object, never `null`, and documented without `null`, so
 * that generated clients do not make every caller test for a null that never comes.
 */
export function alwaysSent(field: DescField): boolean {
  let answer = known.get(field);
  if (answer === undefined) {
    answer = field.fieldKind === "message" && getOption(field, field_behavior).includes(FieldBehavior.REQUIRED);
    known.set(field, answer);
  }
  return answer;
}
