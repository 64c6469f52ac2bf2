import t from "tap";
import { ConfigError } from "../src/config-error.js";
import { readConfig } from "../src/config.js";

const serve = { host: "0.0.0.0" };

t.test("METRICS_PORT: off unless set, a port number, 0 for a free one, never the API's port", async (t) => {
  t.equal(readConfig({}, serve).metricsPort, undefined, "no metrics unless set");
  t.equal(readConfig({ METRICS_PORT: "" }, serve).metricsPort, undefined, "empty is unset");
  t.equal(readConfig({ METRICS_PORT: "9464" }, serve).metricsPort, 9464);
  t.equal(readConfig({ METRICS_PORT: " 9464 " }, serve).metricsPort, 9464);
  t.equal(readConfig({ METRICS_PORT: "0" }, serve).metricsPort, 0, "0 picks a free port");
  t.equal(readConfig({ METRICS_PORT: "0", PORT: "0" }, serve).metricsPort, 0, "both free ports");
  for (const bad of ["abc", "-1", "65536", "9464.5", "1e3", "0x24f8"]) {
    t.throws(
      () => readConfig({ METRICS_PORT: bad }, serve),
      new ConfigError(`METRICS_PORT must be a port number (0-65535), not "${bad}"`),
      bad,
    );
  }
  t.throws(
    () => readConfig({ METRICS_PORT: "8080" }, serve),
    new ConfigError("METRICS_PORT must differ from PORT (both are 8080)"),
    "the default PORT",
  );
  t.throws(() => readConfig({ METRICS_PORT: "9000", PORT: "9000" }, serve), /METRICS_PORT must differ from PORT/);
});

t.test(
  "DISCLOSURE_RULE: none by default; standard with its thresholds, each overridable; a bad value names its variable",
  async (t) => {
    t.same(readConfig({}, serve).disclosure, { kind: "none" });
    t.same(readConfig({ DISCLOSURE_RULE: "standard" }, serve).disclosure, {
      kind: "standard",
      minCompanies: 5,
      maxSourceShareBasisPoints: 2500,
      maxTopTwoShareBasisPoints: 8500,
    });
    t.same(
      readConfig(
        {
          DISCLOSURE_RULE: "standard",
          DISCLOSURE_MIN_COMPANIES: "10",
          DISCLOSURE_MAX_SOURCE_SHARE: "33.33",
          DISCLOSURE_MAX_TOP2_SHARE: "80%",
        },
        serve,
      ).disclosure,
      { kind: "standard", minCompanies: 10, maxSourceShareBasisPoints: 3333, maxTopTwoShareBasisPoints: 8000 },
    );
    t.throws(
      () => readConfig({ DISCLOSURE_RULE: "strict" }, serve),
      new ConfigError('DISCLOSURE_RULE must be one of none, standard, not "strict"'),
    );
    for (const bad of ["0", "100.01", "25.555", "-5", "abc", "0.5.1"]) {
      t.throws(
        () => readConfig({ DISCLOSURE_RULE: "standard", DISCLOSURE_MAX_SOURCE_SHARE: bad }, serve),
        new ConfigError(
          `DISCLOSURE_MAX_SOURCE_SHARE must be a percentage above 0 and at most 100, such as 25 or 25.5%, not "${bad}"`,
        ),
        bad,
      );
    }
    t.throws(
      () => readConfig({ DISCLOSURE_RULE: "standard", DISCLOSURE_MIN_COMPANIES: "0" }, serve),
      /DISCLOSURE_MIN_COMPANIES must be a whole number/,
    );
    t.throws(
      () => readConfig({ DISCLOSURE_MIN_COMPANIES: "5" }, serve),
      new ConfigError("DISCLOSURE_MIN_COMPANIES applies only with DISCLOSURE_RULE=standard (it is none)"),
      "a threshold without the rule",
    );
  },
);

t.test("PEER_INDEX_SCAN_THREAD: on by default, off when asked, nothing else", async (t) => {
  t.equal(readConfig({}, serve).scanThread, true);
  t.equal(readConfig({ PEER_INDEX_SCAN_THREAD: "off" }, serve).scanThread, false);
  t.equal(readConfig({ PEER_INDEX_SCAN_THREAD: "on" }, serve).scanThread, true);
  t.throws(
    () => readConfig({ PEER_INDEX_SCAN_THREAD: "2" }, serve),
    new ConfigError('PEER_INDEX_SCAN_THREAD must be one of on, off, not "2"'),
  );
});
