import type { Metadata } from "next";
import fs from "node:fs";
import path from "node:path";
import { requireRole } from "@/lib/auth/session";
import { PageHeader } from "@/components/shell/PageHeader";
import { presetOptions } from "@/lib/experiments/presets";
import { PresetSettingsTable } from "@/components/experiments/PresetSettingsTable";

export const metadata: Metadata = { title: "Protocol notes" };

/** docs/protocol.md, shown with its headings, lists and paragraphs (no Markdown library: the page is plain). */
function Notes({ text }: { text: string }) {
  const blocks = text.split(/\n{2,}/);
  return (
    <div className="space-y-2 text-sm text-slate-700">
      {blocks.map((b, i) => {
        const t = b.trim();
        if (t.startsWith("## "))
          return (
            <h3 key={i} className="pt-2 font-semibold">
              {t.slice(3)}
            </h3>
          );
        if (t.startsWith("# ")) return null;
        if (t.startsWith("- "))
          return (
            <ul key={i} className="list-disc pl-5">
              {t.split(/\n(?=- )/).map((li, j) => (
                <li key={j}>{li.slice(2).replace(/\n\s*/g, " ")}</li>
              ))}
            </ul>
          );
        return <p key={i}>{t.replace(/\n/g, " ")}</p>;
      })}
    </div>
  );
}

export default async function ProtocolPage() {
  await requireRole("admin", "researcher");
  let notes = "";
  try {
    notes = fs.readFileSync(path.join(process.env.PAL_ROOT ?? process.cwd(), "docs", "protocol.md"), "utf8");
  } catch {
    notes = "";
  }
  return (
    <>
      <PageHeader
        title="Protocol notes"
        subtitle="Each paper's protocol as a preset: every setting, where it comes from, and what to expect to differ."
      />
      {presetOptions().map((p) => (
        <section key={p.id} className="mb-4 rounded border border-slate-200 bg-white p-3" data-testid={`protocol-${p.id}`}>
          <h2 className="font-semibold">{p.label}</h2>
          <p className="mb-2 text-xs text-slate-600">{p.description}</p>
          <PresetSettingsTable settings={p.settings} />
        </section>
      ))}
      {notes ? (
        <section className="rounded border border-slate-200 bg-white p-3" data-testid="protocol-notes">
          <Notes text={notes} />
        </section>
      ) : null}
    </>
  );
}
