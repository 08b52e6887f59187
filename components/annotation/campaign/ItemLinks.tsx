import Link from "next/link";

/** Links to the items the judge and the annotators disagree on, by their titles (the id on hover), one per line. */
export function ItemLinks({
  campaignId,
  items,
}: {
  campaignId: number;
  items: Array<{ itemId: number; externalId: string; title?: string }>;
}) {
  if (!items.length) return null;
  return (
    <ul className="space-y-0.5">
      {items.map((x) => (
        <li key={x.itemId}>
          <Link className="text-indigo-700 hover:underline" href={`/campaigns/${campaignId}/items/${x.itemId}`} title={x.externalId}>
            {x.title ?? x.externalId}
          </Link>
        </li>
      ))}
    </ul>
  );
}
