/**
 * A separate process making model calls on a database (used by lib/llm/endpoints.test.ts), as a `pal`
 * CLI run does beside the server's worker: argv = how many calls and a label for their prompts. The
 * roles' endpoints come from the database (PAL_DB); the process shares nothing else with its parent.
 */
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";

const [n, label] = [Number(process.argv[2]), process.argv[3]];
const db = openDb(process.env.PAL_DB!);
const client = ModelClient.create(db, { retryBaseMs: 5 });
await Promise.all(
  Array.from({ length: n }, (_, i) => client.chat({ messages: [{ role: "user", content: `${label} ${i}` }], purpose: "test.worker" })),
);
db.$client.close();
process.stdout.write(JSON.stringify({ calls: n }));
