/** The campaign page's URL choices; `CampaignQuery` builds a link that changes some and keeps the rest. */
export type CampaignSearch = {
  variant?: string;
  humans?: string;
  items?: string;
  criterion?: string;
  itemsPage?: string;
  /** The judge disagreement list opened (lib/annotation/judge-item-lists.ts listKey), and its page. */
  list?: string;
  listPage?: string;
};
export type CampaignQuery = (change: CampaignSearch) => string;
