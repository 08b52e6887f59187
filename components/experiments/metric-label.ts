/** The papers' metric names, defined once in lib (the exports use them too). */
export { metricLabel } from "@/lib/experiments/metric-label";
