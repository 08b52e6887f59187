/**
 * Every environment variable PAL Studio reads, with its default and what it does: the one list
 * (docs/configuration.md is written from it, and a test keeps the two in step). Code reads the
 * environment only through the helpers below, at call time, so tests can set a variable per case.
 * A few readers cannot import TypeScript (bin/pal.mjs, scripts/*.sh): they are listed here too.
 */

export type EnvVar = {
  /** The name; `<ROLE>` stands for ASSISTANT, USER_SIMULATOR, JUDGE or EMBEDDING. */
  name: string;
  /** The value used when the variable is unset ("" = none). */
  default: string;
  description: string;
};

export const ENV_VARS = [
  // Storage and process
  { name: "PAL_DB", default: "data/pal.db", description: "The SQLite database file (relative to the project root)." },
  {
    name: "PAL_ROOT",
    default: "the current directory",
    description: "The project root; bin/pal.mjs sets it so `pal` works from any folder.",
  },
  {
    name: "PAL_PRIVATE_DIR",
    default: "data/private",
    description: "Folder (0700) for the generated session-signing secrets; never the database's folder.",
  },
  {
    name: "PAL_SECRET_KEY",
    default: "",
    description: "Key that encrypts API keys saved in the app; unset: a key generated once into secret-key beside the database.",
  },
  {
    name: "PAL_TRUST_PROXY",
    default: "0",
    description: "1 or true: believe X-Forwarded-For / X-Forwarded-Host (only behind your own proxy).",
  },
  {
    name: "PAL_SERVER_WORKER",
    default: "1",
    description: "0: the web server does not start its experiments worker (jobs run from `pal run`).",
  },
  { name: "PAL_WORKER_CONCURRENCY", default: "8", description: "Jobs the server's experiments worker runs at once." },
  {
    name: "PAL_WORKERS",
    default: "1",
    description:
      "Processes `pal run` runs an experiment's jobs in (as --workers): they share its queue under the job leases, so a run uses more than one core.",
  },
  {
    name: "PAL_JOB_LEASE_MS",
    default: "60000",
    description:
      "How long a worker's claim on an experiment job lasts without renewal, in ms (renewed every third of it); a crashed worker's jobs are taken over after it.",
  },
  { name: "PAL_DEBUG", default: "", description: "Set: the CLI prints stack traces, and why the CLI bundle was not used." },
  { name: "PAL_SKIP_TYPECHECK", default: "0", description: "1: `next build` skips its type check (the test script has run tsc already)." },
  // Model endpoints
  { name: "OPENAI_BASE_URL", default: "", description: "Base URL of the OpenAI-compatible endpoint every role uses unless overridden." },
  { name: "OPENAI_API_KEY", default: "", description: "API key of that endpoint." },
  { name: "PAL_MODEL_<ROLE>", default: "", description: "Model name of a role; a role without one cannot be called." },
  { name: "PAL_<ROLE>_BASE_URL", default: "OPENAI_BASE_URL", description: "Endpoint of one role." },
  { name: "PAL_<ROLE>_API_KEY", default: "OPENAI_API_KEY", description: "API key of one role's endpoint." },
  {
    name: "PAL_<ROLE>_JSON_MODE",
    default: "off",
    description:
      "off, json_object or json_schema (1/true: json_object): how calls that expect JSON ask this role's own endpoint for it (response_format); a 400 for it is detected once and the call steps down. A defined endpoint's mode wins.",
  },
  {
    name: "PAL_LLM_CONCURRENCY",
    default: "4",
    description: "Model requests in flight per role (per process); a defined endpoint's own limit wins and holds across processes.",
  },
  {
    name: "PAL_LLM_TIMEOUT_MS",
    default: "120000",
    description: "Timeout of one model request, in ms (a defined endpoint's own timeout wins).",
  },
  {
    name: "PAL_LLM_STREAM",
    default: "1",
    description:
      "Stream chat replies (0: never): a reply that keeps arriving is not cut by the request timeout, and a reply cut midway records the tokens it streamed. An endpoint that refuses streaming is asked without it.",
  },
  {
    name: "PAL_LLM_STREAM_IDLE_MS",
    default: "PAL_LLM_TIMEOUT_MS",
    description: "Longest pause between two chunks of a streamed reply, in ms.",
  },
  {
    name: "PAL_BUILD_COMMIT",
    default: "the checkout's commit",
    description: "The git commit a run record names as the project's version (set by the build; else read from the checkout).",
  },
  {
    name: "PAL_LLM_STREAM_MIN_TOKENS",
    default: "4096",
    description:
      "Stream only requests whose output budget is at least this many tokens (streaming costs about twice the CPU of a whole reply; shorter replies come within the request timeout).",
  },
  {
    name: "PAL_BUNDLE_MAX_BYTES",
    default: "2147483648",
    description:
      "Largest bundle a `pal bundle import`/`verify`/`card` reads, in bytes, once unpacked (a .gz bundle is refused as soon as its unpacked bytes pass it).",
  },
  {
    name: "PAL_BUNDLE_TIMEOUT_S",
    default: "1800",
    description: "Longest a web import of a bundle may run, in seconds; past it the import process is stopped and nothing is written.",
  },
  { name: "PAL_LOAD_SECONDS", default: "60", description: "Length of the load benchmark (npm run bench load), in seconds." },
  { name: "PAL_CROWD_PARTICIPANTS", default: "300", description: "Participants of the crowd benchmark (npm run bench crowd)." },
  { name: "PAL_CROWD_ITEMS", default: "5", description: "Items each participant labels in the crowd benchmark." },
  { name: "PAL_BATCH_POLL_MS", default: "30000", description: "How often the server polls a judge run's batch (Batch API), in ms." },
  {
    name: "PAL_METHOD_ENDPOINT",
    default: "http://127.0.0.1:<a free port>",
    description:
      "Where the run's model endpoint for external methods listens, as the method reaches it (e.g. http://10.0.0.5:3169 for a method on another machine); still behind each request's own key.",
  },
  {
    name: "PAL_LLM_RETRIES",
    default: "6",
    description: "Retries of a model request after a transient failure (429, 5xx, timeout, dropped connection).",
  },
  {
    name: "PAL_CONNECTION_FAILURES",
    default: "5",
    description: "A run (experiment, judge, memory build) pauses after this many attempts in a row that could not reach the endpoint.",
  },
  // Web sign-in (next-auth)
  {
    name: "NEXTAUTH_URL",
    default: "http://localhost:$PORT",
    description: "The app's public URL (https behind a proxy); `npm start` sets it when unset.",
  },
  { name: "NEXTAUTH_SECRET", default: "", description: "Session-signing secret; unset: one generated per database in PAL_PRIVATE_DIR." },
  { name: "PORT", default: "3000", description: "Port `npm start` serves on." },
  // Benchmarks
  { name: "PAL_BENCH_RUNS", default: "3", description: "Runs of the PAL-Set import benchmark." },
  { name: "PAL_BENCH_FILE", default: "", description: "A generated PAL-Set file the import benchmark reuses instead of making one." },
  {
    name: "PAL_BENCH_SCALE",
    default: "1",
    description: "Share of the Mem-PAL preset's 5-user size the bundle benchmark seeds (0.2: one user's).",
  },
  {
    name: "PAL_BENCH_SHAPES",
    default: "locomo,s,m",
    description: "Which generated shapes the benchmarks-import benchmark runs (comma-separated).",
  },
] as const satisfies readonly EnvVar[];

