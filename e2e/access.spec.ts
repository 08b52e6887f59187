import { test, expect, allowConsoleErrors, pageStatus } from "./fixtures";
import fs from "node:fs";
import path from "node:path";
import { e2eState, login, account } from "./state";
import { apiAs } from "./api-client";

type Role = "admin" | "researcher" | "annotator";
const ALL: Role[] = ["admin", "researcher", "annotator"];

/**
 * Every route handler under app/api with the roles allowed per method. A route file missing here
 * fails the test, so a new handler cannot ship without its guard being checked.
 */
const API_TABLE: Record<string, { sample: string; methods: Partial<Record<"GET" | "POST" | "PATCH" | "PUT" | "DELETE", Role[]>> }> = {
  me: { sample: "/api/me", methods: { GET: ALL } },
  "admin/users": { sample: "/api/admin/users", methods: { GET: ["admin"], POST: ["admin"] } },
  "admin/users/[id]": { sample: "/api/admin/users/1", methods: { PATCH: ["admin"] } },
  "datasets/import": { sample: "/api/datasets/import", methods: { POST: ["admin", "researcher"] } },
  "datasets/[datasetId]/export": { sample: "/api/datasets/1/export", methods: { GET: ["admin", "researcher"] } },
  "datasets/[datasetId]/users": { sample: "/api/datasets/1/users", methods: { GET: ["admin", "researcher"] } },
  experiments: { sample: "/api/experiments", methods: { GET: ["admin", "researcher"], POST: ["admin", "researcher"] } },
  "experiments/[experimentId]": {
    sample: "/api/experiments/999999",
    methods: { GET: ["admin", "researcher"], POST: ["admin", "researcher"] },
  },
  "experiments/bundle": {
    sample: "/api/experiments/bundle",
    methods: { GET: ["admin", "researcher"], POST: ["admin", "researcher"], DELETE: ["admin", "researcher"] },
  },
  "experiments/[experimentId]/bundle": {
    sample: "/api/experiments/999999/bundle",
    methods: { GET: ["admin", "researcher"], POST: ["admin", "researcher"] },
  },
  "experiments/[experimentId]/verify": {
    sample: "/api/experiments/999999/verify",
    methods: { GET: ["admin", "researcher"], POST: ["admin", "researcher"], DELETE: ["admin", "researcher"] },
  },
  "experiments/[experimentId]/export": { sample: "/api/experiments/999999/export", methods: { GET: ["admin", "researcher"] } },
  "experiments/[experimentId]/paper-table": { sample: "/api/experiments/999999/paper-table", methods: { GET: ["admin", "researcher"] } },
  "experiments/tables": { sample: "/api/experiments/tables?ids=999998,999999", methods: { GET: ["admin", "researcher"] } },
  "experiments/[experimentId]/jobs/[jobId]": {
    sample: "/api/experiments/999999/jobs/1",
    methods: { GET: ["admin", "researcher"], PATCH: ["admin", "researcher"] },
  },
  "experiments/[experimentId]/items": { sample: "/api/experiments/999999/items", methods: { GET: ["admin", "researcher"] } },
  "experiments/[experimentId]/marks": { sample: "/api/experiments/999999/marks", methods: { POST: ["admin", "researcher"] } },
  "experiments/[experimentId]/marks/[markId]": { sample: "/api/experiments/999999/marks/1", methods: { DELETE: ["admin", "researcher"] } },
  "memory/builds": { sample: "/api/memory/builds", methods: { GET: ["admin", "researcher"], POST: ["admin", "researcher"] } },
  "memory/builds/[id]": { sample: "/api/memory/builds/999999", methods: { GET: ["admin", "researcher"] } },
  campaigns: { sample: "/api/campaigns", methods: { POST: ["admin", "researcher"] } },
  "campaigns/[campaignId]/export": { sample: "/api/campaigns/1/export", methods: { GET: ["admin", "researcher"] } },
  "campaigns/[campaignId]/judges": { sample: "/api/campaigns/1/judges", methods: { POST: ["admin", "researcher"] } },
  "campaigns/[campaignId]/llm-judge": {
    sample: "/api/campaigns/1/llm-judge",
    methods: {
      GET: ["admin", "researcher"],
      POST: ["admin", "researcher"],
      PATCH: ["admin", "researcher"],
      DELETE: ["admin", "researcher"],
    },
  },
  "assignments/[assignmentId]": { sample: "/api/assignments/1", methods: { GET: ALL, PATCH: ALL, POST: ALL } },
  // A participant's own (e2e/crowd.spec.ts); every staff role is refused.
  "join/[token]/next": { sample: "/api/join/no-such-token-000000/next", methods: { POST: [] } },
};
/** Public by design: next-auth's own sign-in, session and CSRF endpoints. */
const PUBLIC = new Set(["auth/[...nextauth]"]);

