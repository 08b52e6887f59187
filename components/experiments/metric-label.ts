/** The papers' metric names and legends, defined once in lib (the exports and Figure 4 use them too). */
export { itemMetricText, metricInfo, metricLabel, metricOrder } from "@/lib/experiments/metric-label";