type Listed = (typeof ENV_VARS)[number]["name"];
/** The names that are read as they are (the `<ROLE>` patterns go through roleEnv). */
export type EnvName = Exclude<Listed, `${string}<ROLE>${string}`>;

/** The environment a reader looks at: the process's, or a test's own. */
export type Env = Record<string, string | undefined>;

/** The variable's value, or undefined when unset or empty. */
export function envValue(name: EnvName, env: Env = process.env): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

/** A non-negative number, or `dflt` when unset or not a number. */
export function envNumber(name: EnvName, dflt: number, env: Env = process.env): number {
  const v = Number(envValue(name, env));
  return Number.isFinite(v) && v >= 0 && envValue(name, env) !== undefined ? v : dflt;
}

/** Whether a switch is on ("1" or "true"). */
export function envFlag(name: EnvName, env: Env = process.env): boolean {
  const v = envValue(name, env);
  return v === "1" || v === "true";
}

/**
 * A variable whose name the user gives (`pal models add --key-env OPENROUTER_KEY`): its value, or
 * undefined when unset or empty. The name is data, so it is not listed in ENV_VARS.
 */
export function envNamed(name: string, env: Env = process.env): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

/** A per-role variable: PAL_MODEL_<ROLE>, PAL_<ROLE>_BASE_URL or PAL_<ROLE>_API_KEY, with ROLE upper-cased (USER_SIMULATOR). */
export function roleEnv(role: string, what: "MODEL" | "BASE_URL" | "API_KEY" | "JSON_MODE", env: Env = process.env): string | undefined {
  const r = role.toUpperCase().replace(/-/g, "_");
  const v = env[what === "MODEL" ? `PAL_MODEL_${r}` : `PAL_${r}_${what}`];
  return v === undefined || v === "" ? undefined : v;
}
