/**
 * The run card: what a paper's appendix or a reviewer needs of one run, in Markdown or HTML. Models as
 * the endpoints said they served them and the parameters as sent come from the run's ledger rows, the
 * data set's hash and the repeats from the experiment, the version from the run record (or the bundle
 * it came in), the costs from the ledger and the paper tables from the results: nothing from today's
 * settings.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { openSqlite, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { experimentPaperTables, paperTableFile, type PaperTable } from "@/lib/experiments/paper-table";
import { cellParts } from "@/lib/experiments/paper-table/cell-text";
import { auditLines, deviationText, mismatchText, protocolAudit } from "@/lib/experiments/protocol-audit";
import { readRunRecord, type ExternalServiceRecord } from "@/lib/experiments/run-record";
import { otherParamsColumn } from "@/lib/experiments/experiment-calls";
import { checkBundle } from "./check";
import { badgeText, latestVerification } from "./verifications";

type Table = { head: string[]; rows: Array<Array<string | number | null>> };
/** `paper`: the paper tables themselves, which the HTML card renders as tables (the Markdown card keeps `pre`). */
type Section = { title: string; lines?: string[]; table?: Table; pre?: string; paper?: PaperTable[] };

/** The protocol audit of the run, as the card shows it (lib/experiments/protocol-audit.ts). */
export function protocolAuditSection(db: Db, experimentId: number): Section {
  // Recomputed from the ledger rows the card reads (a bundle carries them), never copied from elsewhere.
  const audit = protocolAudit(db, experimentId);
  const [verdict] = auditLines(audit);
  const list = (title: string, items: string[]) => (items.length ? [`${title}:`, ...items.map((x) => `- ${x}`)] : [`${title}: none.`]);
  return {
    title: "Protocol audit",
    lines: [
      verdict,
      // Unintended mismatches and intended deviations apart (issue 40): a deviation is what the run asked for.
      ...list("Unintended mismatches (sent, not asked for)", audit.mismatches.map(mismatchText)),
      ...list(`Intended deviations from the ${audit.preset ?? "paper's"} preset (asked for)`, (audit.deviations ?? []).map(deviationText)),
      ...(audit.warnings ?? []).map((w) => `Warning: ${w}.`),
      ...(audit.checked.length ? [`Checked: ${audit.checked.join("; ")}.`] : []),
    ],
  };
}

/**
 * External methods (issue 41): each service as it described itself when the run started, and plainly
 * the models it calls outside the run, whose calls are outside the ledger, the costs and the audit.
 */
function externalSection(external: ExternalServiceRecord[] | undefined): Section[] {
  if (!external?.length) return [];
  const lines = ["Methods served over HTTP by a lab's own service; their model calls through the run's endpoint are in the ledger below."];
  for (const x of external) {
    const said = x.service ? `service ${x.service}` : `its service did not describe itself (${x.error ?? "no answer"})`;
    lines.push(
      `${x.key}${x.key !== x.method ? ` (${x.method})` : ""} at ${x.url}: ${said}${x.memory ? `, memory ${x.memory === "service" ? "kept by the service" : "handed back to PAL Studio"}` : ""}.`,
    );
    lines.push(
      x.outsideModels.length
        ? `- It calls models outside the run: ${x.outsideModels.join(", ")}. Those calls are outside the ledger, the costs and the protocol audit of this card.`
        : x.service
          ? "- It calls no model outside the run (as it says)."
          : "- Whether it calls models outside the run is not known.",
    );
  }
  return [{ title: "External methods", lines }];
}

/** The ledger rows of the run: its jobs', its memory builds' (the versions it answered from) and those carrying the experiment. */
const RUN_CALLS = `(job_id IN (SELECT id FROM jobs WHERE experiment_id = @e)
  OR memory_version_id IN (SELECT version_id FROM experiment_memory_versions WHERE experiment_id = @e) OR experiment_id = @e)`;

