import t from "tap";
import { MALLOC_SETTINGS, missingMallocSettings } from "../../src/cli/malloc-settings.js";

t.test("names each glibc setting missing from the environment, with its value", async (t) => {
  t.same(missingMallocSettings({}), ["MALLOC_MMAP_THRESHOLD_=131072", "MALLOC_ARENA_MAX=2"]);
  t.same(missingMallocSettings({ MALLOC_ARENA_MAX: "4" }), ["MALLOC_MMAP_THRESHOLD_=131072"]);
  t.same(missingMallocSettings({ ...MALLOC_SETTINGS }), []);
});
