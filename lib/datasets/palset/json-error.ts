/**
 * Where a JSON text goes wrong, for a one-line message with line and column. V8's own messages
 * differ between Node versions and often carry no position (Node 20: `Unexpected token '}',
 * "...": is not valid JSON`), so on failure we scan the text ourselves. Only runs on bad input.
 */
export type JsonSyntaxError = { offset: number; line: number; column: number; reason: string };

export function findJsonError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (reason: string): never => {
    throw Object.assign(new Error(reason), { at: i });
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const what = () => (i >= text.length ? "end of file" : `${JSON.stringify(text[i])}`);
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) return void i++;
      if (c < 32) fail("control character in string");
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail("bad escape in string");
      } else i++;
    }
    fail("unterminated string");
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a property name, found ${what()}`);
        string();
        ws();
        if (text[i] !== ":") fail(`expected ':', found ${what()}`);
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return void i++;
        else fail(`expected ',' or '}', found ${what()}`);
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return void i++;
        else fail(`expected ',' or ']', found ${what()}`);
      }
    }
    if (c === '"') return string();
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (lit) return void (i += lit[0].length);
    fail(`unexpected ${what()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${what()} after the end of the JSON value`);
    return null;
  } catch (e) {
    const at = (e as { at: number }).at;
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    return { offset: at, line, column: at - before.lastIndexOf("\n"), reason: (e as Error).message };
  }
}