function cardSections(db: Db, id: number): { title: string; sections: Section[] } {
  const conn = db.$client;
  const e = conn
    .prepare(
      `SELECT e.name, e.status, e.config, e.dataset_hash AS hash, e.created_at AS createdAt, e.finished_at AS finishedAt, d.name AS dataset, d.kind
       FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?`,
    )
    .get(id) as
    | {
        name: string;
        status: string;
        config: string;
        hash: string;
        createdAt: number;
        finishedAt: number | null;
        dataset: string;
        kind: string;
      }
    | undefined;
  if (!e) throw new NotFoundError(`experiment ${id} does not exist`);
  const config = parseExperimentConfig(JSON.parse(e.config));
  // The project's version as the run record states it (lib/experiments/run-record.ts).
  const record = readRunRecord(db, id);
  const project = record?.project ?? null;
  // All columns by name: a bundle written before source_status existed has none.
  const importRow = conn.prepare("SELECT * FROM experiment_imports WHERE experiment_id = ?").get(id) as Record<string, unknown> | undefined;
  const imported = importRow
    ? {
        source: String(importRow.source),
        version: String(importRow.exported_version),
        exportedAt: Number(importRow.exported_at),
        importedAt: Number(importRow.imported_at),
        sourceStatus: typeof importRow.source_status === "string" ? importRow.source_status : null,
      }
    : undefined;
  const version = project
    ? `${project.version}${project.commit ? `+${project.commit.slice(0, 12)}` : ""}`
    : imported
      ? `${imported.version} (the version that exported it; the run record names none)`
      : "not recorded (the run has no run record naming it)";
  const iso = (t: number | null) => (t === null ? "-" : new Date(t).toISOString());
  const verified = latestVerification(db, id);

  const run = {
    title: "Run",
    table: {
      head: ["", ""],
      rows: [
        ["Experiment", `${id}: ${e.name}`],
        ["Status", e.status],
        ["Created / finished", `${iso(e.createdAt)} / ${iso(e.finishedAt)}`],
        ["Data set", `${e.dataset} (${e.kind})`],
        ["Data set sha256", e.hash],
        ["Users", config.users === "all" ? "all" : config.users.join(", ")],
        ["Methods", config.methods.map((m) => m.label ?? m.name).join(", ")],
        ["Tasks", config.tasks.join(", ")],
        ["Repeats", config.repeats],
        ["Seed", config.seed],
        ["Retriever", config.retriever],
        ["PAL Studio version", version],
        ...(imported
          ? [
              [
                "Imported",
                `from ${imported.source}, exported ${iso(imported.exportedAt)}, imported ${iso(imported.importedAt)}${
                  imported.sourceStatus ? `; status in the bundle: ${imported.sourceStatus}` : ""
                }`,
              ],
            ]
          : []),
        ...(verified
          ? [["Verified", `${badgeText(verified)} (replayed offline from the bundled replies, ${iso(verified.verifiedAt)})`]]
          : []),
      ] as Table["rows"],
    },
  };
  const served = conn
    .prepare(
      `SELECT role, config, model, coalesce(served_model, '(not reported)') AS served, endpoint, count(*) AS n FROM llm_calls
       WHERE ${RUN_CALLS} AND cache_hit = 0 GROUP BY role, config, model, served, endpoint ORDER BY role, config, n DESC`,
    )
    .all({ e: id }) as Array<Record<string, string | number>>;
  const other = otherParamsColumn(db);
  const sent = conn
    .prepare(
      `SELECT role, config, temperature, top_p AS topP, max_tokens AS maxTokens, json_mode AS jsonMode, ${other} AS other, count(*) AS n
       FROM llm_calls WHERE ${RUN_CALLS} AND cache_hit = 0
       GROUP BY role, config, temperature, top_p, max_tokens, json_mode, ${other} ORDER BY role, config, n DESC`,
    )
    .all({ e: id }) as Array<Record<string, string | number | null>>;
  const cost = conn
    .prepare(
      `SELECT CASE WHEN job_id IS NOT NULL THEN 'answering and judging' ELSE 'memory builds' END AS part, role,
         sum(cache_hit = 0) AS requests, sum(cache_hit) AS hits, sum(CASE WHEN cache_hit = 0 THEN prompt_tokens ELSE 0 END) AS prompt,
         sum(CASE WHEN cache_hit = 0 THEN completion_tokens ELSE 0 END) AS completion, sum(usage_unknown) AS unknown
       FROM llm_calls WHERE ${RUN_CALLS} GROUP BY part, role ORDER BY part, role`,
    )
    .all({ e: id }) as Array<{
    part: string;
    role: string;
    requests: number;
    hits: number;
    prompt: number;
    completion: number;
    unknown: number;
  }>;
  const usd = (role: string, p: number, c: number) => {
    const price = config.prices[role as keyof typeof config.prices];
    return price ? ((p * price.prompt + c * price.completion) / 1e6).toFixed(2) : "-";
  };
  let tables: string;
  let paper: PaperTable[] | undefined;
  try {
    tables = paperTableFile(db, id, "markdown").body;
    paper = experimentPaperTables(db, id).tables;
  } catch (err) {
    tables = `No paper table: ${err instanceof Error ? err.message : String(err)}`;
  }
  return {
    title: `Run card: experiment ${id} (${e.name})`,
    sections: [
      run,
      {
        title: "Models as served",
        lines: ["Per configuration, the model asked for and the model the endpoint said answered (requests sent, cache hits excluded)."],
        table: {
          head: ["Role", "Configuration", "Model asked", "Model served", "Endpoint", "Requests"],
          rows: served.map((r) => [r.role, r.config, r.model, r.served, r.endpoint, r.n]),
        },
      },
      {
        title: "Parameters as sent",
        lines: ["What the requests carried (empty: not sent, the endpoint's default)."],
        table: {
          head: ["Role", "Configuration", "temperature", "top_p", "max_tokens", "JSON mode", "Other parameters", "Requests"],
          rows: sent.map((r) => [r.role, r.config, r.temperature, r.topP, r.maxTokens, r.jsonMode, r.other, r.n]),
        },
      },
      protocolAuditSection(db, id),
      ...externalSection(record?.external),
      {
        title: "Costs",
        lines: [
          `From the ledger; USD at the experiment's prices (${Object.keys(config.prices).length ? "per role, USD per million tokens" : "none set"}).`,
        ],
        table: {
          head: ["Part", "Role", "Requests", "Cache hits", "Prompt tokens", "Completion tokens", "Tokens unknown", "USD"],
          rows: cost.map((c) => [
            c.part,
            c.role,
            c.requests,
            c.hits,
            c.prompt,
            c.completion,
            c.unknown,
            usd(c.role, c.prompt, c.completion),
          ]),
        },
      },
      { title: "Paper tables", pre: tables, ...(paper?.length ? { paper } : {}) },
    ],
  };
}

