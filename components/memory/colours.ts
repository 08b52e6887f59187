/** One colour per log-graph component (= situation), shared by the graph and the situation list. */
const COLOURS = ["#4f46e5", "#059669", "#d97706", "#db2777", "#0891b2", "#7c3aed", "#65a30d", "#dc2626", "#0d9488", "#9333ea"];
export const componentColour = (i: number) => COLOURS[i % COLOURS.length];
