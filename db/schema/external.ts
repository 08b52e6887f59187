import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";

/**
 * External memory methods (issue 41): a lab's method served over HTTP (lib/assistants/external). The
 * name is what configs and `pal run --method` use; the headers (e.g. the service's own API key) are
 * secrets, stored encrypted like model_settings.api_key_enc (lib/llm/secrets.ts).
 */
export const externalMethods = sqliteTable("external_methods", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  label: text("label").notNull(),
  url: text("url").notNull(),
  /** JSON object of header name -> value, encrypted (encryptSecret); null when none. */
  headersEnc: text("headers_enc"),
  /** Response time limit per request, in ms. */
  timeoutMs: integer("timeout_ms").notNull().default(120000),
  createdAt: createdAt(),
});
