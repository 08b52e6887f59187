import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";

// Library modules load inside the actions (start-up stays short).

const collect = (v: string, prev: string[]) => [...prev, v];

/** `pal methods`: the external memory methods (lib/assistants/external, docs/external-methods.md). */
export function registerMethods(program: Command): void {
  const methods = program.command("methods").description(SUMMARIES.methods);
  methods
    .command("list", { isDefault: true })
    .description("the registered external methods (header names only: their values are secret)")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const { listExternalMethods } = await import("@/lib/assistants/external/store");
      const rows = listExternalMethods(getDb());
      if (o.json) return void console.log(JSON.stringify(rows));
      if (!rows.length) return void console.log("no external methods: pal methods add NAME --url URL");
      for (const m of rows)
        console.log(
          `${m.name.padEnd(20)} ${m.label.padEnd(24)} ${m.url} · timeout ${m.timeoutMs} ms · headers ${m.headerNames.join(", ") || "none"}`,
        );
    });
  methods
    .command("add <name>")
    .description("register a method served over HTTP (usable as pal run --method NAME)")
    .requiredOption("--url <url>", "the service's base URL (it serves POST /sessions, POST /respond, GET /)")
    .option("--label <label>", "the name results and tables show (default: NAME)")
    .option(
      "--header <'K: V'>",
      "a header sent with every request, e.g. 'Authorization: Bearer …' (repeatable; stored encrypted)",
      collect,
      [],
    )
    .option("--timeout <ms>", "how long one request may take (default 120000)")
    .action(async (name: string, o: { url: string; label?: string; header: string[]; timeout?: string }) => {
      const { addExternalMethod, parseHeader } = await import("@/lib/assistants/external/store");
      const { ASSISTANTS } = await import("@/lib/assistants/registry");
      const { CONTEXT_SETTINGS } = await import("@/lib/tasks/hicupid/settings");
      const m = addExternalMethod(
        getDb(),
        {
          name,
          url: o.url,
          label: o.label,
          headers: Object.fromEntries(o.header.map(parseHeader)),
          timeoutMs: o.timeout === undefined ? undefined : Number(o.timeout),
        },
        [...ASSISTANTS.map((a) => a.id), ...Object.keys(CONTEXT_SETTINGS)],
      );
      console.log(`registered ${m.name} (${m.label}) at ${m.url}; pal methods check ${m.name} asks it what it answers`);
    });
  methods
    .command("remove <name>")
    .description("forget a registered method (its memories and results stay)")
    .action(async (name: string) => {
      const { removeExternalMethod } = await import("@/lib/assistants/external/store");
      removeExternalMethod(getDb(), name);
      console.log(`removed ${name}`);
    });
}
