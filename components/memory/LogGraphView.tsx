"use client";

/**
 * One session's log graph (H2Memory M_G) drawn with React Flow: nodes are the session's logs, edges
 * the caused_by (solid) and follows (dashed) relations, and each connected component (one situation)
 * gets its own colour. Components are laid out in at most three columns, each log in full (no cropped
 * text) with its height estimated from its length, so the fitted view stays readable; zoom and pan
 * reach the rest. "List" shows the same nodes as text, each with its relations.
 */
import "@xyflow/react/dist/style.css";
import { useState } from "react";
import { Background, Controls, MarkerType, ReactFlow, type Edge, type Node } from "@xyflow/react";
import { componentColour } from "./colours";

export type GraphLog = { id: string; timestamp: string; content: string };
export type GraphEdge = { from: string; to: string; type: "caused_by" | "follows" };

const NODE_W = 280;
const COL_GAP = 40;
const ROW_GAP = 28;
const MAX_COLS = 3;
/** About 38 characters a line at 13 px in a 280 px node (CJK: half as many), plus the header line. */
const nodeHeight = (text: string) => {
  const wide = (text.match(/[\u2e80-\u9fff\uff00-\uffef]/g) ?? []).length;
  const lines = Math.ceil((text.length + wide) / 38) || 1;
  return 30 + lines * 18;
};

export function layoutLogGraph(logs: GraphLog[], components: string[][]): Map<string, { x: number; y: number; h: number; c: number }> {
  const byId = new Map(logs.map((l) => [l.id, l]));
  const cols = Math.min(MAX_COLS, Math.max(1, components.length));
  const bottom = new Array<number>(cols).fill(0);
  const at = new Map<string, { x: number; y: number; h: number; c: number }>();
  components.forEach((ids, c) => {
    // Each situation goes to the shortest column, top to bottom.
    const col = bottom.indexOf(Math.min(...bottom));
    let y = bottom[col];
    for (const id of ids) {
      const h = nodeHeight(byId.get(id)?.content ?? "");
      at.set(id, { x: col * (NODE_W + COL_GAP), y, h, c });
      y += h + ROW_GAP;
    }
    bottom[col] = y + ROW_GAP * 2;
  });
  return at;
}

function GraphCanvas({ logs, edges, components }: { logs: GraphLog[]; edges: GraphEdge[]; components: string[][] }) {
  const byId = new Map(logs.map((l) => [l.id, l]));
  const at = layoutLogGraph(logs, components);
  const nodes: Node[] = [...at].map(([id, p]) => {
    const l = byId.get(id);
    return {
      id,
      position: { x: p.x, y: p.y },
      data: {
        label: (
          <div className="text-left">
            <div className="text-[11px] text-slate-500">{l?.timestamp}</div>
            <div className="text-[13px] leading-snug">{l?.content}</div>
          </div>
        ),
      },
      style: { width: NODE_W, borderColor: componentColour(p.c), borderWidth: 2, padding: 6 },
      draggable: true,
    };
  });
  const flowEdges: Edge[] = edges.map((e, i) => ({
    id: `e${i}`,
    source: e.from,
    target: e.to,
    label: e.type === "caused_by" ? "caused by" : "follows",
    labelStyle: { fontSize: 10 },
    markerEnd: { type: MarkerType.ArrowClosed },
    style: e.type === "caused_by" ? { stroke: "#be123c", strokeWidth: 1.6 } : { stroke: "#2563eb", strokeDasharray: "5 4" },
  }));
  const tallest = Math.max(0, ...[...at.values()].map((p) => p.y + p.h));
  const height = Math.max(360, Math.min(760, tallest + 60));
  return (
    <div data-testid="log-graph" className="rounded border border-slate-200 bg-white" style={{ height }}>
      <ReactFlow
        nodes={nodes}
        edges={flowEdges}
        fitView
        // Fit the whole graph when its text stays readable (≥ 75%); a larger graph opens at its top, to pan.
        fitViewOptions={{ padding: 0.08, minZoom: 0.75, maxZoom: 1.1 }}
        minZoom={0.3}
        maxZoom={2.5}
        proOptions={{ hideAttribution: true }}
        nodesConnectable={false}
      >
        <Background gap={16} />
        <Controls showInteractive={false} fitViewOptions={{ padding: 0.08 }} />
      </ReactFlow>
    </div>
  );
}

function GraphList({ logs, edges, components }: { logs: GraphLog[]; edges: GraphEdge[]; components: string[][] }) {
  const byId = new Map(logs.map((l) => [l.id, l]));
  const short = (id: string) => {
    const l = byId.get(id);
    return l ? `${l.timestamp}: ${l.content.length > 60 ? `${l.content.slice(0, 59)}…` : l.content}` : id;
  };
  return (
    <ol className="space-y-3" data-testid="log-graph-list">
      {components.map((ids, c) => (
        <li key={c} className="rounded border-l-4 bg-white p-2" style={{ borderColor: componentColour(c) }}>
          <div className="mb-1 text-xs font-semibold text-slate-500">Situation {c + 1}</div>
          <ul className="space-y-1.5">
            {ids.map((id) => {
              const l = byId.get(id);
              const out = edges.filter((e) => e.from === id);
              return (
                <li key={id} className="text-sm">
                  <span className="text-xs text-slate-500">{l?.timestamp}</span> {l?.content}
                  {out.map((e, i) => (
                    <div key={i} className="ml-4 text-xs text-slate-600">
                      {e.type === "caused_by" ? "caused by" : "follows"} → {short(e.to)}
                    </div>
                  ))}
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ol>
  );
}

export function LogGraphView(props: { logs: GraphLog[]; edges: GraphEdge[]; components: string[][] }) {
  const [view, setView] = useState<"graph" | "list">("graph");
  const tab = (v: "graph" | "list", label: string) => (
    <button
      type="button"
      aria-pressed={view === v}
      onClick={() => setView(v)}
      className={`rounded px-2 py-0.5 text-xs ${view === v ? "bg-indigo-600 text-white" : "border border-slate-300 text-slate-700"}`}
    >
      {label}
    </button>
  );
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        {tab("graph", "Graph")}
        {tab("list", "List")}
        <span className="text-xs text-slate-500">
          {props.logs.length} logs, {props.edges.length} relations, {props.components.length} situations
          {view === "graph" ? " · scroll to zoom, drag to pan" : ""}
        </span>
      </div>
      {view === "graph" ? <GraphCanvas {...props} /> : <GraphList {...props} />}
    </div>
  );
}
