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
      const { reservedMethodNames } = await import("@/lib/experiments/method-forms");
      const m = addExternalMethod(
        getDb(),
        {
          name,
          url: o.url,
          label: o.label,
          headers: Object.fromEntries(o.header.map(parseHeader)),
          timeoutMs: o.timeout === undefined ? undefined : Number(o.timeout),
        },
        reservedMethodNames(),
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
  methods
    .command("check <name>")
    .description(
      "a conformance check against a small synthetic user: every call, every task type it claims, a failing model (no paid calls)",
    )
    .option("--json", "print the report as JSON")
    .action(async (name: string, o: { json?: boolean }) => {
      const { findExternalMethod } = await import("@/lib/assistants/external/store");
      const { checkMethod } = await import("@/lib/assistants/external/check");
      const { NotFoundError } = await import("@/lib/errors");
      const m = findExternalMethod(getDb(), name);
      if (!m) throw new NotFoundError(`no external method named "${name}" (pal methods list)`);
      const r = await checkMethod(m);
      if (o.json) console.log(JSON.stringify(r));
      else {
        const s = r.service;
        console.log(
          s
            ? `${r.method}: ${s.name}${s.version ? ` ${s.version}` : ""} at ${r.url}, answers ${s.tasks.join(", ")}`
            : `${r.method} at ${r.url}`,
        );
        if (s?.outsideModels.length)
          console.log(`  calls models outside the run (outside the ledger and the audit): ${s.outsideModels.join(", ")}`);
        for (const st of r.steps)
          console.log(
            `  ${st.ok ? "ok  " : "FAIL"} ${st.step.padEnd(58)} ${String(st.ms).padStart(6)} ms${st.message ? `  ${st.message}` : ""}`,
          );
        console.log(
          r.conforms
            ? "conforms"
            : `${r.violations.length} violation${r.violations.length > 1 ? "s" : ""}:\n${r.violations.map((v) => `  - ${v}`).join("\n")}`,
        );
      }
      if (!r.conforms) process.exitCode = 1;
    });
  methods
    .command("reset <name>")
    .description(
      "forget a stateful method's memory: the service clears each memory version's namespace (POST /reset), then the version is rebuilt by the next run",
    )
    .option("--user <key>", "only this user's memory (default: every user's)")
    .option("--json", "print the report as JSON")
    .action(async (name: string, o: { user?: string; json?: boolean }) => {
      const { resetExternalMethod } = await import("@/lib/assistants/external/reset");
      const r = await resetExternalMethod(getDb(), name, o.user);
      if (o.json) console.log(JSON.stringify(r));
      else if (!r.versions.length) console.log(`${r.method}: no memory${o.user ? ` of user ${o.user}` : ""} to reset`);
      else
        for (const v of r.versions)
          console.log(`${r.method}, user ${v.user}, memory version ${v.version} (namespace ${v.namespace}): ${v.outcome}: ${v.message}`);
      if (!r.ok) process.exitCode = 1;
    });
  methods
    .command("openapi")
    .description("the protocol as an OpenAPI 3.1 document (JSON on stdout; also docs/external-methods.openapi.json)")
    .action(async () => {
      const { openApiDocument } = await import("@/lib/assistants/external/openapi");
      console.log(JSON.stringify(openApiDocument(), null, 2));
    });
}
