/**
 * A separate process of crowd participants (used by lib/annotation/participants/concurrency.test.ts):
 * argv = the link token and participant ids; they join and take turns asking for work and labelling it
 * until none is left, racing the other processes for the same items. CROWD_VARY=1: each participant
 * answers differently (so labels disagree and most-disagreement serving has splits to chase).
 */
import { openDb } from "@/db/client";
import { submitLabels } from "@/lib/annotation/queue";
import { joinCampaign, nextWork } from "@/lib/annotation/participants";

const [token, ...pids] = process.argv.slice(2);
const db = openDb(process.env.PAL_DB!);
const users = pids.map((pid) => joinCampaign(db, { token, pid, browserKey: `key-of-${pid}-0000000000` }).userId);
let labelled = 0;
let active = [...users];
while (active.length) {
  const next: number[] = [];
  for (const u of active) {
    const w = nextWork(db, u);
    if (w.state !== "item") continue;
    submitLabels(db, u, w.assignmentId, {
      submissionId: `crowd-sub-${u}-${w.assignmentId}`,
      values: process.env.CROWD_VARY
        ? { requirement: ["Win", "Tie", "Lose"][u % 3], preference: "Tie" }
        : { requirement: "Win", preference: "Tie" },
      ms: 10,
    });
    labelled++;
    next.push(u);
  }
  active = next;
}
db.$client.close();
process.stdout.write(JSON.stringify({ labelled }));