function routeFiles(): string[] {
  const root = path.resolve(import.meta.dirname, "..", "app", "api");
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^route\.(ts|tsx|js)$/.test(e.name)) out.push(path.relative(root, d).split(path.sep).join("/"));
    }
  };
  walk(root);
  return out.sort();
}

function exportedMethods(route: string): string[] {
  const src = fs.readFileSync(path.resolve(import.meta.dirname, "..", "app", "api", route, "route.ts"), "utf8");
  return [...src.matchAll(/export const (GET|POST|PATCH|PUT|DELETE)\b/g)].map((m) => m[1]).sort();
}

test("every API route handler is in the access table, with each exported method", () => {
  for (const r of routeFiles()) {
    if (PUBLIC.has(r)) continue;
    expect(API_TABLE, `app/api/${r}/route.ts has no entry in the access table`).toHaveProperty([r]);
    expect(exportedMethods(r), `methods of app/api/${r}`).toEqual(Object.keys(API_TABLE[r].methods).sort());
  }
});

test("APIs answer 401 without a session and 403 for a role that may not use them", async () => {
  const anon = await apiAs(null);
  const as = Object.fromEntries(await Promise.all(ALL.map(async (r) => [r, await apiAs(account(r))] as const)));
  for (const [route, { sample, methods }] of Object.entries(API_TABLE)) {
    for (const [method, allowed] of Object.entries(methods)) {
      const call = (ctx: typeof anon) => ctx.fetch(sample, { method, data: method === "GET" ? undefined : {}, maxRedirects: 0 });
      expect((await call(anon)).status(), `${method} ${route} without a session`).toBe(401);
      for (const role of ALL) {
        const status = (await call(as[role])).status();
        if (allowed!.includes(role)) expect([401, 403], `${method} ${route} as ${role}`).not.toContain(status);
        else expect(status, `${method} ${route} as ${role}`).toBe(403);
      }
    }
  }
});

test("pages send a visitor without a session to the login page", async ({ page }) => {
  for (const p of ["/datasets", "/admin/users", "/annotate", "/experiments"]) {
    await page.goto(`${e2eState().baseURL}${p}`);
    await expect(page).toHaveURL(/\/login/);
  }
});

