/**
 * Asking the model, once the cache could not answer: rounds of one request each (a round's transport
 * retries inside it), until a reply is accepted or the regenerations are spent. Each round shapes the
 * request (JSON mode, output budget: step-down.ts, request.ts), waits for a slot (slot.ts), sends it
 * with retries (tries.ts, transport.ts), reads the reply (reply.ts) and checks it: accepted, its row and
 * cache entry commit together (ledger-write.ts); rejected, its row is written and the next round asks
 * again with the rejected reply and what was wrong with it, so a deterministic model does not repeat itself.
 */
import type OpenAI from "openai";
import type { z } from "zod";
import type { JsonMode } from "@/db/schema";
import type { Usage, View } from "./client-types";
import type { ChatMessage } from "./types";
import type { Core } from "./core";
import { correctionMessage } from "./correction";
import { ModelCallError } from "./errors";
import { notePaid } from "./hits";
import { checkReply } from "./json";
import { responseFormat } from "./json-mode";
import { sentParams, type LedgerRow } from "./ledger";
import { commitReply, recordRow } from "./ledger-write";
import { KEPT_AS_RETURNED, tokenParam } from "./max-tokens";
import { GroupCancelledError } from "./queue";
import { readReply, type Completion } from "./reply";
import { usageTokens } from "./usage-check";
import { budgetOf, type Call } from "./request";
import { describe, isDeterministic } from "./retry";
import { inSlot } from "./slot";
import { RunPausedError } from "./spend-guard";
import { budgetParamOf, firstJsonMode, noteStreamRefusal, refusalNote, refusalOf, stepDown, type Asked } from "./step-down";
import { retrying } from "./tries";
import { sendChat, streams } from "./transport";

/** What the rounds of one call share. */
type Rounds = {
  tries: { n: number };
  jsonMode: JsonMode;
  cutOffs: number;
  messages: ChatMessage[];
  lastRaw: string | null;
  lastError: string;
};

export type Asked1<T> = { value: T; text: string; usage: Usage };

/** One round's request, sent (with its retries) in a slot; the reply, the budget asked and the round's ledger fields. */
async function sendRound<T>(core: Core, view: View, call: Call<T>, s: Rounds) {
  const { o, cfg, params } = call;
  const format = responseFormat(s.jsonMode, o.schema as z.ZodType<unknown> | undefined, o.purpose);
  // The output budget: the role's own max_tokens, else the step's (max-tokens.ts); a reply cut off at it is invalid.
  const budget = budgetOf(core, call, tokenParam(params.max_tokens) ?? tokenParam(params.max_completion_tokens), s.cutOffs);
  const asked: Asked = { jsonMode: s.jsonMode, format: !!format, budgetParam: budgetParamOf(core, call), streamed: false };
  const { max_tokens: _mt, max_completion_tokens: _mct, ...rest } = params;
  void _mt;
  void _mct;
  // What this round's request carries, for every ledger row it leaves (the protocol audit reads them).
  const sentRow = { ...call.base, sent: sentParams({ ...rest, [asked.budgetParam]: budget }, format ? s.jsonMode : "off") };
  const messages = s.messages;
  const body = { model: cfg.model, messages, ...rest, [asked.budgetParam]: budget, ...(format ? { response_format: format } : {}) };
  let started = Date.now();
  // The slot is held for the request (with its transport retries) only: checking the reply and committing it
  // need no place at the endpoint, and at many calls in flight holding it through the commit's turn costs rate.
  const reply = await inSlot(
    core,
    view,
    call.role,
    cfg,
    () => {
      started = Date.now(); // the latency of the request, not of the wait for a slot
      return retrying<Completion>(
        core,
        view,
        (live) => {
          asked.streamed = streams(core, call.endpointKey, budget);
          return sendChat(
            core,
            cfg,
            call.endpointKey,
            body as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
            budget,
            live,
          );
        },
        {
          row: sentRow,
          tries: s.tries,
          handled: (e) => {
            const kind = refusalOf(e, asked);
            if (kind === null) return null;
            noteStreamRefusal(core, call, kind);
            return refusalNote(call, kind, e, asked);
          },
          limits: cfg.endpoint,
          // Counts that are not believable add nothing to the tokens-per-minute window (usage-check.ts).
          tokensOf: (r) => usageTokens(r.rawUsage),
        },
      );
    },
    call.cacheKey,
  ).catch((e: unknown) => ({ failed: e, asked }));
  return { reply, budget, sentRow, started };
}

