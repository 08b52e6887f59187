/**
 * Issue 41.5: a registered external method shows wherever a built-in one does, named by its registered
 * label: the paper tables, Figure 4, case studies, and a campaign built from the experiment. A real run
 * with the method served by a real HTTP server (TEST DOUBLE of a lab's method), beside vanilla, the real
 * model client against the fake OpenAI server, real SQLite.
 */
import { describe, expect, it } from "vitest";
import { externalRunEnv } from "@/test/external-run";
import { createUser } from "@/lib/users/users";
import { createCampaign, myQueue, presentAssignment } from "@/lib/annotation";
import { experimentSourceChoices } from "@/lib/annotation/experiment-items";
import { runExperiment } from "./worker";
import { experimentPaperTables, paperTableFile } from "./paper-table";
import { exportFigure } from "./figure4";
import { caseStudies, caseStudiesMarkdown } from "./case-studies";
import { starJob } from "./service";

const env = externalRunEnv();
const LABEL = "Lab-Mem";

describe("an external method in the views built from an experiment", () => {
  it("paper tables, Figure 4, case studies and a campaign name it by its label and carry its outputs", async () => {
    env.svc.setAnswerPrefix("LABMEM-7: ");
    const e = await env.experiment(
      { methods: [{ name: "mine", label: LABEL }, { name: "vanilla" }], tasks: ["requirement", "solution", "dialogue"] },
      { label: LABEL },
    );
    expect(await runExperiment(e.db, e.id, e.deps, { concurrency: 2 })).toBe("done");
    const q = (sql: string, ...p: unknown[]) => e.db.$client.prepare(sql).all(...p) as Array<Record<string, unknown>>;
    expect(q("SELECT DISTINCT method FROM jobs WHERE experiment_id = ? AND status != 'done'", e.id)).toEqual([]);
    // Its answers came from the service (its /respond), over the run's endpoint.
    expect(env.svc.requests.filter((r) => r.path === "/respond").length).toBeGreaterThan(0);

    // Paper tables: a row named by the label, with numbers.
    const tables = experimentPaperTables(e.db, e.id).tables;
    expect(tables.length).toBeGreaterThan(0);
    const md = paperTableFile(e.db, e.id, "markdown").body;
    const row = md.split("\n").find((l) => l.includes(LABEL));
    expect(row, md).toBeDefined();
    expect(row).toMatch(/\d/);
    expect(md).not.toMatch(/\| mine \|/);

    // Figure 4: a dialogue topic answered by both methods, the external one under its label, its reply shown.
    const job = q(
      "SELECT id, item_key AS item, output FROM jobs WHERE experiment_id = ? AND task = 'dialogue' AND method = ? AND phase = 0 ORDER BY id LIMIT 1",
      e.id,
      LABEL,
    )[0] as { id: number; item: string; output: string };
    const turns = (JSON.parse(job.output) as { dialogue: Array<{ role: string; content: string }> }).dialogue;
    const reply = turns.find((t) => t.role === "assistant")!.content;
    expect(reply).toMatch(/^LABMEM-7: /);
    const sp = new URLSearchParams({ task: "dialogue", item: job.item });
    sp.append("m", LABEL);
    sp.append("m", "vanilla");
    const fig = exportFigure(e.db, e.id, "figure-html", sp).body;
    expect(fig).toContain(LABEL);
    expect(fig).toContain(reply.slice(0, 40).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;"));
    const svg = exportFigure(e.db, e.id, "figure-svg", sp).body;
    expect(svg).toContain(LABEL);

    // Case studies: the starred item shows every method's output, the external one's under its label.
    starJob(e.db, e.id, job.id, { starred: true, note: "the lab's method remembers the user's plan", tags: ["external"] });
    const cases = caseStudies(e.db, e.id, { tag: "external" });
    expect(cases).toHaveLength(1);
    expect(cases[0].view.methods).toEqual(expect.arrayContaining([LABEL, "vanilla"]));
    const caseMd = caseStudiesMarkdown(e.db, e.id, { tag: "external" });
    expect(caseMd).toContain(LABEL);
    expect(caseMd).toContain("LABMEM-7: ");

    // A campaign built from the experiment: pairs the external method's dialogues with vanilla's.
    expect(experimentSourceChoices(e.db).find((c) => c.id === e.id)?.tasks.dialogue).toEqual(expect.arrayContaining([LABEL, "vanilla"]));
    const researcher = (await createUser(e.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const annotator = (await createUser(e.db, { email: "a@x.io", role: "annotator", password: "password-123" })).id;
    const c = createCampaign(
      e.db,
      {
        name: "lab vs vanilla",
        kind: "pairwise-dialogue",
        perItem: 1,
        annotatorIds: [annotator],
        source: { kind: "experiment", experimentId: e.id, methodA: LABEL, methodB: "vanilla" },
      },
      researcher,
    );
    const dialogueItems = q(
      "SELECT count(DISTINCT item_key) AS n FROM jobs WHERE experiment_id = ? AND task = 'dialogue' AND method = ?",
      e.id,
      LABEL,
    )[0].n as number;
    expect(c.items).toBe(dialogueItems);
    expect(q("SELECT slot, name, method FROM campaign_systems WHERE campaign_id = ? ORDER BY slot", c.id)).toEqual([
      { slot: "A", name: LABEL, method: LABEL },
      { slot: "B", name: "vanilla", method: "vanilla" },
    ]);
    // The annotator is shown the external method's dialogue, blinded: no method name.
    const queue = myQueue(e.db, annotator, c.id);
    expect(queue.entries.length).toBe(c.items);
    const shown = queue.entries.map((a) => JSON.stringify(presentAssignment(e.db, annotator, a.assignmentId))).join("\n");
    expect(shown).toContain(JSON.stringify(reply).slice(1, 41));
    expect(shown).not.toMatch(/Lab-Mem|\bmine\b/);
  }, 180_000);
});
