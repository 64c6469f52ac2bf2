import type { DescField, Message } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import type { HandlerContext } from "@connectrpc/connect";
import type { NewPiece } from "../benchmark/peer-statistics.js";
import { answerPieces } from "../load-control/answer-pieces.js";
import { responseCaptureKey } from "./response-capture.js";

/**
 * A list field's items already in an answer's bytes, in either form when asked for, as
 * pieces to write one after another, each starting and ending at an item's edge: JSON
 * items joined by commas (no brackets), and the field's protobuf entries, tag and
 * length each.
 */
export interface RenderedList {
  json(newPiece: NewPiece): readonly Uint8Array[];
  protobuf(newPiece: NewPiece): readonly Uint8Array[];
}

/** A new piece of the pool's size, for answers whose writer does not give pieces back. */
const newPiece: NewPiece = () => new Uint8Array(answerPieces.size);

const renderedJson = new WeakMap<Message, Map<DescField, readonly Uint8Array[]>>();

/**
 * Lists `list` as `field` of `message`, which holds no items of its own there, in the
 * form the call's answer is written in: for the REST face (which takes the message
 * itself, response-capture.ts), JSON that its writer asks renderedJsonOf for; else
 * protobuf entries as the message's unknown fields, which protobuf-es writes out as
 * they are (as kept-answers.ts does). Only for answers that go out in binary or through
 * the REST face (answersInBinary): a JSON codec would write the list empty.
 */
export function setRenderedList(context: HandlerContext, message: Message, field: DescField, list: RenderedList): void {
  if (context.values.get(responseCaptureKey)) {
    let fields = renderedJson.get(message);
    if (!fields) renderedJson.set(message, (fields = new Map()));
    // The REST writer gives these back once the answer is written (rest-handler.ts).
    fields.set(
      field,
      list.json(() => answerPieces.lend()),
    );
    return;
  }
  // protobuf-es writes an unknown field's tag, then its data: each piece less its first tag.
  const skip = tagLength(field.number);
  const entries = list.protobuf(newPiece).map((piece) => ({
    no: field.number,
    wireType: WireType.LengthDelimited,
    data: piece.subarray(skip),
  }));
  message.$unknown = [...(message.$unknown ?? []), ...entries];
}

/** The JSON items of a list set by setRenderedList, or undefined. */
export function renderedJsonOf(message: Message, field: DescField): readonly Uint8Array[] | undefined {
  return renderedJson.get(message)?.get(field);
}

/** The bytes of a length-delimited field's tag: a varint of (number << 3) | 2. */
function tagLength(fieldNumber: number): number {
  let length = 1;
  for (let rest = fieldNumber * 8; rest >= 0x80; rest = Math.floor(rest / 0x80)) length++;
  return length;
}
