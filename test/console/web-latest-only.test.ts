// A company's record answers only the last pick (src/console/web/src/builder/latest-only.ts):
// picking A, then B before A's record arrives, must never prefill A's sector and size.
import t from "tap";
import { createLatestOnly } from "../../src/console/web/src/builder/latest-only.js";

t.test("a request started later makes the earlier one stale", async (t) => {
  const requests = createLatestOnly();
  const a = requests.begin();
  t.ok(a(), "alone, the first request is the latest");
  const b = requests.begin();
  t.notOk(a(), "once B starts, A's answer is stale");
  t.ok(b(), "B's is wanted");
  t.ok(b(), "and stays wanted however often it asks");
});

t.test("answers arriving out of order: only the last pick acts", async (t) => {
  const requests = createLatestOnly();
  const applied: string[] = [];
  const answers = new Map<string, (name: string) => void>();
  const pick = (name: string) => {
    const isLatest = requests.begin();
    return new Promise<string>((resolve) => answers.set(name, resolve)).then((answer) => {
      if (isLatest()) applied.push(answer);
    });
  };
  const picks = [pick("A"), pick("B")];
  answers.get("B")!("B");
  answers.get("A")!("A");
  await Promise.all(picks);
  t.same(applied, ["B"], "A's late answer is ignored");
});

t.test("each sequence counts on its own", async (t) => {
  const one = createLatestOnly();
  const two = createLatestOnly();
  const first = one.begin();
  two.begin();
  t.ok(first(), "another builder's request does not make this one stale");
});
