"use client";
import Form from "next/form";

/**
 * The QA browser's filters as a GET form (works without JavaScript); with it, a changed select
 * applies at once. The server reads the same params and filters in SQL.
 */
export function QaFilters({
  action,
  types,
  splits,
  value,
}: {
  action: string;
  types: Array<{ value: string; count: number }>;
  splits: Array<{ value: string; count: number }>;
  value: { type: string; split: string; user: string };
}) {
  const submit = (e: React.ChangeEvent<HTMLSelectElement>) => e.currentTarget.form?.requestSubmit();
  const select = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";
  return (
    <Form
      action={action}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2"
      aria-label="Filter QA items"
    >
      <label className="text-xs text-slate-600">
        Type
        <select
          name="type"
          aria-label="Filter by type"
          defaultValue={value.type}
          onChange={submit}
          className={`ml-1 ${select}`}
          key={`t-${value.type}`}
        >
          <option value="">all types</option>
          {types.map((t) => (
            <option key={t.value} value={t.value}>
              {t.value} ({t.count})
            </option>
          ))}
        </select>
      </label>
      <label className="text-xs text-slate-600">
        Split
        <select
          name="split"
          aria-label="Filter by split"
          defaultValue={value.split}
          onChange={submit}
          className={`ml-1 ${select}`}
          key={`s-${value.split}`}
        >
          <option value="">all splits</option>
          {splits.map((s) => (
            <option key={s.value} value={s.value}>
              {s.value} ({s.count})
            </option>
          ))}
        </select>
      </label>
      <label className="text-xs text-slate-600">
        User
        <input
          name="user"
          aria-label="Filter by user"
          defaultValue={value.user}
          key={`u-${value.user}`}
          placeholder="any user"
          className="ml-1 w-28 rounded border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <button type="submit" className="rounded bg-slate-800 px-3 py-1 text-sm font-medium text-white hover:bg-slate-900">
        Apply
      </button>
    </Form>
  );
}
