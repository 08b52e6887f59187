import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";
import { AppError } from "@/lib/errors";
import { CliError } from "../errors";

// Library modules load inside the actions: other commands need not load the model client.

const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

export function registerMemory(program: Command): void {
  const memory = program.command("memory").description(SUMMARIES.memory);

  memory
    .command("build")
    .description("build (or complete) the memory of a method for the users of a data set; progress on stderr")
    .requiredOption("--dataset <name>", "data set name")
    .requiredOption("--method <method>", "method name (see pal memory methods)")
    .option("--users <ids>", "comma-separated user ids (default: all users)")
    .option("--retriever <kind>", "bm25 | tfidf | dense (for methods that retrieve)", "bm25")
    .option("--options <json>", "method options as JSON")
    .option("--json", "print a JSON summary on stdout")
    .action(async (o: { dataset: string; method: string; users?: string; retriever: string; options?: string; json?: boolean }) => {
      const { buildMemory } = await import("@/lib/assistants/core/build");
      const { datasetByName, resolveUsers } = await import("@/lib/assistants/core/sessions");
      const { ModelClient } = await import("@/lib/llm/client");
      const db = getDb();
      const dataset = datasetByName(db, o.dataset);
      const users = resolveUsers(db, dataset, o.users ? list(o.users) : undefined);
      const options = parseOptionsFlag(o.options);
      const llm = ModelClient.create(db);
      const results = await buildMemory(db, {
        dataset,
        method: o.method,
        users,
        options,
        retriever: o.retriever as never,
        llm,
        onProgress: (p) =>
          process.stderr.write(
            p.status === "building"
              ? `${p.userKey}: session ${p.done + 1}/${p.total} (${p.sessionKey})\n`
              : p.status === "waiting"
                ? `${p.userKey}: waiting for another process building this memory\n`
                : `${p.userKey}: ${p.status} (${p.done}/${p.total} sessions)\n`,
          ),
      });
      const entries: Record<string, number> = {};
      for (const r of results) for (const [k, n] of Object.entries(r.entries)) entries[k] = (entries[k] ?? 0) + n;
      const failed = results.filter((r) => r.status !== "complete");
      const summary = {
        method: o.method,
        users: results.map((r) => r.userKey),
        calls: llm.stats.requests,
        cacheHits: llm.stats.cacheHits,
        failed: failed.length,
        entries,
        memories: results.map((r) => ({ user: r.userKey, versionId: r.versionId, status: r.status, built: r.built, error: r.error })),
      };
      if (o.json) console.log(JSON.stringify(summary));
      else {
        for (const r of results) console.log(`${r.userKey}: ${r.status}, ${r.built} session(s) built now${r.error ? ` (${r.error})` : ""}`);
        console.log(
          `${summary.calls} request(s) to the endpoint, ${summary.cacheHits} answered from the cache; entries: ${JSON.stringify(entries)}`,
        );
      }
      if (failed.length) {
        throw new AppError(
          `memory incomplete for ${failed.length} user(s): ${failed.map((r) => `${r.userKey} (${r.error})`).join("; ")}`,
          502,
          "memory_incomplete",
          3,
        );
      }
    });

  memory
    .command("show")
    .description("print the stored entries of a user's memory (kind, key, content, session) in a stable order")
    .requiredOption("--dataset <name>", "data set name")
    .requiredOption("--method <method>", "method name")
    .requiredOption("--user <id>", "user id")
    .option("--session <sampleId>", "only the entries an answer in this session may use")
    .option("--retriever <kind>", "the retriever the memory was built with", "bm25")
    .option("--options <json>", "method options as JSON (as given to build)")
    .option("--json", "print JSON")
    .action(
      async (o: {
        dataset: string;
        method: string;
        user: string;
        session?: string;
        retriever: string;
        options?: string;
        json?: boolean;
      }) => {
        const { showUserMemory } = await import("@/lib/assistants/core/show");
        const { datasetByName } = await import("@/lib/assistants/core/sessions");
        const { ModelClient } = await import("@/lib/llm/client");
        const db = getDb();
        const options = parseOptionsFlag(o.options);
        const r = showUserMemory(db, {
          dataset: datasetByName(db, o.dataset),
          method: o.method,
          userKey: o.user,
          session: o.session,
          options,
          retriever: o.retriever as never,
          llm: ModelClient.create(db),
        });
        const out = {
          method: o.method,
          user: o.user,
          session: r.session,
          memory: {
            id: r.version.id,
            status: r.version.status,
            settingsKey: r.version.settingsKey,
            sessionsDone: r.version.sessionsDone,
            sessionsTotal: r.version.sessionsTotal,
          },
          entries: r.entries,
        };
        if (o.json) return void console.log(JSON.stringify(out));
        console.log(
          `${o.method} memory of ${o.user} (${r.version.status}, ${r.version.sessionsDone}/${r.version.sessionsTotal} sessions)${r.session ? ` as seen in ${r.session}` : ""}`,
        );
        for (const e of r.entries) console.log(`${e.kind}\t${e.key}\t[${e.session}] ${JSON.stringify(e.content).slice(0, 200)}`);
      },
    );

  memory
    .command("methods")
    .description("list the memory methods")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const { ASSISTANTS } = await import("@/lib/assistants/registry");
      const { listExternalMethods } = await import("@/lib/assistants/external/store");
      const rows = [
        ...ASSISTANTS.map((a) => ({ id: a.id, label: a.label, description: a.description, entryKinds: [...a.entryKinds] })),
        // Registered external methods (pal methods add): their entry kinds are what they hand back.
        ...listExternalMethods(getDb()).map((m) => ({
          id: m.name,
          label: m.label,
          description: `External method served at ${m.url}`,
          entryKinds: [],
        })),
      ];
      if (o.json) return void console.log(JSON.stringify(rows));
      // One column as wide as the longest id (h2memory-no-background is 22), so the descriptions line up.
      const width = Math.max(...rows.map((r) => r.id.length)) + 2;
      for (const r of rows) console.log(`${r.id.padEnd(width)}${r.description}`);
    });
}

/** The --options flag: a method's options as JSON (undefined: the method's defaults). */
function parseOptionsFlag(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new CliError(`--options: not valid JSON: ${raw}`);
  }
}
