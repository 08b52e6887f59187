import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { LIMIT_CEILINGS, LIMIT_DEFAULTS, LIMIT_LABELS, getExperimentLimits } from "@/lib/experiments/limits";
import { PageHeader } from "@/components/shell/PageHeader";
import { LimitsForm } from "@/components/admin/LimitsForm";
import { WorkersForm } from "@/components/admin/WorkersForm";
import { getServerWorkers, maxServerWorkers } from "@/lib/experiments/worker-count";
import { serverWorkerJoined } from "@/lib/experiments/server-worker";
import { saveLimitsAction, saveWorkersAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  await requireRole("admin");
  return (
    <>
      <PageHeader
        title="Settings"
        subtitle="Limits on what one experiment launch may create and how often a user may launch, and how many processes run a launched experiment. The defaults fit the papers' full runs; raise them for larger studies."
      />
      <LimitsForm
        limits={getExperimentLimits(getDb())}
        defaults={LIMIT_DEFAULTS}
        ceilings={LIMIT_CEILINGS}
        labels={LIMIT_LABELS}
        action={saveLimitsAction}
      />
      <div className="mt-6">
        <WorkersForm workers={getServerWorkers(getDb())} max={maxServerWorkers()} now={serverWorkerJoined()} action={saveWorkersAction} />
      </div>
    </>
  );
}
