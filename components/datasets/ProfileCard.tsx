export type ProfileRequirementType = {
  aspect: string;
  typeKey: string;
  requirementType: string | null;
  preferencePos: string[] | null;
  preferenceNeg: string[] | null;
};

const BACKGROUND_FIELDS: Array<[string, string]> = [
  ["name", "Name"],
  ["gender", "Gender"],
  ["age", "Age"],
  ["occupation", "Occupation"],
  ["health status", "Health status"],
  ["family members", "Family members"],
  ["hobbies", "Hobbies"],
];
const TRAITS = ["openness", "conscientiousness", "extraversion", "agreeableness", "neuroticism"] as const;
const ASPECTS = ["work", "health", "family", "leisure"];
const LEVEL_BAR: Record<string, string> = { low: "bg-sky-500", medium: "bg-slate-500", high: "bg-amber-500" };
const LEVEL_STYLE: Record<string, string> = {
  low: "bg-sky-50 text-sky-800 ring-sky-200",
  medium: "bg-slate-100 text-slate-700 ring-slate-300",
  high: "bg-amber-50 text-amber-800 ring-amber-200",
};

/** Any published value readably: strings as they are, lists as lines, objects as key: value lines. */
export function Value({ v }: { v: unknown }) {
  if (v == null || v === "") return <span className="text-slate-500">–</span>;
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return <>{String(v)}</>;
  if (Array.isArray(v)) {
    return (
      <ul className="list-disc space-y-0.5 pl-4">
        {v.map((x, i) => (
          <li key={i}>
            <Value v={x} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <dl className="space-y-0.5">
      {Object.entries(v as Record<string, unknown>).map(([k, x]) =>
        x !== null && typeof x === "object" ? (
          <div key={k}>
            <dt className="font-medium text-slate-600">{k}</dt>
            <dd className="border-l border-slate-200 pl-2">
              <Value v={x} />
            </dd>
          </div>
        ) : (
          <div key={k}>
            <dt className="inline font-medium text-slate-600">{k}: </dt>
            <dd className="inline">
              <Value v={x} />
            </dd>
          </div>
        ),
      )}
    </dl>
  );
}

/** The Big Five as a small labelled grid: trait, a three-step meter, and the level as a word (readable without colour). */
export function BigFive({ personality }: { personality: Record<string, unknown> }) {
  const keys = [
    ...TRAITS.filter((t) => t in personality),
    ...Object.keys(personality).filter((k) => !(TRAITS as readonly string[]).includes(k)),
  ];
  const steps = ["low", "medium", "high"];
  return (
    <dl data-testid="big-five" className="grid w-fit grid-cols-[max-content_max-content_max-content] items-center gap-x-3 gap-y-1 text-sm">
      {keys.map((k) => {
        const level = String(personality[k] ?? "");
        const n = steps.indexOf(level) + 1;
        return (
          <div key={k} className="contents" data-trait={k} data-level={level}>
            <dt className="capitalize text-slate-600">{k}</dt>
            <dd aria-hidden className="flex gap-0.5">
              {steps.map((st, i) => (
                <span key={st} className={`h-2 w-6 rounded-sm ${i < n ? (LEVEL_BAR[level] ?? "bg-slate-400") : "bg-slate-200"}`} />
              ))}
            </dd>
            <dd
              className={`rounded px-1.5 text-center text-xs font-semibold ring-1 ring-inset ${LEVEL_STYLE[level] ?? "bg-white text-slate-700 ring-slate-200"}`}
            >
              {level || "–"}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** A PAL-Set user's profile: background (per aspect of life), Big Five, requirement types with preferences. */
export function ProfileCard({
  background,
  requirementTypes,
}: {
  background: Record<string, unknown> | null;
  requirementTypes: ProfileRequirementType[];
}) {
  const bg = background ?? {};
  const known = new Set([...BACKGROUND_FIELDS.map(([k]) => k), "personality"]);
  const others = Object.keys(bg).filter((k) => !known.has(k));
  const personality =
    bg.personality && typeof bg.personality === "object" && !Array.isArray(bg.personality)
      ? (bg.personality as Record<string, unknown>)
      : null;
  const byAspect = new Map<string, ProfileRequirementType[]>();
  for (const r of requirementTypes) byAspect.set(r.aspect, [...(byAspect.get(r.aspect) ?? []), r]);
  const aspects = [...ASPECTS.filter((a) => byAspect.has(a)), ...[...byAspect.keys()].filter((a) => !ASPECTS.includes(a))];

  return (
    <section aria-labelledby="profile-title" data-testid="profile" className="rounded-lg border border-slate-200 bg-white">
      <header className="border-b border-slate-100 px-4 py-2">
        <h2 id="profile-title" className="text-sm font-semibold text-slate-800">
          Profile
        </h2>
      </header>
      <div className="space-y-4 px-4 py-3">
        {Object.keys(bg).length === 0 ? (
          <p className="text-sm text-slate-500">No background was imported for this user (background.json is optional).</p>
        ) : (
          <dl data-testid="background" className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            {[...BACKGROUND_FIELDS.filter(([k]) => k in bg), ...others.map((k) => [k, k] as [string, string])].map(([k, label]) => (
              <div
                key={k}
                className={(typeof bg[k] === "object" && bg[k] !== null) || String(bg[k] ?? "").length > 40 ? "sm:col-span-3" : ""}
              >
                <dt className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
                <dd className="leading-relaxed text-slate-800">
                  <Value v={bg[k]} />
                </dd>
              </div>
            ))}
          </dl>
        )}
        {personality ? (
          <div>
            <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-500">Personality (Big Five)</h3>
            <BigFive personality={personality} />
          </div>
        ) : null}
        <div>
          <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-500">Requirement types and preferences</h3>
          {aspects.length === 0 ? (
            <p className="text-sm text-slate-500">No requirement types were imported (requirement.json / preference.json are optional).</p>
          ) : (
            <div className="space-y-2" data-testid="requirement-types">
              {aspects.map((a) => (
                <details key={a} open={aspects.length <= 2} className="rounded-md border border-slate-200">
                  <summary className="cursor-pointer px-3 py-1.5 text-sm font-medium capitalize text-slate-800">
                    {a} <span className="font-normal normal-case text-slate-500">({byAspect.get(a)!.length})</span>
                  </summary>
                  <ul className="divide-y divide-slate-100 border-t border-slate-100">
                    {byAspect.get(a)!.map((r) => (
                      <li key={r.typeKey} id={`type-${r.typeKey}`} className="px-3 py-2 text-sm">
                        <p>
                          <code className="mr-1 rounded bg-slate-100 px-1 text-xs">{r.typeKey}</code>
                          {r.requirementType ?? <span className="text-slate-500">–</span>}
                        </p>
                        {r.preferencePos?.length || r.preferenceNeg?.length ? (
                          <dl className="mt-1 grid gap-2 text-xs sm:grid-cols-2">
                            <div>
                              <dt className="font-semibold text-emerald-800">✓ Prefers (pos)</dt>
                              <dd>
                                <ul className="list-disc pl-4 text-slate-700">
                                  {(r.preferencePos ?? []).map((p, i) => (
                                    <li key={i}>{p}</li>
                                  ))}
                                </ul>
                              </dd>
                            </div>
                            <div>
                              <dt className="font-semibold text-rose-800">✗ Dislikes (neg)</dt>
                              <dd>
                                <ul className="list-disc pl-4 text-slate-700">
                                  {(r.preferenceNeg ?? []).map((p, i) => (
                                    <li key={i}>{p}</li>
                                  ))}
                                </ul>
                              </dd>
                            </div>
                          </dl>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </details>
              ))}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
