/** Names a person reads (issue 44.8): automatic experiment names say what ran; method keys read as display names. */
import { describe, expect, it } from "vitest";
import { autoExperimentName } from "./auto-name";
import { keyDisplayName, methodDisplayName } from "./method-choices";

describe("autoExperimentName", () => {
  it("says the data set, preset, methods × tasks and users", () => {
    expect(
      autoExperimentName({
        dataset: "PAL-Set demo (zh)",
        preset: "mem-pal",
        methods: [{ name: "vanilla" }, { name: "h2memory", label: "h2-k5" }],
        tasks: ["requirement", "solution"],
        users: ["u1"],
      }),
    ).toBe("PAL-Set demo (zh): Reproduce Mem-PAL, vanilla,h2-k5 × requirement,solution, user u1");
    expect(autoExperimentName({ dataset: "D", methods: [{ name: "a" }], tasks: ["t"], users: ["u1", "u2", "u3"] })).toBe(
      "D: a × t, 3 users",
    );
    expect(autoExperimentName({ dataset: "D", methods: [{ name: "a" }], tasks: ["t"], users: "all" })).toBe("D: a × t, all users");
  });

  it("counts long lists and stays within 200 characters", () => {
    const methods = Array.from({ length: 12 }, (_, i) => ({ name: `m${i}` }));
    expect(autoExperimentName({ dataset: "D", methods, tasks: ["t"] })).toBe("D: 12 methods × t, all users");
    const long = autoExperimentName({ dataset: "x".repeat(300), methods, tasks: ["t"] });
    expect([...long]).toHaveLength(200);
  });
});

describe("keyDisplayName", () => {
  it("reads a pair key 'a~b' as 'A vs B' with the registry's names, the config's names first", () => {
    expect(keyDisplayName("h2memory~vanilla")).toBe(
      `${methodDisplayName({ name: "h2memory" })} vs ${methodDisplayName({ name: "vanilla" })}`,
    );
    expect(keyDisplayName("h2memory~vanilla")).not.toContain("~");
    expect(keyDisplayName("mine~vanilla", { mine: "My method" })).toBe(`My method vs ${methodDisplayName({ name: "vanilla" })}`);
    expect(keyDisplayName("unknown-x")).toBe("unknown-x");
  });
});
