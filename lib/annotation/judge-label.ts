/**
 * A judge run as people read it: its name, and its model in parentheses unless the name already says it
 * (an LLM run is named "LLM <judge> (<model>, …)"; an imported one by whoever imported it).
 */
export function judgeRunLabel(run: { name: string; model: string | null }): string {
  return run.model && !run.name.toLowerCase().includes(run.model.toLowerCase()) ? `${run.name} (${run.model})` : run.name;
}