const cell = (v: string | number | null) => (v === null || v === undefined ? "" : String(v));

function markdown(card: { title: string; sections: Section[] }): string {
  const out = [`# ${card.title}`, ""];
  for (const s of card.sections) {
    out.push(`## ${s.title}`, "");
    for (const l of s.lines ?? []) out.push(l, "");
    if (s.table) {
      const esc = (v: string | number | null) => cell(v).replace(/\|/g, "\\|").replace(/\n/g, " ");
      out.push(`| ${s.table.head.map(esc).join(" | ")} |`, `|${s.table.head.map(() => " --- ").join("|")}|`);
      for (const r of s.table.rows) out.push(`| ${r.map(esc).join(" | ")} |`);
      out.push("");
    }
    if (s.pre)
      out.push(
        s.pre.replace(/^#+ /gm, (m) => `#${m}`),
        "",
      );
  }
  return out.join("\n");
}

function paperTableHtml(t: PaperTable, esc: (v: string | number | null) => string): string {
  const lead = t.withModel ? 2 : 1;
  const head = [...(t.withModel ? ["Model"] : []), t.stub, ...t.columns.map((c) => c.label)];
  const rows = t.sections.flatMap((s) => [
    `<tr><th colspan="${head.length}" style="text-align:left;font-style:italic">${esc(s.label)}</th></tr>`,
    ...s.rows.map((r) => {
      const cells = r.cells.map((c, i) => {
        const p = cellParts(c, t.columns[i], s.kind);
        const text = esc(`${p.value}${p.sd !== null ? ` ± ${p.sd}` : ""}${p.sig ? "†" : ""}`);
        return `<td style="text-align:right">${p.rank === 1 ? `<b>${text}</b>` : p.rank === 2 ? `<u>${text}</u>` : text}</td>`;
      });
      return `<tr>${[...(t.withModel ? [r.model ?? ""] : []), r.name].map((x) => `<td>${esc(x)}</td>`).join("")}${cells.join("")}</tr>`;
    }),
  ]);
  return `<h3>${esc(t.title)}</h3><table><thead><tr>${head
    .map((h, i) => `<th${i >= lead ? ' style="text-align:right"' : ""}>${esc(h)}</th>`)
    .join(
      "",
    )}</tr></thead><tbody>${rows.join("")}</tbody></table>${t.notes.map((n) => `<p style="font-size:12px">${esc(n)}</p>`).join("")}`;
}

function html(card: { title: string; sections: Section[] }): string {
  const esc = (v: string | number | null) =>
    cell(v).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const body = card.sections
    .map((s) => {
      const parts = [`<h2>${esc(s.title)}</h2>`, ...(s.lines ?? []).map((l) => `<p>${esc(l)}</p>`)];
      if (s.table)
        parts.push(
          `<table><thead><tr>${s.table.head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${s.table.rows
            .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`)
            .join("")}</tbody></table>`,
        );
      // The paper tables as tables a reader reads (issue 44.5), not their Markdown in a code block.
      if (s.paper) parts.push(...s.paper.map((t) => paperTableHtml(t, esc)));
      else if (s.pre) parts.push(`<pre>${esc(s.pre)}</pre>`);
      return `<section>${parts.join("\n")}</section>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(card.title)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}pre{background:#f7f7f7;padding:.75rem;overflow:auto;font-size:12px}</style></head>
<body><h1>${esc(card.title)}</h1>
${body}
</body></html>
`;
}

export function runCardOfExperiment(db: Db, id: number, format: "md" | "html"): string {
  const card = cardSections(db, id);
  return format === "html" ? html(card) : markdown(card);
}

/** The card of a bundle's run, read from a private copy of the file (reading the results may write their sums). */
export function runCardOfBundle(file: string, format: "md" | "html"): string {
  const meta = checkBundle(file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-card-"));
  const copy = path.join(dir, "bundle.db");
  fs.copyFileSync(file, copy);
  const conn = openSqlite(copy, { fileMustExist: true });
  try {
    return runCardOfExperiment(drizzle(conn, { schema }) as unknown as Db, meta.experimentId, format);
  } finally {
    conn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
