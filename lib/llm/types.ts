/**
 * The model port's vocabulary, defined once: every prompt builder (methods, tasks, judges) returns
 * ChatMessage[] and every language-aware step speaks Lang.
 */

/** A chat message as every prompt builder returns it (the model client sends these as they are). */
export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/** A data set's language, and so the language a reply must be in. */
export type Lang = "zh" | "en";
