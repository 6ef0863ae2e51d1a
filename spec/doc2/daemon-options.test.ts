import { describe, expect, it } from "vitest";
import { dialects } from "../dialects.ts";
import { defaultOptionValue, OptionValueError } from "../../sim/config/option-values.ts";
import { controllerKnown } from "../../sim/config/controllers.ts";
import { DAEMONS, daemonOptions, defaultText, optionsOf } from "./daemon-options.ts";
import { knownControllers } from "./controllers.ts";
import { doc2Rules } from "./rules.ts";

describe("doc 2 options as data", () => {
  it("names each option once, and cites a clause doc2/<section>/<name> for each daemon that has it", () => {
    const names = daemonOptions.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of daemonOptions) {
      const settings = Object.values(entry.daemons);
      expect(settings.length, entry.name).toBeGreaterThan(0);
      for (const setting of settings) expect(setting.clause).toMatch(new RegExp(`^doc2/(2\\.[1-4]|4|5|8)/${entry.name}$`));
    }
  });

  it("holds doc 2's leader election clause and per-daemon defaults", () => {
    const renew = daemonOptions.find((entry) => entry.name === "leader-elect-renew-deadline")!;
    expect(renew.daemons["controller-manager"]?.clause).toBe("doc2/2.2/leader-elect-renew-deadline");
    expect(defaultText(optionsOf("scheduler").get("leader-elect-resource-name")!, "scheduler", "orb")).toBe("orb-scheduler");
    expect(defaultText(optionsOf("controller-manager").get("leader-elect-resource-name")!, "controller-manager", "kubernetes")).toBe("kube-controller-manager");
    expect(defaultText(optionsOf("scheduler").get("secure-port")!, "scheduler", "orb")).toBe("10259");
    expect(defaultText(optionsOf("controller-manager").get("contention-profiling")!, "controller-manager", "orb")).toBeNull();
    expect(defaultText(optionsOf("scheduler").get("contention-profiling")!, "scheduler", "orb")).toBe("true");
  });

  it("gives each daemon its own options: the scheduler has --config, the controller manager --controllers", () => {
    expect(optionsOf("scheduler").has("config")).toBe(true);
    expect(optionsOf("controller-manager").has("config")).toBe(false);
    expect(optionsOf("controller-manager").has("controllers")).toBe(true);
    expect(optionsOf("scheduler").has("controllers")).toBe(false);
  });

  it("deprecates only what doc 2 deprecates: scheduler options of §2.3 and §8 and profiling", () => {
    const deprecated = daemonOptions.filter((entry) => entry.daemons["controller-manager"]?.deprecated !== undefined);
    expect(deprecated).toEqual([]);
    const scheduler = daemonOptions.filter((entry) => entry.daemons.scheduler?.deprecated !== undefined).map((entry) => entry.name).sort();
    expect(scheduler).toEqual([
      "contention-profiling",
      "lock-object-name",
      "lock-object-namespace",
      "orb-api-burst",
      "orb-api-content-type",
      "orb-api-qps",
      "orbconfig",
      "pod-max-in-unschedulable-pods-duration",
      "profiling",
    ]);
  });

  it("every default parses as its option's type, for both daemons and both dialects", () => {
    for (const daemon of DAEMONS) {
      for (const dialect of dialects) {
        for (const [name, entry] of optionsOf(daemon)) {
          expect(() => defaultOptionValue(entry.type, defaultText(entry, daemon, dialect.name)), `${daemon} --${name}`).not.toThrow(OptionValueError);
        }
      }
    }
  });

  it("names rules with unique ids that cite their clause", () => {
    const ids = doc2Rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of doc2Rules) expect(rule.clause).toBe(`doc 2 §${rule.id.split("/")[1]}`);
    const known = new Set(daemonOptions.map((entry) => entry.name));
    for (const rule of doc2Rules) for (const field of rule.fields) expect(known.has(field), `${rule.id} reads --${field}`).toBe(true);
  });

  it("knows the controllers doc 1 names, and leaves bootstrapsigner and tokencleaner off under *", () => {
    for (const name of ["replicationcontroller", "endpoint", "namespace", "serviceaccount", "nodelifecycle"]) expect(controllerKnown(name), name).toBe(true);
    expect(knownControllers.filter((controller) => !controller.enabledByDefault).map((controller) => controller.name)).toEqual(["bootstrapsigner", "tokencleaner"]);
  });
});
