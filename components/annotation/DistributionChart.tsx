"use client";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";

const COLORS = ["#6366f1", "#f59e0b", "#10b981", "#ef4444", "#0ea5e9", "#a855f7"];

/** Label counts per category, one bar series per annotator. */
export function DistributionChart({ categories, perRater }: { categories: string[]; perRater: Record<string, Record<string, number>> }) {
  const raters = Object.keys(perRater);
  const data = categories.map((c) => ({ category: c, ...Object.fromEntries(raters.map((r) => [r, perRater[r][c] ?? 0])) }));
  return (
    <BarChart width={420} height={200} data={data}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="category" fontSize={11} />
      <YAxis allowDecimals={false} fontSize={11} />
      <Tooltip />
      <Legend wrapperStyle={{ fontSize: 11 }} />
      {raters.map((r, i) => (
        <Bar key={r} dataKey={r} fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
      ))}
    </BarChart>
  );
}
