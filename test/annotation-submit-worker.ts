/**
 * A separate process submitting labels (used by lib/annotation/concurrency.test.ts): argv = userId and
 * the assignment ids; each submission id is derived from the assignment, so two workers racing on the
 * same assignments send the same submissions, as a retry after a lost response would.
 */
import { openDb } from "@/db/client";
import { submitLabels } from "@/lib/annotation/queue";

const [userId, ...ids] = process.argv.slice(2).map(Number);
const db = openDb(process.env.PAL_DB!);
let duplicates = 0;
for (const id of ids) {
  for (let k = 0; k < 2; k++) {
    const r = submitLabels(db, userId, id, { submissionId: `worker-sub-${id}`, values: { requirement: "Win", preference: "Tie" }, ms: 10 });
    if (r.duplicate) duplicates++;
  }
}
db.$client.close();
process.stdout.write(JSON.stringify({ duplicates }));
