"use client";
import { useRef, useState } from "react";
import Link from "next/link";
import { ProgressBar } from "./ProgressBar";
import { CountGrid } from "./CountGrid";
import { QualityReport } from "./QualityReport";
import { datasetHref, humanKey } from "@/lib/datasets/browse/format";
import type { UploadKind } from "@/lib/datasets/kinds/types";

type Picked = { file: File; path: string };
type Progress = { phase: string; done: number; total: number; detail?: string };
type Result = { datasetId: number; name: string; kind: string; language: string | null; stats: Record<string, number>; report: unknown };

/** Share of the bar per phase: the upload, then the importer's own phases. */
const PHASES: Array<[string, number, string]> = [
  ["uploading", 0.3, "Uploading"],
  ["reading", 0.2, "Reading files"],
  ["validating", 0.15, "Validating"],
  ["writing", 0.35, "Writing to the database"],
];

const ext = (name: string) => (name.lastIndexOf(".") >= 0 ? name.slice(name.lastIndexOf(".")).toLowerCase() : "");
const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 2 : 0)} MB`;

function overall(p: Progress | null): number {
  if (!p) return 0;
  if (p.phase === "done") return 1;
  let before = 0;
  for (const [phase, share] of PHASES) {
    if (phase === p.phase) return before + share * (p.total > 0 ? Math.min(1, p.done / p.total) : 0);
    before += share;
  }
  return before;
}

/** The frame the import API reads: [u32 manifest length][manifest JSON][file bytes...]. */
function frame(manifest: object, files: File[]): Blob {
  const json = new TextEncoder().encode(JSON.stringify(manifest));
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, json.length);
  return new Blob([len, json, ...files], { type: "application/x-pal-upload" });
}

function defaultName(picked: Picked[], kind: UploadKind, lang: string): string {
  const top = picked[0]?.path.split("/");
  const base = top && top.length > 1 ? top[0] : kind.label;
  return `${base} upload${kind.languageChoice && lang !== "auto" ? ` (${lang})` : ""}`;
}

/**
 * The import page's form: kind, name, language, replace, files (or a folder), then the upload with a
 * progress bar fed by the server's NDJSON events, and the result (counts, warnings, link) or the
 * one-line validation error. `kinds` (labels, extensions, limits) come from the server's kind registry.
 */
export function ImportForm({ kinds }: { kinds: UploadKind[] }) {
  const [kindId, setKindId] = useState(kinds[0].id);
  const kind = kinds.find((k) => k.id === kindId) ?? kinds[0];
  const [name, setName] = useState("");
  const [lang, setLang] = useState("auto");
  const [replace, setReplace] = useState(false);
  const [picked, setPicked] = useState<Picked[]>([]);
  const [ignored, setIgnored] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const total = picked.reduce((s, p) => s + p.file.size, 0);
  const tooBig = total > kind.maxBytes;

  function add(list: FileList | null, k: UploadKind = kind) {
    if (!list) return;
    const next = [...picked];
    const skip: string[] = [];
    for (const file of Array.from(list)) {
      const path = file.webkitRelativePath || file.name;
      if (path.split("/").some((part) => part.startsWith("."))) continue; // .git, .gitattributes, .DS_Store
      if (!k.extensions.includes(ext(file.name))) skip.push(path);
      else if (!next.some((p) => p.path === path && p.file.size === file.size)) next.push({ file, path });
    }
    setPicked(next);
    setIgnored(skip);
    setResult(null);
    setError(null);
  }

  function switchKind(k: string) {
    setKindId(k);
    setPicked([]);
    setIgnored([]);
    setResult(null);
    setError(null);
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || picked.length === 0 || tooBig) return;
    const finalName = name.trim() || defaultName(picked, kind, lang);
    setName(finalName);
    setBusy(true);
    setResult(null);
    setError(null);
    setProgress({ phase: "uploading", done: 0, total, detail: `${picked.length} file${picked.length === 1 ? "" : "s"}` });

    const manifest = { kind: kind.id, name: finalName, lang, replace, files: picked.map((p) => ({ path: p.path, size: p.file.size })) };
    const xhr = new XMLHttpRequest();
    let seen = 0;
    let finished = false;
    const take = () => {
      const text = xhr.responseText;
      let nl: number;
      while ((nl = text.indexOf("\n", seen)) >= 0) {
        const line = text.slice(seen, nl);
        seen = nl + 1;
        if (!line.trim()) continue;
        let ev: Record<string, unknown>;
        try {
          ev = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof ev.error === "string") {
          finished = true;
          setError(ev.error);
        } else if (ev.result) {
          finished = true;
          setProgress({ phase: "done", done: 1, total: 1 });
          setResult(ev.result as Result);
        } else if (typeof ev.phase === "string") setProgress(ev as unknown as Progress);
      }
    };
    xhr.open("POST", "/api/datasets/import");
    xhr.setRequestHeader("Content-Type", "application/x-pal-upload");
    xhr.upload.onprogress = (ev) =>
      setProgress({
        phase: "uploading",
        done: ev.loaded,
        total: ev.total || total,
        detail: `${mb(ev.loaded)} of ${mb(ev.total || total)}`,
      });
    xhr.upload.onload = () => setProgress({ phase: "reading", done: 0, total: 1, detail: "waiting for the server" });
    xhr.onprogress = () => {
      if (xhr.status === 200) take();
    };
    xhr.onload = () => {
      if (xhr.status === 200) {
        take();
        if (!finished) setError("the import stopped without a result (server restarted?); nothing was stored");
      } else {
        let msg = `the server refused the upload (HTTP ${xhr.status})`;
        try {
          msg = JSON.parse(xhr.responseText).error ?? msg;
        } catch {
          /* not JSON */
        }
        setError(msg);
      }
      setBusy(false);
    };
    xhr.onerror = () => {
      setError("the upload failed (network error); nothing was stored");
      setBusy(false);
    };
    xhr.send(
      frame(
        manifest,
        picked.map((p) => p.file),
      ),
    );
  }

  const p = overall(progress);
  const phaseLabel = progress
    ? (PHASES.find(([ph]) => ph === progress.phase)?.[2] ?? (progress.phase === "done" ? "Done" : progress.phase))
    : "";
  const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
      <form onSubmit={submit} aria-label="Import a data set" className="h-fit space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <fieldset>
          <legend className="text-xs font-semibold uppercase tracking-wide text-slate-500">Kind</legend>
          <div className="mt-1 flex gap-2">
            {kinds.map((k) => (
              <label
                key={k.id}
                className={`flex flex-1 cursor-pointer items-center gap-2 rounded border px-3 py-2 text-sm ${kind.id === k.id ? "border-indigo-500 bg-indigo-50" : "border-slate-300"}`}
              >
                <input type="radio" name="kind" value={k.id} checked={kind.id === k.id} onChange={() => switchKind(k.id)} disabled={busy} />
                {k.label}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block text-xs text-slate-600">
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={picked.length ? defaultName(picked, kind, lang) : "e.g. PAL-Set (en)"}
            maxLength={200}
            disabled={busy}
            className={input}
          />
        </label>
        {kind.languageChoice ? (
          <label className="block text-xs text-slate-600">
            Language
            <select value={lang} onChange={(e) => setLang(e.target.value)} disabled={busy} className={input}>
              <option value="auto">auto-detect</option>
              <option value="zh">Chinese (zh)</option>
              <option value="en">English (en)</option>
            </select>
          </label>
        ) : null}
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} disabled={busy} />
          Replace a data set of the same name
        </label>
        <div>
          <p className="text-xs text-slate-600">
            Files <span className="text-slate-500">— {kind.filesHint}</span>
          </p>
          <div className="mt-1 flex flex-wrap gap-2">
            <label className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 focus-within:ring-2 focus-within:ring-indigo-500">
              Choose files…
              <input
                ref={filesInput}
                type="file"
                multiple
                accept={kind.extensions.join(",")}
                disabled={busy}
                className="sr-only"
                data-testid="import-files"
                onChange={(e) => {
                  add(e.target.files);
                  e.target.value = "";
                }}
              />
            </label>
            <label className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 focus-within:ring-2 focus-within:ring-indigo-500">
              Choose a folder…
              <input
                ref={folderInput}
                type="file"
                // @ts-expect-error: non-standard but supported by every current browser
                webkitdirectory=""
                disabled={busy}
                className="sr-only"
                data-testid="import-folder"
                onChange={(e) => {
                  add(e.target.files);
                  e.target.value = "";
                }}
              />
            </label>
            {picked.length ? (
              <button
                type="button"
                onClick={() => {
                  setPicked([]);
                  setIgnored([]);
                }}
                disabled={busy}
                className="text-xs text-slate-500 hover:underline"
              >
                clear
              </button>
            ) : null}
          </div>
          {picked.length ? (
            <ul
              className="mt-2 max-h-48 divide-y divide-slate-100 overflow-auto rounded border border-slate-200 text-xs"
              data-testid="picked-files"
            >
              {picked.map((f, i) => (
                <li key={`${f.path}-${i}`} className="flex items-center gap-2 px-2 py-1">
                  <span className="truncate font-mono text-slate-700" title={f.path}>
                    {f.path}
                  </span>
                  <span className="ml-auto shrink-0 tabular-nums text-slate-500">{mb(f.file.size)}</span>
                  <button
                    type="button"
                    aria-label={`Remove ${f.path}`}
                    disabled={busy}
                    onClick={() => setPicked(picked.filter((_, j) => j !== i))}
                    className="text-slate-500 hover:text-rose-700"
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <p className={`mt-1 text-xs ${tooBig ? "font-medium text-rose-700" : "text-slate-500"}`}>
            {picked.length} file{picked.length === 1 ? "" : "s"}, {mb(total)}{" "}
            {tooBig ? `— more than ${mb(kind.maxBytes)}; use \`npx pal import\` for a set this large` : `(at most ${mb(kind.maxBytes)})`}
          </p>
          {ignored.length ? (
            <p className="mt-1 text-xs text-amber-700">
              Ignored (not {kind.extensions.join("/")}): {ignored.slice(0, 5).join(", ")}
              {ignored.length > 5 ? ` and ${ignored.length - 5} more` : ""}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          disabled={busy || picked.length === 0 || tooBig}
          className="w-full rounded bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
        >
          {busy ? "Importing…" : "Import"}
        </button>
      </form>

      <div className="space-y-4" aria-live="polite">
        {progress ? (
          <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="import-progress" data-phase={progress.phase}>
            <ProgressBar
              tone={error ? "error" : result ? "done" : "active"}
              value={p * 100}
              max={100}
              label={
                error
                  ? "Stopped"
                  : `${phaseLabel}${progress.total > 1 && progress.phase !== "uploading" && progress.phase !== "done" ? ` (${progress.done}/${progress.total})` : ""}`
              }
            />
            {progress.detail && !error && progress.phase !== "done" ? (
              <p className="mt-1 truncate text-xs text-slate-500">{progress.detail}</p>
            ) : null}
            <ol className="mt-3 flex flex-wrap gap-3 text-xs">
              {PHASES.map(([ph, , label], i) => {
                const at = PHASES.findIndex(([x]) => x === progress.phase);
                const state = progress.phase === "done" || (at >= 0 && i < at) ? "done" : i === at ? (error ? "failed" : "active") : "todo";
                return (
                  <li
                    key={ph}
                    className={
                      state === "done"
                        ? "text-emerald-700"
                        : state === "active"
                          ? "font-medium text-indigo-700"
                          : state === "failed"
                            ? "font-medium text-rose-700"
                            : "text-slate-500"
                    }
                  >
                    {state === "done" ? "✓" : state === "failed" ? "✗" : state === "active" ? "●" : "○"} {label}
                  </li>
                );
              })}
            </ol>
          </div>
        ) : (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-500">
            Pick the files and press Import. The import checks everything before it writes anything: a malformed file is reported with its
            name, the JSON path and the reason, and nothing is stored.
          </div>
        )}
        {error ? (
          <div role="alert" data-testid="import-error" className="rounded-lg border border-rose-300 bg-rose-50 p-4 text-sm text-rose-900">
            <p className="font-semibold">Import failed — nothing was stored.</p>
            <p className="mt-1 break-words font-mono text-xs">{error}</p>
          </div>
        ) : null}
        {result ? (
          <div data-testid="import-result" className="space-y-4">
            <div
              role="status"
              className="flex flex-wrap items-center gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-900"
            >
              <span>
                Imported <strong>{result.name}</strong> ({kinds.find((k) => k.id === result.kind)?.label ?? result.kind}
                {result.language ? `, ${result.language}` : ""}).
              </span>
              <Link
                href={datasetHref(result.datasetId)}
                className="ml-auto rounded bg-emerald-700 px-3 py-1 font-medium text-white hover:bg-emerald-800"
              >
                Open the data set
              </Link>
            </div>
            <CountGrid counts={Object.entries(result.stats).map(([key, value]) => ({ label: humanKey(key), value }))} />
            <QualityReport report={result.report} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
