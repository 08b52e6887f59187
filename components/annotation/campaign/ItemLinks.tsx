import Link from "next/link";

/** Links to the items the judge and the annotators disagree on. */
export function ItemLinks({ campaignId, items }: { campaignId: number; items: Array<{ itemId: number; externalId: string }> }) {
  return items.map((x) => (
    <Link key={x.itemId} className="mr-1 text-indigo-700 hover:underline" href={`/campaigns/${campaignId}/items/${x.itemId}`}>
      {x.externalId}
    </Link>
  ));
}
