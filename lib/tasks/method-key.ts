/** How a run names one of its methods: its label when it has one (two variants of a method side by side), else its name. */
export function methodKey(m: { name: string; label?: string }): string {
  return m.label ?? m.name;
}
