/**
 * The user's information as a readable card: the fields the papers' judges read, under plain titles and
 * in a fixed order (background first, then the situation and what the user asks for, then preferences
 * and candidate solutions), likes and dislikes as coloured lists. Unknown fields follow, titled from
 * their key; nothing is shown as JSON.
 */
import { keyLabel, Value } from "./Value";

const TITLES: Array<[string, string]> = [
  ["background", "Background"],
  ["profile", "Profile"],
  ["persona", "Persona"],
  ["personality", "Personality"],
  ["situation", "Situation"],
  ["user_query", "What the user asks"],
  ["implicit_needs", "Implicit needs"],
  ["requirement", "Requirement"],
  ["general_preference", "General preference"],
  ["preferences", "Preferences"],
  ["solutions", "Candidate solutions"],
];

type PosNeg = { pos?: unknown; neg?: unknown };
const isPosNeg = (v: unknown): v is PosNeg =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => k === "pos" || k === "neg");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null || v === "" ? [] : [v]);

function PosNegList({ value, pos, neg }: { value: PosNeg; pos: string; neg: string }) {
  const p = list(value.pos);
  const n = list(value.neg);
  if (!p.length && !n.length) return <span className="text-slate-500">—</span>;
  return (
    <div className="space-y-1">
      <LabelledList items={p} label={pos} tone="emerald" />
      <LabelledList items={n} label={neg} tone="rose" />
    </div>
  );
}

// Tailwind needs whole class names in the source, so each tone spells its classes out.
const TONES = {
  emerald: { label: "text-emerald-700", list: "text-emerald-900" },
  rose: { label: "text-rose-700", list: "text-rose-900" },
} as const;

function LabelledList({ items, label, tone }: { items: unknown[]; label: string; tone: keyof typeof TONES }) {
  if (!items.length) return null;
  return (
    <div>
      <span className={`text-[11px] font-medium ${TONES[tone].label}`}>{label}</span>
      <ul className={`ml-4 list-disc ${TONES[tone].list}`}>
        {items.map((x, i) => (
          <li key={i}>
            <Value value={x} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A field stored as JSON text (campaigns made from an experiment before its fields were stored as
 * objects) is read back into its object, so it shows as labelled fields, never as JSON.
 */
function unpack(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}

const titleOf = (k: string) => TITLES.find(([key]) => key === k)?.[1] ?? keyLabel(k);

export function UserInfoCard({ info: raw }: { info: unknown }) {
  const info = unpack(raw);
  if (info === null || info === undefined || typeof info !== "object" || Array.isArray(info)) {
    return (
      <div className="text-sm leading-relaxed" data-testid="user-info">
        <Value value={info} />
      </div>
    );
  }
  const rec = info as Record<string, unknown>;
  const keys = [...TITLES.map(([k]) => k).filter((k) => k in rec), ...Object.keys(rec).filter((k) => !TITLES.some(([t]) => t === k))];
  return (
    <dl className="space-y-2.5 text-sm leading-relaxed" data-testid="user-info">
      {keys.map((k) => {
        const v = unpack(rec[k]);
        if (v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) return null;
        return (
          <div key={k}>
            <dt className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">{titleOf(k)}</dt>
            <dd className="text-slate-800">
              {isPosNeg(v) ? (
                <PosNegList
                  value={v}
                  pos={k === "solutions" ? "Fit the user" : "Likes"}
                  neg={k === "solutions" ? "Do not fit" : "Dislikes"}
                />
              ) : (
                <Value value={v} />
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
