/** The campaign's guidelines, folded. */
import { Guidelines } from "@/components/annotation/Guidelines";

export function CampaignGuidelines({ text }: { text: string | null }) {
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4">
      <summary className="cursor-pointer text-sm font-medium">Guidelines</summary>
      <div className="mt-2">
        <Guidelines text={text ?? ""} />
      </div>
    </details>
  );
}