/** The round's reply checked: accepted (committed) or recorded as rejected, the next round's messages set. */
async function settleRound<T>(
  core: Core,
  view: View,
  call: Call<T>,
  s: Rounds,
  round: number,
  sent: Awaited<ReturnType<typeof sendRound<T>>>,
) {
  const { o } = call;
  const reply = readReply(core, call.endpointKey, sent.reply as Completion, sent.budget, s.messages);
  // A cut-off reply is re-asked with a larger budget, unless the run keeps it as returned (then only its check decides).
  const reask = reply.cutOff !== null && !call.keepCutOff;
  if (reask) s.cutOffs++;
  const checked = reask ? { ok: false as const, error: reply.cutOff! } : checkReply(reply.answer, o);
  const attempt = ++s.tries.n;
  const latencyMs = Date.now() - sent.started;
  const { usage, servedModel, rawReply } = reply;
  const unknown = reply.usageFlags;
  if (checked.ok) {
    const row: LedgerRow = {
      ...sent.sentRow,
      cacheHit: false,
      attempt,
      status: "ok",
      ...(reply.cutOff ? { error: KEPT_AS_RETURNED } : {}),
      latencyMs,
      rawReply,
      servedModel,
      ...usage,
      ...unknown,
    };
    const request = { messages: o.messages, params: call.params, replicate: call.replicate };
    await commitReply(core, view, row, {
      key: call.cacheKey,
      endpoint: call.cfg.baseURL,
      model: call.cfg.model,
      request,
      response: reply.answer,
      usage,
    });
    notePaid(core, view, call.cacheKey);
    return { value: checked.value, text: reply.answer, usage };
  }
  s.lastRaw = reply.answer;
  s.lastError = checked.error;
  const status = round === core.opts.regenerations ? "failed" : "invalid";
  recordRow(core, view, {
    ...sent.sentRow,
    servedModel,
    cacheHit: false,
    attempt,
    status,
    // A cut-off reply kept as returned that then fails its check is still counted as cut off (ledger sums, caps).
    error: reply.cutOff && !reask ? `${reply.cutOff}, kept as returned: ${checked.error}` : checked.error,
    rawReply: rawReply ?? reply.answer,
    latencyMs,
    ...usage,
    ...unknown,
  });
  s.messages = [
    ...o.messages,
    { role: "assistant", content: reply.answer },
    { role: "user", content: correctionMessage(checked.error, o.language, !!o.schema) },
  ];
  return null;
}

/** Asks until a reply is accepted; throws ModelCallError (already recorded) when none is. */
export async function askModel<T>(core: Core, view: View, call: Call<T>): Promise<Asked1<T>> {
  const { o } = call;
  const s: Rounds = {
    tries: { n: 0 },
    jsonMode: firstJsonMode(core, call),
    cutOffs: 0,
    messages: o.messages,
    lastRaw: null,
    lastError: "",
  };
  for (let round = 0; round <= core.opts.regenerations; round++) {
    const sent = await sendRound(core, view, call, s);
    if ("failed" in sent.reply) {
      const e = sent.reply.failed;
      if (e instanceof RunPausedError || e instanceof GroupCancelledError) throw e; // nothing was sent
      const kind = refusalOf(e, sent.reply.asked);
      if (kind !== null) {
        s.jsonMode = stepDown(core, call, kind, e, sent.reply.asked);
        round--;
        continue;
      }
      core.stats.failed++;
      throw new ModelCallError(
        `${o.purpose}: the model endpoint failed (${describe(e)})`,
        o.purpose,
        s.lastRaw,
        "transport",
        isDeterministic(e),
      );
    }
    const accepted = await settleRound(core, view, call, s, round, sent);
    if (accepted) return accepted as Asked1<T>;
  }
  core.stats.failed++;
  throw new ModelCallError(
    `${o.purpose}: no valid reply after ${core.opts.regenerations + 1} tries (${s.lastError})`,
    o.purpose,
    s.lastRaw,
    "invalid",
  );
}
