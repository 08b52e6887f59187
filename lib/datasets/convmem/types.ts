/**
 * What the LoCoMo and LongMemEval readers hand to the one writer (./write.ts): threads (a memory
 * timeline each), the distinct sessions they refer to, and the QA items. Checked before anything is written.
 */
export type TurnIn = {
  speaker: string;
  text: string;
  diaId?: string | null;
  hasAnswer?: boolean | null;
  extra?: Record<string, unknown> | null;
};

export type SessionIn = { key: string; hash: string; turns: TurnIn[] };

export type TimelineIn = { session: number; label: string; date: string | null };

export type ThreadIn = {
  key: string;
  speakerA?: string | null;
  speakerB?: string | null;
  timeline: TimelineIn[];
  extra?: Record<string, unknown> | null;
};

export type QaIn = {
  thread: number;
  itemKey: string;
  question: string;
  answer: string;
  category?: number | null;
  questionType?: string | null;
  evidence: string[];
  adversarialAnswer?: string | null;
  questionDate?: string | null;
  extra?: Record<string, unknown> | null;
};

export type ConvData = { threads: ThreadIn[]; sessions: SessionIn[]; qa: QaIn[] };
