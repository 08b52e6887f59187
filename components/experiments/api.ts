import { fetchJson } from "@/lib/fetch-retry";

/**
 * JSON calls to the experiments API from the browser; an error reply becomes an Error with its message,
 * a network error one that says what failed (`what`), after retries when the request is safe to repeat.
 */
export async function postJson<T>(url: string, body: unknown, method = "POST", what = `send the request to ${url}`): Promise<T> {
  return fetchJson<T>(url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body), what });
}
