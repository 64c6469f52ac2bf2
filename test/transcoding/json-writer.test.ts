// The REST JSON writer against JSON.stringify: the bytes it writes for any number or
// string must be JSON.stringify's, and a message must come out under the REST face's
// rules (every field, explicit nulls, 64-bit integers as numbers).
import { create } from "@bufbuild/protobuf";
import t from "tap";
import {
  CompanySchema,
  GetCompanyResponseSchema,
  SearchCompaniesResponseSchema,
} from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import {
  LimitAdequacySchema,
  LossCaseSchema,
  PostLimitAdequacyDataResponseSchema,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { JsonBytes } from "../../src/transcoding/json-bytes.js";
import { fieldJson, messageJson } from "../../src/transcoding/json-writer.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";

const random = createSeededRandom("json-writer-1");

const EDGE_NUMBERS = [
  0,
  -0,
  1,
  9,
  10,
  99,
  100,
  101,
  999,
  1000,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 32 + 1,
  2 ** 53 - 1,
  2 ** 53,
  -1,
  -(2 ** 32),
  0.5,
  1.1,
  0.1 + 0.2,
  1e21,
  1e-7,
  123456789.125,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  NaN,
  Infinity,
  -Infinity,
];

function randomNumber(r: SeededRandom): number {
  switch (r.int(4)) {
    case 0:
      return r.int(10 ** (1 + r.int(10))); // whole, 1 to 10 digits
    case 1:
      return Math.floor(r.next() * 2 ** 53); // whole, beyond 32 bits
    case 2:
      return (r.next() - 0.5) * 10 ** (r.int(40) - 20);
    default:
      return -r.int(100_000);
  }
}

const ALPHABET = [
  '"',
  "\\",
  "/",
  "\n",
  "\t",
  "\u0000",
  "\u001f",
  "\u007f",
  "a",
  "Z",
  "é",
  "€",
  "\u2028",
  "😀",
  "\ud800",
  "\udfff",
];

function randomString(r: SeededRandom): string {
  let text = "";
  for (let i = r.int(12); i > 0; i--) text += r.chance(0.5) ? r.pick(ALPHABET) : String.fromCharCode(r.int(0x10000));
  return text;
}

const text = (written: JsonBytes) => Buffer.concat(written.chunks()).toString("utf8");

/** The values as one JSON array, written token by token. */
function writeArray(values: (number | string | boolean | null)[]): string {
  const out = new JsonBytes(8); // small, so tokens start new chunks often
  out.byte(0x5b);
  values.forEach((value, i) => {
    if (i > 0) out.byte(0x2c);
    if (typeof value === "number") out.number(value);
    else if (typeof value === "string") out.string(value);
    else if (typeof value === "boolean") out.boolean(value);
    else out.null();
  });
  out.byte(0x5d);
  return Buffer.concat(out.chunks()).toString("utf8");
}

t.test("numbers are written as JSON.stringify writes them", async (t) => {
  const values = [...EDGE_NUMBERS, ...Array.from({ length: 20_000 }, () => randomNumber(random))];
  t.equal(writeArray(values), JSON.stringify(values));
});

t.test("strings are quoted and escaped as JSON.stringify does, in UTF-8", async (t) => {
  const values = ["", "plain", ...ALPHABET, ...Array.from({ length: 5_000 }, () => randomString(random))];
  t.equal(writeArray(values), JSON.stringify(values));
});

t.test("booleans and null", async (t) => {
  t.equal(writeArray([true, false, null]), "[true,false,null]");
});

t.test("a message: every field under its JSON name, unset optionals as null, int64 as numbers", async (t) => {
  const company = create(CompanySchema, {
    id: 9_007_199_254_740_991n,
    companyName: 'Acme "Q" Ltd',
    organizationType: "PUB",
    naics3: 0,
    revenues: 1234.5,
  });
  const answer = create(GetCompanyResponseSchema, { company });
  t.same(JSON.parse(text(messageJson(GetCompanyResponseSchema, answer))), {
    company: {
      id: 9_007_199_254_740_991,
      companyName: 'Acme "Q" Ltd',
      organizationType: "PUB",
      naics2: null,
      naics3: 0,
      revenues: 1234.5,
      numberOfEmployees: null,
      marketCap: null,
    },
  });
  t.match(
    JSON.parse(text(messageJson(GetCompanyResponseSchema, create(GetCompanyResponseSchema)))),
    { company: { id: 0, companyName: "" } },
    "company is always sent (field_behavior REQUIRED): unset, it is written as an object, never null",
  );
});

t.test("64-bit integers past 2^53 are written with their own digits", async (t) => {
  for (const id of [2n ** 53n + 1n, 2n ** 63n - 1n, 9_007_199_254_740_993n, 4_294_967_296n, 0n, 4_294_967_295n]) {
    const written = text(messageJson(CompanySchema, create(CompanySchema, { id })));
    t.match(written, new RegExp(`^\\{"id":${id},`), `${id}`);
  }
});

t.test("lists: empty, and of messages, with $-named keys", async (t) => {
  const page = create(SearchCompaniesResponseSchema, {
    pageSize: 2,
    totalCount: 3n,
    data: [
      { id: 1n, companyName: "A" },
      { id: 2n, companyName: "B" },
    ],
  });
  t.equal(
    text(messageJson(SearchCompaniesResponseSchema, page)),
    '{"hasMoreResults":false,"pageIndex":0,"pageSize":2,"skip":0,"take":0,"totalCount":3,"data":[{"id":1,"companyName":"A","organizationType":""},{"id":2,"companyName":"B","organizationType":""}]}',
  );
  t.equal(
    text(messageJson(SearchCompaniesResponseSchema, create(SearchCompaniesResponseSchema))).endsWith('"data":[]}'),
    true,
  );
});

t.test("a large answer, and one field for response_body routes", async (t) => {
  const cases = Array.from({ length: 50_000 }, (_, i) =>
    create(LossCaseSchema, { lossEventId: BigInt(i * 7919), lossAmount: i * 1013 }),
  );
  const limitAdequacy = create(LimitAdequacySchema, {
    clientLimit: 2.5,
    medianLimit: 7n,
    percentCovered: 50n,
    maxLoss: 1e6,
    averageLoss: 3n,
    listOfCases: cases,
  });
  const expected = {
    clientLimit: 2.5,
    medianLimit: 7,
    percentCovered: 50,
    maxLoss: 1e6,
    averageLoss: 3,
    listOfCases: cases.map((c) => ({ lossEventID: Number(c.lossEventId), lossAmount: c.lossAmount })),
  };
  const answer = create(PostLimitAdequacyDataResponseSchema, { limitAdequacy });
  t.equal(text(messageJson(PostLimitAdequacyDataResponseSchema, answer)), JSON.stringify({ limitAdequacy: expected }));
  const field = PostLimitAdequacyDataResponseSchema.fields[0]!;
  t.equal(text(fieldJson(field, answer)), JSON.stringify(expected));
});

t.test("a long list is written in slices, each in a turn of its own, with the same bytes", async (t) => {
  for (const length of [0, 9_999, 10_000, 10_001, 20_000, 45_678]) {
    const cases = Array.from({ length }, (_, i) =>
      create(LossCaseSchema, { lossEventId: BigInt(i), lossAmount: i * 3 }),
    );
    const answer = create(PostLimitAdequacyDataResponseSchema, {
      limitAdequacy: create(LimitAdequacySchema, { listOfCases: cases }),
    });
    let turns = 0;
    const inTurn = async <T>(work: () => T) => {
      turns++;
      await new Promise(setImmediate);
      return work();
    };
    const chunks = await messageJson(PostLimitAdequacyDataResponseSchema, answer).chunksInTurns(inTurn);
    t.equal(
      Buffer.concat(chunks).toString("utf8"),
      text(messageJson(PostLimitAdequacyDataResponseSchema, answer)),
      `${length} cases`,
    );
    t.equal(turns, Math.max(0, Math.ceil(length / 10_000) - 1), `${length} cases: a turn per slice after the first`);
  }
});
