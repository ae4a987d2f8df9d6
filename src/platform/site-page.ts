import type { Queryable } from './db/db.ts';
import type { Organization } from './tenancy.ts';
import { slot } from './hooks.ts';

/**
 * A page shown to the public at an organization's address (a form, the contract signing page) inside the public
 * website's own layout: the header with the organization's name, logo and colours, the footer and the same stylesheet
 * as the animal pages. The public website provides it; the areas that serve such pages use it, so none of them
 * imports the public website (which already reads from them).
 */
export interface SitePageContent {
  /** The page's own title; the organization's name is added after it. */
  title: string;
  /** One sentence for search engines and link previews. */
  description: string;
  /** The page's full address (its canonical link). */
  canonical: string;
  /** The page's markup, every value in it already escaped: the layout inserts it as it is. */
  body: string;
}
export type SitePage = (q: Queryable, org: Organization, page: SitePageContent) => Promise<string>;
export const sitePage = slot<SitePage>('site.page');
