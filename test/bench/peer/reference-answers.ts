import type { PeerClass } from "./classes.js";
import type { Answer, ApiClient } from "./http-client.js";
import { measuredAt, operationNamed, OPERATIONS, type Operation } from "./operations.js";
import { baseVariant } from "./variants.js";

export interface ClassReference {
  /** The class's peer programs, as its total program count answer states. */
  peers: number;
  /** Each operation's answer to the class's base request: what the warm runs repeat. */
  answers: Map<Operation, Answer>;
}

/** Asks every operation once with the class's base request; any answer but a 200 stops the bench. */
export async function fetchReference(client: ApiClient, peerClass: PeerClass): Promise<ClassReference> {
  const answers = new Map<Operation, Answer>();
  for (const operation of OPERATIONS.filter((o) => measuredAt(o, peerClass))) {
    const answer = await client.send(operation.call(peerClass, baseVariant(peerClass)));
    if (answer.status !== 200) {
      throw new Error(
        `${peerClass.name} ${operation.name}: ${answer.status} ${answer.body.toString("utf8").slice(0, 300)}`,
      );
    }
    answers.set(operation, answer);
  }
  const count = answers.get(operationNamed("POST total program count"))!;
  return { peers: Number(count.body.toString("utf8")), answers };
}
