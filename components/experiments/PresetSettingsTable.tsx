import type { PresetSetting } from "@/lib/experiments/presets";

/** A preset's settings with where each comes from: on the protocol page and in the New experiment form. */
export function PresetSettingsTable({ settings, className = "w-full text-xs" }: { settings: PresetSetting[]; className?: string }) {
  return (
    <table className={className}>
      <thead className="text-left text-slate-500">
        <tr>
          <th className="pr-2">Setting</th>
          <th className="pr-2">Value</th>
          <th>Source</th>
        </tr>
      </thead>
      <tbody>
        {settings.map((s) => (
          <tr key={s.path} className="border-t border-slate-200/70 align-top">
            <td className="pr-2 font-mono">{s.path}</td>
            <td className="pr-2">{settingText(s.value)}</td>
            <td>{s.source}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A preset value in a few words: lists of methods by label or name, other values as written. */
function settingText(v: unknown): string {
  if (Array.isArray(v))
    return v
      .map((x) =>
        x && typeof x === "object" ? String((x as { label?: string; name?: string }).label ?? (x as { name?: string }).name) : String(x),
      )
      .join(", ");
  if (v && typeof v === "object")
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${typeof x === "object" ? JSON.stringify(x) : String(x)}`)
      .join(", ");
  return String(v);
}