test("an annotator sees only Annotate and gets 403 for the admin, experiments and data pages", async ({ page }) => {
  allowConsoleErrors(pageStatus(403)); // the refused pages, on purpose
  await login(page, account("annotator"));
  await expect(page).toHaveURL(/\/annotate$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(["Annotate"]);
  for (const p of ["/admin/users", "/admin/models", "/memory", "/experiments", "/datasets", "/agreement", "/campaigns", "/campaigns/new"]) {
    const res = await page.goto(`${e2eState().baseURL}${p}`);
    expect(res?.status(), p).toBe(403);
    await expect(page.getByText("You do not have access to this page")).toBeVisible();
  }
});

test("a researcher reaches data and experiments but not user management", async ({ page }) => {
  allowConsoleErrors(pageStatus(403)); // Admin → Users, refused on purpose
  await login(page, account("researcher"));
  await expect(page).toHaveURL(/\/datasets$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(["Datasets", "Memory", "Experiments", "Campaigns", "Annotate", "Agreement"]);
  expect((await page.goto(`${e2eState().baseURL}/admin/users`))?.status()).toBe(403);
  expect((await page.goto(`${e2eState().baseURL}/experiments`))?.status()).toBe(200);
});

/**
 * Every page with the roles that may open it and a sample URL (ids of the demo data). A page file
 * missing here fails the test, and so does a page or server action whose source never calls
 * requireRole, so a new page cannot ship without its guard being checked.
 */
type Ids = { en: number; hc: number };
/**
 * "participant": a study link's pages (requireParticipant): no session → back to the link, every staff
 * role → 403; a participant's own access is checked in e2e/crowd.spec.ts.
 */
const PAGE_TABLE: Record<string, { roles: Role[] | "public" | "participant"; sample: (ids: Ids) => string; status?: number }> = {
  login: { roles: "public", sample: () => "/login" },
  join: { roles: "public", sample: () => "/join" },
  "join/[token]": { roles: "public", sample: () => "/join/no-such-token-000000", status: 404 },
  // A one-time sign-in link (issue 44.7): public; an unknown token is a page saying the link is not valid.
  "signin-link/[token]": { roles: "public", sample: () => "/signin-link/no-such-token" },
  "join/[token]/work": { roles: "participant", sample: () => "/join/no-such-token-000000/work" },
  "join/[token]/done": { roles: "participant", sample: () => "/join/no-such-token-000000/done" },
  "(app)": { roles: ALL, sample: () => "/", status: 307 },
  "(app)/annotate": { roles: ALL, sample: () => "/annotate" },
  "(app)/annotate/[campaignId]": { roles: ALL, sample: () => "/annotate/999999", status: 404 },
  "(app)/campaigns": { roles: ["admin", "researcher"], sample: () => "/campaigns" },
  "(app)/campaigns/new": { roles: ["admin", "researcher"], sample: () => "/campaigns/new" },
  "(app)/campaigns/[campaignId]": { roles: ["admin", "researcher"], sample: () => "/campaigns/999999", status: 404 },
  "(app)/campaigns/[campaignId]/items/[itemId]": { roles: ["admin", "researcher"], sample: () => "/campaigns/999999/items/1", status: 404 },
  // The PI's adjudication queue and guideline versions (issue 43.4, 43.5): annotators and participants are refused.
  "(app)/campaigns/[campaignId]/adjudicate": { roles: ["admin", "researcher"], sample: () => "/campaigns/999999/adjudicate", status: 404 },
  "(app)/campaigns/[campaignId]/guidelines": { roles: ["admin", "researcher"], sample: () => "/campaigns/999999/guidelines", status: 404 },
  "(app)/experiments": { roles: ["admin", "researcher"], sample: () => "/experiments" },
  "(app)/experiments/protocol": { roles: ["admin", "researcher"], sample: () => "/experiments/protocol" },
  "(app)/experiments/tables": { roles: ["admin", "researcher"], sample: () => "/experiments/tables" },
  // No experiment exists in the e2e database: the allowed roles get the 404 page, the others 403.
  "(app)/experiments/[experimentId]": { roles: ["admin", "researcher"], sample: () => "/experiments/999999", status: 404 },
  "(app)/experiments/[experimentId]/jobs/[jobId]": {
    roles: ["admin", "researcher"],
    sample: () => "/experiments/999999/jobs/1",
    status: 404,
  },
  "(app)/experiments/[experimentId]/compare": {
    roles: ["admin", "researcher"],
    sample: () => "/experiments/999999/compare?task=dialogue&item=0000",
    status: 404,
  },
  "(app)/experiments/[experimentId]/figure": {
    roles: ["admin", "researcher"],
    sample: () => "/experiments/999999/figure?task=dialogue&item=0000",
    status: 404,
  },
  "(app)/experiments/[experimentId]/case-studies": {
    roles: ["admin", "researcher"],
    sample: () => "/experiments/999999/case-studies",
    status: 404,
  },
  "(app)/agreement": { roles: ["admin", "researcher"], sample: () => "/agreement" },
  "(app)/admin/users": { roles: ["admin"], sample: () => "/admin/users" },
  "(app)/admin/models": { roles: ["admin"], sample: () => "/admin/models" },
  "(app)/admin/settings": { roles: ["admin"], sample: () => "/admin/settings" },
  "(app)/admin/methods": { roles: ["admin"], sample: () => "/admin/methods" },
  "(app)/memory": { roles: ["admin", "researcher"], sample: () => "/memory" },
  "(app)/memory/[versionId]": { roles: ["admin", "researcher"], sample: () => "/memory/999999", status: 404 },
  "(app)/memory/calls": { roles: ["admin", "researcher"], sample: () => "/memory/calls?key=00", status: 404 },
  "(app)/datasets": { roles: ["admin", "researcher"], sample: () => "/datasets" },
  "(app)/datasets/import": { roles: ["admin", "researcher"], sample: () => "/datasets/import" },
  "(app)/datasets/[datasetId]": { roles: ["admin", "researcher"], sample: (i) => `/datasets/${i.en}` },
  "(app)/datasets/[datasetId]/qa": { roles: ["admin", "researcher"], sample: (i) => `/datasets/${i.hc}/qa` },
  "(app)/datasets/[datasetId]/users/[userKey]": { roles: ["admin", "researcher"], sample: (i) => `/datasets/${i.en}/users/0000` },
  "(app)/datasets/[datasetId]/users/[userKey]/sessions/[sampleKey]": {
    roles: ["admin", "researcher"],
    sample: (i) => `/datasets/${i.en}/users/0000/sessions/0000_sample1`,
  },
  "(app)/datasets/[datasetId]/users/[userKey]/sessions/[sampleKey]/topics/[topicKey]": {
    roles: ["admin", "researcher"],
    sample: (i) => `/datasets/${i.en}/users/0000/sessions/0000_sample1/topics/topic-1`,
  },
};

function appFiles(name: RegExp): string[] {
  const root = path.resolve(import.meta.dirname, "..", "app");
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (name.test(e.name)) out.push(path.relative(root, p).split(path.sep).join("/"));
    }
  };
  walk(root);
  return out.sort();
}

