"use client";

/**
 * One session's log graph (H2Memory M_G) drawn with React Flow: nodes are the session's logs, edges
 * the caused_by (solid) and follows (dashed) relations, and each connected component — one
 * situation — gets its own colour and column, so a reader sees at once which logs made which
 * situation.
 */
import "@xyflow/react/dist/style.css";
import { Background, Controls, MarkerType, ReactFlow, type Edge, type Node } from "@xyflow/react";

export type GraphLog = { id: string; timestamp: string; content: string };
export type GraphEdge = { from: string; to: string; type: "caused_by" | "follows" };

import { componentColour } from "./colours";

// Wide enough for a log line at a readable size; the view fits the whole graph and zooms from there.
const COL_W = 280;
const ROW_H = 110;

export function LogGraphView({ logs, edges, components }: { logs: GraphLog[]; edges: GraphEdge[]; components: string[][] }) {
  const byId = new Map(logs.map((l) => [l.id, l]));
  const nodes: Node[] = components.flatMap((ids, c) =>
    ids.map((id, row) => {
      const l = byId.get(id);
      return {
        id,
        position: { x: c * COL_W, y: row * ROW_H },
        data: {
          label: (
            <div className="text-left" title={l?.content}>
              <div className="text-[11px] text-slate-500">
                {id} · {l?.timestamp}
              </div>
              <div className="line-clamp-3 text-[13px] leading-snug">{l?.content}</div>
            </div>
          ),
        },
        style: { width: COL_W - 30, borderColor: componentColour(c), borderWidth: 2, padding: 6 },
        draggable: true,
      };
    }),
  );
  const flowEdges: Edge[] = edges.map((e, i) => ({
    id: `e${i}`,
    source: e.from,
    target: e.to,
    label: e.type,
    labelStyle: { fontSize: 9 },
    animated: false,
    markerEnd: { type: MarkerType.ArrowClosed },
    style: e.type === "caused_by" ? { stroke: "#be123c", strokeWidth: 1.6 } : { stroke: "#2563eb", strokeDasharray: "5 4" },
  }));
  const height = Math.max(320, Math.min(720, Math.max(1, ...components.map((c) => c.length)) * ROW_H + 80));
  return (
    <div data-testid="log-graph" className="rounded border border-slate-200 bg-white" style={{ height }}>
      <ReactFlow
        nodes={nodes}
        edges={flowEdges}
        fitView
        // Fit the whole graph, but never shrink the text below ~60%: a bigger graph is panned, not squeezed.
        fitViewOptions={{ padding: 0.12, minZoom: 0.6, maxZoom: 1.2 }}
        minZoom={0.3}
        maxZoom={2.5}
        proOptions={{ hideAttribution: true }}
        nodesConnectable={false}
      >
        <Background gap={16} />
        <Controls showInteractive={false} fitViewOptions={{ padding: 0.12 }} />
      </ReactFlow>
      <div className="sr-only">
        {logs.length} logs, {edges.length} edges, {components.length} components
      </div>
    </div>
  );
}