test("every page is in the page access table and every guarded page and server action calls requireRole", () => {
  const root = path.resolve(import.meta.dirname, "..", "app");
  for (const file of appFiles(/^page\.tsx$/)) {
    const key = path.dirname(file);
    expect(PAGE_TABLE, `app/${file} has no entry in the page access table`).toHaveProperty([key]);
    const roles = PAGE_TABLE[key].roles;
    if (roles === "participant") expect(fs.readFileSync(path.join(root, file), "utf8"), `app/${file}`).toContain("requireParticipant(");
    else if (roles !== "public") expect(fs.readFileSync(path.join(root, file), "utf8"), `app/${file}`).toContain("requireRole(");
  }
  for (const file of appFiles(/\.(ts|tsx)$/)) {
    const src = fs.readFileSync(path.join(root, file), "utf8");
    if (!/^["']use server["']/m.test(src)) continue;
    const bodies = src.split(/export async function /).slice(1);
    expect(bodies.length, `app/${file} exports server actions`).toBeGreaterThan(0);
    // runAction (lib/auth/action.ts) calls requireRole before the action's body.
    for (const b of bodies)
      expect(b.split(/\nexport /)[0], `server action ${b.slice(0, 30)} in app/${file}`).toMatch(/requireRole\(|runAction\(\[/);
  }
});

test("pages: no session → /login; a role outside the table → 403; a role inside → the page", async () => {
  const s = e2eState();
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(s.dbPath, { readonly: true });
  const id = (name: string) => (db.prepare("select id from datasets where name = ?").get(name) as { id: number }).id;
  const ids = { en: id("PAL-Set demo (en)"), hc: id("HiCUPID demo") };
  db.close();
  const anon = await apiAs(null);
  const as = Object.fromEntries(await Promise.all(ALL.map(async (r) => [r, await apiAs(account(r))] as const)));
  for (const [key, { roles, sample, status = 200 }] of Object.entries(PAGE_TABLE)) {
    const url = sample(ids);
    const a = await anon.get(url, { maxRedirects: 0 });
    if (roles === "public") expect(a.status(), `${url} without a session`).toBe(status);
    else if (roles === "participant") {
      expect(a.status(), `${url} (${key}) without a session`).toBe(307);
      expect(a.headers()["location"], `${url} without a session`).toMatch(/\/join\/no-such-token/);
      for (const role of ALL) expect((await as[role].get(url, { maxRedirects: 0 })).status(), `${url} as ${role}`).toBe(403);
      continue;
    } else {
      expect(a.status(), `${url} (${key}) without a session`).toBe(307);
      expect(a.headers()["location"], `${url} without a session`).toMatch(/\/login/);
    }
    if (roles === "public") continue;
    for (const role of ALL) {
      const r = await as[role].get(url, { maxRedirects: 0 });
      expect(r.status(), `${url} as ${role}`).toBe(roles.includes(role) ? status : 403);
    }
  }
});

test("a URL with a broken percent-escape is a 400, not a server error", async () => {
  const anon = await apiAs(null);
  for (const url of ["/datasets/1/users/%E0%A4%A", "/api/admin/users/%E0%A4%A", "/api/me%"]) {
    const r = await anon.get(url, { maxRedirects: 0 });
    expect(r.status(), url).toBe(400);
  }
});
